/* The collective sweep of a pipeline step, one way for every step that runs one: the
   collectives and the plan's groups of linkscope run, the all_reduce of health's probe
   (docs/run.md, docs/health.md). */
#ifndef LS_PIPELINE_SWEEP_STEP_H
#define LS_PIPELINE_SWEEP_STEP_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *collective;
    const int *gpus; /* CUDA device indices */
    int ngpus;
    uint64_t min_bytes, max_bytes;
    double step_factor;
    double timeout_s; /* the harness's watchdog */
    int annotate;     /* 1: the entry gains doc's links and transport findings first */
} ls_sweep_step_t;

/* Sweeps s as the steps do: 5 warm-up and 20 timed launches of each size, in place and
   out of place, float sum, results checked, one launching thread per GPU as frameworks
   drive them (docs/nccl.md); the entry (failed ones too) joins doc. 0 when its status
   is ok; -1 with why: what kept the sweep from starting, or the entry's error. */
int ls_sweep_step(json_t *doc, const ls_sweep_step_t *s, char *why, size_t len);

#endif
