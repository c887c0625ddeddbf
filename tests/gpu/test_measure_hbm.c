/* HBM on each GPU: verified, above zero, below the theoretical peak. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "helpers.h"
#include "measure_gpu_common.h"

static int ngpus;

static void hbm_verified_below_peak(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new();
    ls_measure_opts_t o = {.gpus = {0}, .ngpus = 1, .samples = 5, .size = 512ull << 20};
    char err[256];
    assert_int_equal(ls_measure_hbm(doc, &o, err, sizeof err), 0);
    double peak = hbm_peak(0);
    assert_true(peak > 0);
    assert_int_equal(check_entries(doc, "hbm", 0, peak), 4);
    long i = ls_doc_next_measurement(doc, "hbm", 0);
    const json_t *e = json_array_get(json_object_get(doc, "measurements"), (size_t)i);
    assert_true(ls_json_num(e, "efficiency", 0) > 0 && ls_json_num(e, "efficiency", 0) < 1);
    int with_pcie;
    pcie_windows(doc, "hbm", &with_pcie);
    assert_int_equal(with_pcie, 0); /* no PCIe query (40 ms a reading) beside HBM copies */
    json_decref(doc);
}

/* Every GPU at once (issue 14): each GPU's figures verified and below its own peak,
   each entry telling how its samples stopped. */
static void hbm_all_gpus_at_once(void **state)
{
    (void)state;
    if (ngpus < 2)
        skip();
    json_t *doc = ls_doc_new();
    ls_measure_opts_t o = {.ngpus = ngpus, .samples = 10, .size = 512ull << 20, .stop_rule = 1};
    for (int g = 0; g < ngpus && g < LS_MAX_GPUS; g++)
        o.gpus[g] = g;
    char err[256];
    assert_int_equal(ls_measure_hbm(doc, &o, err, sizeof err), 0);
    double peak = 0;
    for (int g = 0; g < ngpus; g++)
        peak = hbm_peak(g) > peak ? hbm_peak(g) : peak;
    assert_int_equal(check_entries(doc, "hbm", 0, peak), 4 * ngpus);
    long i = -1;
    while ((i = ls_doc_next_measurement(doc, "hbm", i + 1)) >= 0) {
        const json_t *e = json_array_get(json_object_get(doc, "measurements"), (size_t)i);
        long long n = ls_json_int(json_object_get(e, "stop"), "samples", 0);
        assert_true(n >= 6 && n <= 10);
    }
    json_decref(doc);
}

int main(void)
{
    ngpus = gpus_or_skip();
    if (ngpus <= 0)
        return LS_TEST_SKIP;
    const struct CMUnitTest tests[] = {cmocka_unit_test(hbm_verified_below_peak),
                                       cmocka_unit_test(hbm_all_gpus_at_once)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
