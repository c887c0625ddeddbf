/* The round timer (CUDA host code only): several groups of streams timed together
   behind one gate, so that their operations overlap (issue 14: a round of disjoint
   GPU pairs, every GPU's HBM at once, every GPU writing to every other). One gate kernel
   holds them all; each group's own begin and end events give its own time, so every
   pair of a round gets its own figure. Each group is seen by the enqueue functions as
   an ls_timer_t (its streams only), so the single-figure enqueue code serves both. */
#ifndef LS_MEASURE_RTIMER_H
#define LS_MEASURE_RTIMER_H

#include "harness.h"
#include "util/stop.h"

#define LS_RT_MAX_GROUPS 64

typedef struct {
    int ngroups;
    ls_timer_t view[LS_RT_MAX_GROUPS]; /* each group's streams (start, stop, ctl unused) */
    cudaEvent_t begin[LS_RT_MAX_GROUPS], end[LS_RT_MAX_GROUPS]; /* on each view's stream 0 */
    int gate_dev;
    cudaStream_t gate; /* carries the gate kernel and the start event */
    cudaEvent_t start;
    volatile int *ctl; /* host-mapped: [0] release, [1] gate timed out */
    double target_ms;
    int active[LS_RT_MAX_GROUPS]; /* 0: the group has nothing to do this time (its
                                     samples are not judged); init sets every one 1 */
} ls_rtimer_t;

/* Enqueues loops operations of group g on its view's streams. */
typedef cudaError_t (*ls_group_enqueue_fn)(void *arg, int g, const ls_timer_t *view, int loops);

/* ngroups groups of per_group streams each; devices[g * per_group + i] is the device of
   group g's stream i. The gate runs on devices[0]. */
cudaError_t ls_rtimer_init(ls_rtimer_t *t, int ngroups, int per_group, const int *devices);
void ls_rtimer_free(ls_rtimer_t *t);

/* One gated sample of every group at once: ms[g] from group g's begin to its end. */
cudaError_t ls_rtimer_sample(ls_rtimer_t *t, ls_group_enqueue_fn fn, void *arg, int loops,
                             double *ms, int *timed_out);

/* The outcome of ls_rtimer_run. */
typedef struct {
    int loops;        /* operations per sample, the same for every group */
    int taken;        /* samples taken (the same for every group) */
    enum ls_stop why; /* LS_STOP_CONVERGED: every group's interval within the width */
} ls_rtimer_result_t;

/* Warm-up (one operation, then the loop count picked from the slowest group so a sample
   lasts about target_ms, at most max_loops), then samples until every group's samples
   meet rule (or rule->max_samples), groups not active left out: ms[g * rule->max_samples + k]. On
   failure fills err and returns -1, or -2 for a gate time-out. */
int ls_rtimer_run(ls_rtimer_t *t, ls_group_enqueue_fn fn, void *arg, int max_loops,
                  const ls_sample_rule_t *rule, double *ms, ls_rtimer_result_t *res, char *err,
                  size_t errlen);

#endif
