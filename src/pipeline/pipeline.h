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
    double budget_s;       /* steps that would not fit are cut down, never dropped */
    int gpus[LS_MAX_GPUS]; /* the GPUs to use (checked to exist) */
    int ngpus;
    int no_nccl;           /* skip the collectives */
} ls_run_opts_t;

/* A new run document of this machine with every step's entries, its "run" object, its
   "findings" and "plan". NULL only when out of memory. */
json_t *ls_pipeline_run(const ls_run_opts_t *o);

#endif
