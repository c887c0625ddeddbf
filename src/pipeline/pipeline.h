/* The run pipeline (linkscope run): the steps that characterize a machine end to end,
   in the order they answer (docs/run.md), each timed and recorded in the document's
   "run" object (docs/schema.md): discovery, the pair rounds and the projection, P2P
   copy engine and its concurrency check, the collectives, HBM and host, SM-kernel and
   staged P2P, latency, (thorough) the fabric stress step, all_reduce on each group the
   plan proposes, then findings and plan. The command parses and writes;
   this part does the work. */
#ifndef LS_PIPELINE_PIPELINE_H
#define LS_PIPELINE_PIPELINE_H

#include <jansson.h>

#include "model/topo.h"

typedef struct {
    int thorough;          /* 0 quick, 1 thorough */
    double budget_s;       /* a hard cap: steps are cut down (never dropped) until the
                              projection fits; a run that cannot fit does not start */
    int gpus[LS_MAX_GPUS]; /* the GPUs to use (checked to exist) */
    int ngpus;
    int no_nccl; /* skip the collectives */
} ls_run_opts_t;

/* A new run document of this machine with every step's entries, its "run" object, its
   "findings" and "plan". NULL when out of memory, or with *refused 1 when even cut down
   the run's projection does not fit the budget (the line that says so printed, nothing
   measured). */
json_t *ls_pipeline_run(const ls_run_opts_t *o, int *refused);

#endif
