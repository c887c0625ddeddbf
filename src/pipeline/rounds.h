/* The run's pair rounds (issue 14): the scheduler's rounds for the GPUs of the run, as
   the plain arrays measure takes, the check of the concurrency assumption on the
   machine, and the serial fall-back for a path class where it failed (docs/schedule.md
   "Checking the assumption"). */
#ifndef LS_PIPELINE_ROUNDS_H
#define LS_PIPELINE_ROUNDS_H

#include <jansson.h>

#include "analyze/schedule.h"
#include "measure/measure.h"

#define LS_RUN_MAX_PAIRS (LS_MAX_GPUS * (LS_MAX_GPUS - 1) / 2)

typedef struct {
    int have;           /* 0: no topology, every pair alone */
    ls_fabric_t fabric; /* over the run's GPUs (indices into gpus) */
    int nrounds;
    int round_start[LS_RUN_MAX_PAIRS + 1];
    int pair_a[LS_RUN_MAX_PAIRS], pair_b[LS_RUN_MAX_PAIRS];
    int serial_class[LS_LINK_SYS + 1]; /* 1: this link class is measured one pair at a time */
    int numa[LS_MAX_GPUS];             /* per run GPU: its NUMA node, -1 unknown */
} ls_run_rounds_t;

/* The rounds of the GPUs gpus[0..n) from doc's topology. 0, or -1 (no topology: have 0,
   every pair alone). */
int ls_run_rounds_init(ls_run_rounds_t *r, const json_t *doc, const int *gpus, int n);
void ls_run_rounds_free(ls_run_rounds_t *r);

/* Points o's round arrays at r (nrounds 0 when r has none). */
void ls_run_rounds_apply(const ls_run_rounds_t *r, ls_measure_opts_t *o);

/* Link class c (enum ls_link_type) measured one pair at a time from now on: its pairs
   leave their rounds for rounds of their own. 0, -1 out of memory. */
int ls_run_rounds_make_serial(ls_run_rounds_t *r, int c);

/* The check: one pair of each link class that ran beside others is measured again alone
   (copy engine, o's samples); each of its entries in doc gets "concurrency_check"
   (docs/schema.md). Where the concurrent figure is lower beyond the spread, every pair of
   that class is measured again one at a time, its entries replaced, and the class stays
   serial for the steps after. Returns the number of classes put back to serial. */
int ls_run_rounds_check(ls_run_rounds_t *r, json_t *doc, const ls_measure_opts_t *o);

#endif
