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

int main(void)
{
    ngpus = gpus_or_skip();
    if (ngpus <= 0)
        return LS_TEST_SKIP;
    const struct CMUnitTest tests[] = {cmocka_unit_test(latency_plausible)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
