/* Other tools' results (tests/fixtures/tools, README.md there names each source):
   nccl-tests -J, dcgmi diag --json, ncclras text, NCCL Inspector JSONL; each imports
   into a valid document, and what it means comes out as findings (rules_tools.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "analyze/analyze.h"
#include "analyze/compare.h"
#include "import/import.h"
#include "model/doc.h"
#include "util/fileio.h"

static void import_into(json_t *doc, const char *name, enum ls_import_format want)
{
    char rel[256];
    snprintf(rel, sizeof rel, "tools/%s", name);
    assert_true(ls_test_import(doc, rel, (int)want) > 0);
}

static json_t *import_one(const char *name, enum ls_import_format want)
{
    json_t *doc = ls_import_doc_new();
    import_into(doc, name, want);
    return doc;
}

static void message_has(const json_t *f, const char *text)
{
    assert_non_null(f);
    const char *msg = ls_json_str(f, "message", "");
    if (!strstr(msg, text))
        fail_msg("\"%s\" not in \"%s\"", text, msg);
}

static void ras_mismatch_is_not_healthy(void **state)
{
    (void)state;
    json_t *doc = import_one("ras-mismatch-nccl1911.txt", LS_FMT_NCCL_RAS);
    const json_t *ras = json_array_get(json_object_get(doc, "nccl_ras"), 0);
    assert_int_equal(ls_json_int(ras, "gpus", 0), 32);
    assert_string_equal(ls_json_str(ras, "nccl_version", ""), "2.26.2");
    json_t *f = ls_findings(doc);
    const json_t *state_f = ls_test_finding(f, "nccl_ras_state");
    message_has(state_f, "MISMATCH");
    assert_string_equal(ls_json_str(state_f, "severity", ""), "error");
    const json_t *p = ls_test_finding(f, "nccl_ras_problem");
    assert_non_null(p);
    assert_string_equal(ls_json_str(p, "subject", ""), "rank 12 on 10.137.190.124, GPU 4");
    assert_true(ls_findings_count_at_least(f, LS_SEV_WARNING) >= 1);
    json_decref(f);
    json_decref(doc);
}

static void ras_healthy_stays_quiet(void **state)
{
    (void)state;
    json_t *doc = import_one("ras-healthy-nccl-docs.txt", LS_FMT_NCCL_RAS);
    json_t *f = ls_findings(doc);
    assert_int_equal(ls_findings_count_at_least(f, LS_SEV_WARNING), 0);
    json_decref(f);
    json_decref(doc);
}

static void per_iteration_names_the_slow_rank(void **state)
{
    (void)state;
    json_t *doc = import_one("nccl-tests-json-v3-slow-rank.constructed.json",
                             LS_FMT_NCCL_TESTS_JSON);
    const json_t *e = json_array_get(json_object_get(doc, "measurements"), 0);
    assert_string_equal(ls_json_str(e, "collective", ""), "all_reduce");
    assert_int_equal(ls_json_int(e, "nodes", 0), 2);
    const json_t *iter =
        json_object_get(json_object_get(json_array_get(json_object_get(e, "rows"), 0), "oop"),
                        "iter");
    assert_int_equal(json_array_size(json_object_get(iter, "process_mean_us")), 4);
    json_t *f = ls_findings(doc);
    const json_t *s = ls_test_finding(f, "nccl_straggler");
    assert_non_null(s);
    assert_string_equal(ls_json_str(s, "subject", ""), "process 2 (rank 2 on node1, GPU 0)");
    message_has(s, "3 of 3 sizes");
    json_decref(f);
    json_decref(doc);
}

static void json_version1_spelling_and_no_straggler(void **state)
{
    (void)state;
    json_t *doc = import_one("nccl-tests-json-v1-misspelled.constructed.json",
                             LS_FMT_NCCL_TESTS_JSON);
    const json_t *e = json_array_get(json_object_get(doc, "measurements"), 0);
    assert_true(ls_json_num(e, "avg_busbw", 0) == 202.41);
    assert_int_equal(json_array_size(json_object_get(e, "gpus")), 8);
    assert_string_equal(ls_json_str(e, "nccl_version", ""), "2.27.3");
    json_t *f = ls_findings(doc);
    assert_null(ls_test_finding(f, "nccl_straggler"));
    json_decref(f);
    json_decref(doc);
}

static void dcgm_failed_plugin_gives_its_finding(void **state)
{
    (void)state;
    json_t *doc = import_one("dcgm-diag-4x-memory-fail.constructed.json", LS_FMT_DCGM_DIAG);
    json_t *f = ls_findings(doc);
    const json_t *d = ls_test_finding(f, "dcgm_failed");
    assert_non_null(d);
    assert_string_equal(ls_json_str(d, "severity", ""), "error");
    assert_string_equal(ls_json_str(d, "subject", ""), "GPU3");
    message_has(d, "memory test failed");
    message_has(d, "error code 12");
    message_has(d, "Drain the GPU");
    message_has(ls_test_finding(f, "dcgm_passed"),
                "(software)"); /* memory failed on one GPU: not a pass */
    json_decref(f);
    json_decref(doc);
}

static void dcgm_pass_is_evidence(void **state)
{
    (void)state;
    json_t *doc = import_one("dcgm-diag-3x-pass.constructed.json", LS_FMT_DCGM_DIAG);
    json_t *f = ls_findings(doc);
    assert_int_equal(ls_findings_count_at_least(f, LS_SEV_WARNING), 0);
    message_has(ls_test_finding(f, "dcgm_passed"), "3 tests passed");
    json_decref(f);
    json_decref(doc);
}

static void inspector_against_run_gives_ratio_per_size(void **state)
{
    (void)state;
    json_t *doc = import_one("nccl-tests-json-v3-allreduce-8gpu.constructed.json",
                             LS_FMT_NCCL_TESTS_JSON);
    import_into(doc, "inspector-8ranks.constructed.jsonl", LS_FMT_INSPECTOR);
    json_t *f = ls_findings(doc);
    const json_t *j = ls_test_finding(f, "job_vs_measured");
    message_has(j, "61% at 64 MiB (215.0 of 352.4 GB/s)");
    message_has(j, "62% at 1 GiB (300.0 of 480.0 GB/s)");
    assert_string_equal(ls_json_str(j, "severity", ""), "warning");
    json_decref(f);
    json_decref(doc);
}

static void inspector_alone_compares_nothing(void **state)
{
    (void)state;
    json_t *doc = import_one("inspector-8ranks.constructed.jsonl", LS_FMT_INSPECTOR);
    const json_t *g = json_array_get(json_object_get(doc, "inspector"), 0);
    assert_int_equal(ls_json_int(g, "records", 0), 8);
    json_t *f = ls_findings(doc);
    assert_null(ls_test_finding(f, "job_vs_measured"));
    json_decref(f);
    json_decref(doc);
}

/* The same run's text output and -J file (constructed as one run prints both: no real
   pair was found) compare as equal, figure by figure. */
static void json_and_text_of_one_run_compare_equal(void **state)
{
    (void)state;
    json_t *t = import_one("nccl-tests-text-allreduce-8gpu.constructed.txt", LS_FMT_NCCL_TESTS);
    json_t *j = import_one("nccl-tests-json-v3-allreduce-8gpu.constructed.json",
                           LS_FMT_NCCL_TESTS_JSON);
    ls_compare_opts_t opts = {.threshold_pct = 5, .latency_threshold_pct = 10};
    char err[256];
    json_t *c = ls_compare_docs(t, j, &opts, err, sizeof err);
    if (!c)
        fail_msg("%s", err);
    const json_t *rows = json_object_get(c, "rows");
    assert_true(json_array_size(rows) >= 2);
    size_t i;
    const json_t *r;
    json_array_foreach(rows, i, r) {
        assert_string_equal(ls_json_str(r, "verdict", ""), "same");
        assert_true(ls_json_num(r, "a", 0) == ls_json_num(r, "b", -1));
    }
    assert_int_equal(json_array_size(json_object_get(c, "only_a")), 0);
    assert_int_equal(json_array_size(json_object_get(c, "only_b")), 0);
    json_decref(c);
    json_decref(t);
    json_decref(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ras_mismatch_is_not_healthy),
        cmocka_unit_test(ras_healthy_stays_quiet),
        cmocka_unit_test(per_iteration_names_the_slow_rank),
        cmocka_unit_test(json_version1_spelling_and_no_straggler),
        cmocka_unit_test(dcgm_failed_plugin_gives_its_finding),
        cmocka_unit_test(dcgm_pass_is_evidence),
        cmocka_unit_test(inspector_against_run_gives_ratio_per_size),
        cmocka_unit_test(inspector_alone_compares_nothing),
        cmocka_unit_test(json_and_text_of_one_run_compare_equal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
