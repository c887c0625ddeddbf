/* The round timer (rtimer.h). */
#include "rtimer.h"
#include "figures.h"
#include "kernels.h"
#include "util/log.h"

#include <stdlib.h>
#include <string.h>

cudaError_t ls_rtimer_init(ls_rtimer_t *t, int ngroups, int per_group, const int *devices)
{
    memset(t, 0, sizeof *t);
    if (ngroups < 1 || ngroups > LS_RT_MAX_GROUPS || per_group < 1 || per_group > LS_MAX_STREAMS)
        return cudaErrorInvalidValue;
    t->target_ms = ls_env_int("LS_SAMPLE_MS", (int)LS_SAMPLE_TARGET_MS, 1, 10000);
    t->ngroups = ngroups;
    for (int g = 0; g < ngroups; g++)
        t->active[g] = 1;
    for (int g = 0; g < ngroups; g++) {
        ls_timer_t *v = &t->view[g];
        LS_CUDA_TRY(
            ls_timer_streams_init(v, devices + g * per_group, per_group, cudaEventDisableTiming));
        LS_CUDA_TRY(cudaSetDevice(v->device[0]));
        LS_CUDA_TRY(cudaEventCreate(&t->begin[g]));
        LS_CUDA_TRY(cudaEventCreate(&t->end[g]));
    }
    t->gate_dev = devices[0];
    LS_CUDA_TRY(cudaSetDevice(t->gate_dev));
    LS_CUDA_TRY(cudaStreamCreateWithFlags(&t->gate, cudaStreamNonBlocking));
    LS_CUDA_TRY(cudaEventCreateWithFlags(&t->start, cudaEventDisableTiming));
    return ls_gate_ctl_new(&t->ctl);
}

void ls_rtimer_free(ls_rtimer_t *t)
{
    for (int g = 0; g < t->ngroups; g++) {
        ls_timer_streams_free(&t->view[g]);
        if (t->begin[g])
            cudaEventDestroy(t->begin[g]);
        if (t->end[g])
            cudaEventDestroy(t->end[g]);
    }
    cudaSetDevice(t->gate_dev);
    if (t->gate)
        cudaStreamDestroy(t->gate);
    if (t->start)
        cudaEventDestroy(t->start);
    ls_host_free((void *)t->ctl);
    memset(t, 0, sizeof *t);
}

/* Every stream of group g waits for the gate; its begin event follows. */
static cudaError_t group_open(ls_rtimer_t *t, int g)
{
    ls_timer_t *v = &t->view[g];
    for (int i = 0; i < v->nstreams; i++) {
        LS_CUDA_TRY(cudaSetDevice(v->device[i]));
        LS_CUDA_TRY(cudaStreamWaitEvent(v->stream[i], t->start, 0));
    }
    LS_CUDA_TRY(cudaSetDevice(v->device[0]));
    return cudaEventRecord(t->begin[g], v->stream[0]);
}

/* Stream 0 of group g waits for its other streams; its end event follows. */
static cudaError_t group_close(ls_rtimer_t *t, int g)
{
    ls_timer_t *v = &t->view[g];
    for (int i = 1; i < v->nstreams; i++) {
        LS_CUDA_TRY(cudaSetDevice(v->device[i]));
        LS_CUDA_TRY(cudaEventRecord(v->done[i], v->stream[i]));
        LS_CUDA_TRY(cudaStreamWaitEvent(v->stream[0], v->done[i], 0));
    }
    LS_CUDA_TRY(cudaSetDevice(v->device[0]));
    return cudaEventRecord(t->end[g], v->stream[0]);
}

static cudaError_t enqueue_all(ls_rtimer_t *t, ls_group_enqueue_fn fn, void *arg, int loops)
{
    for (int g = 0; g < t->ngroups; g++)
        LS_CUDA_TRY(group_open(t, g));
    for (int g = 0; g < t->ngroups; g++) {
        LS_CUDA_TRY(cudaSetDevice(t->view[g].device[0])); /* as ls_timer_sample leaves it */
        LS_CUDA_TRY(fn(arg, g, &t->view[g], loops));
    }
    for (int g = 0; g < t->ngroups; g++)
        LS_CUDA_TRY(group_close(t, g));
    return cudaSuccess;
}

static cudaError_t rtimer_sample(ls_rtimer_t *t, ls_group_enqueue_fn fn, void *arg, int loops,
                                 double *ms, int *timed_out);

cudaError_t ls_rtimer_sample(ls_rtimer_t *t, ls_group_enqueue_fn fn, void *arg, int loops,
                             double *ms, int *timed_out)
{
    ls_spin_enter(); /* the gate spins until this thread releases it (harness.h) */
    cudaError_t rc = rtimer_sample(t, fn, arg, loops, ms, timed_out);
    ls_spin_leave();
    return rc;
}

static cudaError_t rtimer_sample(ls_rtimer_t *t, ls_group_enqueue_fn fn, void *arg, int loops,
                                 double *ms, int *timed_out)
{
    t->ctl[0] = 0;
    t->ctl[1] = 0;
    *timed_out = 0;
    LS_CUDA_TRY(cudaSetDevice(t->gate_dev));
    LS_CUDA_TRY(ls_k_gate(t->ctl, ls_gate_timeout_ms(), t->gate));
    /* the gate runs from here: released and waited for whatever fails below */
    cudaError_t rc = cudaEventRecord(t->start, t->gate);
    if (rc == cudaSuccess)
        rc = enqueue_all(t, fn, arg, loops);
    /* one release for the whole round, whatever happened: the groups start together */
    __atomic_store_n(&t->ctl[0], 1, __ATOMIC_SEQ_CST);
    cudaSetDevice(t->gate_dev);
    cudaError_t s = cudaStreamSynchronize(t->gate);
    rc = rc == cudaSuccess ? s : rc;
    for (int g = 0; g < t->ngroups; g++)
        for (int i = 0; i < t->view[g].nstreams; i++) {
            cudaSetDevice(t->view[g].device[i]);
            s = cudaStreamSynchronize(t->view[g].stream[i]);
            rc = rc == cudaSuccess ? s : rc;
        }
    if (rc != cudaSuccess)
        return rc;
    *timed_out = t->ctl[1] != 0;
    for (int g = 0; g < t->ngroups; g++) {
        float elapsed = 0;
        cudaSetDevice(t->view[g].device[0]);
        LS_CUDA_TRY(cudaEventElapsedTime(&elapsed, t->begin[g], t->end[g]));
        ms[g] = elapsed;
    }
    return cudaSuccess;
}

/* Whether every active group has samples enough (n taken, row stride max). */
static enum ls_stop all_enough(const ls_rtimer_t *t, const double *ms, int n,
                               const ls_sample_rule_t *r)
{
    enum ls_stop worst = n >= r->max_samples ? LS_STOP_LIMIT : LS_STOP_CONVERGED;
    for (int g = 0; g < t->ngroups; g++) {
        if (!t->active[g])
            continue;
        enum ls_stop s = ls_samples_enough(ms + (size_t)g * (size_t)r->max_samples, n, r);
        if (s == LS_STOP_MORE)
            return LS_STOP_MORE;
        if (s == LS_STOP_LIMIT)
            worst = LS_STOP_LIMIT;
    }
    return worst;
}

static int fail(cudaError_t rc, int late, char *err, size_t errlen)
{
    if (rc != cudaSuccess) {
        ls_seterr(err, errlen, "%s", cudaGetErrorString(rc));
        cudaGetLastError();
        return -1;
    }
    ls_seterr(err, errlen,
              "the gate kernel timed out after %u ms while work was queued "
              "(queue full or GPU stalled)",
              ls_gate_timeout_ms());
    (void)late;
    return -2;
}

int ls_rtimer_run(ls_rtimer_t *t, ls_group_enqueue_fn fn, void *arg, int max_loops,
                  const ls_sample_rule_t *rule, double *ms, ls_rtimer_result_t *res, char *err,
                  size_t errlen)
{
    double one[LS_RT_MAX_GROUPS], slowest = 0;
    int late = 0;
    memset(res, 0, sizeof *res);
    cudaError_t rc = ls_rtimer_sample(t, fn, arg, 1, one, &late);
    for (int g = 0; g < t->ngroups && rc == cudaSuccess; g++)
        if (t->active[g] && one[g] > slowest)
            slowest = one[g];
    res->loops = ls_pick_loops(slowest, t->target_ms, max_loops);
    if (rc == cudaSuccess && !late) /* warm-up at the loop count */
        rc = ls_rtimer_sample(t, fn, arg, res->loops, one, &late);
    res->why = LS_STOP_MORE;
    int max = rule->max_samples;
    while (rc == cudaSuccess && !late && res->why == LS_STOP_MORE) {
        rc = ls_rtimer_sample(t, fn, arg, res->loops, one, &late);
        for (int g = 0; g < t->ngroups && rc == cudaSuccess; g++)
            ms[(size_t)g * (size_t)max + (size_t)res->taken] = one[g];
        if (rc == cudaSuccess && !late)
            res->why = all_enough(t, ms, ++res->taken, rule);
    }
    return rc != cudaSuccess || late ? fail(rc, late, err, errlen) : 0;
}
