/* What nccl-tests prints when a run breaks, from real posts (tests/fixtures/real/): its
   failure lines alone ("HOST: Test NCCL failure FILE:LINE '...'", " .. HOST pid N: Test
   failure FILE:LINE"), the footer's out-of-bounds count in the 2.0-era layout, several
   processes' headers printed side by side (separate runs), and a multi-node rank table
   whose GPU indices repeat on each node. Checked value by value against the text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "import/import.h"
#include "import/nccl_text.h"
#include "model/doc.h"
#include "util/fileio.h"

static json_t *import_file(const char *dir, const char *file)
{
    char path[256], err[512] = "";
    snprintf(path, sizeof path, "%s/%s", dir, file);
    char *text = ls_read_file(ls_fixture(path), NULL, err, sizeof err);
    if (!text)
        fail_msg("%s", err);
    json_t *doc = ls_import_doc_new();
    if (ls_import_text(doc, text, file, NULL, NULL, err, sizeof err) < 0)
        fail_msg("%s: %s", file, err);
    free(text);
    char why[256];
    if (ls_doc_validate(doc, why, sizeof why) != 0)
        fail_msg("%s: document does not validate: %s", file, why);
    return doc;
}

static json_t *only_entry(const json_t *doc)
{
    const json_t *m = json_object_get(doc, "measurements");
    assert_int_equal(json_array_size(m), 1);
    return json_array_get(m, 0);
}

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "(absent)";
}

/* The three printed forms, and lines that only mention the words. */
static void failure_line_forms(void **state)
{
    (void)state;
    ls_nccl_failure_t f;
    assert_int_equal(ls_nccl_text_failure("HCA-14: Test NCCL failure common.cu:1204 'unhandled "
                                          "cuda error / '",
                                          &f),
                     0);
    assert_string_equal(f.host, "HCA-14");
    assert_int_equal(f.primary, 1);
    assert_string_equal(f.message, "Test NCCL failure common.cu:1204 'unhandled cuda error / '");
    assert_int_equal(ls_nccl_text_failure("gpu: Test CUDA failure common.cu:1030 'system not yet "
                                          "initialized'",
                                          &f),
                     0);
    assert_string_equal(f.host, "gpu");
    assert_int_equal(ls_nccl_text_failure(".. gpu-1-7 pid 3230359: Test failure common.cu:1189",
                                          &f),
                     0);
    assert_string_equal(f.host, "gpu-1-7");
    assert_int_equal(f.primary, 0);
    assert_string_equal(f.message, "Test failure common.cu:1189");
    /* the oldest builds print no host */
    assert_int_equal(ls_nccl_text_failure("Test NCCL failure common.cu:777 'unhandled system "
                                          "error'",
                                          &f),
                     0);
    assert_string_equal(f.host, "");
    assert_int_not_equal(ls_nccl_text_failure("how can I solve the problem: the test failure", &f),
                         0);
}

/* nccl-tests#322: failure lines of six hosts and mpirun's footer, nothing else. */
static void failure_lines_alone(void **state)
{
    (void)state;
    json_t *doc = import_file("real", "nccl-tests322-hosts-test-nccl-failure.txt");
    const json_t *e = only_entry(doc);
    assert_string_equal(str(e, "status"), "failed");
    assert_non_null(
        strstr(str(e, "error"), "Test NCCL failure common.cu:1204 'unhandled cuda error"));
    assert_non_null(strstr(str(e, "error"), "on HCA-14, HCA-28, HCA-111, HCA-88, HCA-118, HCA-19"));
    assert_null(json_object_get(e, "nranks")); /* no rank line: unknown */
    json_decref(doc);
}

/* nccl-tests#369: eight ranks over two hosts, six failing: GPU indices repeat per node. */
static void failure_after_rank_table(void **state)
{
    (void)state;
    json_t *doc = import_file("real", "nccl-tests369-gh200-busy.txt");
    const json_t *e = only_entry(doc);
    assert_int_equal(json_integer_value(json_object_get(e, "nranks")), 8);
    assert_int_equal(json_integer_value(json_object_get(e, "nodes")), 2);
    assert_non_null(strstr(str(e, "error"), "'CUDA-capable device(s) is/are busy or unavailable' "
                                            "on gpu-1-1, gpu-1-7"));
    json_decref(doc);
}

/* nccl-tests#107: two processes' headers, rank 0 on each host: two runs of one rank. */
static void two_headers_are_two_runs(void **state)
{
    (void)state;
    json_t *doc = import_file("real", "nccl-tests107-two-headers-v100.txt");
    const json_t *e = only_entry(doc);
    assert_int_equal(json_integer_value(json_object_get(e, "separate_runs")), 2);
    assert_int_equal(json_integer_value(json_object_get(e, "nranks")), 1);
    assert_null(json_object_get(e, "nodes")); /* the hosts are not nodes of one test */
    json_decref(doc);
    doc = import_file("real", "nccl-tests109-two-headers-6gpu.txt");
    e = only_entry(doc);
    assert_int_equal(json_integer_value(json_object_get(e, "separate_runs")), 2);
    assert_int_equal(json_integer_value(json_object_get(e, "nranks")), 6);
    json_decref(doc);
    /* one header, ranks 0 and 1 on two hosts: one 2-node test */
    doc = import_file("twins", "separate-runs-healthy.txt");
    e = only_entry(doc);
    assert_null(json_object_get(e, "separate_runs"));
    assert_int_equal(json_integer_value(json_object_get(e, "nodes")), 2);
    json_decref(doc);
}

/* The 2.0-era error column: the footer's count is the verdict. */
static void out_of_bounds_footer(void **state)
{
    (void)state;
    json_t *doc = import_file("twins", "oob-footer-broken.txt");
    const json_t *e = only_entry(doc);
    assert_int_equal(json_integer_value(json_object_get(e, "out_of_bounds")), 2);
    assert_string_equal(str(e, "status"), "failed");
    assert_non_null(strstr(str(e, "error"), "2 out-of-bounds values"));
    json_decref(doc);
    doc = import_file("real", "nccl-tests44-2080ti-error-col-ok.txt");
    e = only_entry(doc);
    assert_int_equal(json_integer_value(json_object_get(e, "out_of_bounds")), 0);
    assert_string_equal(str(e, "status"), "ok");
    json_decref(doc);
}

static const json_t *first_log(const json_t *doc)
{
    const json_t *log = json_array_get(json_object_get(doc, "nccl_logs"), 0);
    assert_non_null(log);
    return log;
}

/* Hosts behind a timestamp, a masked pid and a colour code's residue; a WARN line cut by
   the paste takes the whole text another line of the log printed; NIC speeds. */
static void log_prefixes_and_cut_warn(void **state)
{
    (void)state;
    json_t *doc = import_file("real", "warn-nccl2013-ibv-modify-qp-timestamp.log");
    const json_t *w = json_array_get(json_object_get(first_log(doc), "warnings"), 0);
    assert_string_equal(str(w, "host"), "host-01.example.com");
    assert_int_equal(json_integer_value(json_object_get(w, "gpu")), 5);
    json_decref(doc);
    doc = import_file("real", "nccl-pytorch68893-ansi-socket.log");
    assert_string_equal(json_string_value(
                            json_array_get(json_object_get(first_log(doc), "hosts"), 0)),
                        "ip-172-31-0-137");
    json_decref(doc);
    doc = import_file("real", "nccl-tests131-gtx-p2p-loc-warn.log");
    const json_t *ws = json_object_get(first_log(doc), "warnings");
    assert_int_equal(json_array_size(ws), 2); /* GPU 1's whole line, GPU 0's cut copy */
    for (size_t i = 0; i < 2; i++)
        assert_string_equal(str(json_array_get(ws, i), "text"),
                            "Could not find a path for pattern 4, falling back to simple order");
    json_decref(doc);
    doc = import_file("twins", "net-nics-healthy.txt");
    const json_t *speeds = json_object_get(first_log(doc), "net_speeds");
    assert_int_equal(json_integer_value(json_object_get(speeds, "mlx5_0")), 200000);
    assert_int_equal(json_integer_value(json_object_get(speeds, "mlx5_1")), 200000);
    json_decref(doc);
}

/* The 2.0-era layout prints a blank redop cell for a collective without a reduction
   (synthetic text in that layout: tests/fixtures/nccl/old-alltoall-blank-redop.txt). */
static void blank_redop_cell(void **state)
{
    (void)state;
    json_t *doc = import_file("nccl", "old-alltoall-blank-redop.txt");
    const json_t *e = only_entry(doc);
    assert_string_equal(str(e, "redop"), "none");
    assert_string_equal(str(e, "status"), "ok");
    const json_t *oop = json_object_get(json_array_get(json_object_get(e, "rows"), 2), "oop");
    assert_true(json_real_value(json_object_get(oop, "time_us")) == 174.3);
    assert_true(json_real_value(json_object_get(oop, "busbw")) == 18.05);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(failure_line_forms),       cmocka_unit_test(failure_lines_alone),
        cmocka_unit_test(failure_after_rank_table), cmocka_unit_test(two_headers_are_two_runs),
        cmocka_unit_test(out_of_bounds_footer),     cmocka_unit_test(log_prefixes_and_cut_warn),
        cmocka_unit_test(blank_redop_cell),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
