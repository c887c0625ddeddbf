/* tp's sources (docs/tp.md): where the all-reduce times of an estimate come from, a
   run document's nccl all_reduce entry or a --link formula, and the document entry that
   records an estimate. The --measure source runs NCCL and is the command's. */
#ifndef LS_ANALYZE_TP_SOURCES_H
#define LS_ANALYZE_TP_SOURCES_H

#include <jansson.h>
#include <stddef.h>

#include "tp.h"

#define LS_TP_MAX_GPUS 64

/* --run FILE [--gpus LIST] [--variant K=V] [--name NAME] */
typedef struct {
    const char *path, *variant, *name;
    int gpus[LS_TP_MAX_GPUS], ngpus;
} ls_tp_run_t;

/* "name=PCIe,bw=5.2,lat=22.1" (or rtt=44.2 for a round trip, used as lat = rtt/2); the
   source is named linkN without a name. 0, or -1 with err naming the spec. */
int ls_tp_source_from_link(const char *spec, int number, ls_tp_source_t *src, char *err,
                           size_t errlen);

/* The all_reduce entry of doc (read from r->path) that r selects, on tp ranks, as a
   curve; *skipped gets the rows left out (#wrong > 0 or no time). 0, or -1 with err
   naming the file. */
int ls_tp_source_from_run(const json_t *doc, const ls_tp_run_t *r, long tp, ls_tp_source_t *src,
                          int *skipped, char *err, size_t errlen);

/* The run document entry of an estimate (family "tp"), with the measured GPUs if any. */
json_t *ls_tp_doc_entry(const json_t *estimate, const char *model, long tp, const int *gpus,
                        int ngpus);

/* "0,1,3" into buf. */
void ls_tp_format_gpus(const int *gpus, int n, char *buf, size_t len);

#endif
