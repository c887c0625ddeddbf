/* linkscope fleet's analysis (issue 18): 64 documents made from the bundled 2 x H200
   run with realistic node-to-node noise (every figure scaled by 1 + N(0, 1.5%)), one
   node with a degraded GPU pair, one with a slow network port (a per-port sweep's
   NCCL_IB_HCA variant at half its busbw), one with a GPU at half its HBM bandwidth.
   The analysis must name exactly those three nodes, each with its subject. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/fleet.h"
#include "helpers.h"
#include "model/doc.h"

#define NODES 64
#define NODE_PAIR 10 /* GPUs 0-1 at 60% */
#define NODE_PORT 20 /* port mlx5_1 at 50% */
#define NODE_HBM 30  /* GPU 1's HBM at 50% */

static uint64_t rng = 88172645463325252ULL;

static double uniform(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17; /* xorshift64 */
    return ((rng >> 11) + 0.5) / 9007199254740992.0;
}

static double noise(void) /* 1 + N(0, 0.015), Box-Muller */
{
    return 1 + 0.015 * sqrt(-2 * log(uniform())) * cos(6.283185307179586 * uniform());
}

static void scale_number(json_t *obj, const char *key, double factor)
{
    json_t *v = json_object_get(obj, key);
    if (json_is_number(v))
        json_object_set_new(obj, key, json_real(json_number_value(v) * factor));
}

static void scale_rows(json_t *entry, double factor)
{
    size_t i;
    json_t *row;
    json_array_foreach(json_object_get(entry, "rows"), i, row) {
        for (int k = 0; k < 2; k++) {
            json_t *res = json_object_get(row, k ? "ip" : "oop");
            double f = factor * noise();
            scale_number(res, "busbw", f);
            scale_number(res, "algbw", f);
            scale_number(res, "time_us", 1 / f);
        }
    }
}

/* A per-port sweep: the default all_reduce entry again under each port's variant. */
static void add_port_entries(json_t *doc, int slow_port)
{
    json_t *list = json_object_get(doc, "measurements"), *base = NULL;
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e) {
        if (strcmp(ls_json_str(e, "collective", ""), "all_reduce") == 0)
            base = e;
    }
    assert_non_null(base);
    for (int port = 0; port < 2; port++) {
        json_t *copy = json_deep_copy(base);
        char variant[64], id[64];
        snprintf(variant, sizeof variant, "NCCL_IB_HCA=mlx5_%d", port);
        snprintf(id, sizeof id, "nccl-port-%d", port);
        json_object_set_new(copy, "variant", json_string(variant));
        json_object_set_new(copy, "id", json_string(id));
        scale_rows(copy, port == slow_port ? 0.5 : 1);
        json_array_append_new(list, copy);
    }
}

static int touches_pair01(const json_t *e)
{
    const char *family = ls_json_str(e, "family", "");
    return strcmp(family, "p2p") == 0 && ls_json_int(e, "dst", -1) >= 0;
}

static json_t *make_node(const json_t *bundled, int node)
{
    json_t *doc = json_deep_copy(bundled);
    char host[32];
    snprintf(host, sizeof host, "node-%02d", node);
    json_object_set_new(json_object_get(doc, "host"), "hostname", json_string(host));
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e) {
        if (strcmp(ls_json_str(e, "family", ""), "nccl") == 0) {
            scale_rows(e, 1);
            continue;
        }
        double factor = noise();
        if (node == NODE_PAIR && touches_pair01(e))
            factor *= 0.6;
        if (node == NODE_HBM && strcmp(ls_json_str(e, "family", ""), "hbm") == 0 &&
            ls_json_int(e, "gpu", -1) == 1)
            factor *= 0.5;
        int time = strcmp(ls_json_str(e, "unit", ""), "us") == 0;
        scale_number(e, "value", time ? 1 / factor : factor);
    }
    add_port_entries(doc, node == NODE_PORT ? 1 : -1);
    return doc;
}

static int has_subject(const json_t *node, const char *subject)
{
    size_t i;
    const json_t *s;
    json_array_foreach(json_object_get(node, "subjects"), i, s) {
        if (strcmp(json_string_value(s), subject) == 0)
            return 1;
    }
    return 0;
}

static void test_fleet_names_the_three(void **state)
{
    (void)state;
    json_error_t jerr;
    json_t *bundled = json_load_file(ls_fixture("../../examples/h200x2-run.json"), 0, &jerr);
    assert_non_null(bundled);
    ls_fleet_t *fleet = ls_fleet_new();
    for (int node = 0; node < NODES; node++) {
        json_t *doc = make_node(bundled, node);
        char file[32];
        snprintf(file, sizeof file, "run-node-%02d.json", node);
        assert_int_equal(ls_fleet_add(fleet, doc, file), 0);
        json_decref(doc);
    }
    ls_fleet_opts_t opts;
    ls_fleet_opts_default(&opts);
    json_t *result = ls_fleet_analyze(fleet, &opts);
    assert_non_null(result);
    assert_int_equal(ls_json_int(result, "outlier_nodes", -1), 3);
    assert_int_equal(json_array_size(json_object_get(result, "models")), 1);
    size_t i;
    const json_t *node;
    json_array_foreach(json_object_get(result, "nodes"), i, node) {
        long long outliers = ls_json_int(node, "outliers", -1);
        const json_t *subjects = json_object_get(node, "subjects");
        if ((int)i == NODE_PAIR)
            assert_true(has_subject(node, "GPUs 0-1") && json_array_size(subjects) == 1);
        else if ((int)i == NODE_PORT)
            assert_true(has_subject(node, "port mlx5_1") && json_array_size(subjects) == 1);
        else if ((int)i == NODE_HBM)
            assert_true(has_subject(node, "GPU 1") && json_array_size(subjects) == 1);
        else
            assert_int_equal(outliers, 0);
    }
    json_decref(result);
    ls_fleet_free(fleet);
    json_decref(bundled);
}

/* Too few nodes of a model: nothing is judged (no median worth the name). */
static void test_fleet_too_few_nodes(void **state)
{
    (void)state;
    json_error_t jerr;
    json_t *bundled = json_load_file(ls_fixture("../../examples/h200x2-run.json"), 0, &jerr);
    assert_non_null(bundled);
    ls_fleet_t *fleet = ls_fleet_new();
    for (int node = 0; node < 4; node++) {
        json_t *doc = make_node(bundled, node == 1 ? NODE_HBM : node);
        assert_int_equal(ls_fleet_add(fleet, doc, "x.json"), 0);
        json_decref(doc);
    }
    ls_fleet_opts_t opts;
    ls_fleet_opts_default(&opts);
    json_t *result = ls_fleet_analyze(fleet, &opts);
    assert_int_equal(ls_json_int(result, "outlier_nodes", -1), 0);
    json_decref(result);
    ls_fleet_free(fleet);
    json_decref(bundled);
}

/* Each node's own findings ride along (issue 16's acceptance across a fleet): a pending
   row remap on one node is its warning, no other node gets any, and nothing of it is an
   outlier. */
static void node_findings(void **state)
{
    (void)state;
    char err[256];
    ls_fleet_t *fleet = ls_fleet_new();
    for (int n = 0; n < 6; n++) {
        json_t *doc = ls_doc_read(ls_fixture("../../examples/h200x2-run.json"), err, sizeof err);
        assert_non_null(doc);
        char host[16], file[24];
        snprintf(host, sizeof host, "node-%d", n);
        snprintf(file, sizeof file, "n%d.json", n);
        json_object_set_new(json_object_get(doc, "host"), "hostname", json_string(host));
        if (n == 4)
            json_object_set_new(json_object_get(json_array_get(json_object_get(doc, "gpus"), 1),
                                                "ecc"),
                                "remapped_rows",
                                json_pack("{s:b, s:i}", "pending", 1, "correctable", 2));
        assert_int_equal(ls_fleet_add(fleet, doc, file), 0);
        json_decref(doc);
    }
    ls_fleet_opts_t opts;
    ls_fleet_opts_default(&opts);
    json_t *r = ls_fleet_analyze(fleet, &opts);
    assert_non_null(r);
    assert_int_equal(ls_json_int(r, "outlier_nodes", -1), 0);
    assert_int_equal(ls_json_int(r, "error_nodes", -1), 0);
    assert_int_equal(ls_json_int(r, "warning_nodes", -1), 1);
    size_t i;
    const json_t *n;
    json_array_foreach(json_object_get(r, "nodes"), i, n) {
        int bad = !strcmp(ls_json_str(n, "node", ""), "node-4");
        assert_int_equal(ls_json_int(n, "warnings", -1), bad);
        assert_int_equal(ls_json_int(n, "errors", -1), 0);
        assert_int_equal(json_array_size(json_object_get(n, "findings")), (size_t)bad);
        if (bad) {
            const json_t *f = json_array_get(json_object_get(n, "findings"), 0);
            assert_string_equal(ls_json_str(f, "rule", ""), "ecc");
            assert_string_equal(ls_json_str(f, "subject", ""), "GPU1");
            assert_non_null(strstr(ls_json_str(f, "message", ""), "row remap pending"));
        }
    }
    json_decref(r);
    ls_fleet_free(fleet);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(node_findings),
        cmocka_unit_test(test_fleet_names_the_three),
        cmocka_unit_test(test_fleet_too_few_nodes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
