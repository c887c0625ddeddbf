/* Real nccl-tests outputs and NCCL INFO logs people posted (tests/fixtures/real/nccl-*),
   imported as their sidecar says and checked value by value against the text: sizes,
   times, busbw, #wrong / error, ranks, hosts, versions, transports per edge, GDR. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "import/import.h"
#include "model/doc.h"
#include "util/fileio.h"

/* Imports a case as its sidecar says (file: lines, args: --collective X); checks that
   the document validates and that `import: incomplete` matches the entries' flags. */
static json_t *import_case(const char *name)
{
    char path[256], err[512] = "";
    snprintf(path, sizeof path, "real/%s.case", name);
    char *side = ls_read_file(ls_fixture(path), NULL, err, sizeof err);
    if (!side)
        fail_msg("%s", err);
    char collective[64] = "";
    const char *a = strstr(side, "\nargs: --collective ");
    if (a)
        sscanf(a + 20, "%63s", collective);
    ls_import_opts_t opts = {NULL, collective[0] ? collective : NULL};
    json_t *doc = ls_import_doc_new();
    for (const char *f = strstr(side, "file: "); f; f = strstr(f + 1, "\nfile: ")) {
        char file[160];
        sscanf(f + (f[0] == '\n' ? 7 : 6), "%159s", file);
        snprintf(path, sizeof path, "real/%s", file);
        char *text = ls_read_file(ls_fixture(path), NULL, err, sizeof err);
        if (!text)
            fail_msg("%s: %s", name, err);
        if (ls_import_text(doc, text, file, &opts, NULL, err, sizeof err) < 0) {
            /* a heldout case is measured, not fitted: its refusal (one line, checked by
               test_real_findings.sh) is reported there as a miss */
            if (!strstr(side, "\nsplit: heldout"))
                fail_msg("%s: %s", name, err);
            free(text);
            free(side);
            json_decref(doc);
            return NULL;
        }
        free(text);
    }
    char why[256];
    if (ls_doc_validate(doc, why, sizeof why) != 0)
        fail_msg("%s: document does not validate: %s", name, why);
    int want_incomplete = strstr(side, "\nimport: incomplete") != NULL, incomplete = 0;
    size_t i, k;
    json_t *e, *fl;
    json_array_foreach(json_object_get(doc, "measurements"), i, e)
        json_array_foreach(json_object_get(e, "flags"), k, fl)
            incomplete |= strcmp(json_string_value(fl), "incomplete") == 0;
    if (incomplete != want_incomplete)
        fail_msg("%s: incomplete is %d, the sidecar says %d", name, incomplete, want_incomplete);
    free(side);
    return doc;
}

static json_t *entry(const json_t *doc, size_t i)
{
    json_t *e = json_array_get(json_object_get(doc, "measurements"), i);
    assert_non_null(e);
    return e;
}

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "(absent)";
}

static long long num(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return v ? (long long)json_integer_value(v) : -999;
}

/* One result half of row `row` of entry e: time, algbw, busbw, and wrong (-1 = null)
   or error (when the 2.0-era column holds it). */
static void check_half(const json_t *e, size_t row, const char *half, long long bytes,
                       double time_us, double algbw, double busbw, long long wrong, double error)
{
    const json_t *r = json_array_get(json_object_get(e, "rows"), row);
    assert_non_null(r);
    assert_int_equal(num(r, "bytes"), bytes);
    const json_t *h = json_object_get(r, half);
    assert_non_null(h);
    assert_float_equal(json_number_value(json_object_get(h, "time_us")), time_us, 1e-9);
    assert_float_equal(json_number_value(json_object_get(h, "algbw")), algbw, 1e-9);
    assert_float_equal(json_number_value(json_object_get(h, "busbw")), busbw, 1e-9);
    if (wrong >= 0)
        assert_int_equal(json_integer_value(json_object_get(h, "wrong")), wrong);
    else
        assert_true(json_is_null(json_object_get(h, "wrong")));
    if (error >= 0)
        assert_float_equal(json_number_value(json_object_get(h, "error")), error, 1e-15);
    else
        assert_null(json_object_get(h, "error"));
}

static void check_run(const json_t *e, const char *collective, long long nranks, size_t nrows,
                      const char *dtype, const char *redop)
{
    assert_string_equal(str(e, "collective"), collective);
    assert_int_equal(num(e, "nranks"), nranks);
    assert_int_equal(json_array_size(json_object_get(e, "rows")), nrows);
    assert_string_equal(str(e, "dtype"), dtype);
    assert_string_equal(str(e, "redop"), redop);
    assert_string_equal(str(e, "status"), "ok");
}

/* ---- nccl-tests ---------------------------------------------------------- */

static void rtx4090_tree_one_row(void **state)
{
    (void)state;
    json_t *doc = import_case("nccl-1530-rtx4090-tree");
    const json_t *e = entry(doc, 0);
    check_run(e, "all_reduce", 8, 1, "float", "sum"); /* from "./all_reduce_perf -g 8" */
    assert_int_equal(num(e, "root"), -1);
    assert_int_equal(num(e, "iters"), 20);
    assert_int_equal(num(e, "warmup"), 5);
    check_half(e, 0, "oop", 8, 42.56, 0.00, 0.00, 0, -1);
    assert_null(json_object_get(json_array_get(json_object_get(e, "rows"), 0), "ip"));
    assert_string_equal(str(json_array_get(json_object_get(doc, "gpus"), 7), "name"),
                        "NVIDIA GeForce RTX 4090");
    json_decref(doc);
}

static void error_column_without_redop(void **state)
{
    (void)state;
    json_t *doc = import_case("nccl-340-2080ti-error-column");
    assert_int_equal(json_array_size(json_object_get(doc, "measurements")), 2);
    const json_t *e = entry(doc, 0);
    check_run(e, "unknown", -999, 12, "float", "none");
    check_half(e, 0, "oop", 65536, 16.57, 1.98, 1.98, -1, 0);
    check_half(e, 0, "ip", 65536, 13.83, 2.37, 2.37, -1, 0);
    check_half(e, 10, "oop", 67108864, 1568.3, 21.40, 21.40, -1, 0);
    check_half(e, 11, "ip", 134217728, 3070.3, 21.86, 21.86, -1, 0);
    assert_int_equal(num(json_array_get(json_object_get(e, "rows"), 11), "count"), 16777216);
    assert_float_equal(json_number_value(json_object_get(e, "avg_busbw")), 6.6972, 1e-9);
    assert_int_equal(num(e, "out_of_bounds"), 0);
    /* the "./broadcast_perf" line starts the next test, cut after its header */
    const json_t *b = entry(doc, 1);
    assert_string_equal(str(b, "collective"), "broadcast");
    assert_int_equal(num(b, "nranks"), 2); /* nThread 1 x nGpus 2 */
    assert_int_equal(json_array_size(json_object_get(b, "rows")), 0);
    assert_string_equal(str(b, "status"), "ok");
    json_decref(doc);
}

static void header_without_hash(void **state)
{
    (void)state;
    json_t *doc = import_case("nccl-583-a100-no-hash");
    const json_t *e = entry(doc, 0);
    assert_string_equal(str(e, "collective"), "all_reduce"); /* "mpirun -np 8 all_reduce_perf" */
    assert_int_equal(num(e, "nranks"), 8);
    assert_string_equal(str(e, "mode"), "mpi"); /* eight process ids */
    assert_int_equal(json_array_size(json_object_get(e, "gpus")), 8);
    assert_int_equal(num(e, "iters"), 20);
    assert_string_equal(str(json_array_get(json_object_get(doc, "gpus"), 3), "name"),
                        "NVIDIA A100-SXM4-40GB");
    assert_string_equal(str(json_object_get(doc, "host"), "hostname"), "AI-A100-Beethoven01");
    json_decref(doc);
}

static void sixteen_ranks_two_hosts(void **state)
{
    (void)state;
    json_t *doc = import_case("nccl-tests294-16rank-2node");
    const json_t *e = entry(doc, 0);
    assert_int_equal(num(e, "nranks"), 12); /* the copy lists ranks 0-11 */
    assert_int_equal(num(e, "nodes"), 2);
    const json_t *ranks = json_object_get(e, "ranks");
    assert_int_equal(json_array_size(ranks), 12);
    assert_string_equal(str(json_array_get(ranks, 0), "host"), "h100-2");
    assert_string_equal(str(json_array_get(ranks, 8), "host"), "h100-4");
    assert_int_equal(num(json_array_get(ranks, 8), "device"), 0);
    assert_int_equal(num(json_array_get(ranks, 11), "device"), 3);
    assert_int_equal(num(e, "iters"), 10);
    json_decref(doc);
}

static void rows_without_nthread_header(void **state)
{
    (void)state;
    json_t *doc = import_case("nccl-tests232-2node-tree");
    const json_t *e = entry(doc, 0);
    check_run(e, "all_reduce", 2, 5, "float",
              "sum"); /* "./all_reduce_perf" in mpirun; busbw = algbw: 2 ranks ("-np 2") */
    check_half(e, 0, "oop", 2097152, 113.2, 18.53, 18.53, 0, -1);
    check_half(e, 0, "ip", 2097152, 93.35, 22.46, 22.46, 0, -1);
    check_half(e, 4, "oop", 33554432, 812.3, 41.31, 41.31, 0, -1);
    assert_float_equal(json_number_value(json_object_get(e, "value")), 41.31, 1e-9);
    json_decref(doc);
}

static void info_line_inside_table(void **state)
{
    (void)state;
    json_t *doc = import_case("nccl-awsofi65-p4d-dip");
    const json_t *e = entry(doc, 0);
    check_run(e, "all_reduce", 16, 6, "float", "sum"); /* busbw / algbw 1.875: 16 ranks (2 x p4d) */
    check_half(e, 2, "oop", 33554432, 1931.6, 17.37, 32.57, -1, 5e-07);
    check_half(e, 3, "oop", 67108864, 6586.3, 10.19, 19.10, -1, 5e-07);
    check_half(e, 5, "ip", 268435456, 11919, 22.52, 42.23, -1, 5e-07);
    assert_float_equal(json_number_value(json_object_get(e, "avg_busbw")), 25.6327, 1e-9);
    assert_null(json_object_get(e, "error")); /* 5e-07 is not a wrong element */
    json_decref(doc);
}

static void op_all_rows_only(void **state)
{
    (void)state;
    json_t *doc = import_case("nccl-tests167-opall-rows");
    check_run(entry(doc, 0), "all_reduce", 16, 6, "float", "max"); /* busbw / algbw */
    check_run(entry(doc, 1), "all_reduce", 16, 5, "float", "min");
    check_half(entry(doc, 0), 5, "oop", 204800, 125.6, 1.63, 3.06, 0, -1);
    check_half(entry(doc, 1), 0, "ip", 196608, 124.9, 1.57, 2.95, 0, -1);
    assert_int_equal(num(json_array_get(json_object_get(entry(doc, 1), "rows"), 4), "count"),
                     50176);
    json_decref(doc);
}

static void two_node_versions(void **state)
{
    (void)state;
    json_t *doc = import_case("nccl-spark103-2node-gb10");
    const json_t *e = entry(doc, 0);
    check_run(e, "all_reduce", 2, 4, "float", "sum");
    assert_int_equal(num(e, "nodes"), 2);
    assert_string_equal(str(e, "tool_version"), "2.20.0");
    assert_string_equal(str(e, "nccl_version"), "2.31.2"); /* nccl-library=23102 */
    assert_string_equal(str(json_array_get(json_object_get(e, "ranks"), 1), "host"), "spark-dbf4");
    check_half(e, 3, "ip", 65536, 64.71, 1.01, 1.01, 0, -1);
    json_decref(doc);
}

static void one_rank_runs(void **state)
{
    (void)state;
    json_t *doc = import_case("nccl-pytorch84803-one-rank");
    const json_t *e = entry(doc, 0);
    check_run(e, "all_reduce", 1, 3, "float", "sum"); /* "./build/all_reduce_perf ... -g 1" */
    check_half(e, 0, "ip", 8, 0.13, 0.06, 0.00, 0, -1);
    check_half(e, 2, "oop", 32, 122.2, 0.00, 0.00, 0, -1);
    json_decref(doc);
    doc = import_case("nccl-tests287-5090-one-rank");
    e = entry(doc, 0);
    check_run(e, "all_reduce", 1, 4, "float", "sum");
    check_half(e, 3, "ip", 64, 0.15, 0.44, 0.00, 0, -1);
    assert_string_equal(str(json_object_get(doc, "host"), "hostname"), "GENOA-06");
    json_decref(doc);
}

static void error_floats_are_not_wrong_counts(void **state)
{
    (void)state;
    json_t *doc = import_case("nccl-392-error-floats");
    const json_t *e = entry(doc, 0);
    check_run(e, "all_reduce", -999, 9, "float", "sum");
    check_half(e, 0, "oop", 8, 39.78, 0.00, 0.00, -1, 2e-07);
    check_half(e, 1, "ip", 16, 37.33, 0.00, 0.00, -1, 1e-07);
    check_half(e, 8, "oop", 2048, 44.04, 0.05, 0.09, -1, 2e-07);
    json_decref(doc);
    doc = import_case("nccl-258-v100-error-backtick");
    e = entry(doc, 0);
    check_run(e, "all_reduce", 4, 4, "float", "sum");
    assert_string_equal(str(e, "mode"), "threads"); /* one pid */
    check_half(e, 0, "oop", 8, 158.3, 0.00, 0.00, -1, 1e-07);
    check_half(e, 3, "ip", 64, 278.1, 0.00, 0.00, -1, 3e-08);
    json_decref(doc);
}

static void launcher_tags_inside_rows(void **state)
{
    (void)state;
    json_t *doc = import_case("nccl-1453-prefix-collapse");
    const json_t *e = entry(doc, 0);
    check_run(e, "all_reduce", 24, 10, "float",
              "sum"); /* the partial first line is no row; busbw / algbw 1.917: 24 ranks */
    check_half(e, 0, "oop", 1048576, 1626.5, 0.64, 1.24, 0, -1);
    check_half(e, 5, "oop", 33554432, 2180.1, 15.39, 29.50, 0, -1);
    check_half(e, 6, "oop", 67108864, 24410, 2.75, 5.27, 0, -1);
    check_half(e, 9, "ip", 536870912, 192903, 2.78, 5.33, 0, -1);
    json_decref(doc);
}

static void info_lines_after_header(void **state)
{
    (void)state;
    json_t *doc = import_case("nccl-1320-ib-missing-socket");
    const json_t *e = entry(doc, 0);
    assert_string_equal(str(e, "collective"), "all_reduce");
    assert_int_equal(num(e, "nranks"), 2);
    assert_string_equal(str(e, "nccl_version"), "2.21.5"); /* the bare "NCCL version" line */
    assert_string_equal(str(json_object_get(doc, "software"), "nccl"), "2.21.5");
    json_decref(doc);
    doc = import_case("nccl-428-t4-socket");
    e = entry(doc, 0);
    assert_string_equal(str(e, "collective"), "all_reduce"); /* from the '#' command line */
    assert_string_equal(str(e, "nccl_version"), "2.8.3");
    const json_t *log = json_array_get(json_object_get(doc, "nccl_logs"), 0);
    assert_string_equal(str(log, "network"), "Socket");
    assert_int_equal(json_array_size(json_object_get(log, "trees")), 2);
    json_decref(doc);
}

/* ---- NCCL INFO logs ------------------------------------------------------ */

static const json_t *the_log(const json_t *doc)
{
    const json_t *logs = json_object_get(doc, "nccl_logs");
    assert_int_equal(json_array_size(logs), 1);
    assert_int_equal(json_array_size(json_object_get(doc, "measurements")), 0);
    return json_array_get(logs, 0);
}

static const json_t *conn(const json_t *log, size_t i)
{
    const json_t *t = json_array_get(json_object_get(log, "transports"), i);
    assert_non_null(t);
    return t;
}

static void check_conn(const json_t *t, int channel, int from_rank, int to_rank, int from, int to,
                       const char *transport, int gdrdma, const char *side)
{
    assert_int_equal(num(t, "channel"), channel);
    assert_int_equal(num(t, "from_rank"), from_rank);
    assert_int_equal(num(t, "to_rank"), to_rank);
    assert_int_equal(num(t, "from"), from);
    assert_int_equal(num(t, "to"), to);
    assert_string_equal(str(t, "transport"), transport);
    assert_int_equal(json_is_true(json_object_get(t, "gdrdma")), gdrdma);
    assert_string_equal(str(t, "side"), side);
}

static void ring_lines_ipc_and_socket(void **state)
{
    (void)state;
    json_t *doc = import_case("nccl-398-ring-ipc-socket");
    const json_t *log = the_log(doc);
    assert_int_equal(json_array_size(json_object_get(log, "transports")), 17);
    assert_int_equal(json_array_size(json_object_get(log, "hosts")), 2);
    check_conn(conn(log, 0), 0, 3, 2, 3, 2, "P2P/IPC", 0, "both");
    check_conn(conn(log, 11), 0, 15, 0, -1, -1, "NET/Socket", 0, "send");
    check_conn(conn(log, 12), 0, 7, 8, -1, -1, "NET/Socket", 0, "send");
    check_conn(conn(log, 16), 1, 12, 13, 4, 5, "P2P/IPC", 0, "both");
    assert_string_equal(str(conn(log, 12), "from_host"), "ip-172-31-0-112");
    assert_true(json_is_true(json_object_get(conn(log, 0), "same_host")));
    json_decref(doc);
}

static void direct_pointer_and_cumem(void **state)
{
    (void)state;
    json_t *doc = import_case("nccl-1773-direct-pointer");
    const json_t *log = the_log(doc);
    assert_int_equal(json_array_size(json_object_get(log, "transports")), 9);
    check_conn(conn(log, 3), 1, 2, 3, 2, 3, "P2P/direct pointer", 0, "both");
    json_decref(doc);
    doc = import_case("nccl-1538-cumem");
    log = the_log(doc);
    assert_int_equal(json_array_size(json_object_get(log, "transports")), 11);
    check_conn(conn(log, 0), 2, 7, 0, 7, 0, "P2P/CUMEM", 0, "both");
    check_conn(conn(log, 8), 0, 2, 1, 2, 1, "P2P/CUMEM", 0, "both");
    json_decref(doc);
}

static void net_ib_gdr_between_local_gpus(void **state)
{
    (void)state;
    json_t *doc = import_case("nccl-707-ib-between-local-gpus");
    const json_t *log = the_log(doc);
    assert_int_equal(json_array_size(json_object_get(log, "transports")), 12);
    const json_t *t = conn(log, 0);
    check_conn(t, 1, 2, 0, -1, -1, "NET/IB", 1, "receive"); /* "2[c7000] -> 0[87000]" */
    assert_string_equal(str(t, "from_bus"), "c7000");
    assert_string_equal(str(t, "to_bus"), "87000");
    assert_string_equal(str(t, "via"), "NET/IB/5/GDRDMA");
    assert_true(json_is_true(json_object_get(t, "same_host"))); /* all on 10-90-43-152 */
    json_decref(doc);
}

static void two_node_net_ib_gdrdma(void **state)
{
    (void)state;
    json_t *doc = import_case("nccl-1189-h20-2node-gdr");
    const json_t *log = the_log(doc);
    assert_int_equal(json_array_size(json_object_get(log, "transports")), 14);
    assert_int_equal(json_array_size(json_object_get(log, "hosts")), 2);
    check_conn(conn(log, 0), 7, 0, 2, 0, 0, "NET/IB", 1, "receive");
    check_conn(conn(log, 5), 1, 3, 1, 1, 1, "NET/IB", 1, "send");
    check_conn(conn(log, 9), 0, 3, 2, 1, 0, "P2P/CUMEM", 0, "both");
    const json_t *t = conn(log, 5);
    assert_string_equal(str(t, "from_host"), "H20-GPU-06");
    assert_string_equal(str(conn(log, 10), "from_host"), "H20-GPU-05");
    json_decref(doc);
}

static void socket_fallback_and_ibext(void **state)
{
    (void)state;
    json_t *doc = import_case("nccl-952-socket-ipc-read");
    const json_t *log = the_log(doc);
    assert_int_equal(json_array_size(json_object_get(log, "transports")), 16);
    check_conn(conn(log, 0), 1, 8, 15, 0, 7, "P2P/IPC", 0, "both");
    assert_true(json_is_true(json_object_get(conn(log, 0), "read")));
    check_conn(conn(log, 7), 3, 15, 6, 7, 6, "NET/Socket", 0, "send");
    json_decref(doc);
    doc = import_case("nccl-1814-ibext");
    log = the_log(doc);
    assert_int_equal(json_array_size(json_object_get(log, "transports")), 12);
    check_conn(conn(log, 6), 0, 6, 38, 6, 6, "NET/IBext_v8", 0, "receive");
    json_decref(doc);
}

static void gdr_enabled_and_disabled(void **state)
{
    (void)state;
    json_t *doc = import_case("nccl-tests350-gdr-enabled");
    const json_t *log = the_log(doc);
    check_conn(conn(log, 1), 1, 0, 1, -1, -1, "NET/IB", 1, "send"); /* "0[81000] -> 1[81000]" */
    const json_t *g = json_array_get(json_object_get(log, "gdr"), 0);
    assert_true(json_is_true(json_object_get(g, "enabled")));
    assert_string_equal(str(g, "gpu_bus"), "81000");
    assert_int_equal(num(g, "hca"), 1);
    assert_int_equal(num(g, "distance"), 6);
    assert_int_equal(num(g, "limit"), 7);
    json_decref(doc);
    doc = import_case("nccl-1537-gdr-disabled");
    log = the_log(doc);
    assert_int_equal(num(log, "nranks"), 16);
    assert_string_equal(str(log, "network"), "IB");
    assert_int_equal(json_array_size(json_object_get(log, "gdr")), 2);
    g = json_array_get(json_object_get(log, "gdr"), 1);
    assert_false(json_is_true(json_object_get(g, "enabled")));
    assert_string_equal(str(g, "hca_name"), "mlx5_1");
    assert_string_equal(str(json_array_get(json_object_get(log, "ranks"), 0), "bus_id"), "1c000");
    json_decref(doc);
    doc = import_case("nccl-tests245-ofi-bracket-prefix");
    log = the_log(doc);
    assert_int_equal(num(log, "nranks"), 2);
    assert_int_equal(json_array_size(json_object_get(log, "ranks")), 2);
    assert_int_equal(json_array_size(json_object_get(log, "rings")), 2);
    assert_int_equal(json_array_size(json_object_get(log, "hosts")), 0); /* "[0] NCCL INFO" */
    assert_false(
        json_is_true(json_object_get(json_array_get(json_object_get(log, "gdr"), 0), "enabled")));
    json_decref(doc);
}

static void ranks_nodes_and_init_lines(void **state)
{
    (void)state;
    json_t *doc = import_case("nccl-1817-trees-nranks");
    const json_t *log = the_log(doc);
    assert_int_equal(num(log, "nranks"), 8);
    assert_int_equal(num(log, "nnodes"), 1);
    assert_int_equal(json_array_size(json_object_get(log, "trees")), 4);
    json_decref(doc);
    doc = import_case("nccl-tests29-32rank-init");
    log = the_log(doc);
    assert_int_equal(num(log, "nranks"), 32);
    assert_int_equal(json_array_size(json_object_get(log, "hosts")), 4);
    assert_int_equal(json_array_size(json_object_get(log, "ranks")), 12);
    assert_int_equal(num(json_array_get(json_object_get(log, "ranks"), 0), "gpu"), 7);
    json_decref(doc);
    doc = import_case("nccl-1706-init-2gpu");
    log = the_log(doc);
    assert_int_equal(num(log, "nranks"), 2);
    assert_string_equal(str(json_array_get(json_object_get(log, "ranks"), 0), "bus_id"), "34000");
    json_decref(doc);
}

/* Every case in tests/fixtures/real/nccl-*.case imports as its sidecar says. */
static void every_case_imports(void **state)
{
    (void)state;
    char dir[512];
    snprintf(dir, sizeof dir, "%s", ls_fixture("real"));
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *de = readdir(d); de; de = readdir(d)) {
        size_t len = strlen(de->d_name);
        if (strncmp(de->d_name, "nccl-", 5) != 0 || len < 6 ||
            strcmp(de->d_name + len - 5, ".case") != 0)
            continue;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(len - 5), de->d_name);
        json_decref(import_case(name));
        n++;
    }
    closedir(d);
    assert_true(n >= 22);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rtx4090_tree_one_row),
        cmocka_unit_test(error_column_without_redop),
        cmocka_unit_test(header_without_hash),
        cmocka_unit_test(sixteen_ranks_two_hosts),
        cmocka_unit_test(rows_without_nthread_header),
        cmocka_unit_test(info_line_inside_table),
        cmocka_unit_test(op_all_rows_only),
        cmocka_unit_test(two_node_versions),
        cmocka_unit_test(one_rank_runs),
        cmocka_unit_test(error_floats_are_not_wrong_counts),
        cmocka_unit_test(launcher_tags_inside_rows),
        cmocka_unit_test(info_lines_after_header),
        cmocka_unit_test(ring_lines_ipc_and_socket),
        cmocka_unit_test(direct_pointer_and_cumem),
        cmocka_unit_test(net_ib_gdr_between_local_gpus),
        cmocka_unit_test(two_node_net_ib_gdrdma),
        cmocka_unit_test(socket_fallback_and_ibext),
        cmocka_unit_test(gdr_enabled_and_disabled),
        cmocka_unit_test(ranks_nodes_and_init_lines),
        cmocka_unit_test(every_case_imports),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
