/* Reads perftest's text (linux-rdma/perftest: ib_write_bw, ib_read_bw, ib_send_bw,
   ib_write_lat, ib_read_lat, ib_send_lat ...): the test's title and settings block
   (device, link type, QPs, MTU) and its result table, one "net" entry per message size
   (docs/import.md, docs/schema.md). */
#ifndef LS_IMPORT_PERFTEST_H
#define LS_IMPORT_PERFTEST_H

#include <jansson.h>
#include <stddef.h>

int ls_perftest_detect(const char *text);

/* The number of entries added (one per result row), or -1 with err. */
int ls_import_perftest(json_t *doc, const char *text, const char *name, char *err, size_t errlen);

#endif
