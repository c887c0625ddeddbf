/* Findings carry what they are about as data (analyze/about.h): the subject text is
   rendered from it, the plan reads the data and never the text, and a rule that words
   its message its own way ("GPU 0" in a burn or spec message) still names its GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "analyze/about.h"
#include "analyze/analyze.h"
#include "analyze/fleet.h"
#include "helpers.h"
#include "model/doc.h"
#include "model/gpuset.h"

static json_t *load(const char *name)
{
    char err[512];
    json_t *doc = ls_doc_read(ls_fixture(name), err, sizeof err);
    if (!doc)
        fail_msg("%s", err);
    return doc;
}

static const json_t *rule_of(const json_t *findings, const char *rule)
{
    size_t i;
    const json_t *f;
    json_array_foreach(findings, i, f)
        if (!strcmp(ls_json_str(f, "rule", ""), rule))
            return f;
    return NULL;
}

static void text_is(ls_about_t a, const char *want)
{
    char buf[128];
    ls_about_text(&a, buf, sizeof buf);
    assert_string_equal(buf, want);
}

static void every_shape_renders(void **state)
{
    (void)state;
    text_is(LS_ABOUT_GPU(3), "GPU3");
    text_is(LS_ABOUT_PAIR(0, 4), "GPU0->GPU4");
    text_is(LS_ABOUT_BOTH(4, 0), "GPU4<->GPU0");
    text_is(LS_ABOUT_GPUS(0x0f | 1ULL << 7), "GPUs 0-3,7");
    text_is((ls_about_t){.gpus = 0xff, .all = 1}, "GPUs 0-7 (all)");
    text_is(LS_ABOUT_ON("all_reduce", 0x3), "all_reduce on GPUs 0,1");
    text_is(LS_ABOUT_WHAT("input x.log"), "input x.log");
    text_is(LS_ABOUT_PORT("mlx5_0:1"), "mlx5_0:1");
    text_is(LS_ABOUT_GPUS(0), "GPU unknown"); /* never an empty list */
    text_is(LS_ABOUT_GPU(64), "GPU unknown"); /* beyond the 64 a mask holds: not guessed */
}

static void data_fields_written(void **state)
{
    (void)state;
    json_t *f = json_object();
    ls_about_t both = LS_ABOUT_BOTH(0, 4);
    ls_about_set(f, &both);
    assert_int_equal(ls_finding_gpus(f), 0x11);
    json_t *want = json_pack("[[i, i], [i, i]]", 0, 4, 4, 0);
    assert_true(json_equal(json_object_get(f, "pairs"), want));
    json_decref(want);
    ls_about_t port = LS_ABOUT_PORT("mlx5_0:1"); /* set again: what it no longer names goes */
    ls_about_set(f, &port);
    assert_null(json_object_get(f, "gpus"));
    assert_null(json_object_get(f, "pairs"));
    assert_string_equal(ls_json_str(f, "port", ""), "mlx5_0:1");
    assert_string_equal(ls_json_str(f, "subject", ""), "mlx5_0:1");
    json_decref(f);
}

/* seed 004: the error on GPU0<->GPU4 carries both GPUs, both directions and "avoid". */
static void seed004_error_is_data(void **state)
{
    (void)state;
    json_t *doc = load("analyze/seed004-nvlink8-degraded.json"), *f = ls_findings(doc);
    const json_t *d = rule_of(f, "degraded_link");
    assert_non_null(d);
    assert_int_equal(ls_finding_gpus(d), 0x11);
    assert_int_equal(json_array_size(json_object_get(d, "pairs")), 2);
    assert_int_equal(ls_finding_action(d), LS_FA_AVOID);
    size_t i;
    const json_t *o;
    json_array_foreach(f, i, o) /* only errors that name GPUs are avoided */
        assert_int_equal(ls_finding_action(o) == LS_FA_AVOID,
                         !strcmp(ls_json_str(o, "severity", ""), "error") &&
                             ls_finding_gpus(o) != 0);
    json_decref(f);
    json_decref(doc);
}

/* The plan reads the data: renamed subjects change nothing; the data taken away does. */
static void plan_reads_data_not_text(void **state)
{
    (void)state;
    json_t *doc = load("analyze/seed004-nvlink8-degraded.json"), *f = ls_findings(doc);
    json_t *plan = ls_plan_with(doc, f), *renamed = json_deep_copy(f), *blind = json_deep_copy(f);
    size_t i;
    json_t *o;
    json_array_foreach(renamed, i, o)
        json_object_set_new(o, "subject", json_string("worded another way"));
    json_array_foreach(blind, i, o)
        json_object_del(o, "gpus");
    json_t *plan_renamed = ls_plan_with(doc, renamed), *plan_blind = ls_plan_with(doc, blind);
    assert_true(json_equal(plan, plan_renamed));
    assert_false(json_equal(plan, plan_blind));
    json_decref(plan);
    json_decref(plan_renamed);
    json_decref(plan_blind);
    json_decref(renamed);
    json_decref(blind);
    json_decref(f);
    json_decref(doc);
}

/* A burn whose product went wrong: the message keeps its own wording ("GPU 0: ..."),
   the finding names GPU0 as data, so the plan keeps it out (its subject once read "GPU 0",
   which the text parser missed). */
static void burn_fault_names_its_gpu(void **state)
{
    (void)state;
    json_t *doc = load("../../examples/h200-burn.json");
    json_t *e = json_array_get(json_object_get(doc, "measurements"), 0);
    json_object_set_new(json_object_get(e, "burn"), "wrong", json_integer(12));
    json_t *f = ls_findings(doc);
    const json_t *fault = rule_of(f, "burn_fault");
    assert_non_null(fault);
    assert_string_equal(ls_json_str(fault, "subject", ""), "GPU0");
    assert_int_equal(ls_finding_gpus(fault), 1);
    assert_int_equal(ls_finding_action(fault), LS_FA_AVOID);
    assert_non_null(strstr(ls_json_str(fault, "message", ""), "GPU 0: the repeated product"));
    json_decref(f);
    json_decref(doc);
}

/* The same power limit on every GPU of the even 8 x H200 box folds into one finding on
   the node whose data names all eight. */
static void fold_names_every_gpu(void **state)
{
    (void)state;
    json_t *doc = load("analyze/hgx-h200x8-even.json");
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(doc, "gpus"), i, g)
        json_object_set_new(g, "power",
                            json_pack("{s:f, s:f}", "limit_w", 500.0, "default_limit_w", 700.0));
    json_t *f = ls_findings(doc);
    const json_t *p = rule_of(f, "power_limit");
    assert_non_null(p);
    assert_int_equal(ls_finding_gpus(p), 0xff);
    assert_string_equal(ls_json_str(p, "subject", ""), "GPUs 0-7 (all)");
    assert_int_equal(json_array_size(json_object_get(p, "evidence")), 8);
    json_decref(f);
    json_decref(doc);
}

/* A fleet keeps each node's warnings and errors with the GPUs they name: a scheduler
   drains GPU0 and GPU4 of seed 004's box from the data, not from the text. */
static void fleet_keeps_the_data(void **state)
{
    (void)state;
    json_t *doc = load("analyze/seed004-nvlink8-degraded.json"),
           *kept = ls_fleet_node_findings(doc);
    const json_t *d = rule_of(kept, "degraded_link");
    assert_non_null(d);
    assert_int_equal(ls_finding_gpus(d), 0x11);
    assert_int_equal(ls_finding_action(d), LS_FA_AVOID);
    json_decref(kept);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_shape_renders),      cmocka_unit_test(data_fields_written),
        cmocka_unit_test(seed004_error_is_data),    cmocka_unit_test(plan_reads_data_not_text),
        cmocka_unit_test(burn_fault_names_its_gpu), cmocka_unit_test(fold_names_every_gpu),
        cmocka_unit_test(fleet_keeps_the_data),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
