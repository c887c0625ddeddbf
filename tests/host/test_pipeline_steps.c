/* The run pipeline's steps (issue 14) where nothing can be measured (no GPU): the steps
   come in the projection's order, a run past its budget cuts every later step down and
   drops none, and each cut is recorded in run.steps. Skipped where a GPU is: there the
   run would measure for real (tests/cli/test_gpu_run.sh covers it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <string.h>

#include "helpers.h"
#include "measure/gpu.h"
#include "model/doc.h"
#include "pipeline/pipeline.h"
#include "pipeline/sweep_step.h"

static void test_order_and_cuts(void **state)
{
    (void)state;
    char err[256];
    if (ls_gpu_count(err, sizeof err) > 0)
        skip(); /* a GPU is here: the run would measure it (tests/cli/test_gpu_run.sh) */
    ls_run_opts_t o = {.thorough = 0, .budget_s = 1e-9, .gpus = {0, 1}, .ngpus = 2, .no_nccl = 1};
    int refused = -1;
    json_t *doc = ls_pipeline_run(&o, &refused);
    assert_non_null(doc);
    assert_int_equal(refused, 0); /* no topology here: no projection to refuse on */
    const json_t *steps = json_object_get(json_object_get(doc, "run"), "steps");
    static const char *const want[] = {"p2p ce, one way and both ways",
                                       "hbm read, write, copy, copy_ce",
                                       "host copies, pinned and pageable",
                                       "p2p sm_read, sm_write",
                                       "p2p staged through host",
                                       "latency, every definition"};
    /* then the datasheet check (issue 16), which measures nothing and is never cut */
    assert_int_equal(json_array_size(steps), sizeof want / sizeof want[0] + 1);
    const json_t *spec = json_array_get(steps, sizeof want / sizeof want[0]);
    assert_string_equal(json_string_value(json_object_get(spec, "step")), "spec");
    assert_string_equal(json_string_value(json_object_get(spec, "status")), "ok");
    assert_null(json_object_get(spec, "cut"));
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const json_t *s = json_array_get(steps, i);
        assert_string_equal(json_string_value(json_object_get(s, "step")), want[i]);
        /* past its budget from the start: cut down, not skipped */
        assert_string_equal(json_string_value(json_object_get(s, "cut")), "half the samples");
        assert_string_not_equal(json_string_value(json_object_get(s, "status")), "skipped");
    }
    json_decref(doc);
}

/* A step's sweep that cannot start (an unknown collective, or no NCCL in this build)
   says why and adds nothing to the document. */
static void test_sweep_step_that_cannot_start(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new();
    int gpus[] = {0};
    ls_sweep_step_t s = {.collective = "no_such_collective",
                         .gpus = gpus,
                         .ngpus = 1,
                         .min_bytes = 8,
                         .max_bytes = 8,
                         .step_factor = 2,
                         .timeout_s = 1,
                         .annotate = 1};
    char why[256] = "";
    assert_int_equal(ls_sweep_step(doc, &s, why, sizeof why), -1);
    assert_true(why[0] != '\0');
    assert_int_equal(json_array_size(json_object_get(doc, "measurements")), 0);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_order_and_cuts),
                                       cmocka_unit_test(test_sweep_step_that_cannot_start)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
