/* linkscope tp --measure: all_reduce run on the spot at exactly the sizes a tp estimate
   needs (docs/tp.md). */
#ifndef LS_PIPELINE_TP_MEASURE_H
#define LS_PIPELINE_TP_MEASURE_H

#include <jansson.h>

#include "analyze/tp.h"

/* all_reduce on gpus (bytes per element: 1 int8, 2 bfloat16, 4 float) at req's sizes,
   data checked, into src (a curve named "measured"); *entry_out keeps the nccl entry
   for -o/--into. 0, or LS_EXIT_NOGPU after one error line. */
int ls_tp_measure_source(const int *gpus, int ngpus, long bytes, const ls_tp_request_t *req,
                         ls_tp_source_t *src, json_t **entry_out);

#endif
