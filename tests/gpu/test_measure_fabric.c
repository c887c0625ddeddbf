/* The fabric stress step on the GPUs (issue 14): all_to_all, one_to_all and all_to_one
   from each GPU; every destination verified, totals and per-GPU figures above zero and
   below their bounds (a GPU writes no faster than its HBM reads). Needs 2 GPUs with P2P
   between every two; skips (77) otherwise. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "helpers.h"
#include "measure_gpu_common.h"

static int ngpus;

static void fabric_patterns_verified_and_plausible(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new();
    ls_measure_opts_t o = {.ngpus = ngpus, .samples = 3};
    for (int i = 0; i < ngpus && i < LS_MAX_GPUS; i++)
        o.gpus[i] = i;
    char err[256] = "";
    assert_int_equal(ls_measure_fabric(doc, &o, err, sizeof err), 0);
    /* nothing left pending on this thread for the next step's first launch */
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    double peak = hbm_peak(0);
    /* all_to_all, then one_to_all and all_to_one from each GPU */
    assert_int_equal(check_entries(doc, "fabric", 0, ngpus * peak), 1 + 2 * ngpus);
    long i = -1;
    while ((i = ls_doc_next_measurement(doc, "fabric", i + 1)) >= 0) {
        const json_t *e = json_array_get(json_object_get(doc, "measurements"), (size_t)i);
        const json_t *per = json_object_get(e, "per_gpu_gbps");
        assert_true(json_object_size(per) > 0);
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)per, k, v)
        {
            assert_true(json_real_value(v) > 0);
            assert_true(json_real_value(v) < peak);
        }
        assert_string_equal(ls_json_str(json_object_get(e, "stop"), "rule", "?"), "fixed");
    }
    json_decref(doc);
}

static int all_peers(int n)
{
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            int can = 0;
            if (a != b && (cudaDeviceCanAccessPeer(&can, a, b) != cudaSuccess || !can))
                return 0;
        }
    return 1;
}

int main(void)
{
    ngpus = gpus_or_skip();
    if (ngpus <= 0)
        return LS_TEST_SKIP;
    if (ngpus < 2 || !all_peers(ngpus)) {
        fprintf(stderr, "skipped: the fabric step needs two GPUs with P2P between every two\n");
        return LS_TEST_SKIP;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(fabric_patterns_verified_and_plausible)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
