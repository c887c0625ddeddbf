/* P2P on the GPUs: every copy verified, figures above zero and below the HBM peak. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "helpers.h"
#include "measure_gpu_common.h"

static int ngpus;

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
    const struct CMUnitTest tests[] = {cmocka_unit_test(p2p_pairs_verified_and_plausible)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
