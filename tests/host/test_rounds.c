/* The run's pair rounds (pipeline/rounds.c) and the concurrency check (issue 14):
   rounds as measure takes them for the run's GPUs, a link class put back to serial,
   the "lower beyond the spread" test, and the shared_path finding it leads to. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "helpers.h"
#include "import/topo_text.h"
#include "model/concurrency.h"
#include "measure/measure.h"
#include "pipeline/rounds.h"

static json_t *topo_doc(const char *name)
{
    ls_topo_t *topo = calloc(1, sizeof *topo);
    assert_non_null(topo);
    char err[256];
    json_t *doc = ls_topo_load_files(ls_fixture(name), NULL, NULL, topo, err, sizeof err);
    free(topo);
    assert_non_null(doc);
    return doc;
}

/* Every unordered pair exactly once; no GPU twice in a round. */
static void assert_covers(const ls_run_rounds_t *r, int n)
{
    int seen[LS_MAX_GPUS][LS_MAX_GPUS];
    memset(seen, 0, sizeof seen);
    int total = 0;
    for (int i = 0; i < r->nrounds; i++) {
        int used[LS_MAX_GPUS] = {0};
        assert_true(r->round_start[i + 1] > r->round_start[i]);
        for (int k = r->round_start[i]; k < r->round_start[i + 1]; k++) {
            int a = r->pair_a[k], b = r->pair_b[k];
            assert_true(a >= 0 && a < b && b < n);
            assert_false(used[a] || used[b]);
            used[a] = used[b] = 1;
            seen[a][b]++;
            total++;
        }
    }
    assert_int_equal(total, n * (n - 1) / 2);
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            assert_int_equal(seen[a][b], 1);
}

static void test_hgx_rounds(void **state)
{
    (void)state;
    json_t *doc = topo_doc("topo/hgx-h100x8-nic8.txt");
    int gpus[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    ls_run_rounds_t *r = calloc(1, sizeof *r);
    assert_non_null(r);
    assert_int_equal(ls_run_rounds_init(r, doc, gpus, 8), 0);
    assert_int_equal(r->nrounds, 7);
    assert_covers(r, 8);
    ls_measure_opts_t o;
    memset(&o, 0, sizeof o);
    ls_run_rounds_apply(r, &o);
    assert_int_equal(o.nrounds, 7);
    assert_int_equal(o.round_start[7], 28);
    /* NV pairs found to share a path: 28 rounds of one pair */
    assert_int_equal(ls_run_rounds_make_serial(r, LS_LINK_NV), 0);
    assert_int_equal(r->nrounds, 28);
    assert_covers(r, 8);
    ls_run_rounds_free(r);
    /* the run's GPUs are a subset: indices into them */
    int some[3] = {1, 4, 6};
    assert_int_equal(ls_run_rounds_init(r, doc, some, 3), 0);
    assert_int_equal(r->nrounds, 3);
    assert_covers(r, 3);
    ls_run_rounds_free(r);
    free(r);
    json_decref(doc);
}

/* The 4-GPU box of two switches on two sockets: the SYS pairs serial, the two PIX pairs
   together; making PIX serial leaves every round one pair. */
static void test_pcie_rounds(void **state)
{
    (void)state;
    json_t *doc = topo_doc("topo/pcie-4gpu-2switch.txt");
    int gpus[4] = {0, 1, 2, 3};
    ls_run_rounds_t *r = calloc(1, sizeof *r);
    assert_non_null(r);
    assert_int_equal(ls_run_rounds_init(r, doc, gpus, 4), 0);
    assert_int_equal(r->nrounds, 5);
    assert_covers(r, 4);
    assert_int_equal(ls_run_rounds_make_serial(r, LS_LINK_PIX), 0);
    assert_int_equal(r->nrounds, 6);
    assert_covers(r, 4);
    ls_run_rounds_free(r);
    free(r);
    json_decref(doc);
}

static void test_no_topology(void **state)
{
    (void)state;
    json_t *doc = json_object();
    int gpus[2] = {0, 1};
    ls_run_rounds_t *r = calloc(1, sizeof *r);
    assert_non_null(r);
    assert_int_equal(ls_run_rounds_init(r, doc, gpus, 2), -1);
    ls_measure_opts_t o;
    memset(&o, 0, sizeof o);
    ls_run_rounds_apply(r, &o);
    assert_int_equal(o.nrounds, 0); /* measure then takes every pair alone */
    free(r);
    json_decref(doc);
}

/* What measure's walk over the rounds hands each round: its pairs and its number. */
typedef struct {
    int calls, pairs, last_index, seen[LS_MAX_GPUS][LS_MAX_GPUS];
} walk_t;

static void walk_round(json_t *doc, const ls_measure_opts_t *o, const int *pa, const int *pb,
                       int npairs, int index, void *ctx)
{
    (void)doc, (void)o;
    walk_t *w = ctx;
    w->calls++;
    assert_int_equal(index, w->last_index + 1);
    w->last_index = index;
    for (int k = 0; k < npairs; k++, w->pairs++)
        w->seen[pa[k]][pb[k]]++;
}

/* The rounds walked as given (the HGX box's 7 rounds of 28 pairs), and without rounds
   every pair alone, in order. */
static void test_measure_walks_rounds(void **state)
{
    (void)state;
    json_t *doc = topo_doc("topo/hgx-h100x8-nic8.txt");
    int gpus[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    ls_run_rounds_t *r = calloc(1, sizeof *r);
    walk_t *w = calloc(1, sizeof *w);
    assert_non_null(r);
    assert_non_null(w);
    assert_int_equal(ls_run_rounds_init(r, doc, gpus, 8), 0);
    ls_measure_opts_t o;
    memset(&o, 0, sizeof o);
    o.ngpus = 8;
    ls_run_rounds_apply(r, &o);
    ls_measure_each_round(NULL, &o, walk_round, w);
    assert_int_equal(w->calls, 7);
    assert_int_equal(w->pairs, 28);
    memset(w, 0, sizeof *w);
    o.nrounds = 0;
    o.ngpus = 3;
    ls_measure_each_round(NULL, &o, walk_round, w);
    assert_int_equal(w->calls, 3);
    assert_int_equal(w->seen[0][1] + w->seen[0][2] + w->seen[1][2], 3);
    ls_run_rounds_free(r);
    free(r);
    free(w);
    json_decref(doc);
}

static void test_lower_beyond_spread(void **state)
{
    (void)state;
    /* concurrent 380 (max 385) against alone 397 (min 396): lower */
    assert_true(ls_concurrent_lower(380, 385, 397, 396));
    /* ranges overlap: within the spread */
    assert_false(ls_concurrent_lower(380, 396.5, 397, 396));
    /* apart but by less than the minimum drop */
    assert_false(ls_concurrent_lower(395, 395.5, 397, 396));
    assert_false(ls_concurrent_lower(380, 385, 0, 0));
}

static json_t *bundled(void)
{
    json_error_t jerr;
    json_t *doc = json_load_file(ls_fixture("../../examples/h200x2-run.json"), 0, &jerr);
    assert_non_null(doc);
    return doc;
}

static json_t *entry(json_t *doc, const char *id)
{
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e)
        if (strcmp(json_string_value(json_object_get(e, "id")), id) == 0)
            return e;
    fail_msg("no entry %s", id);
    return NULL;
}

static int count_rule(const json_t *findings, const char *rule)
{
    size_t i;
    json_t *f;
    int n = 0;
    json_array_foreach(findings, i, f)
        n += strcmp(json_string_value(json_object_get(f, "rule")), rule) == 0;
    return n;
}

/* The check built from two entries, and the finding it leads to. */
static void test_shared_path_finding(void **state)
{
    (void)state;
    json_t *doc = bundled();
    json_t *conc = entry(doc, "p2p-ce-uni-0-1");
    /* alone: the same figure 5% higher, its own samples */
    json_t *alone = json_deep_copy(conc);
    json_t *st = json_object_get(alone, "stats");
    double med = json_real_value(json_object_get(st, "median"));
    json_object_set_new(st, "median", json_real(med * 1.05));
    json_object_set_new(st, "min", json_real(med * 1.04));
    json_object_set_new(st, "max", json_real(med * 1.06));
    json_object_set_new(conc, "round", json_pack("{s:i, s:i}", "index", 1, "pairs", 4));
    json_t *check = ls_concurrency_check(conc, alone);
    assert_non_null(check);
    assert_true(json_is_true(json_object_get(check, "lower")));
    assert_int_equal(json_integer_value(
                         json_object_get(json_object_get(check, "concurrent"), "pairs")),
                     4);
    json_t *none = ls_findings(doc);
    assert_int_equal(count_rule(none, "shared_path"), 0);
    json_object_set_new(conc, "concurrency_check", check);
    json_t *found = ls_findings(doc);
    assert_int_equal(count_rule(found, "shared_path"), 1);
    /* alone within the spread: no finding */
    json_t *same = ls_concurrency_check(conc, conc);
    assert_false(json_is_true(json_object_get(same, "lower")));
    json_decref(same);
    json_decref(none);
    json_decref(found);
    json_decref(alone);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hgx_rounds),          cmocka_unit_test(test_pcie_rounds),
        cmocka_unit_test(test_no_topology),         cmocka_unit_test(test_lower_beyond_spread),
        cmocka_unit_test(test_shared_path_finding), cmocka_unit_test(test_measure_walks_rounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
