/* perftest, nvloom and dcgmi health imports, and the DCGM diagnostic variants
   (tests/fixtures/tools, README.md there names each source): each real sample imports
   into a valid document with the figures its text shows, and what it means comes out as
   findings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "analyze/analyze.h"
#include "import/dcgm_diag.h"
#include "import/dcgm_health.h"
#include "import/import_util.h"
#include "import/import.h"
#include "import/nccl_tests_json.h"
#include "import/perftest.h"
#include "model/doc.h"
#include "util/fileio.h"

static json_t *import_one(const char *name, enum ls_import_format want, int *added)
{
    char rel[256];
    snprintf(rel, sizeof rel, "tools/%s", name);
    json_t *doc = ls_import_doc_new();
    int n = ls_test_import(doc, rel, (int)want);
    if (added)
        *added = n;
    return doc;
}

static const json_t *entry(const json_t *doc, const char *id)
{
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e) {
        if (strcmp(ls_json_str(e, "id", ""), id) == 0)
            return e;
    }
    fail_msg("no entry %s", id);
    return NULL;
}

static void near(double got, double want)
{
    if (fabs(got - want) > 1e-9 * fabs(want) + 1e-12)
        fail_msg("%.12g, want %.12g", got, want);
}

/* perftest#273: one row, Gb/sec, no peak (0.00): 0.48 Gb/s is 0.06 GB/s. */
static void perftest_gbits_row(void **state)
{
    (void)state;
    int n;
    json_t *doc = import_one("perftest-issue273-write-bw-postlist.txt", LS_FMT_PERFTEST, &n);
    assert_int_equal(n, 1);
    const json_t *e = entry(doc, "net-ib_write_bw-ib0-8");
    near(ls_json_num(e, "value", 0), 0.48 / 8);
    assert_null(json_object_get(e, "peak_gbps"));
    near(ls_json_num(e, "msg_rate_mpps", 0), 7.498617);
    assert_int_equal(ls_json_int(e, "iterations", 0), 224958464);
    assert_string_equal(ls_json_str(e, "link_layer", ""), "Ethernet");
    json_decref(doc);
}

/* A bidirectional -a sweep: every size, the 8 MiB row 204.59 Gb/s. */
static void perftest_bidir_sweep(void **state)
{
    (void)state;
    int n;
    json_t *doc = import_one("perftest-rocm-docs-write-bw-bidir-sweep.txt", LS_FMT_PERFTEST, &n);
    assert_int_equal(n, 23); /* 2 B to 8 MiB */
    const json_t *e = entry(doc, "net-ib_write_bw-<RDMA-NIC-2>-bidir-8388608");
    near(ls_json_num(e, "value", 0), 204.59 / 8);
    assert_string_equal(ls_json_str(e, "direction", ""), "bidir");
    near(ls_json_num(entry(doc, "net-ib_write_bw-<RDMA-NIC-2>-bidir-2"), "peak_gbps", 0),
         0.142947 / 8);
    json_decref(doc);
}

/* ib_read_lat with perftest's CPU-frequency warnings between the header and the row. */
static void perftest_latency_columns(void **state)
{
    (void)state;
    json_t *doc = import_one("perftest-read-lat-roce-spiderpool.txt", LS_FMT_PERFTEST, NULL);
    const json_t *e = entry(doc, "net-ib_read_lat-mlx5_0-2");
    assert_string_equal(ls_json_str(e, "unit", ""), "us");
    near(ls_json_num(e, "value", 0), 7.04); /* t_typical, perftest's median */
    near(ls_json_num(e, "min_us", 0), 6.88);
    near(ls_json_num(e, "avg_us", 0), 7.06);
    near(ls_json_num(e, "p99_us", 0), 7.38);
    near(ls_json_num(e, "p999_us", 0), 16.81);
    json_decref(doc);
}

/* perftest#65 (real8 train): two ib_send_bw tables pasted outside a code block, the
   averages bolded ("**5544.28**"): both rows read, MB/sec being 2^20 bytes. */
static void perftest_bold_rows(void **state)
{
    (void)state;
    json_t *doc = ls_import_doc_new();
    assert_int_equal(ls_test_import(doc, "real/perftest-perftest65-bold-rows.txt", LS_FMT_PERFTEST),
                     2);
    near(ls_json_num(entry(doc, "net-perftest-unknown-1024"), "value", 0), 5544.28 * 1048576 / 1e9);
    near(ls_json_num(entry(doc, "net-perftest-unknown-1024-2"), "value", 0),
         920.13 * 1048576 / 1e9);
    near(ls_json_num(entry(doc, "net-perftest-unknown-1024-2"), "msg_rate_mpps", 0), 0.942218);
    json_decref(doc);
}

/* Its twins: the same row plain reads the same figure; an unbalanced or lone marker is
   not a figure, so the row is not one. */
static void perftest_emphasis_twins(void **state)
{
    (void)state;
    static const char head[] = "#bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   "
                               "MsgRate[Mpps]\n";
    static const char *const rows[] = {"1024 1000 0.00 5544.28 5.677340\n",
                                       "1024 1000 0.00 **5544.28 5.677340\n",
                                       "1024 1000 0.00 ** 5.677340\n"};
    for (int i = 0; i < 3; i++) {
        char text[256], err[256] = "";
        snprintf(text, sizeof text, "%s%s", head, rows[i]);
        json_t *doc = ls_import_doc_new();
        int n = ls_import_perftest(doc, text, "t", err, sizeof err);
        if (i == 0) {
            assert_int_equal(n, 1);
            near(ls_json_num(entry(doc, "net-perftest-unknown-1024"), "value", 0),
                 5544.28 * 1048576 / 1e9);
        } else {
            assert_true(n < 0);
            assert_non_null(strstr(err, "no result row"));
        }
        json_decref(doc);
    }
}

/* Pasted forms (fresh30): every line quoted ("> ", as in a Markdown or e-mail reply), and
   a header whose "iterations" lost its '#': the same figure as the plain table. */
static void perftest_quoted_and_bare_iterations(void **state)
{
    (void)state;
    static const char *const texts[] =
        {"> #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n"
         "> 1024 1000 0.00 5544.28 5.677340\n",
         " #bytes     iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n"
         " 1024 1000 0.00 5544.28 5.677340\n"};
    for (int i = 0; i < 2; i++) {
        char err[256] = "";
        assert_int_equal(ls_perftest_detect(texts[i]), 1);
        json_t *doc = ls_import_doc_new();
        assert_int_equal(ls_import_perftest(doc, texts[i], "t", err, sizeof err), 1);
        near(ls_json_num(entry(doc, "net-perftest-unknown-1024"), "value", 0),
             5544.28 * 1048576 / 1e9);
        json_decref(doc);
    }
}

/* nvloom's pairwise cell is the copy from the column's process to the row's; gpu_to_rack
   rows name the tested process; latency cells are ns, kept in us. */
static void nvloom_matrices(void **state)
{
    (void)state;
    int n;
    json_t *doc = import_one("nvloom-8proc-2rack.constructed.txt", LS_FMT_NVLOOM, &n);
    assert_int_equal(n, 8 * 7 + 8 * 2 + 8 * 7);
    const json_t *e = entry(doc, "mnnvl-device_to_device_unidir_write_ce-1-0");
    near(ls_json_num(e, "value", 0), 739.94); /* row 0, column 1 */
    assert_string_equal(ls_json_str(e, "dst_host", ""), "gb200-n01");
    const json_t *g = entry(doc, "mnnvl-gpu_to_rack_device_to_device_unidir_write_ce-5-rack1");
    assert_string_equal(ls_json_str(g, "rack", ""), "0x1a2b3c4d5e6f7082");
    assert_true(
        ls_json_num(g, "value", 0) <
        0.6 * ls_json_num(entry(doc, "mnnvl-gpu_to_rack_device_to_device_unidir_write_ce-4-rack1"),
                          "value", 0));
    const json_t *l = entry(doc, "mnnvl-latency_device-0-1");
    assert_string_equal(ls_json_str(l, "unit", ""), "us");
    assert_true(ls_json_num(l, "value", 0) > 0.7 && ls_json_num(l, "value", 0) < 0.76);
    const json_t *top = json_array_get(json_object_get(doc, "nvloom"), 0);
    assert_int_equal(json_array_size(json_object_get(top, "processes")), 8);
    assert_int_equal(json_array_size(json_object_get(top, "testcases")), 3);
    json_decref(doc);
}

static void nvloom_csv(void **state)
{
    (void)state;
    int n;
    json_t *doc = import_one("nvloom-csv-custom-pattern.constructed.csv", LS_FMT_NVLOOM, &n);
    assert_int_equal(n, 9);
    near(ls_json_num(entry(doc, "mnnvl-csv-bandwidth-2-1-1"), "value", 0), 1411.07);
    const json_t *l = entry(doc, "mnnvl-csv-latency-4-1-3");
    near(ls_json_num(l, "value", 0), 1.8935);
    assert_int_equal(ls_json_int(l, "src_process", -1), 3); /* the process reading */
    assert_string_equal(ls_json_str(l, "comment", ""), "latency_under_load");
    json_decref(doc);
}

static void dcgm_health_failure_and_warning(void **state)
{
    (void)state;
    json_t *doc = import_one("dcgm-health-memory-fail.constructed.json", LS_FMT_DCGM_HEALTH, NULL);
    json_t *f = ls_findings(doc);
    const json_t *h = ls_test_finding(f, "dcgm_health");
    assert_non_null(h);
    assert_string_equal(ls_json_str(h, "severity", ""), "error");
    assert_string_equal(ls_json_str(h, "subject", ""), "GPU1");
    assert_non_null(
        strstr(ls_json_str(h, "message", ""), "double-bit ECC error has occurred on GPU 1"));
    assert_int_equal(ls_findings_count_at_least(f, LS_SEV_WARNING), 2); /* PCIe replays warned */
    assert_null(ls_test_finding(f, "dcgm_health_ok"));
    json_decref(f);
    json_decref(doc);
}

static void dcgm_health_healthy_is_evidence(void **state)
{
    (void)state;
    json_t *doc = import_one("dcgm-health-healthy.constructed.json", LS_FMT_DCGM_HEALTH, NULL);
    json_t *f = ls_findings(doc);
    assert_int_equal(ls_findings_count_at_least(f, LS_SEV_WARNING), 0);
    assert_non_null(ls_test_finding(f, "dcgm_health_ok"));
    json_decref(f);
    json_decref(doc);
}

/* dcgmi health -c -j as posted (DCGM#263): after a shell prompt and dcgmi's own message,
   another prompt after it; a '{' deeper than the first lines is no JSON output. */
static void dcgm_health_after_a_prompt(void **state)
{
    (void)state;
    static const char json[] = "{\"body\": {\"Overall Health\": {\"value\": \"Healthy\"}},\n"
                               " \"header\": [\"Health Monitor Report\"]}\n";
    char text[512], err[256] = "";
    snprintf(text, sizeof text,
             "$ dcgmi health -s a\nHealth monitor systems set "
             "successfully.\n$ dcgmi health -c -j\n%s$ \n",
             json);
    assert_true(ls_dcgm_health_detect(text));
    json_t *doc = ls_import_doc_new();
    assert_true(ls_import_dcgm_health(doc, text, "t", err, sizeof err) >= 0);
    json_t *f = ls_findings(doc);
    assert_non_null(ls_test_finding(f, "dcgm_health_ok"));
    json_decref(f);
    json_decref(doc);
    /* its first LS_JSON_PREAMBLE_LINES lines: the '{' on the last of them is the JSON's,
       one line further it is not */
    char deep[1024] = "";
    for (int i = 0; i < LS_JSON_PREAMBLE_LINES - 1; i++)
        strcat(deep, "a log line\n");
    char last[1024];
    snprintf(last, sizeof last, "%s%s", deep, json);
    assert_true(ls_dcgm_health_detect(last));
    snprintf(last, sizeof last, "%sa log line\n%s", deep, json);
    assert_false(ls_dcgm_health_detect(last));
}

/* DCGM's own "real output" (3.1.0): null between tests, per-GPU ids as numbers. */
static void dcgm_31_numeric_gpu_ids(void **state)
{
    (void)state;
    json_t *doc = import_one("dcgm-diag-3.1-pass-dcgm-tests.json", LS_FMT_DCGM_DIAG, NULL);
    const json_t *d = json_array_get(json_object_get(doc, "dcgm"), 0);
    assert_string_equal(ls_json_str(d, "version", ""), "3.1.0");
    const json_t *tests = json_object_get(d, "tests");
    assert_int_equal(json_array_size(tests), 10);
    const json_t *sw = json_array_get(tests, 9);
    assert_string_equal(ls_json_str(sw, "name", ""), "software");
    const json_t *r7 = json_array_get(json_object_get(sw, "results"), 7);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(r7, "gpus"), 0)), 7);
    json_t *f = ls_findings(doc);
    assert_non_null(
        strstr(ls_json_str(ls_test_finding(f, "dcgm_passed"), "message", ""), "10 tests passed"));
    json_decref(f);
    json_decref(doc);
}

/* DCGM 4.2.3 on a GB10: categories under "DCGM Diagnostic", entity ids, metadata. */
static void dcgm_423_gb10(void **state)
{
    (void)state;
    json_t *doc = import_one("dcgm-diag-4.2.3-gb10-software-fail.json", LS_FMT_DCGM_DIAG, NULL);
    const json_t *d = json_array_get(json_object_get(doc, "dcgm"), 0);
    assert_string_equal(ls_json_str(d, "version", ""), "4.2.3");
    assert_string_equal(ls_json_str(d, "driver", ""), "580.82.09");
    json_t *f = ls_findings(doc);
    const json_t *x = ls_test_finding(f, "dcgm_failed");
    assert_string_equal(ls_json_str(x, "subject", ""), "GPU0");
    assert_non_null(strstr(ls_json_str(x, "message", ""), "error code 29"));
    assert_non_null(
        strstr(ls_json_str(x, "message", ""), "Persistence mode for GPU 0 is disabled"));
    /* DCGM rates it DCGM_ERROR_CONFIG (5): a setting, not a GPU to isolate */
    assert_string_equal(ls_json_str(x, "severity", ""), "warning");
    assert_non_null(strstr(ls_json_str(x, "message", ""), "DCGM severity: configuration"));
    json_decref(f);
    json_decref(doc);
}

/* NVIDIA/DCGM#215: one 4.x test pasted alone, with the comma that followed it. */
static void dcgm_one_test_pasted(void **state)
{
    (void)state;
    int n;
    json_t *doc = import_one("dcgm-diag-4x-one-test-dcgm215.txt", LS_FMT_DCGM_DIAG, &n);
    assert_int_equal(n, 8);
    assert_int_equal(json_array_size(json_object_get(doc, "measurements")), 2);
    const json_t *d = json_array_get(json_object_get(doc, "dcgm"), 0);
    assert_non_null(json_object_get(d, "incomplete"));
    const json_t *t = json_array_get(json_object_get(d, "tests"), 0);
    assert_string_equal(ls_json_str(t, "name", ""), "diagnostic");
    assert_string_equal(ls_json_str(t, "status", ""), "pass");
    /* its info lines: "GPU 0 calculated at approximately 859.08 gigaflops" for GPUs 0 and 1 */
    const json_t *tf = entry(doc, "dcgm-diagnostic_tflops-1");
    assert_string_equal(ls_json_str(tf, "unit", ""), "TFLOP/s");
    near(ls_json_num(tf, "value", 0), 0.85908);
    json_decref(doc);
}

/* The finding of rule whose subject is subject, or NULL. */
static const json_t *finding_on(const json_t *findings, const char *rule, const char *subject)
{
    size_t i;
    const json_t *f;
    json_array_foreach(findings, i, f) {
        if (!strcmp(ls_json_str(f, "rule", ""), rule) &&
            !strcmp(ls_json_str(f, "subject", ""), subject))
            return f;
    }
    return NULL;
}

/* NCCL's RAS documentation: a dead process named with its host and GPU, the missing rank. */
static void ras_dead_process_named(void **state)
{
    (void)state;
    json_t *doc = import_one("ras-dead-nccl-docs.txt", LS_FMT_NCCL_RAS, NULL);
    json_t *f = ls_findings(doc);
    const json_t *d = finding_on(f, "nccl_ras_problem", "process 3487984 on 172.16.64.213, GPU 5");
    assert_non_null(d);
    assert_string_equal(ls_json_str(d, "severity", ""), "error");
    assert_non_null(strstr(ls_json_str(d, "message", ""), "DEAD"));
    assert_non_null(
        strstr(ls_json_str(finding_on(f, "nccl_ras_problem", "communicator 0-0"), "message", ""),
               "missing rank 21"));
    json_decref(f);
    json_decref(doc);
}

/* The table's "7-8" ranks per node (a process missing) and the TIMEOUT warning. */
static void ras_incomplete_ranges_and_timeout(void **state)
{
    (void)state;
    json_t *doc = import_one("ras-incomplete-timeout-nccl-docs.txt", LS_FMT_NCCL_RAS, NULL);
    const json_t *g =
        json_array_get(json_object_get(json_array_get(json_object_get(doc, "nccl_ras"), 0),
                                       "groups"),
                       0);
    assert_string_equal(ls_json_str(g, "ranks_per_node", ""), "7-8");
    assert_string_equal(ls_json_str(g, "errors", ""), "INCOMPLETE");
    json_t *f = ls_findings(doc);
    const json_t *t = finding_on(f, "nccl_ras_problem", "NCCL job");
    assert_non_null(t);
    assert_string_equal(ls_json_str(t, "severity", ""), "warning");
    assert_non_null(strstr(ls_json_str(t, "message", ""), "2 communication timeouts"));
    json_decref(f);
    json_decref(doc);
}

/* A table and a mismatch pasted without their titles (tear-down: FINALIZE, "1-2"). */
static void ras_untitled_paste(void **state)
{
    (void)state;
    json_t *doc = import_one("ras-finalize-mismatch-nccl-docs.txt", LS_FMT_NCCL_RAS, NULL);
    const json_t *ras = json_array_get(json_object_get(doc, "nccl_ras"), 0);
    assert_int_equal(json_array_size(json_object_get(ras, "groups")), 3);
    const json_t *p = json_array_get(json_object_get(ras, "problems"), 0);
    assert_string_equal(ls_json_str(p, "kind", ""),
                        "unknown"); /* no Errors/Warnings title pasted */
    assert_int_equal(json_array_size(json_object_get(p, "ranks")), 6);
    json_t *f = ls_findings(doc);
    assert_non_null(finding_on(f, "nccl_ras_problem", "rank 20 on 172.16.64.213, GPU 4"));
    /* group 2, INIT with OK, is a communicator being created: information, not a warning */
    size_t i, init = 0;
    const json_t *x;
    json_array_foreach(f, i, x) {
        if (strstr(ls_json_str(x, "message", ""), "group 2 ")) {
            assert_string_equal(ls_json_str(x, "severity", ""), "info");
            assert_non_null(strstr(ls_json_str(x, "message", ""), "still initializing"));
            init++;
        }
    }
    assert_int_equal(init, 1);
    json_decref(f);
    json_decref(doc);
}

/* ncclras -f json (the documentation's 2.29.1 sample): the missing, unresponsive rank. */
static void ras_json_missing_rank(void **state)
{
    (void)state;
    json_t *doc = import_one("ras-json-missing-rank-nccl-docs.json", LS_FMT_NCCL_RAS_JSON, NULL);
    const json_t *ras = json_array_get(json_object_get(doc, "nccl_ras"), 0);
    assert_string_equal(ls_json_str(ras, "nccl_version", ""), "2.29.1");
    const json_t *g = json_array_get(json_object_get(ras, "groups"), 0);
    assert_string_equal(ls_json_str(g, "status", ""), "RUNNING");
    assert_string_equal(ls_json_str(g, "errors", ""), "INCOMPLETE");
    json_t *f = ls_findings(doc);
    const json_t *p = finding_on(f, "nccl_ras_problem", "rank 1 on 172.16.64.245, GPU 1");
    assert_non_null(p);
    assert_string_equal(ls_json_str(p, "severity", ""), "error");
    assert_non_null(strstr(ls_json_str(p, "message", ""), "unresponsive"));
    json_decref(f);
    json_decref(doc);
}

/* ncclras -m -f json: a peer declared dead names its process, host and GPU. */
static void ras_json_monitor_event(void **state)
{
    (void)state;
    json_t *doc = import_one("ras-monitor-json-peer-dead-nccl-docs.json", LS_FMT_NCCL_RAS_JSON,
                             NULL);
    json_t *f = ls_findings(doc);
    const json_t *p = finding_on(f, "nccl_ras_problem", "process 1524345 on 172.16.64.245, GPU 1");
    assert_non_null(p);
    assert_string_equal(ls_json_str(p, "severity", ""), "error");
    json_decref(f);
    json_decref(doc);
}

/* nccl-tests 2.19.6's per-iteration skip: a process slow only in the skipped warm-up
   iterations is no straggler. */
static void per_iteration_skip_honoured(void **state)
{
    (void)state;
    json_t *doc = import_one("nccl-tests-json-v3-skip-warm.constructed.json",
                             LS_FMT_NCCL_TESTS_JSON, NULL);
    const json_t *e = json_array_get(json_object_get(doc, "measurements"), 0);
    const json_t *iter =
        json_object_get(json_object_get(json_array_get(json_object_get(e, "rows"), 0), "oop"),
                        "iter");
    assert_int_equal(ls_json_int(iter, "skipped_iterations", 0), 2);
    json_t *f = ls_findings(doc);
    assert_null(ls_test_finding(f, "nccl_straggler"));
    json_decref(f);
    json_decref(doc);
}

/* The Inspector README's records, printed over several lines. */
static void inspector_pretty_records(void **state)
{
    (void)state;
    int n;
    json_t *doc = import_one("inspector-nccl-readme-v4.0.json", LS_FMT_INSPECTOR, &n);
    assert_int_equal(n, 2);
    const json_t *a = json_array_get(json_object_get(doc, "inspector"), 0);
    assert_string_equal(ls_json_str(a, "collective", ""), "all_reduce");
    assert_int_equal(ls_json_int(a, "bytes", 0), 17179869184LL);
    near(ls_json_num(a, "busbw", 0), 485.119099);
    assert_string_equal(ls_json_str(json_array_get(json_object_get(doc, "inspector"), 1),
                                    "collective", ""),
                        "reduce_scatter");
    json_decref(doc);
}

/* NVIDIA/nccl#1730: a healthy 256-GPU report with PyTorch's watchdog lines pasted under
   it. RAS saw nothing wrong and its part says no more (no RAS finding); the watchdog's
   lines are read too: rank 118's ALLREDUCE timed out, the post's point. */
static void ras_healthy_256_beside_watchdog(void **state)
{
    (void)state;
    json_t *doc = import_one("ras-healthy-256-nccl1730.txt", LS_FMT_NCCL_RAS, NULL);
    const json_t *ras = json_array_get(json_object_get(doc, "nccl_ras"), 0);
    assert_int_equal(ls_json_int(ras, "gpus", 0), 256);
    assert_int_equal(ls_json_int(ras, "nodes", 0), 32);
    assert_int_equal(json_array_size(json_object_get(ras, "problems")), 0);
    assert_int_equal(json_array_size(json_object_get(doc, "torch_watchdog")), 1);
    ls_test_silent(doc, "nccl_ras_state");
    ls_test_silent(doc, "nccl_ras_problem");
    ls_test_fires(doc, "collective_timeout", "error", "", "2398459");
    json_decref(doc);
}

/* nvloom within one run: process 5 receives at 55% of the others (pairwise, as the
   destination) and its gpu_to_rack row is as low; the others stay quiet. */
static void nvloom_degraded_process(void **state)
{
    (void)state;
    json_t *doc = import_one("nvloom-8proc-2rack.constructed.txt", LS_FMT_NVLOOM, NULL);
    json_t *f = ls_findings(doc);
    size_t i, named = 0;
    const json_t *x;
    json_array_foreach(f, i, x) {
        if (strcmp(ls_json_str(x, "rule", ""), "mnnvl_degraded") != 0)
            continue;
        assert_string_equal(ls_json_str(x, "subject", ""), "process 5 (gb200-n02)");
        assert_string_equal(ls_json_str(x, "severity", ""), "warning");
        named++;
    }
    assert_int_equal(named, 2);
    assert_non_null(strstr(ls_json_str(ls_test_finding(f, "mnnvl_degraded"), "message", ""),
                           "as the destination"));
    json_decref(f);
    json_decref(doc);
}

/* A job's size between two measured sizes is compared with the curve interpolated on a
   log scale of size (64 MiB 352.4, 1 GiB 480.0: 416.2 at 256 MiB); a size beyond the
   ones measured (16 GiB) is not compared. */
static void inspector_between_sizes(void **state)
{
    (void)state;
    json_t *doc = import_one("nccl-tests-json-v3-allreduce-8gpu.constructed.json",
                             LS_FMT_NCCL_TESTS_JSON, NULL);
    char err[256];
    char *text = ls_read_file(ls_fixture("tools/inspector-between-sizes.constructed.jsonl"), NULL,
                              err, sizeof err);
    assert_non_null(text);
    assert_true(ls_import_text(doc, text, "job.jsonl", NULL, NULL, err, sizeof err) == 2);
    free(text);
    json_t *f = ls_findings(doc);
    const json_t *j = ls_test_finding(f, "job_vs_measured");
    const char *msg = ls_json_str(j, "message", "");
    assert_non_null(
        strstr(msg, "50% at 256 MiB (208.1 of 416.2 GB/s, between the sizes measured)"));
    assert_null(strstr(msg, "16 GiB"));
    assert_string_equal(ls_json_str(j, "severity", ""), "warning");
    json_decref(f);
    json_decref(doc);
}

/* DCGM's PCIe test figures (the info string posted in NVIDIA/DCGM#215, 3.x joined form;
   the same lines as a 4.x info array) become dcgm entries for GPU 0. */
static void dcgm_pcie_figures(void **state)
{
    (void)state;
    static const char *const files[] = {"dcgm-diag-3x-pcie-info-dcgm215.constructed.json",
                                        "dcgm-diag-4x-pcie-info.constructed.json"};
    for (int k = 0; k < 2; k++) {
        json_t *doc = import_one(files[k], LS_FMT_DCGM_DIAG, NULL);
        assert_int_equal(json_array_size(json_object_get(doc, "measurements")), 6);
        const json_t *d2h = entry(doc, "dcgm-pcie_d2h-0");
        near(ls_json_num(d2h, "value", 0), 24.02);
        assert_int_equal(ls_json_int(d2h, "gpu", -1), 0);
        near(ls_json_num(entry(doc, "dcgm-pcie_bidir-0"), "value", 0), 39.32);
        const json_t *lat = entry(doc, "dcgm-pcie_latency_bidir-0");
        assert_string_equal(ls_json_str(lat, "unit", ""), "us");
        near(ls_json_num(lat, "value", 0), 5.019);
        json_decref(doc);
    }
}

/* ncclras -m (text): a peer declared dead names its process, host and GPU. */
static void ras_monitor_text_event(void **state)
{
    (void)state;
    json_t *doc = import_one("ras-monitor-text-peer-dead-nccl-docs.txt", LS_FMT_NCCL_RAS, NULL);
    json_t *f = ls_findings(doc);
    const json_t *p = finding_on(f, "nccl_ras_problem", "process 1524345 on 172.16.64.245, GPU 1");
    assert_non_null(p);
    assert_string_equal(ls_json_str(p, "severity", ""), "error");
    assert_non_null(strstr(ls_json_str(p, "message", ""), "PEER_DEAD"));
    json_decref(f);
    json_decref(doc);
}

/* Two more real Inspector records: a 3-node nanoGPT job's (one compact line) and the
   32-rank one of NCCL's exporter README (printed over several lines). */
static void inspector_real_records(void **state)
{
    (void)state;
    json_t *doc = import_one("inspector-nanogpt-3node-record.jsonl", LS_FMT_INSPECTOR, NULL);
    const json_t *a = json_array_get(json_object_get(doc, "inspector"), 0);
    assert_string_equal(ls_json_str(a, "collective", ""), "all_reduce");
    assert_int_equal(ls_json_int(a, "bytes", 0), 2360832);
    assert_int_equal(ls_json_int(a, "nranks", 0), 3);
    near(ls_json_num(a, "busbw", 0), 0.55585);
    assert_string_equal(json_string_value(json_array_get(json_object_get(a, "hosts"), 0)),
                        "nanogpt-nccl-test-worker-0");
    json_decref(doc);
    doc = import_one("inspector-nccl-exporter-readme-32ranks.json", LS_FMT_INSPECTOR, NULL);
    a = json_array_get(json_object_get(doc, "inspector"), 0);
    assert_string_equal(ls_json_str(a, "collective", ""), "reduce_scatter");
    assert_int_equal(ls_json_int(a, "nranks", 0), 32);
    assert_int_equal(ls_json_int(a, "nnodes", 0), 4);
    near(ls_json_num(a, "exec_time_us", 0), 110);
    json_decref(doc);
}

/* Real ncclras -f json captures (NCCL 2.28.9) kept by ray-project/ray: an A10G job across
   4 nodes whose rank 1 is one AllReduce behind; three communicators of which one
   diverges (AllReduce 10 against 3); a missing rank in the output NCCL 2.28.9 writes
   without a comma (repaired). */
static void ras_json_real_captures(void **state)
{
    (void)state;
    json_t *doc = import_one("ras-json-a10g-mismatch-2.28.9-ray.json", LS_FMT_NCCL_RAS_JSON, NULL);
    json_t *f = ls_findings(doc);
    assert_non_null(finding_on(f, "nccl_ras_problem", "rank 1 on 10.0.109.86, GPU 0"));
    assert_null(finding_on(f, "nccl_ras_problem", "rank 0 on 10.0.69.85, GPU 0"));
    json_decref(f);
    json_decref(doc);

    doc = import_one("ras-json-multicomm-2.28.9-ray.json", LS_FMT_NCCL_RAS_JSON, NULL);
    const json_t *groups = json_object_get(json_array_get(json_object_get(doc, "nccl_ras"), 0),
                                           "groups");
    assert_int_equal(json_array_size(groups), 3);
    assert_string_equal(ls_json_str(json_array_get(groups, 0), "errors", ""), "MISMATCH");
    assert_string_equal(ls_json_str(json_array_get(groups, 1), "errors", ""), "OK");
    assert_string_equal(ls_json_str(json_array_get(groups, 2), "errors", ""), "OK");
    f = ls_findings(doc);
    assert_non_null(finding_on(f, "nccl_ras_problem", "rank 1 on 10.0.77.184, GPU 3"));
    json_decref(f);
    json_decref(doc);

    doc = import_one("ras-json-dead-rank-2.28.9-ray.json", LS_FMT_NCCL_RAS_JSON, NULL);
    assert_non_null(
        json_object_get(json_array_get(json_object_get(doc, "nccl_ras"), 0), "repaired"));
    f = ls_findings(doc);
    const json_t *m = finding_on(f, "nccl_ras_problem", "rank 1 on 10.0.77.184, GPU 1");
    assert_non_null(m);
    assert_string_equal(ls_json_str(m, "severity", ""), "error");
    json_decref(f);
    json_decref(doc);
}

/* nccl-tests 2.19.6's text with -I: four i_* columns after each half's #wrong; the
   in-place figures are read from their own columns, not from the out-of-place i_*. */
static void text_per_iteration_columns(void **state)
{
    (void)state;
    json_t *doc = import_one("nccl-tests-text-per-iteration.constructed.txt", LS_FMT_NCCL_TESTS,
                             NULL);
    const json_t *row =
        json_array_get(json_object_get(json_array_get(json_object_get(doc, "measurements"), 0),
                                       "rows"),
                       1);
    near(ls_json_num(json_object_get(row, "oop"), "busbw", 0), 480.01);
    near(ls_json_num(json_object_get(row, "ip"), "time_us", 0), 3915.0);
    near(ls_json_num(json_object_get(row, "ip"), "busbw", 0), 479.96);
    json_decref(doc);
}

/* A JSON paste that is not JSON, or lacks what its importer reads, is refused in one
   wording: the file, the tool, then the parser's message or what is missing; the document
   keeps nothing. */
static void json_pastes_refused_alike(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new();
    char err[256];
    assert_int_equal(ls_import_dcgm_health(doc, "{\"body\": {}}", "h.json", err, sizeof err), -1);
    assert_string_equal(err, "h.json: dcgmi health JSON: no \"Overall Health\" in its body");
    assert_int_equal(ls_import_dcgm_diag(doc, "{}", "d.json", err, sizeof err), -1);
    assert_string_equal(err, "d.json: dcgmi diag JSON: no \"DCGM Diagnostic\" object");
    assert_int_equal(ls_import_nccl_tests_json(doc, "[1]", "n.json", err, sizeof err), -1);
    assert_string_equal(err, "n.json: nccl-tests JSON: no \"results\" list");
    assert_int_equal(ls_import_nccl_tests_json(doc, "{\"results\": [", "n.json", err, sizeof err),
                     -1);
    assert_true(strncmp(err, "n.json: nccl-tests JSON: ", 25) == 0);
    assert_true(strlen(err) > 25); /* the parser's own message follows */
    assert_int_equal(json_array_size(json_object_get(doc, "measurements")), 0);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(perftest_gbits_row),
        cmocka_unit_test(perftest_bidir_sweep),
        cmocka_unit_test(perftest_latency_columns),
        cmocka_unit_test(perftest_bold_rows),
        cmocka_unit_test(perftest_emphasis_twins),
        cmocka_unit_test(perftest_quoted_and_bare_iterations),
        cmocka_unit_test(nvloom_matrices),
        cmocka_unit_test(nvloom_csv),
        cmocka_unit_test(dcgm_health_failure_and_warning),
        cmocka_unit_test(dcgm_health_healthy_is_evidence),
        cmocka_unit_test(dcgm_health_after_a_prompt),
        cmocka_unit_test(dcgm_31_numeric_gpu_ids),
        cmocka_unit_test(dcgm_423_gb10),
        cmocka_unit_test(dcgm_one_test_pasted),
        cmocka_unit_test(ras_dead_process_named),
        cmocka_unit_test(ras_incomplete_ranges_and_timeout),
        cmocka_unit_test(ras_untitled_paste),
        cmocka_unit_test(ras_json_missing_rank),
        cmocka_unit_test(ras_json_monitor_event),
        cmocka_unit_test(per_iteration_skip_honoured),
        cmocka_unit_test(inspector_pretty_records),
        cmocka_unit_test(ras_healthy_256_beside_watchdog),
        cmocka_unit_test(nvloom_degraded_process),
        cmocka_unit_test(inspector_between_sizes),
        cmocka_unit_test(dcgm_pcie_figures),
        cmocka_unit_test(ras_monitor_text_event),
        cmocka_unit_test(inspector_real_records),
        cmocka_unit_test(ras_json_real_captures),
        cmocka_unit_test(text_per_iteration_columns),
        cmocka_unit_test(json_pastes_refused_alike),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
