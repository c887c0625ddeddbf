/* Reads ncclras -f json (NCCL 2.28.7 on): the communicator dump and the monitoring mode's
   events (-m -f json), into the same top-level "nccl_ras" record the text gives
   (docs/schema.md), so that one set of rules reads both. */
#ifndef LS_IMPORT_NCCL_RAS_JSON_H
#define LS_IMPORT_NCCL_RAS_JSON_H

#include <jansson.h>
#include <stddef.h>

int ls_nccl_ras_json_detect(const char *text);

/* The number of communicators, problems and events kept, or -1 with err. */
int ls_import_nccl_ras_json(json_t *doc, const char *text, const char *name, char *err,
                            size_t errlen);

#endif
