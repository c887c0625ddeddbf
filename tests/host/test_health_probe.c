/* linkscope health's short probe (issue 23): the figures it keeps of a run document,
   each beside its ceiling, and its judgement of recorded figures. The bundled 2 x H200
   run's figures stay quiet; figures below their path's floor (the run's own,
   ls_ceiling_floor), copies that fail verification, an all_reduce with wrong elements
   and a step cut off at the budget each give their finding and action. The figures below
   are shares of the floor, not numbers of one machine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "analyze/ceiling.h"
#include "health/health.h"
#include "helpers.h"
#include "measure/gpu.h"
#include "model/doc.h"
#include "pipeline/probe.h"

static json_t *bundled_run(void)
{
    char err[512];
    json_t *doc = ls_doc_read(ls_fixture("../../examples/h200x2-run.json"), err, sizeof err);
    if (!doc)
        fail_msg("%s", err);
    return doc;
}

static json_t *probe_of(json_t *figures)
{
    return json_pack("{s:i, s:[], s:o}", "gpus", 2, "steps", "figures", figures);
}

/* One finding with this rule; its action. */
static const char *only_action(const json_t *findings, const char *rule)
{
    assert_int_equal(json_array_size(findings), 1);
    const json_t *f = json_array_get(findings, 0);
    assert_string_equal(json_string_value(json_object_get(f, "rule")), rule);
    return json_string_value(json_object_get(f, "action"));
}

/* A copy-engine pair at share x its NVLink floor of a ceiling. */
static json_t *p2p_at(int src, int dst, double share_of_floor, const char *basis)
{
    double ceiling = 478.0, floor = ls_ceiling_floor(LS_PATH_NVLINK);
    return json_pack("{s:s, s:i, s:i, s:s, s:f, s:b, s:f, s:s, s:s}", "kind", "p2p_ce", "src", src,
                     "dst", dst, "status", "ok", "gbps", ceiling * floor * share_of_floor,
                     "verified", 1, "ceiling_gbps", ceiling, "path", ls_path_name(LS_PATH_NVLINK),
                     "basis", basis);
}

static void bundled_run_figures_have_ceilings(void **state)
{
    (void)state;
    json_t *doc = bundled_run(), *figures = ls_probe_figures(doc);
    int p2p = 0, hbm = 0, ar = 0;
    size_t i;
    json_t *f;
    json_array_foreach(figures, i, f) {
        const char *kind = json_string_value(json_object_get(f, "kind"));
        if (!strcmp(kind, "all_reduce")) {
            ar++;
            assert_int_equal(json_integer_value(json_object_get(f, "wrong")), 0);
            continue;
        }
        p2p += !strcmp(kind, "p2p_ce");
        hbm += !strcmp(kind, "hbm_copy");
        double v = json_real_value(json_object_get(f, "gbps")),
               c = json_real_value(json_object_get(f, "ceiling_gbps"));
        assert_true(v > 0 && c > v);
        assert_true(json_is_true(json_object_get(f, "verified")));
    }
    assert_int_equal(p2p, 2); /* 0->1 and 1->0, one way each */
    assert_int_equal(hbm, 2);
    assert_int_equal(ar, 1);
    /* a healthy machine stays quiet */
    json_t *probe = probe_of(figures), *findings = ls_health_probe_findings(probe);
    assert_int_equal(json_array_size(findings), 0);
    json_decref(findings);
    json_decref(probe);
    json_decref(doc);
}

static void pair_below_its_floor(void **state)
{
    (void)state;
    struct {
        double share;
        const char *basis, *action;
    } cases[] = {
        {0.75, "18 x NVLink 4", "watch"},                   /* below the floor */
        {0.40, "18 x NVLink 4", "isolate"},                 /* below half of it: links lost */
        {0.40, "x16 Gen5, assumed from the part", "watch"}, /* the slot's wiring unknown */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        json_t *probe = probe_of(json_pack("[o, o]", p2p_at(0, 1, 1.2, "18 x NVLink 4"),
                                           p2p_at(1, 0, cases[k].share, cases[k].basis)));
        json_t *findings = ls_health_probe_findings(probe);
        assert_string_equal(only_action(findings, "probe_p2p"), cases[k].action);
        assert_int_equal(json_integer_value(json_object_get(json_array_get(findings, 0), "gpu")),
                         1);
        json_decref(findings);
        json_decref(probe);
    }
}

static void many_pairs_low_make_one_finding(void **state)
{
    (void)state;
    json_t *figures = json_array();
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            if (a != b)
                json_array_append_new(figures, p2p_at(a, b, 0.8, "18 x NVLink 4"));
    json_t *probe = probe_of(figures), *findings = ls_health_probe_findings(probe);
    assert_string_equal(only_action(findings, "probe_p2p"), "watch");
    assert_non_null(
        strstr(json_string_value(json_object_get(json_array_get(findings, 0), "message")),
               "12 of 12"));
    json_decref(findings);
    json_decref(probe);
}

static void failed_copies_isolate(void **state)
{
    (void)state;
    json_t *probe = probe_of(
        json_pack("[{s:s, s:i, s:i, s:s, s:b, s:s}, {s:s, s:i, s:i, s:s, s:s}]", "kind", "p2p_ce",
                  "src", 0, "dst", 1, "status", "failed", "verified", 0, "error",
                  "12 words wrong after the copy", "kind", "p2p_ce", "src", 1, "dst", 0, "status",
                  "skipped", "error", "nothing to measure"));
    json_t *findings = ls_health_probe_findings(probe);
    assert_string_equal(only_action(findings, "probe_copy"), "isolate");
    assert_non_null(
        strstr(json_string_value(json_object_get(json_array_get(findings, 0), "message")),
               "GPU0->GPU1 copy-engine copy failed verification: 12 words wrong"));
    json_decref(findings);
    json_decref(probe);
}

static void all_reduce_wrong_or_failed(void **state)
{
    (void)state;
    json_t *probe = probe_of(json_pack("[{s:s, s:[i,i], s:f, s:s, s:f, s:I}]", "kind", "all_reduce",
                                       "gpus", 0, 1, "bytes", 1073741824.0, "status", "ok", "busbw",
                                       300.0, "wrong", (json_int_t)7));
    json_t *findings = ls_health_probe_findings(probe);
    assert_string_equal(only_action(findings, "probe_all_reduce"), "isolate");
    json_decref(findings);
    json_decref(probe);
    probe = probe_of(json_pack("[{s:s, s:[i,i], s:f, s:s, s:s, s:n}]", "kind", "all_reduce", "gpus",
                               0, 1, "bytes", 1073741824.0, "status", "timeout", "error",
                               "collective did not finish", "wrong"));
    findings = ls_health_probe_findings(probe);
    assert_string_equal(only_action(findings, "probe_all_reduce"), "watch");
    json_decref(findings);
    json_decref(probe);
}

static void hbm_below_its_floor_is_watched(void **state)
{
    (void)state;
    double ceiling = 4814.3, floor = ls_ceiling_floor(LS_PATH_HBM);
    for (int k = 0; k < 2; k++) { /* below the floor, and far below it: watch both */
        double share = k ? 0.3 : 0.9;
        json_t *probe = probe_of(json_pack("[{s:s, s:i, s:s, s:f, s:b, s:f, s:s, s:s}]", "kind",
                                           "hbm_copy", "gpu", 3, "status", "ok", "gbps",
                                           ceiling * floor * share, "verified", 1, "ceiling_gbps",
                                           ceiling, "path", ls_path_name(LS_PATH_HBM), "basis",
                                           "memory clock x bus width"));
        json_t *findings = ls_health_probe_findings(probe);
        assert_string_equal(only_action(findings, "probe_hbm"), "watch");
        json_decref(findings);
        json_decref(probe);
    }
}

static void unknown_ceiling_is_not_judged(void **state)
{
    (void)state;
    json_t *probe = probe_of(json_pack("[{s:s, s:i, s:i, s:s, s:f, s:b}]", "kind", "p2p_ce", "src",
                                       0, "dst", 1, "status", "ok", "gbps", 1.0, "verified", 1));
    json_t *findings = ls_health_probe_findings(probe);
    assert_int_equal(json_array_size(findings), 0);
    json_decref(findings);
    json_decref(probe);
}

/* A step that failed with no figure to judge: watch, with its reason; a skipped step
   (would not fit, NCCL missing) is said in the output, not a finding. */
static void step_failed_without_figures(void **state)
{
    (void)state;
    json_t *probe = json_pack("{s:i, s:[{s:s, s:s, s:s}, {s:s, s:s, s:s}], s:[]}", "gpus", 2,
                              "steps", "step", "probe: all_reduce, one size", "status", "failed",
                              "note", "ncclCommInitAll: unhandled cuda error", "step",
                              "probe: hbm copy, one size", "status", "skipped", "note",
                              "would not fit", "figures");
    json_t *findings = ls_health_probe_findings(probe);
    assert_string_equal(only_action(findings, "probe_all_reduce"), "watch");
    assert_non_null(
        strstr(json_string_value(json_object_get(json_array_get(findings, 0), "message")),
               "unhandled cuda error"));
    json_decref(findings);
    json_decref(probe);
}

/* CUDA could not start: its error named from the CUDA error catalog with the catalog's
   node action (802: Fabric Manager not running, isolate); 999 (whose fault the text cannot
   tell) and a reason without a CUDA error string stay watch. */
static const json_t *gpus_step_finding(const char *note, json_t **findings)
{
    json_t *probe = json_pack("{s:i, s:[{s:s, s:s, s:f, s:s}], s:[]}", "gpus", 0, "steps", "step",
                              "probe: GPUs", "status", "failed", "seconds", 0.0, "note", note,
                              "figures");
    *findings = ls_health_probe_findings(probe);
    json_decref(probe);
    assert_int_equal(json_array_size(*findings), 1);
    const json_t *f = json_array_get(*findings, 0);
    assert_string_equal(json_string_value(json_object_get(f, "rule")), "probe_gpus");
    return f;
}

static void cuda_error_named_from_the_catalog(void **state)
{
    (void)state;
    json_t *findings;
    const json_t *f = gpus_step_finding("no usable GPU: system not yet initialized", &findings);
    assert_string_equal(json_string_value(json_object_get(f, "action")), "isolate");
    const char *msg = json_string_value(json_object_get(f, "message"));
    assert_non_null(strstr(msg, "CUDA error 802 cudaErrorSystemNotReady"));
    assert_non_null(strstr(msg, "Fabric Manager"));
    json_decref(findings);
    f = gpus_step_finding("no usable GPU: unknown error", &findings);
    assert_string_equal(json_string_value(json_object_get(f, "action")), "watch");
    assert_non_null(strstr(json_string_value(json_object_get(f, "message")),
                           "CUDA error 999 cudaErrorUnknown"));
    json_decref(findings);
    f = gpus_step_finding("no usable GPU: no CUDA-capable GPU was found", &findings);
    assert_string_equal(json_string_value(json_object_get(f, "action")), "watch");
    assert_null(strstr(json_string_value(json_object_get(f, "message")), "CUDA error"));
    json_decref(findings);
}

static void cut_off_at_the_budget(void **state)
{
    (void)state;
    json_t *probe = probe_of(json_array());
    json_object_set_new(probe, "running", json_string("probe: all_reduce, one size"));
    json_t *findings = ls_health_probe_findings(probe);
    assert_string_equal(only_action(findings, "probe_budget"), "watch");
    json_decref(findings);
    json_decref(probe);
}

/* Where CUDA finds no GPU (this build without CUDA, or no driver), the probe records
   that its first step failed, with CUDA's reason, and measures nothing: a watch. */
static void no_gpu_measures_nothing(void **state)
{
    (void)state;
    char err[256];
    if (ls_gpu_count(err, sizeof err) > 0)
        skip(); /* a GPU here: tests/cli/test_gpu_health.sh probes it */
    ls_probe_t p;
    ls_probe_init(&p);
    ls_probe_run(&p, &(ls_probe_opts_t){.deadline = ls_probe_now() + 10});
    json_t *rec = ls_probe_snapshot(&p);
    ls_probe_free(&p);
    assert_int_equal(json_integer_value(json_object_get(rec, "gpus")), 0);
    assert_int_equal(json_array_size(json_object_get(rec, "figures")), 0);
    assert_null(json_object_get(rec, "running"));
    const json_t *steps = json_object_get(rec, "steps"), *s0 = json_array_get(steps, 0);
    assert_int_equal(json_array_size(steps), 1);
    assert_string_equal(json_string_value(json_object_get(s0, "step")), "probe: GPUs");
    assert_string_equal(json_string_value(json_object_get(s0, "status")), "failed");
    assert_string_equal(json_string_value(json_object_get(s0, "note")), err);
    json_t *findings = ls_health_probe_findings(rec);
    assert_string_equal(only_action(findings, "probe_gpus"), "watch");
    json_decref(findings);
    json_decref(rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bundled_run_figures_have_ceilings),
        cmocka_unit_test(pair_below_its_floor),
        cmocka_unit_test(many_pairs_low_make_one_finding),
        cmocka_unit_test(failed_copies_isolate),
        cmocka_unit_test(all_reduce_wrong_or_failed),
        cmocka_unit_test(hbm_below_its_floor_is_watched),
        cmocka_unit_test(unknown_ceiling_is_not_judged),
        cmocka_unit_test(cut_off_at_the_budget),
        cmocka_unit_test(step_failed_without_figures),
        cmocka_unit_test(cuda_error_named_from_the_catalog),
        cmocka_unit_test(no_gpu_measures_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
