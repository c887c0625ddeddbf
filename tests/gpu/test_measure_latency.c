/* Latency on the GPUs: every definition gives a plausible figure (0 < us < 1000). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "helpers.h"
#include "measure_gpu_common.h"

static int ngpus;

static void latency_plausible(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new();
    ls_measure_opts_t o = {.gpus = {0, 1}, .ngpus = ngpus >= 2 ? 2 : 1, .samples = 5};
    char err[256];
    assert_int_equal(ls_measure_latency(doc, &o, err, sizeof err), 0);
    int n = check_entries(doc, "latency", 0, 1000);
    /* per GPU: host chase; per ordered pair: 2 ping-pongs, chase, 2 x (gpu_copy, cpu_copy) */
    assert_int_equal(n, o.ngpus + (o.ngpus == 2 ? 2 * 7 : 0));
    json_decref(doc);
}

/* Rounds as the run gives them: pairs 0-1, 2-3 (4 GPUs), 4-5 and 6-7 (8 GPUs) at once,
   one thread each; every figure still ok and plausible (a ping-pong or gate that one
   thread's memory call held up would end as a timeout: harness.h, ls_spin_enter), each
   pair entry naming its round. */
static void latency_in_rounds(void **state)
{
    (void)state;
    if (ngpus < 2)
        skip();
    int pairs = ngpus >= 8 ? 4 : ngpus >= 4 ? 2 : 1;
    int start[2] = {0, pairs}, pa[4] = {0, 2, 4, 6}, pb[4] = {1, 3, 5, 7};
    ls_measure_opts_t o = {.gpus = {0, 1, 2, 3, 4, 5, 6, 7}, .ngpus = 2 * pairs, .samples = 5,
                           .nrounds = 1, .round_start = start, .pair_a = pa, .pair_b = pb};
    json_t *doc = ls_doc_new();
    char err[256];
    assert_int_equal(ls_measure_latency(doc, &o, err, sizeof err), 0);
    int n = check_entries(doc, "latency", 0, 1000);
    /* host chase per GPU; per ordered pair at most 7 figures (fewer without P2P) */
    assert_true(n > o.ngpus && n <= o.ngpus + 2 * pairs * 7);
    long i = -1;
    while ((i = ls_doc_next_measurement(doc, "latency", i + 1)) >= 0) {
        const json_t *e = json_array_get(json_object_get(doc, "measurements"), (size_t)i);
        if (ls_json_int(e, "dst", -1) >= 0)
            assert_int_equal(ls_json_int(json_object_get(e, "round"), "pairs", 0), pairs);
    }
    json_decref(doc);
}

int main(void)
{
    ngpus = gpus_or_skip();
    if (ngpus <= 0)
        return LS_TEST_SKIP;
    const struct CMUnitTest tests[] = {cmocka_unit_test(latency_plausible),
                                       cmocka_unit_test(latency_in_rounds)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
