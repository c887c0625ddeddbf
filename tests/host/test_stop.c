/* Stopping rules (util/stop.c, issue 14): the median's order-statistic interval, the
   sample and size rules, and agreement with the fixed-count figures of the bundled
   2 x H200 run (examples/h200x2-run.json). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "util/stats.h"
#include "util/stop.h"

/* The ranks come from binomial(n, 1/2) tails: n = 6 is the first n with a 95% interval
   ([min, max]: misses with 2/64); n = 10 gives [x2, x9] (misses with 22/1024). */
static void test_ci_ranks(void **state)
{
    (void)state;
    assert_int_equal(ls_median_ci_rank(5, 0.95), 0);
    assert_int_equal(ls_median_ci_rank(6, 0.95), 1);
    assert_int_equal(ls_median_ci_rank(10, 0.95), 2);
    assert_int_equal(ls_median_ci_rank(20, 0.95), 6);
    double x[10] = {9, 1, 8, 2, 7, 3, 6, 4, 5, 10}, lo, hi;
    assert_int_equal(ls_median_ci(x, 10, 0.95, &lo, &hi), 0);
    assert_true(lo == 2 && hi == 9);
    assert_int_equal(ls_median_ci(x, 5, 0.95, &lo, &hi), -1);
}

static void test_sample_rule(void **state)
{
    (void)state;
    ls_sample_rule_t r = ls_sample_rule_default(20);
    double tight[20], loose[20];
    for (int i = 0; i < 20; i++) {
        tight[i] = 100 + 0.01 * (i % 3);
        loose[i] = 100 + 10.0 * (i % 2);
    }
    assert_int_equal(ls_samples_enough(tight, 5, &r), LS_STOP_MORE);
    assert_int_equal(ls_samples_enough(tight, 6, &r), LS_STOP_CONVERGED);
    assert_int_equal(ls_samples_enough(loose, 19, &r), LS_STOP_MORE);
    assert_int_equal(ls_samples_enough(loose, 20, &r), LS_STOP_LIMIT);
    /* a level of fewer samples than the minimum takes them all */
    ls_sample_rule_t few = ls_sample_rule_default(3);
    assert_int_equal(ls_samples_enough(tight, 3, &few), LS_STOP_LIMIT);
}

static void test_size_rule(void **state)
{
    (void)state;
    ls_size_rule_t r = ls_size_rule_default();
    double bw[] = {100, 150, 180, 181};
    assert_int_equal(ls_sizes_enough(bw, 1, 0, &r), LS_STOP_MORE);
    assert_int_equal(ls_sizes_enough(bw, 3, 0, &r), LS_STOP_MORE);
    assert_int_equal(ls_sizes_enough(bw, 3, 1, &r), LS_STOP_LIMIT);
    assert_int_equal(ls_sizes_enough(bw, 4, 0, &r), LS_STOP_CONVERGED);
}

static json_t *bundled(void)
{
    json_error_t jerr;
    json_t *doc = json_load_file(ls_fixture("../../examples/h200x2-run.json"), 0, &jerr);
    assert_non_null(doc);
    return doc;
}

/* Every recorded series (10 samples a figure) fed one sample at a time: where the rule
   stops, the median of the samples so far agrees with the fixed-count median within
   the series' spread (max - min). */
static void test_agrees_with_fixed_count(void **state)
{
    (void)state;
    json_t *doc = bundled();
    size_t i;
    json_t *e;
    int series = 0, early = 0;
    json_array_foreach(json_object_get(doc, "measurements"), i, e) {
        json_t *js = json_object_get(e, "samples");
        int n = (int)json_array_size(js);
        if (n < 6)
            continue;
        double x[64];
        for (int k = 0; k < n && k < 64; k++)
            x[k] = json_real_value(json_array_get(js, (size_t)k));
        ls_sample_rule_t r = ls_sample_rule_default(n);
        int k = 1;
        while (ls_samples_enough(x, k, &r) == LS_STOP_MORE)
            k++;
        ls_stats_t all = ls_stats(x, (size_t)n), part = ls_stats(x, (size_t)k);
        assert_true(fabs(part.median - all.median) <= all.max - all.min);
        series++;
        early += k < n;
    }
    print_message("%d series, %d stopped before the fixed count\n", series, early);
    assert_true(series >= 40);
    assert_true(early > 0); /* the tight P2P and HBM series need fewer than 10 */
    json_decref(doc);
}

/* The all_reduce curve of the bundled run (1 MiB up, factor 2): the size rule stops
   where the bus bandwidth is within its tolerance of the largest size's. */
static void test_size_rule_on_recorded_curve(void **state)
{
    (void)state;
    json_t *doc = bundled();
    size_t i;
    json_t *e, *row;
    double bw[64];
    int n = 0;
    json_array_foreach(json_object_get(doc, "measurements"), i, e) {
        if (strcmp(json_string_value(json_object_get(e, "family")), "nccl") ||
            strcmp(json_string_value(json_object_get(e, "collective")), "all_reduce"))
            continue;
        json_array_foreach(json_object_get(e, "rows"), i, row)
            if (json_integer_value(json_object_get(row, "bytes")) >= (1 << 20) && n < 64)
                bw[n++] = json_real_value(json_object_get(json_object_get(row, "oop"), "busbw"));
        break;
    }
    assert_true(n >= 4);
    ls_size_rule_t r = ls_size_rule_default();
    int k = 1;
    enum ls_stop s;
    while ((s = ls_sizes_enough(bw, k, k == n, &r)) == LS_STOP_MORE)
        k++;
    assert_int_equal(s, LS_STOP_CONVERGED);
    assert_true(fabs(bw[k - 1] - bw[n - 1]) / bw[n - 1] <= r.tol);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ci_ranks),
        cmocka_unit_test(test_sample_rule),
        cmocka_unit_test(test_size_rule),
        cmocka_unit_test(test_agrees_with_fixed_count),
        cmocka_unit_test(test_size_rule_on_recorded_curve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
