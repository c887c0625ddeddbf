/* P2P on the GPUs: every copy verified, figures above zero and below the HBM peak. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "helpers.h"
#include "measure_gpu_common.h"

static int ngpus;

static double value_of(const json_t *doc, const char *id)
{
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e)
        if (strcmp(ls_json_str(e, "id", ""), id) == 0 && strcmp(ls_json_str(e, "status", ""), "ok") == 0)
            return ls_json_num(e, "value", 0);
    fail_msg("no ok entry %s", id);
    return 0;
}

/* Both ways counts the two directions (docs/methods.md: 2 x size x loops, the sum): on a
   full-duplex link it is above either direction alone. A bidir figure that counted one
   direction, or whose second direction waited for the first, would come out at or below
   the one-way figure. */
static void assert_bidir_is_the_sum(const json_t *doc, const char *method, int a, int b)
{
    char id[96];
    snprintf(id, sizeof id, "p2p-%s-uni-%d-%d", method, a, b);
    double ab = value_of(doc, id);
    snprintf(id, sizeof id, "p2p-%s-uni-%d-%d", method, b, a);
    double ba = value_of(doc, id);
    snprintf(id, sizeof id, "p2p-%s-bidir-%d-%d", method, a, b);
    double both = value_of(doc, id);
    printf("%s %d<->%d: %.1f + %.1f one way, %.1f both ways\n", method, a, b, ab, ba, both);
    assert_true(both > (ab > ba ? ab : ba));
    assert_true(both < 1.1 * (ab + ba)); /* no more than the two directions' sum */
}

/* A measurement leaves no CUDA error pending on the calling thread: one left behind (an
   enable of peer access that failed, an allocation) fails the next kernel launch of
   whatever runs next, which reads it back with cudaGetLastError. */
static void assert_no_pending_error(void)
{
    assert_int_equal(cudaGetLastError(), cudaSuccess);
}

static void p2p_pairs_verified_and_plausible(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new();
    ls_measure_opts_t o = {.gpus = {0, 1}, .ngpus = 2, .samples = 5, .size = 64ull << 20};
    char err[256];
    assert_int_equal(ls_measure_p2p(doc, &o, err, sizeof err), 0);
    double peak = hbm_peak(0);
    /* 2 ordered pairs x 4 methods one way + 4 methods both ways */
    assert_int_equal(check_entries(doc, "p2p", 0, 2 * peak), 12);
    assert_no_pending_error();
    assert_bidir_is_the_sum(doc, "ce", 0, 1);
    assert_bidir_is_the_sum(doc, "sm_write", 0, 1);
    json_decref(doc);
}

/* Rounds as the run gives them, one method, the stopping rule: every entry records its
   round and how its samples stopped. */
static void p2p_round_with_stop_rule(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new();
    int start[2] = {0, 1}, pa[1] = {0}, pb[1] = {1};
    ls_measure_opts_t o = {.gpus = {0, 1}, .ngpus = 2, .samples = 10, .size = 64ull << 20,
                           .methods = "ce", .nrounds = 1, .round_start = start, .pair_a = pa,
                           .pair_b = pb, .stop_rule = 1};
    char err[256];
    assert_int_equal(ls_measure_p2p(doc, &o, err, sizeof err), 0);
    /* a->b, b->a, both ways */
    assert_int_equal(check_entries(doc, "p2p", 0, 2 * hbm_peak(0)), 3);
    assert_no_pending_error();
    long i = -1;
    while ((i = ls_doc_next_measurement(doc, "p2p", i + 1)) >= 0) {
        const json_t *e = json_array_get(json_object_get(doc, "measurements"), (size_t)i);
        const json_t *stop = json_object_get(e, "stop");
        assert_string_equal(ls_json_str(stop, "rule", "?"), "median_ci");
        long long n = ls_json_int(stop, "samples", 0);
        assert_true(n >= 6 && n <= 10);
        assert_int_equal((long long)json_array_size(json_object_get(e, "samples")), n);
        assert_int_equal(ls_json_int(json_object_get(e, "round"), "pairs", 0), 1);
    }
    json_decref(doc);
}

/* Four GPUs: pairs 0-1 and 2-3 in one round, measured at the same time; each pair's
   figures verified and plausible, each entry says it ran beside another pair. */
static void p2p_concurrent_round(void **state)
{
    (void)state;
    if (ngpus < 4)
        skip();
    json_t *doc = ls_doc_new();
    int start[2] = {0, 2}, pa[2] = {0, 2}, pb[2] = {1, 3};
    ls_measure_opts_t o = {.gpus = {0, 1, 2, 3}, .ngpus = 4, .samples = 5, .size = 64ull << 20,
                           .nrounds = 1, .round_start = start, .pair_a = pa, .pair_b = pb};
    char err[256];
    assert_int_equal(ls_measure_p2p(doc, &o, err, sizeof err), 0);
    /* 2 pairs x 4 methods x (a->b, b->a, both); SM methods skipped where no P2P */
    int n = check_entries(doc, "p2p", 0, 2 * hbm_peak(0));
    assert_true(n >= 12 && n <= 24);
    assert_no_pending_error();
    /* each pair's figures are its own: both ways above one way for either pair, with the
       other pair running at the same time on other GPUs */
    assert_bidir_is_the_sum(doc, "ce", 0, 1);
    assert_bidir_is_the_sum(doc, "ce", 2, 3);
    long i = -1;
    while ((i = ls_doc_next_measurement(doc, "p2p", i + 1)) >= 0) {
        const json_t *e = json_array_get(json_object_get(doc, "measurements"), (size_t)i);
        assert_int_equal(ls_json_int(json_object_get(e, "round"), "pairs", 0), 2);
    }
    json_decref(doc);
}

int main(void)
{
    ngpus = gpus_or_skip();
    if (ngpus <= 0)
        return LS_TEST_SKIP;
    if (ngpus < 2) {
        fprintf(stderr, "skipped: P2P needs two GPUs\n");
        return LS_TEST_SKIP;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(p2p_pairs_verified_and_plausible),
                                       cmocka_unit_test(p2p_round_with_stop_rule),
                                       cmocka_unit_test(p2p_concurrent_round)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
