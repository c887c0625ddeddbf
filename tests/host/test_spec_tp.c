/* The acceptance verdict in tensor-parallel terms (analyze/spec_tp.c) and the run's spec
   step: seed 003's cards priced on their PCIe against the part's NVLink, a document that
   does not record NVLinks left unknown, the spec findings joining the document's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "helpers.h"
#include "analyze/analyze.h"
#include "analyze/spec_tp.h"
#include "analyze/tp.h"
#include "model/doc.h"
#include "model/theory.h"

static json_t *load(const char *rel)
{
    char err[256];
    json_t *doc = ls_doc_read(ls_fixture(rel), err, sizeof err);
    assert_non_null(doc);
    return doc;
}

/* Ring all-reduce, bandwidth term: 2 all-reduces per layer of tokens x hidden x 2 bytes,
   each moving 2(n-1)/n of it at gbps. */
static double expected_s(int tp, double gbps)
{
    const ls_tp_preset_t *p = ls_tp_preset_find(LS_SPEC_TP_MODEL);
    double bytes = (double)LS_SPEC_TP_TOKENS * p->hidden * 2;
    return 2.0 * p->layers * (2.0 * (tp - 1) / tp) * bytes / (gbps * 1e9);
}

static void test_seed003_verdict(void **state)
{
    (void)state;
    ls_datasheet_t ds;
    char err[256];
    assert_int_equal(ls_datasheet_builtin(&ds, err, sizeof err), 0);
    json_t *doc = load("analyze/seed003-h100-special.json");
    json_t *v = ls_spec_tp_verdict(doc, &ds, LS_SPEC_TP_MODEL, LS_SPEC_TP_TOKENS, err, sizeof err);
    assert_non_null(v);
    const json_t *here = json_object_get(v, "here"), *degrees = json_object_get(v, "degrees");
    double pcie = ls_json_num(here, "gbps", 0),
           nvl = ls_json_num(json_object_get(v, "part"), "gbps", 0);
    assert_float_equal(pcie,
                       ls_json_num(json_object_get(json_array_get(json_object_get(doc, "gpus"), 0),
                                                   "pcie"),
                                   "theoretical_gbps", -1),
                       1e-9);
    assert_float_equal(nvl, 450, 1e-9); /* h100-sxm5: 900 GB/s both ways */
    /* four GPUs: TP=2 and 4, the sizes the machine has */
    assert_int_equal(json_array_size(degrees), 2);
    for (size_t i = 0; i < 2; i++) {
        const json_t *d = json_array_get(degrees, i);
        int tp = (int)ls_json_int(d, "tp", 0);
        assert_int_equal(tp, 2 << i);
        assert_float_equal(ls_json_num(d, "here_s", 0), expected_s(tp, pcie), 1e-9);
        assert_float_equal(ls_json_num(d, "part_s", 0), expected_s(tp, nvl), 1e-9);
        assert_non_null(strstr(ls_json_str(d, "line", ""), "theoretical PCIe Gen5 x16"));
    }
    /* the seed's finding in these terms: about 7 x the NVLink time */
    double r = ls_json_num(json_array_get(degrees, 0), "here_s", 0) /
               ls_json_num(json_array_get(degrees, 0), "part_s", 1);
    assert_true(r > 7 && r < 7.3);
    json_decref(v);
    json_decref(doc);
    ls_datasheet_free(&ds);
}

/* The PCIe rate is the link's maximum generation (an idle GPU reads Gen1) at the width
   it trained at: seed 003's cards idling at Gen1 and one trained at x8 of x16. */
static void test_pcie_generation_and_trained_width(void **state)
{
    (void)state;
    ls_datasheet_t ds;
    char err[256];
    assert_int_equal(ls_datasheet_builtin(&ds, err, sizeof err), 0);
    json_t *doc = load("analyze/seed003-h100-special.json");
    json_t *pcie = json_object_get(json_array_get(json_object_get(doc, "gpus"), 0), "pcie");
    json_object_set_new(pcie, "gen_current", json_integer(1));
    json_t *v = ls_spec_tp_verdict(doc, &ds, LS_SPEC_TP_MODEL, LS_SPEC_TP_TOKENS, err, sizeof err);
    assert_non_null(v);
    assert_float_equal(ls_json_num(json_object_get(v, "here"), "gbps", 0),
                       ls_pcie_theoretical_gbps(5, 16), 1e-9);
    json_decref(v);
    json_object_set_new(pcie, "width_current", json_integer(8));
    v = ls_spec_tp_verdict(doc, &ds, LS_SPEC_TP_MODEL, LS_SPEC_TP_TOKENS, err, sizeof err);
    assert_non_null(v);
    assert_float_equal(ls_json_num(json_object_get(v, "here"), "gbps", 0),
                       ls_pcie_theoretical_gbps(5, 8), 1e-9);
    assert_non_null(
        strstr(ls_json_str(json_array_get(json_object_get(v, "degrees"), 0), "line", ""),
               "theoretical PCIe Gen5 x8"));
    json_decref(v);
    json_decref(doc);
    ls_datasheet_free(&ds);
}

/* An SXM part whose NVLinks the document does not record: no PCIe guess. */
static void test_unrecorded_nvlink_unknown(void **state)
{
    (void)state;
    ls_datasheet_t ds;
    char err[256] = "";
    assert_int_equal(ls_datasheet_builtin(&ds, err, sizeof err), 0);
    json_t *doc = load("analyze/seed003-h100-special.json");
    json_t *gpu;
    size_t i;
    json_array_foreach(json_object_get(doc, "gpus"), i, gpu)
        json_object_del(gpu, "nvlinks");
    assert_null(ls_spec_tp_verdict(doc, &ds, LS_SPEC_TP_MODEL, LS_SPEC_TP_TOKENS, err, sizeof err));
    assert_non_null(strstr(err, "does not record the GPUs' NVLinks"));
    assert_null(ls_spec_tp_verdict(doc, &ds, "no-such-model", LS_SPEC_TP_TOKENS, err, sizeof err));
    assert_non_null(strstr(err, "no-such-model"));
    json_decref(doc);
    ls_datasheet_free(&ds);
}

/* One GPU (our one-GPU H200 VM slice, or an L4): no tensor-parallel size on the
   machine, so no TP line at all (issue 27: only the TP sizes the machine has); two L4s
   are priced on their PCIe link, at TP=2 only. */
static void test_one_gpu_has_no_tp_size(void **state)
{
    (void)state;
    ls_datasheet_t ds;
    char err[256];
    assert_int_equal(ls_datasheet_builtin(&ds, err, sizeof err), 0);
    json_t *doc = load("../../examples/h200-burn.json");
    assert_int_equal(json_array_size(json_object_get(doc, "gpus")), 1);
    json_t *none = ls_spec_tp_verdict(doc, &ds, LS_SPEC_TP_MODEL, LS_SPEC_TP_TOKENS, err,
                                      sizeof err);
    assert_non_null(strstr(ls_json_str(none, "none", ""), "one GPU here"));
    assert_null(json_object_get(none, "degrees"));
    json_decref(none);
    json_t *gpus = json_object_get(doc, "gpus");
    json_object_set_new(json_array_get(gpus, 0), "name", json_string("NVIDIA L4"));
    none = ls_spec_tp_verdict(doc, &ds, LS_SPEC_TP_MODEL, LS_SPEC_TP_TOKENS, err, sizeof err);
    assert_null(json_object_get(none, "degrees"));
    json_decref(none);
    json_t *second = json_deep_copy(json_array_get(gpus, 0));
    json_object_set_new(second, "index", json_integer(1));
    json_array_append_new(gpus, second);
    json_t *v = ls_spec_tp_verdict(doc, &ds, LS_SPEC_TP_MODEL, LS_SPEC_TP_TOKENS, err, sizeof err);
    assert_non_null(v);
    assert_non_null(
        strstr(ls_json_str(json_object_get(v, "here"), "basis", ""), "theoretical PCIe"));
    assert_int_equal(json_array_size(json_object_get(v, "degrees")), 1);
    assert_int_equal(ls_json_int(json_array_get(json_object_get(v, "degrees"), 0), "tp", 0), 2);
    json_decref(v);
    json_decref(doc);
    ls_datasheet_free(&ds);
}

/* One NVLink figure (issue 27): the part's NVLink in the TP lines is its links at the
   rate NVML reports for each, the ceiling the headline's P2P line is judged against. */
static void test_part_nvlink_is_the_headline_ceiling(void **state)
{
    (void)state;
    ls_datasheet_t ds;
    char err[256];
    assert_int_equal(ls_datasheet_builtin(&ds, err, sizeof err), 0);
    json_t *doc = load("../../examples/h200x2-run.json"), *plan = ls_plan(doc);
    json_t *v = ls_spec_tp_verdict(doc, &ds, LS_SPEC_TP_MODEL, LS_SPEC_TP_TOKENS, err, sizeof err);
    assert_non_null(v);
    double ceiling = ls_json_num(json_object_get(json_object_get(plan, "ceilings"),
                                                 "p2p-ce-uni-0-1"),
                                 "ceiling_gbps", 0);
    assert_true(ceiling > 0);
    /* the plan keeps 2 decimals (478.12 of 478.116): both print 478.1 */
    assert_float_equal(ls_json_num(json_object_get(v, "part"), "gbps", 0), ceiling, 0.01);
    /* two GPUs: TP=2 only */
    assert_int_equal(json_array_size(json_object_get(v, "degrees")), 1);
    json_decref(v);
    json_decref(plan);
    json_decref(doc);
    ls_datasheet_free(&ds);
}

/* The run's spec step: doc.spec written, and the spec findings among the document's. */
static void test_spec_record_joins_findings(void **state)
{
    (void)state;
    char err[256];
    json_t *doc = load("analyze/seed003-h100-special.json");
    json_t *before = ls_findings(doc);
    int errors_before = ls_findings_count_at_least(before, LS_SEV_ERROR);
    assert_int_equal(ls_spec_record(doc, err, sizeof err), 0);
    const json_t *spec = json_object_get(doc, "spec");
    assert_int_equal(json_array_size(json_object_get(spec, "gpus")), 4);
    assert_int_equal(json_array_size(json_object_get(json_object_get(spec, "tp"), "degrees")), 2);
    json_t *after = ls_findings(doc);
    assert_int_equal(ls_findings_count_at_least(after, LS_SEV_ERROR), errors_before + 4);
    json_decref(before);
    json_decref(after);
    json_decref(doc);
}

/* One GPU with an SXM name and no NVLink (this project's one-GPU H200 VM looks so): info,
   not the error several such GPUs get. */
static void test_one_gpu_is_info(void **state)
{
    (void)state;
    ls_datasheet_t ds;
    char err[256];
    assert_int_equal(ls_datasheet_builtin(&ds, err, sizeof err), 0);
    json_t *doc = load("analyze/seed003-h100-special.json"), *gpus = json_object_get(doc, "gpus");
    while (json_array_size(gpus) > 1)
        json_array_remove(gpus, json_array_size(gpus) - 1);
    json_t *findings = json_array();
    json_decref(ls_spec_check(doc, &ds, findings));
    assert_int_equal(json_array_size(findings), 1);
    assert_string_equal(ls_json_str(json_array_get(findings, 0), "rule", ""), "spec_nvlink");
    assert_string_equal(ls_json_str(json_array_get(findings, 0), "severity", ""), "info");
    assert_non_null(
        strstr(ls_json_str(json_array_get(findings, 0), "message", ""), "the only GPU here"));
    json_decref(findings);
    json_decref(doc);
    ls_datasheet_free(&ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed003_verdict),
        cmocka_unit_test(test_pcie_generation_and_trained_width),
        cmocka_unit_test(test_unrecorded_nvlink_unknown),
        cmocka_unit_test(test_spec_record_joins_findings),
        cmocka_unit_test(test_one_gpu_is_info),
        cmocka_unit_test(test_one_gpu_has_no_tp_size),
        cmocka_unit_test(test_part_nvlink_is_the_headline_ceiling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
