/* The concurrency check of a P2P figure (issue 14): the same figure measured beside the
   other pairs of its round and alone. Written by the run pipeline into the entry's
   "concurrency_check" (docs/schema.md), read by the shared_path rule. */
#ifndef LS_MODEL_CONCURRENCY_H
#define LS_MODEL_CONCURRENCY_H

#include <jansson.h>

/* The smallest drop that counts, beside the spread (docs/schedule.md). */
#define LS_CONCURRENT_MIN_DROP 0.02

/* 1 when the concurrent figure is lower beyond the spread: every concurrent sample below
   every alone sample (conc_max < alone_min) and the medians at least
   LS_CONCURRENT_MIN_DROP apart (relative to alone). */
int ls_concurrent_lower(double conc_median, double conc_max, double alone_median, double alone_min);

/* {"concurrent": {value, min, max, pairs}, "alone": {value, min, max}, "lower": bool}
   from the two entries' stats; NULL when either has no stats. */
json_t *ls_concurrency_check(const json_t *concurrent, const json_t *alone);

#endif
