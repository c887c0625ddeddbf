/* The per-port sweep's orchestration without a GPU (issue 18): which NCCL_IB_HCA
   variants `linkscope nccl --each-hca` plans from the NIC list of the sysfs fixture
   tree, and how the results are judged, from synthetic documents with seed 002's
   figures (a 400G port at 20.4 GB/s beside 200G ports at 30.6, both together 21.0). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/ports.h"
#include "discover/discover.h"
#include "helpers.h"
#include "model/doc.h"
#include "util/log.h"

static void plan_from_fixture_nics(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new();
    ls_discover_opts_t opts = {ls_fixture("sysfs/two-socket"), 0, 0};
    ls_discover(doc, &opts);
    json_t *plan = ls_port_sweep_plan(json_object_get(doc, "nics"));
    /* mlx5_2 port 2 is DOWN: not planned */
    const char *want[] = {"NCCL_IB_HCA==mlx5_0:1", "NCCL_IB_HCA==mlx5_1:1", "NCCL_IB_HCA==mlx5_2:1",
                          "NCCL_IB_HCA==mlx5_0:1,mlx5_1:1,mlx5_2:1"};
    const double rate[] = {400, 100, 200, 700};
    assert_int_equal(json_array_size(plan), 4);
    for (size_t i = 0; i < 4; i++) {
        const json_t *p = json_array_get(plan, i);
        assert_string_equal(ls_json_str(p, "setting", ""), want[i]);
        assert_float_equal(ls_json_num(p, "rate_gbps", 0), rate[i], 1e-9);
    }
    assert_int_equal(json_array_size(json_object_get(json_array_get(plan, 3), "hcas")), 3);
    json_decref(plan);
    json_decref(doc);
}

static json_t *nic(const char *name, const char *state, double rate)
{
    return json_pack("{s:s, s:[{s:i, s:s, s:f, s:s}]}", "name", name, "ports", "port", 1, "state",
                     state, "rate_gbps", rate, "link_layer", "InfiniBand");
}

static void plan_edge_cases(void **state)
{
    (void)state;
    json_t *one = json_pack("[o]", nic("mlx5_0", "ACTIVE", 200));
    json_t *plan = ls_port_sweep_plan(one);
    assert_int_equal(json_array_size(plan), 1); /* one port: no "all of them" run */
    json_decref(plan);
    json_t *none = json_pack("[o, o]", nic("mlx5_0", "DOWN", 200), nic("mlx5_1", "ACTIVE", 0));
    plan = ls_port_sweep_plan(none);
    assert_int_equal(json_array_size(plan), 0); /* down, or no rate: nothing to sweep */
    json_decref(plan);
    json_decref(one);
    json_decref(none);
}

/* A document with three ports and one all_reduce entry per setting (busbw values). */
static json_t *sweep_doc(const double busbw[4])
{
    json_t *doc = ls_doc_new();
    json_t *nics = json_object_get(doc, "nics");
    json_array_append_new(nics, nic("mlx5_0", "ACTIVE", 400));
    json_array_append_new(nics, nic("mlx5_1", "ACTIVE", 200));
    json_array_append_new(nics, nic("mlx5_2", "ACTIVE", 200));
    const char *settings[] = {"NCCL_IB_HCA==mlx5_0:1", "NCCL_IB_HCA==mlx5_1:1",
                              "NCCL_IB_HCA==mlx5_2:1", "NCCL_IB_HCA==mlx5_0:1,mlx5_1:1,mlx5_2:1"};
    for (int i = 0; i < 4; i++)
        ls_doc_add_measurement(doc, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:[i,i], s:f}",
                                              "family", "nccl", "metric", "busbw", "unit", "GB/s",
                                              "status", "ok", "collective", "all_reduce", "variant",
                                              settings[i], "gpus", 0, 1, "value", busbw[i]));
    return doc;
}

static int count_rule(const json_t *found, const char *rule, const char *subject)
{
    int n = 0;
    size_t i;
    const json_t *f;
    json_array_foreach(found, i, f) {
        n += strcmp(ls_json_str(f, "rule", ""), rule) == 0 &&
             (!subject || strcmp(ls_json_str(f, "subject", ""), subject) == 0);
    }
    return n;
}

static void seed002_judged(void **state)
{
    (void)state;
    const double seed[] = {20.4, 30.6, 30.35, 21.0};
    json_t *doc = sweep_doc(seed);
    json_t *rows = ls_port_sweep_rows(doc);
    assert_int_equal(json_array_size(rows), 4);
    const json_t *r0 = json_array_get(rows, 0), *all = json_array_get(rows, 3);
    assert_float_equal(ls_json_num(r0, "ceiling_gbs", 0), 50.0, 1e-9); /* 400 Gb/s / 8 */
    assert_float_equal(ls_json_num(r0, "fraction", 0), 20.4 / 50.0, 1e-9);
    assert_int_equal(ls_json_int(all, "ports", 0), 3);
    assert_float_equal(ls_json_num(all, "rate_gbps", 0), 800.0, 1e-9);
    json_decref(rows);

    json_t *found = json_array();
    ls_port_sweep_findings(doc, found);
    assert_int_equal(count_rule(found, "port_far_below_rate", "mlx5_0:1"), 1);
    assert_int_equal(count_rule(found, "port_far_below_rate", NULL), 1); /* 200G ports: 122 % */
    assert_int_equal(count_rule(found, "port_below_slower_port", "mlx5_0:1"), 2);
    assert_int_equal(count_rule(found, "ports_together_slower", "all_reduce"), 1);
    assert_int_equal(json_array_size(found), 4);
    json_decref(found);
    /* the same findings come with every other finding (report, plan, check) */
    found = ls_findings(doc);
    assert_int_equal(count_rule(found, "ports_together_slower", NULL), 1);
    json_decref(found);
    json_decref(doc);
}

static void healthy_ports_quiet(void **state)
{
    (void)state;
    const double good[] = {44.0, 23.8, 24.1, 88.0};
    json_t *doc = sweep_doc(good);
    json_t *found = json_array();
    ls_port_sweep_findings(doc, found);
    assert_int_equal(json_array_size(found), 0);
    json_decref(found);
    json_decref(doc);
}

int main(void)
{
    ls_log_quiet(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plan_from_fixture_nics),
        cmocka_unit_test(plan_edge_cases),
        cmocka_unit_test(seed002_judged),
        cmocka_unit_test(healthy_ports_quiet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
