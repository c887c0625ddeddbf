/* The round timer across two GPUs (rtimer.h), the part of a P2P round that a machine of
   two GPUs can exercise (a real round needs four: pairs share no GPU). Two groups, as
   the p2p step lays out a pair: group 0's timing stream on GPU 0 (where the gate runs),
   group 1's on GPU 1, each with a second stream on the other GPU. Group 0 copies GPU 0
   -> 1, group 1 copies 1 -> 0 (copy engine), at once behind the one gate. Checks: every
   sample timed (each group's events on its own GPU), both copies verified, and the two
   groups overlap: each one's time beside the other stays well under twice its time
   alone (a group that waited for the other, through a wrong event dependency or a gate
   that released one GPU late, would take both copies' time). Skips (77) with fewer than
   two GPUs or without P2P between 0 and 1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "helpers.h"
#include "measure_gpu_common.h"
#include "measure/harness.h"
#include "measure/rtimer.h"

#define SIZE (64ull << 20)
#define SAMPLES 5

typedef struct {
    void *src[2], *dst[2]; /* on GPU 0 and GPU 1 */
    int on[2];             /* group g copies this time */
} pair_t;

static cudaError_t enqueue_copy(void *arg, int g, const ls_timer_t *view, int loops)
{
    pair_t *p = arg;
    cudaError_t rc = cudaSuccess;
    /* group g copies GPU g -> GPU 1 - g on its stream 0 (on GPU g) */
    for (int i = 0; i < loops && p->on[g] && rc == cudaSuccess; i++)
        rc = cudaMemcpyPeerAsync(p->dst[1 - g], 1 - g, p->src[g], g, SIZE, view->stream[0]);
    return rc;
}

/* Median of group g's samples (row stride SAMPLES) from one run of the timer. */
static double median_ms(const double *ms, int g, int n)
{
    double v[SAMPLES];
    for (int k = 0; k < n; k++)
        v[k] = ms[g * SAMPLES + k];
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            if (v[b] < v[a]) {
                double t = v[a];
                v[a] = v[b];
                v[b] = t;
            }
    return v[n / 2];
}

/* One run of the timer with the groups in on[]; per-group medians into med (ms per copy). */
static void timed(ls_rtimer_t *t, pair_t *p, int on0, int on1, double med[2])
{
    ls_sample_rule_t rule = {SAMPLES, SAMPLES, 0.95, 0};
    double ms[2 * SAMPLES] = {0};
    ls_rtimer_result_t res;
    char err[256] = "";
    p->on[0] = on0, p->on[1] = on1;
    t->active[0] = on0, t->active[1] = on1;
    int st = ls_rtimer_run(t, enqueue_copy, p, 8, &rule, ms, &res, err, sizeof err);
    if (st != 0)
        fail_msg("round timer: %s", err);
    assert_int_equal(res.taken, SAMPLES);
    for (int g = 0; g < 2; g++) {
        med[g] = 0;
        if (!p->on[g])
            continue;
        for (int k = 0; k < SAMPLES; k++)
            assert_true(ms[g * SAMPLES + k] > 0);
        med[g] = median_ms(ms, g, SAMPLES) / res.loops;
    }
}

static void two_groups_on_two_gpus(void **state)
{
    (void)state;
    pair_t p = {0};
    char err[256] = "";
    for (int d = 0; d < 2; d++) {
        assert_true(ls_peer_enable(d, 1 - d, NULL));
        assert_non_null(p.src[d] = ls_dev_alloc(d, SIZE, err, sizeof err));
        assert_non_null(p.dst[d] = ls_dev_alloc(d, SIZE, err, sizeof err));
        assert_int_equal(ls_fill(d, p.src[d], SIZE, 500u + (unsigned)d), cudaSuccess);
        assert_int_equal(cudaMemset(p.dst[d], 0, SIZE), cudaSuccess);
        assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    }
    int devs[4] = {0, 1, 1, 0}; /* group 0: GPU 0 (gate, timing), 1; group 1: GPU 1, 0 */
    ls_rtimer_t t;
    assert_int_equal(ls_rtimer_init(&t, 2, 2, devs), cudaSuccess);
    double alone0[2], alone1[2], both[2];
    timed(&t, &p, 1, 0, alone0);
    timed(&t, &p, 0, 1, alone1);
    timed(&t, &p, 1, 1, both);
    ls_rtimer_free(&t);
    printf("per 64 MiB copy: 0->1 %.3f ms alone, %.3f beside 1->0; 1->0 %.3f alone, %.3f beside\n",
           alone0[0], both[0], alone1[1], both[1]);
    assert_true(both[0] < 1.5 * alone0[0]);
    assert_true(both[1] < 1.5 * alone1[1]);
    /* each destination holds the other GPU's pattern */
    assert_int_equal(ls_count_wrong(1, p.dst[1], SIZE, 500u, NULL), 0);
    assert_int_equal(ls_count_wrong(0, p.dst[0], SIZE, 501u, NULL), 0);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    for (int d = 0; d < 2; d++) {
        ls_dev_free(d, p.src[d]);
        ls_dev_free(d, p.dst[d]);
    }
}

int main(void)
{
    int n = gpus_or_skip(), can01 = 0, can10 = 0;
    if (n <= 0)
        return LS_TEST_SKIP;
    if (n < 2 || cudaDeviceCanAccessPeer(&can01, 0, 1) != cudaSuccess ||
        cudaDeviceCanAccessPeer(&can10, 1, 0) != cudaSuccess || !can01 || !can10) {
        fprintf(stderr, "skipped: needs two GPUs with P2P between them\n");
        return LS_TEST_SKIP;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(two_groups_on_two_gpus)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
