/* linkscope health's projection (issue 23): the state checks and the short probe priced
   by the run's cost table; an 8-GPU HGX within the 30 s a scheduler's health check gets,
   the probe's copies in the scheduler's rounds, cheaper per round than a run's (fewer
   samples) but with the same fixed part. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "analyze/projection.h"
#include "helpers.h"

static const ls_proj_step_t *step(const ls_projection_t *p, const char *name)
{
    for (int i = 0; i < p->nsteps; i++)
        if (strncmp(p->steps[i].name, name, strlen(name)) == 0)
            return &p->steps[i];
    return NULL;
}

static void hgx_within_a_scheduler_check(void **state)
{
    (void)state;
    ls_fabric_t f;
    assert_int_equal(ls_fabric_uniform(8, LS_LINK_NV, &f), 0);
    ls_projection_t h, run;
    assert_int_equal(ls_project_health(&f, 2.0, &h), 0);
    assert_int_equal(ls_project_run(&f, NULL, &(ls_proj_opts_t){0}, &run), 0);
    assert_int_equal(h.ngpus, 8);
    assert_int_equal(h.pair_rounds, run.pair_rounds); /* the same scheduler */
    const ls_proj_step_t *probe = step(&h, "probe: p2p ce"), *full = step(&run, "p2p ce, one way");
    assert_non_null(probe);
    assert_non_null(full);
    assert_int_equal(probe->figures, 8 * 7);            /* every ordered pair once */
    assert_int_equal(probe->rounds, 2 * h.pair_rounds); /* a->b, then b->a */
    /* per round: fewer samples than a run's, the same fixed part (at least half of it) */
    double per_probe = probe->seconds / probe->rounds, per_run = full->seconds / full->rounds;
    assert_true(per_probe < per_run);
    assert_true(per_probe > per_run / 2);
    assert_non_null(step(&h, "probe: all_reduce"));
    assert_non_null(step(&h, "probe: hbm copy"));
    assert_float_equal(step(&h, "NVLink error counters")->seconds, 2.0, 1e-9);
    assert_true(h.total_s < 30.0); /* LBNL NHC's watchdog, issue 23's budget */
    ls_fabric_free(&f);
}

static void one_gpu_has_no_pair_and_no_collective(void **state)
{
    (void)state;
    ls_fabric_t f;
    assert_int_equal(ls_fabric_uniform(1, LS_LINK_NV, &f), 0);
    ls_projection_t h, wider;
    assert_int_equal(ls_project_health(&f, 2.0, &h), 0);
    assert_null(step(&h, "probe: p2p ce"));
    assert_null(step(&h, "probe: all_reduce"));
    assert_non_null(step(&h, "probe: hbm copy"));
    assert_true(h.total_s < 10.0); /* the live checks' default --budget */
    /* the window is spent in full */
    assert_int_equal(ls_project_health(&f, 5.0, &wider), 0);
    assert_float_equal(wider.total_s - h.total_s, 3.0, 1e-9);
    ls_fabric_free(&f);
}

static void more_gpus_take_longer(void **state)
{
    (void)state;
    double last = 0;
    for (int n = 2; n <= 8; n += 2) {
        ls_fabric_t f;
        ls_projection_t h;
        assert_int_equal(ls_fabric_uniform(n, LS_LINK_NV, &f), 0);
        assert_int_equal(ls_project_health(&f, 2.0, &h), 0);
        assert_true(h.total_s > last);
        last = h.total_s;
        ls_fabric_free(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(hgx_within_a_scheduler_check),
                                       cmocka_unit_test(one_gpu_has_no_pair_and_no_collective),
                                       cmocka_unit_test(more_gpus_take_longer)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
