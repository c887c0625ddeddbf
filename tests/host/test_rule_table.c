/* The rule table (analyze/rule_table.c) is what the findings run: each group once, in
   its order, judged groups before the noisy lowering and the folds, the others after. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "analyze/rules.h"
#include "helpers.h"
#include "model/doc.h"

static json_t *load(const char *name)
{
    char err[512];
    json_t *doc = ls_doc_read(ls_fixture(name), err, sizeof err);
    if (!doc)
        fail_msg("%s", err);
    return doc;
}

static void rows_are_whole(void **state)
{
    (void)state;
    assert_true(ls_rule_group_count > 0);
    for (size_t i = 0; i < ls_rule_group_count; i++) {
        assert_non_null(ls_rule_groups[i].id);
        assert_non_null(ls_rule_groups[i].run);
        for (size_t j = 0; j < i; j++) /* one row per group: none runs twice */
            assert_string_not_equal(ls_rule_groups[i].id, ls_rule_groups[j].id);
        if (i && ls_rule_groups[i].stage == LS_STAGE_JUDGED) /* the table reads in run order */
            assert_int_equal(ls_rule_groups[i - 1].stage, LS_STAGE_JUDGED);
    }
}

/* The rules of the findings are exactly those the table's groups give, run one by one
   (seed 004 has no noisy figure and nothing to fold: the driver changes no rule). */
static void findings_are_the_groups(void **state)
{
    (void)state;
    json_t *doc = load("analyze/seed004-nvlink8-degraded.json"), *by_groups = json_array();
    ls_machine_t *m = ls_machine_new(doc);
    assert_non_null(m);
    for (size_t i = 0; i < ls_rule_group_count; i++)
        ls_rule_groups[i].run(m, by_groups);
    ls_machine_free(m);
    json_t *f = ls_findings(doc);
    assert_true(json_array_size(by_groups) > 0);
    assert_int_equal(json_array_size(f), json_array_size(by_groups));
    size_t i, j;
    const json_t *a, *b;
    json_array_foreach(by_groups, i, a) {
        int found = 0;
        json_array_foreach(f, j, b)
            found |= !strcmp(ls_json_str(a, "rule", ""), ls_json_str(b, "rule", "")) &&
                     !strcmp(ls_json_str(a, "subject", ""), ls_json_str(b, "subject", ""));
        assert_true(found);
    }
    json_decref(f);
    json_decref(by_groups);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rows_are_whole),
        cmocka_unit_test(findings_are_the_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
