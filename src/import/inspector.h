/* Reads the NCCL Inspector profiler plugin's JSONL (one record per line: header {id,
   rank, n_ranks, nnodes}, metadata {hostname, pid}, coll_perf {coll, coll_msg_size_bytes,
   coll_exec_time_us, coll_algobw_gbs, coll_busbw_gbs, coll_algo, coll_proto}) into the
   document's top-level "inspector" list: one object per collective, size and rank count
   with the median of its records (docs/schema.md). */
#ifndef LS_IMPORT_INSPECTOR_H
#define LS_IMPORT_INSPECTOR_H

#include <jansson.h>
#include <stddef.h>

int ls_inspector_detect(const char *text);

/* The number of (collective, size, ranks) groups kept, or -1 with err. */
int ls_import_inspector(json_t *doc, const char *text, const char *name, char *err, size_t errlen);

#endif
