/* Seed 000's 11-GPU GV100 machine: the plan must say what its author concluded
   (island 0-4, pair 7-9, GPU 10 kept out, GPUs 6 and 8 for HBM-bound work) and the
   Quadro GV100 HBM outliers must be found. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "helpers.h"
#include "model/doc.h"

static json_t *doc, *plan, *findings;

static int setup(void **state)
{
    (void)state;
    char err[512];
    doc = ls_doc_read(ls_fixture("analyze/seed000-gv100x11.json"), err, sizeof err);
    if (!doc)
        fail_msg("%s", err);
    findings = ls_findings(doc);
    plan = ls_plan_with(doc, findings);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    json_decref(doc);
    json_decref(plan);
    json_decref(findings);
    return 0;
}

/* "0,1,2" for a JSON array of integers. */
static const char *set_of(const json_t *gpus)
{
    static char buf[256];
    buf[0] = '\0';
    size_t i;
    const json_t *g;
    json_array_foreach(gpus, i, g) {
        size_t len = strlen(buf);
        snprintf(buf + len, sizeof buf - len, "%s%lld", i ? "," : "",
                 (long long)json_integer_value(g));
    }
    return buf;
}

static const json_t *group_of_size(int k)
{
    size_t i;
    const json_t *g;
    json_array_foreach(json_object_get(plan, "groups"), i, g) {
        if (ls_json_int(g, "k", 0) == k)
            return g;
    }
    fail_msg("no group of size %d", k);
    return NULL;
}

static void island_0_4_is_the_cleanest(void **state)
{
    (void)state;
    assert_string_equal(set_of(json_object_get(plan, "cleanest_island")), "0,1,2,3,4");
    int found = 0;
    size_t i;
    const json_t *is;
    json_array_foreach(json_object_get(plan, "islands"), i, is) {
        if (!strcmp(set_of(json_object_get(is, "gpus")), "0,1,2,3,4")) {
            assert_string_equal(ls_json_str(is, "link_class", ""), "PIX");
            found = 1;
        }
    }
    assert_true(found);
    const json_t *five = group_of_size(5);
    assert_string_equal(set_of(json_object_get(five, "gpus")), "0,1,2,3,4");
    assert_float_equal(ls_json_num(five, "measured_busbw_gbps", 0), 11.17, 1e-9);
    /* the sixth card crosses PHB: the expected figure drops a step */
    assert_true(ls_json_num(group_of_size(6), "expected_busbw_gbps", 0) <
                0.85 * ls_json_num(five, "expected_busbw_gbps", 0));
}

static void pair_7_9_is_the_best_pair(void **state)
{
    (void)state;
    const json_t *pairs = json_object_get(plan, "best_pairs");
    assert_int_equal(json_array_size(pairs), 1);
    assert_string_equal(set_of(json_object_get(json_array_get(pairs, 0), "gpus")), "7,9");
    assert_string_equal(ls_json_str(json_array_get(pairs, 0), "link", ""), "NV4");
    const json_t *two = group_of_size(2);
    assert_string_equal(set_of(json_object_get(two, "gpus")), "7,9");
    assert_float_equal(ls_json_num(two, "measured_busbw_gbps", 0), 73.31, 1e-9);
}

static void gpu_10_is_kept_out_for_every_reason(void **state)
{
    (void)state;
    const json_t *ko = json_object_get(plan, "keep_out");
    assert_int_equal(json_array_size(ko), 1);
    const json_t *k = json_array_get(ko, 0);
    assert_int_equal(ls_json_int(k, "gpu", -1), 10);
    const char *codes[] = {"numa", "no_p2p", "smaller_memory", "sys"};
    const json_t *have = json_object_get(k, "codes");
    assert_int_equal(json_array_size(have), 4);
    for (size_t i = 0; i < 4; i++)
        assert_string_equal(json_string_value(json_array_get(have, i)), codes[i]);
    /* GPU 10 joins a group only when every other GPU is in it */
    for (int size = 2; size <= 10; size++)
        assert_null(strstr(set_of(json_object_get(group_of_size(size), "gpus")), "10"));
    assert_string_equal(set_of(json_object_get(group_of_size(11), "gpus")),
                        "0,1,2,3,4,5,6,7,8,9,10");
}

static void gpus_6_and_8_for_memory_bound_work(void **state)
{
    (void)state;
    const json_t *best = json_object_get(plan, "best_hbm_gpus");
    assert_int_equal(json_array_size(best), 2);
    assert_int_equal(ls_json_int(json_array_get(best, 0), "gpu", -1), 6);
    assert_int_equal(ls_json_int(json_array_get(best, 1), "gpu", -1), 8);
}

static int count_rule(const char *rule, const char *subject)
{
    int n = 0;
    size_t i;
    const json_t *f;
    json_array_foreach(findings, i, f) {
        if (!strcmp(ls_json_str(f, "rule", ""), rule) &&
            (!subject || !strcmp(ls_json_str(f, "subject", ""), subject)))
            n++;
    }
    return n;
}

static void gv100_hbm_outliers_found(void **state)
{
    (void)state;
    assert_int_equal(count_rule("hbm_efficiency", NULL), 2);
    assert_int_equal(count_rule("hbm_efficiency", "GPU7"), 1);
    assert_int_equal(count_rule("hbm_efficiency", "GPU9"), 1);
}

static void placement_and_nccl_findings(void **state)
{
    (void)state;
    assert_int_equal(count_rule("numa_placement", "GPU10"), 1);
    /* SHM on PHB edges where P2P is OK: the 2-, 6-, 10- and 11-GPU rings */
    assert_int_equal(count_rule("nccl_p2p_unused", NULL), 4);
    assert_int_equal(count_rule("nccl_p2p_unused", "all_reduce on GPUs 0-10"), 1);
    /* the 11-GPU ring got slower with NCCL_P2P_LEVEL=PHB: only informational */
    size_t i;
    const json_t *f;
    json_array_foreach(findings, i, f) {
        if (strcmp(ls_json_str(f, "rule", ""), "nccl_p2p_unused"))
            continue;
        if (!strcmp(ls_json_str(f, "subject", ""), "all_reduce on GPUs 0-10"))
            assert_string_equal(ls_json_str(f, "severity", ""), "info");
        if (!strcmp(ls_json_str(f, "subject", ""), "all_reduce on GPUs 0-9"))
            assert_string_equal(ls_json_str(f, "severity", ""), "warning");
    }
    /* no link of the machine is broken, and PHB's spread 7.08-10.28 is not a fault */
    assert_int_equal(count_rule("degraded_link", NULL), 0);
    assert_int_equal(count_rule("asymmetry", NULL), 0);
    assert_int_equal(ls_findings_count_at_least(findings, LS_SEV_ERROR), 0);
}

static void analysis_is_deterministic(void **state)
{
    (void)state;
    json_t *again = ls_plan(doc);
    char *a = ls_doc_dumps(plan), *b = ls_doc_dumps(again);
    assert_string_equal(a, b);
    free(a);
    free(b);
    json_decref(again);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(island_0_4_is_the_cleanest),
        cmocka_unit_test(pair_7_9_is_the_best_pair),
        cmocka_unit_test(gpu_10_is_kept_out_for_every_reason),
        cmocka_unit_test(gpus_6_and_8_for_memory_bound_work),
        cmocka_unit_test(gv100_hbm_outliers_found),
        cmocka_unit_test(placement_and_nccl_findings),
        cmocka_unit_test(analysis_is_deterministic),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
