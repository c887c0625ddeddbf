/* Findings on the seed 004 box, the 2 x H200 machine, an even 8 x H200 box, and each
   rule triggered by changing one thing in the even box. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/machine.h"
#include "import/import.h"
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

static int count_rule(const json_t *findings, const char *rule, const char *subject)
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

static int broken_link_findings(const json_t *findings)
{
    return count_rule(findings, "degraded_link", NULL) +
           count_rule(findings, "nvlink_inactive", NULL) +
           count_rule(findings, "pcie_downtrained", NULL) +
           count_rule(findings, "nvlink_errors", NULL);
}

static int ls_gpu_pair_is(const json_t *pair, int a, int b)
{
    return ls_gpu_mask_of(json_object_get(pair, "gpus")) == ((1ULL << a) | (1ULL << b));
}

static void seed004_degraded_pair_found(void **state)
{
    (void)state;
    json_t *doc = load("analyze/seed004-nvlink8-degraded.json"), *f = ls_findings(doc);
    assert_int_equal(count_rule(f, "degraded_link", NULL), 1);
    const json_t *d = json_array_get(f, 0);
    assert_string_equal(ls_json_str(d, "subject", ""), "GPU0<->GPU4");
    assert_string_equal(ls_json_str(d, "severity", ""), "error");
    assert_int_equal(json_array_size(json_object_get(d, "evidence")), 2);
    assert_non_null(strstr(ls_json_str(d, "message", ""), "NV12"));
    json_t *plan = ls_plan_with(doc, f);
    assert_int_equal(json_array_size(json_object_get(plan, "islands")), 1);
    /* the degraded pair is not proposed for model parallelism */
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(plan, "best_pairs"), i, p) {
        assert_false(ls_gpu_pair_is(p, 0, 4));
    }
    json_decref(plan);
    json_decref(f);
    json_decref(doc);
}

static void h200x2_has_no_broken_link(void **state)
{
    (void)state;
    json_t *doc = load("analyze/h200x2-anchors.json"), *f = ls_findings(doc);
    assert_int_equal(broken_link_findings(f), 0);
    assert_int_equal(ls_findings_count_at_least(f, LS_SEV_WARNING), 0);
    /* p2pBandwidthLatencyTest's 0->1 / 1->0 asymmetry is told apart from the link:
       nvbandwidth measures both directions alike */
    assert_int_equal(count_rule(f, "asymmetry", "GPU0<->GPU1"), 1);
    assert_string_equal(ls_json_str(json_array_get(f, 0), "severity", ""), "info");
    json_t *plan = ls_plan_with(doc, f);
    const json_t *g = json_array_get(json_object_get(plan, "groups"), 0);
    assert_float_equal(ls_json_num(g, "expected_busbw_gbps", 0), 396.1, 1e-9);
    assert_float_equal(ls_json_num(g, "measured_busbw_gbps", 0), 344.29, 1e-9);
    assert_int_equal(json_array_size(json_object_get(plan, "keep_out")), 0);
    /* NCCL_P2P_DISABLE=1 (26 GB/s through host memory) is not held against the 396 GB/s
       NVLink figure: no expectation, no ratio */
    size_t i;
    const json_t *mg, *off = NULL;
    json_array_foreach(json_object_get(plan, "measured_groups"), i, mg) {
        if (!strcmp(ls_json_str(mg, "variant", ""), "NCCL_P2P_DISABLE=1"))
            off = mg;
    }
    assert_non_null(off);
    assert_string_equal(ls_json_str(off, "expected_from", ""), "p2p_off");
    assert_null(json_object_get(off, "expected_busbw_gbps"));
    assert_null(json_object_get(off, "ratio"));
    assert_float_equal(ls_json_num(off, "measured_busbw_gbps", 0), 26.0, 0.01);
    json_decref(plan);
    json_decref(f);
    json_decref(doc);
}

static void even_box_gives_no_finding_and_one_island(void **state)
{
    (void)state;
    json_t *doc = load("analyze/hgx-h200x8-even.json"), *f = ls_findings(doc),
           *plan = ls_plan_with(doc, f);
    assert_int_equal(json_array_size(f), 0);
    const json_t *islands = json_object_get(plan, "islands");
    assert_int_equal(json_array_size(islands), 1);
    assert_int_equal(ls_json_int(json_array_get(islands, 0), "size", 0), 8);
    assert_int_equal(json_array_size(json_object_get(plan, "keep_out")), 0);
    /* equal links: the 4-GPU group stays on one NUMA node */
    const json_t *g4 = json_array_get(json_object_get(plan, "groups"), 2);
    assert_int_equal(ls_json_int(g4, "k", 0), 4);
    assert_int_equal(ls_gpu_mask_of(json_object_get(g4, "gpus")), 0x0f);
    json_decref(plan);
    json_decref(f);
    json_decref(doc);
}

static json_t *gpu_of(json_t *doc, int g)
{
    return json_array_get(json_object_get(doc, "gpus"), (size_t)g);
}

static json_t *measurement(json_t *doc, const char *id)
{
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e) {
        if (!strcmp(ls_json_str(e, "id", ""), id))
            return e;
    }
    fail_msg("no measurement %s", id);
    return NULL;
}

/* NVLink counters: a replay or a recovery is an error with node action isolate (0 on a
   sound link: model/nvlink_errors.h); CRC counts alone (corrected in the link layer, as
   seen on the 2 x H200 machine under load) are information only, with no node action. */
static const char *nvlink_severity(const char *counter, int rise)
{
    static char sev[32];
    json_t *doc = load("analyze/hgx-h200x8-even.json");
    json_t *e = measurement(doc, "p2p-ce-uni-5-6");
    json_t *tele = json_deep_copy(json_object_get(e, "telemetry"));
    json_t *after = json_object_get(json_object_get(tele, "nvlink_errors_after"), "6");
    json_object_set_new(after, counter,
                        json_integer(json_integer_value(json_object_get(after, counter)) + rise));
    json_object_set_new(e, "telemetry", tele);
    json_t *f = ls_findings(doc);
    assert_int_equal(count_rule(f, "nvlink_errors", "GPU6"), 1);
    size_t i;
    json_t *x;
    json_array_foreach(f, i, x) {
        if (!strcmp(ls_json_str(x, "rule", ""), "nvlink_errors"))
            snprintf(sev, sizeof sev, "%s %s", ls_json_str(x, "severity", ""),
                     ls_json_str(x, "node_action", "-"));
    }
    json_decref(f);
    json_decref(doc);
    return sev;
}

static void nvlink_counters_graded(void **state)
{
    (void)state;
    assert_string_equal(nvlink_severity("crc_data", 665), "info -");
    assert_string_equal(nvlink_severity("replay", 3), "error isolate");
    assert_string_equal(nvlink_severity("recovery", 1), "error isolate");
}

/* Two entries measured together share one counter window (the GPU- and CPU-timed copy
   latencies): the rise is counted once, not once per entry. */
static void nvlink_shared_window_counted_once(void **state)
{
    (void)state;
    json_t *doc = load("analyze/hgx-h200x8-even.json");
    const char *ids[] = {"p2p-ce-uni-5-6", "p2p-ce-uni-6-5"};
    for (int k = 0; k < 2; k++) {
        json_t *e = measurement(doc, ids[k]);
        json_t *tele = json_pack("{s:{s:{s:i, s:i, s:i, s:i}}, s:{s:{s:i, s:i, s:i, s:i}}}",
                                 "nvlink_errors_before", "6", "crc_flit", 0, "crc_data", 100,
                                 "replay", 2, "recovery", 0, "nvlink_errors_after", "6", "crc_flit",
                                 0, "crc_data", 140, "replay", 5, "recovery", 0);
        json_object_set_new(e, "telemetry", tele);
    }
    json_t *f = ls_findings(doc);
    assert_int_equal(count_rule(f, "nvlink_errors", "GPU6"), 1);
    const json_t *x = json_array_get(f, 0);
    assert_string_equal(ls_json_str(x, "severity", ""), "error");
    assert_non_null(strstr(ls_json_str(x, "message", ""), "0 recoveries, 3 replays, 40 CRC"));
    assert_int_equal(json_array_size(json_object_get(x, "evidence")), 2);
    json_decref(f);
    json_decref(doc);
}

/* Telemetry is keyed by canonical GPU index: a rise under "6" is GPU6's; under "06",
   "+6", " 6", "6x", "" or "64" (past the machine view) it is nobody's, never guessed. */
static void nvlink_keys_canonical_only(void **state)
{
    (void)state;
    const char *keys[] = {"6", "06", "+6", " 6", "6x", "", "64"};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        json_t *doc = load("analyze/hgx-h200x8-even.json");
        json_t *tele = json_pack("{s:{s:{s:i}}, s:{s:{s:i}}}", "nvlink_errors_before", keys[k],
                                 "replay", 0, "nvlink_errors_after", keys[k], "replay", 4);
        json_object_set_new(measurement(doc, "p2p-ce-uni-5-6"), "telemetry", tele);
        json_t *f = ls_findings(doc);
        assert_int_equal(count_rule(f, "nvlink_errors", NULL), k == 0);
        json_decref(f);
        json_decref(doc);
    }
}

/* The reverse of a one-way figure is the first ok figure of the other direction by the
   same tool and method in document order (found through a hash index): a failed one
   before it and a slow one after it change nothing; the slow one listed first is it. */
static int asymmetry_with_copy(const char *status, int first)
{
    json_t *doc = load("analyze/hgx-h200x8-even.json");
    json_t *copy = json_deep_copy(measurement(doc, "p2p-ce-uni-6-5"));
    json_object_set_new(copy, "id", json_string("p2p-ce-uni-6-5-copy"));
    json_object_set_new(copy, "status", json_string(status));
    json_object_set_new(copy, "value", json_real(ls_json_num(copy, "value", 0) / 2));
    json_t *list = json_object_get(doc, "measurements");
    if (first)
        json_array_insert_new(list, 0, copy);
    else
        json_array_append_new(list, copy);
    json_t *f = ls_findings(doc);
    int n = count_rule(f, "asymmetry", "GPU5<->GPU6");
    json_decref(f);
    json_decref(doc);
    return n;
}

/* GPUs 0 and 1's host paths, host->GPU h2d and GPU->host d2h GB/s, by method (and memory,
   and "under" where set) added to the even box. */
static void add_host(json_t *doc, const char *method, const char *memory, const char *under,
                     double h2d, double d2h)
{
    json_t *list = json_object_get(doc, "measurements");
    for (int g = 0; g < 2; g++)
        for (int d = 0; d < 2; d++) {
            char id[64];
            snprintf(id, sizeof id, "host-%s-%s-%d%s", method, d ? "d2h" : "h2d", g,
                     under ? "-u" : "");
            json_t *e = json_pack("{s:s, s:s, s:s, s:s, s:f, s:s, s:[i], s:i, s:s, s:s, s:s}", "id",
                                  id, "family", "host", "metric", "bandwidth", "unit", "GB/s",
                                  "value", d ? d2h : h2d, "status", "ok", "gpus", g, "gpu", g,
                                  "direction", d ? "d2h" : "h2d", "method", method, "memory",
                                  memory);
            if (under && !d)
                json_object_set_new(e, "under", json_string(under));
            json_array_append_new(list, e);
        }
}

/* A host->GPU figure under 75% of its GPU->host mirror (same method, pinned) fires
   one_way_low: a warning naming every GPU alike; info where another method finds both
   directions alike. Quiet: 83% (the read protocol's band), pageable memory, a
   bidirectional test's direction. */
static void host_one_way_graded(void **state)
{
    (void)state;
    json_t *doc = load("analyze/hgx-h200x8-even.json");
    add_host(doc, "sm", "pinned", NULL, 35.2, 52.8);
    ls_test_fires(doc, "one_way_low", "warning", "", "on every GPU measured both ways (2)");
    add_host(doc, "ce", "pinned", NULL, 55.4, 55.3);
    ls_test_fires(doc, "one_way_low", "info", "", "another method");
    json_decref(doc);
    static const struct {
        const char *memory, *under;
        double h2d;
    } quiet[] = {
        {.memory = "pinned", .h2d = 44.0},
        {.memory = "pageable", .h2d = 20.0},
        {.memory = "pinned", .under = "bidir", .h2d = 20.0},
    };
    for (size_t i = 0; i < sizeof quiet / sizeof quiet[0]; i++) {
        doc = load("analyze/hgx-h200x8-even.json");
        add_host(doc, "ce", quiet[i].memory, quiet[i].under, quiet[i].h2d, 52.8);
        ls_test_silent(doc, "one_way_low");
        json_decref(doc);
    }
}

static void asymmetry_takes_first_ok_reverse(void **state)
{
    (void)state;
    assert_int_equal(asymmetry_with_copy("failed", 1), 0);
    assert_int_equal(asymmetry_with_copy("ok", 0), 0);
    assert_int_equal(asymmetry_with_copy("ok", 1), 1);
}

/* Windows out of time order in the document (one measured later listed first) and
   overlapping: the rise is the union of the spans, [50, 140] and [200, 210] = 100. */
static void nvlink_windows_out_of_order(void **state)
{
    (void)state;
    json_t *doc = load("analyze/hgx-h200x8-even.json");
    const char *ids[] = {"p2p-ce-uni-5-6", "p2p-ce-uni-6-5", "p2p-ce-uni-1-0"};
    const int from[] = {200, 100, 50}, to[] = {210, 140, 120};
    for (int k = 0; k < 3; k++) {
        json_t *tele = json_pack("{s:{s:{s:i}}, s:{s:{s:i}}}", "nvlink_errors_before", "6",
                                 "crc_data", from[k], "nvlink_errors_after", "6", "crc_data",
                                 to[k]);
        json_object_set_new(measurement(doc, ids[k]), "telemetry", tele);
    }
    json_t *f = ls_findings(doc);
    assert_int_equal(count_rule(f, "nvlink_errors", "GPU6"), 1);
    const json_t *x = json_array_get(f, 0);
    assert_non_null(strstr(ls_json_str(x, "message", ""), "rose by 100 during"));
    assert_int_equal(json_array_size(json_object_get(x, "evidence")), 3);
    json_decref(f);
    json_decref(doc);
}

/* A short all_reduce sweep on the same GPUs (tp --measure up to a prompt's 52 MB) does
   not pull the 2-GPU group's measured busbw (its 8 GiB sweep's) down. */
static void short_sweep_does_not_dilute_measured_busbw(void **state)
{
    (void)state;
    json_t *doc = load("analyze/h200x2-anchors.json");
    json_array_append_new(json_object_get(doc, "measurements"),
                          json_pack("{s:s, s:s, s:s, s:s, s:s, s:[i,i], s:i, s:I, s:f, s:s, s:s}",
                                    "id", "nccl-tp-short", "family", "nccl", "collective",
                                    "all_reduce", "status", "ok", "variant", "default", "gpus", 0,
                                    1, "nranks", 2, "bytes", (json_int_t)52428800, "value", 200.0,
                                    "unit", "GB/s", "metric", "busbw"));
    json_t *plan = ls_plan(doc);
    const json_t *g = json_array_get(json_object_get(plan, "groups"), 0);
    assert_float_equal(ls_json_num(g, "measured_busbw_gbps", 0), 344.29, 1e-9);
    assert_int_equal(json_array_size(json_object_get(g, "measured_entries")), 1);
    json_decref(plan);
    json_decref(doc);
}

/* 22 GPUs on one PCIe switch: NCCL's SHM edges GPU1->GPU21 and GPU1->GPU2 are both
   named (a text search took "GPU1->GPU2" for already listed inside "GPU1->GPU21"). */
static void unused_p2p_edges_with_two_digit_gpus(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new(), *gpus = json_array(), *links = json_array();
    for (int g = 0; g < 22; g++) {
        json_array_append_new(gpus, json_pack("{s:i, s:s}", "index", g, "name", "X"));
        for (int o = 0; o < 22; o++)
            if (o != g)
                json_array_append_new(links, json_pack("{s:i, s:i, s:s, s:s, s:s, s:s}", "a", g,
                                                       "b", o, "type", "PIX", "class", "PIX",
                                                       "p2p_read", "OK", "p2p_write", "OK"));
    }
    json_object_set_new(doc, "gpus", gpus);
    json_object_set_new(doc, "links", links);
    json_array_append_new(json_object_get(doc, "measurements"),
                          json_pack("{s:s, s:s, s:s, s:s, s:s, s:f, s:[i,i,i], s:[{s:i, s:i, s:s}, "
                                    "{s:i, s:i, s:s}]}",
                                    "id", "nccl-x", "family", "nccl", "collective", "all_reduce",
                                    "status", "ok", "variant", "default", "value", 10.0, "gpus", 1,
                                    2, 21, "transports", "from", 1, "to", 21, "transport",
                                    "SHM/direct", "from", 1, "to", 2, "transport", "SHM/direct"));
    json_t *f = ls_findings(doc);
    assert_int_equal(count_rule(f, "nccl_p2p_unused", NULL), 1);
    const char *msg = ls_json_str(json_array_get(f, 0), "message", "");
    assert_non_null(strstr(msg, "GPU1->GPU21, GPU1->GPU2 "));
    json_decref(f);
    json_decref(doc);
}

/* The default sweep of GPUs 0,5 goes on to 2 GiB (busbw 20 there) while the PHB variant
   stopped at 1 GiB: the two are compared at 1 GiB (6.99 vs 7.78, +11%), not each at its
   own largest size (20 vs 7.78, which read as "keep the default"). */
static void nccl_variant_compared_at_a_common_size(void **state)
{
    (void)state;
    json_t *doc = load("analyze/seed000-gv100x11.json");
    json_t *e = measurement(doc, "nccl-all_reduce-1");
    json_array_append_new(json_object_get(e, "rows"),
                          json_pack("{s:I, s:{s:f, s:f, s:f, s:i}}", "bytes",
                                    (json_int_t)2147483648LL, "oop", "time_us", 107374.0, "algbw",
                                    20.0, "busbw", 20.0, "wrong", 0));
    json_object_set_new(e, "value", json_real(20.0));
    json_object_set_new(e, "bytes", json_integer(2147483648LL));
    json_t *f = ls_findings(doc);
    const json_t *x = NULL;
    size_t i;
    const json_t *y;
    json_array_foreach(f, i, y) {
        if (!strcmp(ls_json_str(y, "subject", ""), "all_reduce on GPUs 0,5") &&
            !strcmp(ls_json_str(y, "rule", ""), "nccl_p2p_unused"))
            x = y;
    }
    assert_non_null(x);
    assert_string_equal(ls_json_str(x, "severity", ""), "warning");
    assert_non_null(
        strstr(ls_json_str(x, "message", ""), "busbw at 1 GiB 7.78 vs 6.99 GB/s (+11%)"));
    json_decref(f);
    json_decref(doc);
}

/* Clock-event reasons that do not lower the clocks are not throttling. */
static void sync_boost_is_not_throttling(void **state)
{
    (void)state;
    json_t *doc = load("analyze/hgx-h200x8-even.json");
    json_t *e = measurement(doc, "p2p-ce-uni-5-6");
    json_t *tele = json_deep_copy(json_object_get(e, "telemetry"));
    json_object_set_new(tele, "throttle_reasons", json_pack("[s, s]", "sync_boost", "gpu_idle"));
    json_object_set_new(e, "telemetry", tele);
    json_t *f = ls_findings(doc);
    assert_int_equal(count_rule(f, "throttling", NULL), 0);
    json_decref(f);
    json_decref(doc);
}

/* GPUs 0-6 also measured with the read kernel (4900 GB/s), GPU 7 only with the copy
   (4150, like the others' copies): GPU 7 is compared with their copies, not their reads. */
static void hbm_compared_by_method(void **state)
{
    (void)state;
    json_t *doc = load("analyze/hgx-h200x8-even.json");
    for (int g = 0; g < 7; g++) {
        char id[32];
        snprintf(id, sizeof id, "hbm-read-%d", g);
        json_array_append_new(json_object_get(doc, "measurements"),
                              json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:[i], s:f, s:s}", "id", id,
                                        "family", "hbm", "method", "read", "status", "ok", "metric",
                                        "bandwidth", "gpu", g, "gpus", g, "value", 4900.0, "unit",
                                        "GB/s"));
    }
    json_t *f = ls_findings(doc);
    assert_int_equal(count_rule(f, "hbm_efficiency", NULL), 0);
    json_decref(f);
    /* a real outlier by one method is still found, named with its method */
    json_object_set_new(measurement(doc, "hbm-read-3"), "value", json_real(3000.0));
    f = ls_findings(doc);
    assert_int_equal(count_rule(f, "hbm_efficiency", "GPU3"), 1);
    assert_non_null(strstr(ls_json_str(json_array_get(f, 0), "message", ""), "HBM read 3000.0 of"));
    json_decref(f);
    json_decref(doc);
}

/* Each rule, triggered by one change to the even box. */
static void each_rule_fires_on_one_change(void **state)
{
    (void)state;
    json_t *doc = load("analyze/hgx-h200x8-even.json");
    json_object_set_new(json_object_get(gpu_of(doc, 1), "power"), "limit_w", json_real(500));
    json_object_set_new(json_object_get(gpu_of(doc, 2), "ecc"), "volatile_uncorrected",
                        json_integer(3));
    json_object_set_new(json_object_get(gpu_of(doc, 3), "pcie"), "width_current", json_integer(8));
    json_object_set_new(json_array_get(json_object_get(gpu_of(doc, 4), "nvlinks"), 5), "active",
                        json_false());
    json_t *e = measurement(doc, "p2p-ce-uni-5-6");
    json_object_set_new(e, "value", json_real(150.0));
    json_t *tele = json_deep_copy(json_object_get(e, "telemetry"));
    json_array_append_new(json_object_get(tele, "throttle_reasons"),
                          json_string("hw_thermal_slowdown"));
    json_object_set_new(json_object_get(json_object_get(tele, "nvlink_errors_after"), "6"),
                        "replay", json_integer(12));
    json_object_set_new(e, "telemetry", tele);
    json_object_set_new(measurement(doc, "hbm-copy-7"), "value", json_real(2500.0));
    json_t *gnl = json_object_get(doc, "gpu_nic_links");
    size_t i;
    json_t *l;
    json_array_foreach(gnl, i, l) {
        if (ls_json_int(l, "gpu", -1) == 0)
            json_object_set_new(l, "type", json_string("SYS"));
    }
    json_t *f = ls_findings(doc);
    assert_int_equal(count_rule(f, "power_limit", "GPU1"), 1);
    assert_int_equal(count_rule(f, "ecc", "GPU2"), 1);
    assert_int_equal(count_rule(f, "pcie_downtrained", "GPU3"), 1);
    assert_int_equal(count_rule(f, "nvlink_inactive", "GPU4"), 1);
    assert_int_equal(count_rule(f, "degraded_link", "GPU5->GPU6"), 1);
    assert_int_equal(count_rule(f, "throttling", NULL), 1);
    assert_int_equal(count_rule(f, "nvlink_errors", "GPU6"), 1);
    assert_int_equal(count_rule(f, "hbm_efficiency", "GPU7"), 1);
    assert_int_equal(count_rule(f, "nic_distance", "GPU0"), 1);
    assert_int_equal(count_rule(f, "asymmetry", "GPU5<->GPU6"), 1); /* one direction only */
    /* 150 of 478 GB/s (31%) and 2500 of 4917 GB/s (51%): below their hardware ceilings too */
    assert_int_equal(count_rule(f, "below_ceiling", "GPU5->GPU6"), 1);
    assert_int_equal(count_rule(f, "below_ceiling", "GPU7"), 1);
    assert_int_equal(json_array_size(f), 12);
    /* errors first */
    assert_string_equal(ls_json_str(json_array_get(f, 0), "severity", ""), "error");
    /* three, and GPU6's replays (0 on a sound link: an error, node action isolate) */
    assert_int_equal(ls_findings_count_at_least(f, LS_SEV_ERROR), 4);
    json_decref(f);
    json_decref(doc);
}

/* All NVLinks of one GPU down on an NVLink machine is an error too (it was skipped as
   "no NVLink board"); a machine where no GPU has an active NVLink gives nothing. */
static void all_nvlinks_down_is_an_error(void **state)
{
    (void)state;
    json_t *doc = load("analyze/hgx-h200x8-even.json");
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(gpu_of(doc, 3), "nvlinks"), i, l) {
        json_object_set_new(l, "active", json_false());
    }
    json_t *f = ls_findings(doc);
    assert_int_equal(count_rule(f, "nvlink_inactive", "GPU3"), 1);
    assert_string_equal(ls_json_str(json_array_get(f, 0), "severity", ""), "error");
    json_decref(f);
    for (int g = 0; g < 8; g++)
        json_array_foreach(json_object_get(gpu_of(doc, g), "nvlinks"), i, l) {
            json_object_set_new(l, "active", json_false());
        }
    f = ls_findings(doc);
    assert_int_equal(count_rule(f, "nvlink_inactive", NULL), 0);
    json_decref(f);
    json_decref(doc);
}

/* A 64-GPU document (the most the model holds) with an all_reduce on every GPU:
   the plan runs without undefined shifts (UBSan) and lists the measured set. */
static void plan_of_64_gpus(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new(), *gpus = json_array();
    for (int g = 0; g < 64; g++)
        json_array_append_new(gpus, json_pack("{s:i, s:s}", "index", g, "name", "X"));
    json_object_set_new(doc, "gpus", gpus);
    json_t *all = json_array();
    for (int g = 0; g < 64; g++)
        json_array_append_new(all, json_integer(g));
    json_array_append_new(json_object_get(doc, "measurements"),
                          json_pack("{s:s, s:s, s:s, s:s, s:f, s:s, s:o}", "id", "nccl-all",
                                    "family", "nccl", "collective", "all_reduce", "status", "ok",
                                    "value", 100.0, "unit", "GB/s", "gpus", all));
    json_t *plan = ls_plan(doc);
    const json_t *mg = json_object_get(plan, "measured_groups");
    assert_int_equal(json_array_size(mg), 1);
    assert_int_equal(json_array_size(json_object_get(json_array_get(mg, 0), "gpus")), 64);
    json_decref(plan);
    json_decref(doc);
}

/* Without P2P measurements the plan falls back on the link class: NV18 at 80% of
   18 x 26.562 GB/s. */
static void unmeasured_links_are_estimated_by_class(void **state)
{
    (void)state;
    json_t *doc = load("analyze/hgx-h200x8-even.json"), *kept = json_array();
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e) {
        if (strcmp(ls_json_str(e, "family", ""), "p2p"))
            json_array_append(kept, e);
    }
    json_object_set_new(doc, "measurements", kept);
    json_t *plan = ls_plan(doc);
    const json_t *g2 = json_array_get(json_object_get(plan, "groups"), 0);
    assert_string_equal(ls_json_str(g2, "expected_from", ""), "link_class");
    assert_float_equal(ls_json_num(g2, "expected_busbw_gbps", 0), 382.49, 0.01);
    assert_string_equal(ls_json_str(json_array_get(json_object_get(plan, "best_pairs"), 0), "from",
                                    ""),
                        "link_class");
    json_decref(plan);
    json_decref(doc);
}

static void severity_names_round_trip(void **state)
{
    (void)state;
    enum ls_severity s;
    assert_int_equal(ls_severity_parse("warning", &s), 0);
    assert_int_equal(s, LS_SEV_WARNING);
    assert_string_equal(ls_severity_name(LS_SEV_ERROR), "error");
    assert_int_equal(ls_severity_parse("fatal", &s), -1);
}

/* An empty document is "nothing measured" (an error), never healthy (issue 25). */
static void empty_document_gives_empty_analysis(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new(), *f = ls_findings(doc), *plan = ls_plan_with(doc, f);
    assert_int_equal(json_array_size(f), 1);
    assert_string_equal(ls_json_str(json_array_get(f, 0), "rule", ""), "nothing_measured");
    assert_string_equal(ls_json_str(json_array_get(f, 0), "severity", ""), "error");
    assert_int_equal(json_array_size(json_object_get(plan, "groups")), 0);
    json_decref(plan);
    json_decref(f);
    json_decref(doc);
}

/* A two-node MPI entry of linkscope nccl: rank_hosts is an array (the host of each rank).
   NET between ranks on two hosts is the network doing its job; on one host it is not. */
static json_t *mpi_entry_over(const char *host0, const char *host1, int gdrdma)
{
    json_t *doc = ls_doc_new();
    json_array_append_new(json_object_get(doc, "gpus"), json_pack("{s:i}", "index", 0));
    json_t *net = json_pack("[{s:i, s:i, s:i, s:i, s:i, s:i, s:s, s:s, s:b, s:b, s:s}]", "channel",
                            0, "conn", 0, "from_rank", 0, "to_rank", 1, "from", 0, "to", 0,
                            "transport", "NET/IB", "via", gdrdma ? "NET/IB/0/GDRDMA" : "NET/IB/0",
                            "gdrdma", gdrdma, "read", 0, "side", "send");
    json_t *e = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:[i,i], s:i, s:[s,s], s:o}",
                          "id", "nccl-mpi", "family", "nccl", "metric", "busbw", "unit", "GB/s",
                          "status", "ok", "collective", "all_reduce", "mode", "mpi", "variant",
                          "default", "gpus", 0, 0, "nranks", 2, "rank_hosts", host0, host1,
                          "transports", net);
    json_object_set_new(e, "nodes",
                        json_pack(strcmp(host0, host1) ? "[{s:s}, {s:s}]" : "[{s:s}]", "hostname",
                                  host0, "hostname", host1));
    json_array_append_new(json_object_get(doc, "measurements"), e);
    return doc;
}

static void mpi_net_between_nodes_is_not_inside_a_node(void **state)
{
    (void)state;
    json_t *two = mpi_entry_over("nodeA", "nodeB", 1), *f = ls_findings(two);
    assert_int_equal(count_rule(f, "nccl_transport", NULL), 0);
    assert_int_equal(count_rule(f, "gdr_disabled", NULL), 0);
    json_decref(f);
    json_decref(two);
    /* between the nodes without GPUDirect RDMA: gdr_disabled judges the connection */
    two = mpi_entry_over("nodeA", "nodeB", 0);
    f = ls_findings(two);
    assert_int_equal(count_rule(f, "gdr_disabled", NULL), 1);
    json_decref(f);
    json_decref(two);
    json_t *one = mpi_entry_over("nodeA", "nodeA", 1);
    f = ls_findings(one);
    assert_int_equal(count_rule(f, "nccl_transport", NULL), 1);
    json_decref(f);
    json_decref(one);
}

/* NCCL's log of two one-GPU hosts over IB with GPUDirect RDMA for receives only
   ("read 0"): the send side staged through the host is NCCL's choice, quiet; the twin
   says "read 1" (sends should use it too): its send without GDRDMA is judged. */
static void gdr_receive_only_is_not_gdr_off(void **state)
{
    (void)state;
    const char *fmt =
        "a-0:9100:9147 [0] NCCL INFO NET/IB : GPU Direct RDMA Enabled for GPU 435e00000 / HCA 0 "
        "(distance 1 < 2), read %d\n"
        "a-1:9482:9533 [0] NCCL INFO NET/IB : GPU Direct RDMA Enabled for GPU 18100000 / HCA 0 "
        "(distance 1 < 2), read %d\n"
        "a-0:9100:9147 [0] NCCL INFO Ring 00 : 1[18100000] -> 0[435e00000] [receive] via "
        "NET/IB/0/GDRDMA\n"
        "a-1:9482:9533 [0] NCCL INFO Ring 00 : 0[435e00000] -> 1[18100000] [receive] via "
        "NET/IB/0/GDRDMA\n"
        "a-0:9100:9147 [0] NCCL INFO Ring 00 : 0[435e00000] -> 1[18100000] [send] via NET/IB/0\n"
        "a-1:9482:9533 [0] NCCL INFO Ring 00 : 1[18100000] -> 0[435e00000] [send] via NET/IB/0\n";
    for (int read = 0; read <= 1; read++) {
        char text[2048], err[256];
        snprintf(text, sizeof text, fmt, read, read);
        json_t *doc = ls_doc_new();
        assert_true(ls_import_text(doc, text, "nccl.log", NULL, NULL, err, sizeof err) >= 0);
        json_t *f = ls_findings(doc);
        assert_int_equal(count_rule(f, "gdr_disabled", NULL), read);
        json_decref(f);
        json_decref(doc);
    }
    /* no "read" line (NCCL 2.4's log, NVIDIA/nccl#246): the receives over the network with
       GDRDMA show GPUDirect works, the sends' staging is NCCL's read policy; without them
       (every edge staged) it fires */
    const char *rings = strstr(fmt, "a-0:9100:9147 [0] NCCL INFO Ring");
    const char *sends = strstr(rings, "a-0:9100:9147 [0] NCCL INFO Ring 00 : 0[");
    const char *texts[] = {rings, sends};
    for (int staged = 0; staged <= 1; staged++) {
        char err[256];
        json_t *doc = ls_doc_new();
        assert_true(ls_import_text(doc, texts[staged], "nccl.log", NULL, NULL, err, sizeof err) >=
                    0);
        json_t *f = ls_findings(doc);
        assert_int_equal(count_rule(f, "gdr_disabled", NULL), staged);
        json_decref(f);
        json_decref(doc);
    }
}

/* topo -m of a driver that prints no NUMA Affinity column: numa_placement groups the GPUs
   by their CPU Affinity sets (the CPUs of each GPU's NUMA node); sets that overlap or do
   not parse leave the grouping unknown, and a NUMA column wins over the sets. */
static json_t *topo_findings(const char *rows)
{
    char text[1024];
    snprintf(text, sizeof text, "\tGPU0\tGPU1\tGPU2\tGPU3\tCPU Affinity\n%s", rows);
    json_t *doc = ls_test_import_text(text, LS_FMT_TOPO);
    json_t *f = ls_findings(doc);
    json_decref(doc);
    return f;
}

static void numa_from_cpu_affinity(void **state)
{
    (void)state;
    json_t *f = topo_findings("GPU0\t X \tPHB\tPHB\tSYS\t0-7,16-23\n"
                              "GPU1\tPHB\t X \tPHB\tSYS\t0-7,16-23\n"
                              "GPU2\tPHB\tPHB\t X \tSYS\t0-7,16-23\n"
                              "GPU3\tSYS\tSYS\tSYS\t X \t8-15,24-31\n");
    assert_int_equal(count_rule(f, "numa_placement", "GPU3"), 1);
    assert_int_equal(count_rule(f, "numa_placement", NULL), 1);
    json_decref(f);

    /* GPU3's set overlaps the others' (a cut cell, or one node's CPUs listed twice
       differently): which node it is stays unknown, so nothing is said */
    f = topo_findings("GPU0\t X \tPHB\tPHB\tSYS\t0-7,16-23\n"
                      "GPU1\tPHB\t X \tPHB\tSYS\t0-7,16-23\n"
                      "GPU2\tPHB\tPHB\t X \tSYS\t0-7,16-23\n"
                      "GPU3\tSYS\tSYS\tSYS\t X \t7-15\n");
    assert_int_equal(count_rule(f, "numa_placement", NULL), 0);
    json_decref(f);
    f = topo_findings("GPU0\t X \tPHB\tPHB\tSYS\t0-7\n"
                      "GPU1\tPHB\t X \tPHB\tSYS\t0-7\n"
                      "GPU2\tPHB\tPHB\t X \tSYS\t0-7\n"
                      "GPU3\tSYS\tSYS\tSYS\t X \t-15\n");
    assert_int_equal(count_rule(f, "numa_placement", NULL), 0);
    json_decref(f);

    /* two GPUs a socket: even, quiet */
    f = topo_findings("GPU0\t X \tPHB\tSYS\tSYS\t0-7\n"
                      "GPU1\tPHB\t X \tSYS\tSYS\t0-7\n"
                      "GPU2\tSYS\tSYS\t X \tPHB\t8-15\n"
                      "GPU3\tSYS\tSYS\tPHB\t X \t8-15\n");
    assert_int_equal(count_rule(f, "numa_placement", NULL), 0);
    json_decref(f);

    /* the NUMA column names the nodes: the sets are not read (one node, quiet, although
       GPU3's CPUs differ) */
    json_t *doc = ls_test_import_text("\tGPU0\tGPU1\tGPU2\tGPU3\tCPU Affinity\tNUMA Affinity\n"
                                      "GPU0\t X \tPHB\tPHB\tPHB\t0-7\t0\n"
                                      "GPU1\tPHB\t X \tPHB\tPHB\t0-7\t0\n"
                                      "GPU2\tPHB\tPHB\t X \tPHB\t0-7\t0\n"
                                      "GPU3\tPHB\tPHB\tPHB\t X \t8-15\t0\n",
                                      LS_FMT_TOPO);
    f = ls_findings(doc);
    assert_int_equal(count_rule(f, "numa_placement", NULL), 0);
    json_decref(f);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gdr_receive_only_is_not_gdr_off),
        cmocka_unit_test(seed004_degraded_pair_found),
        cmocka_unit_test(host_one_way_graded),
        cmocka_unit_test(h200x2_has_no_broken_link),
        cmocka_unit_test(even_box_gives_no_finding_and_one_island),
        cmocka_unit_test(each_rule_fires_on_one_change),
        cmocka_unit_test(nvlink_counters_graded),
        cmocka_unit_test(nvlink_shared_window_counted_once),
        cmocka_unit_test(nvlink_keys_canonical_only),
        cmocka_unit_test(nvlink_windows_out_of_order),
        cmocka_unit_test(asymmetry_takes_first_ok_reverse),
        cmocka_unit_test(hbm_compared_by_method),
        cmocka_unit_test(sync_boost_is_not_throttling),
        cmocka_unit_test(nccl_variant_compared_at_a_common_size),
        cmocka_unit_test(unused_p2p_edges_with_two_digit_gpus),
        cmocka_unit_test(short_sweep_does_not_dilute_measured_busbw),
        cmocka_unit_test(unmeasured_links_are_estimated_by_class),
        cmocka_unit_test(all_nvlinks_down_is_an_error),
        cmocka_unit_test(plan_of_64_gpus),
        cmocka_unit_test(severity_names_round_trip),
        cmocka_unit_test(empty_document_gives_empty_analysis),
        cmocka_unit_test(mpi_net_between_nodes_is_not_inside_a_node),
        cmocka_unit_test(numa_from_cpu_affinity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
