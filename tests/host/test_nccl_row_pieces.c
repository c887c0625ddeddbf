/* nccl-tests' result rows printed in pieces between NCCL's per-call log lines
   (NCCL_DEBUG=INFO with NCCL_DEBUG_SUBSYS=COLL or ALL: a row's size columns, the log
   lines of its out-of-place calls glued after them, its out-of-place figures glued to the
   next log line, its in-place figures on a line of their own), and NCCL's "GPU Direct
   RDMA Disabled" line in a log whose ranks are all on one node. Synthetic, from the
   formats nccl-tests and NCCL print: each collective's print_line_header "%12li  %12li
   %8s  %6s" (and the root), then common.cu's "  %7s  %6.2f  %6.2f  %5g" per group, each
   a PRINT without a newline until the row's end, so NCCL's lines land between them;
   NCCL's debug.cc "%s:%d:%d [%d] NCCL INFO". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "import/import.h"
#include "import/nccl_row_pieces.h"
#include "model/doc.h"

#define CALL(dev, n)                                                                               \
    "node7:651:651 [" #dev "] NCCL INFO AllReduce: opCount 0 sendbuff 0x7200 recvbuff "            \
    "0x9200 count " #n " datatype 7 op 0 root 0 comm 0x55d5 [nranks=2] stream 0x55d4\n"

static const char *const interleaved =
    "# nThread 1 nGpus 2 minBytes 8388608 maxBytes 16777216 step: 2(factor) warmup "
    "iters: 1 "
    "iters: 2 agg iters: 1 validation: 1 graph: 0\n"
    "#\n"
    "#  Rank  0 Group  0 Pid    651 on      node7 device  0 [0x17] NVIDIA A100 80GB "
    "PCIe\n"
    "#  Rank  1 Group  0 Pid    651 on      node7 device  1 [0x65] NVIDIA A100 80GB "
    "PCIe\n"
    "node7:651:660 [0] NCCL INFO comm 0x55d5 rank 0 nRanks 2 nNodes 1 localRanks 2 "
    "localRank 0 "
    "MNNVL 0\n"
    "node7:651:660 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 "
    "'mlx5_0'\n"
    "#                                                              out-of-place     "
    "           "
    "       in-place          \n"
    "#       size         count      type   redop    root     time   algbw   busbw "
    "#wrong     "
    "time   algbw   busbw #wrong\n"
    "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)   "
    "         "
    "(us)  (GB/s)  (GB/s)       \n"
    "     8388608       2097152     float     sum      -1" CALL(1, 2097152)
        CALL(0, 2097152) "    314.7   26.66   26.66      0" CALL(1, 2097152)
            CALL(0, 2097152) "    310.8   26.99   26.99      0\n"
                             "    16777216       4194304     float     sum      "
                             "-1" CALL(1, 4194304) "    606.3   27.67   27.67      "
                                                   "0" CALL(1, 4194304) "    602.3   27.85 "
                                                                        "  27.85      0\n"
                                                                        "# Out of bounds "
                                                                        "values : 0 OK\n"
                                                                        "# Avg bus "
                                                                        "bandwidth    : "
                                                                        "27.29\n";

static const json_t *nccl_entry(const json_t *doc)
{
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e)
        if (!strcmp(ls_json_str(e, "family", ""), "nccl"))
            return e;
    fail_msg("no nccl entry");
    return NULL;
}

static void rows_put_back_together(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text(interleaved, LS_FMT_NCCL_TESTS);
    const json_t *e = nccl_entry(doc), *rows = json_object_get(e, "rows");
    assert_string_equal(ls_json_str(e, "status", ""), "ok");
    assert_int_equal(json_array_size(rows), 2);
    const json_t *first = json_array_get(rows, 0), *last = json_array_get(rows, 1);
    assert_int_equal(ls_json_int(first, "bytes", 0), 8388608);
    assert_float_equal(ls_json_num(json_object_get(first, "oop"), "busbw", 0), 26.66, 1e-9);
    assert_float_equal(ls_json_num(json_object_get(first, "ip"), "busbw", 0), 26.99, 1e-9);
    assert_int_equal(ls_json_int(last, "bytes", 0), 16777216);
    assert_float_equal(ls_json_num(json_object_get(last, "ip"), "time_us", 0), 602.3, 1e-9);
    /* NCCL's lines keep their host: "node7", not "-1node7" or "0node7" */
    const json_t *hosts = json_object_get(json_array_get(json_object_get(doc, "nccl_logs"), 0),
                                          "hosts");
    assert_int_equal(json_array_size(hosts), 1);
    assert_string_equal(json_string_value(json_array_get(hosts, 0)), "node7");
    json_decref(doc);
}

static void pieces_split_and_tails(void **state)
{
    (void)state;
    char line[256], pending[256] = "";
    snprintf(line, sizeof line, "   8     2   float   sum   -1n7:1:2 [1] NCCL INFO x\n");
    assert_int_equal(ls_row_piece_split(line, pending, sizeof pending), 1);
    assert_string_equal(line, "n7:1:2 [1] NCCL INFO x\n");
    assert_string_equal(pending, "   8     2   float   sum   -1 ");
    /* a whole log line, a launcher's prefix, a host that starts with a digit: left alone */
    snprintf(line, sizeof line, "n7:1:2 [1] NCCL INFO x");
    assert_int_equal(ls_row_piece_split(line, pending, sizeof pending), 0);
    snprintf(line, sizeof line, "[1,0]<stdout>:n7:1:2 [1] NCCL INFO x");
    assert_int_equal(ls_row_piece_split(line, pending, sizeof pending), 0);
    snprintf(line, sizeof line, "4gpu-node:1:2 [1] NCCL INFO x");
    assert_int_equal(ls_row_piece_split(line, pending, sizeof pending), 0);
    assert_string_equal(pending, "   8     2   float   sum   -1 ");
    assert_int_equal(ls_row_piece_tail("    310.8   26.99   26.99      0"), 1);
    assert_int_equal(ls_row_piece_tail("    310.8   26.99   float"), 0);
    assert_int_equal(ls_row_piece_tail("   "), 0);
}

/* A row whose pieces fill the reader's line: its last piece does not fit whole and is
   not appended cut short ("26.99" read as "26"): the in-place group stays unknown. */
static void tail_past_the_line_not_cut(void **state)
{
    (void)state;
    const char *rest = "2 float sum -1", *log = "node7:651:651 [1] NCCL INFO x\n";
    const char *init = "# nThread 1 nGpus 2 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 1 "
                       "iters: 2 agg iters: 1 validation: 1 graph: 0\n"
                       "node7:651:660 [0] NCCL INFO comm 0x55d5 rank 0 nRanks 2 nNodes 1 "
                       "localRanks 2 localRank 0 MNNVL 0\n";
    char first[1024], text[2048];
    /* 988 characters of row before the log line, 19 more glued to the next one: 1,009
       gathered, 14 left of the 1,023 a row holds for "310.8 26.99 26.99 0" */
    snprintf(first, sizeof first, "8%*s%s", (int)(988 - 1 - strlen(rest)), "", rest);
    assert_int_equal(strlen(first), 988);
    snprintf(text, sizeof text, "%s%s%s314.7 26.66 26.66 0%s310.8 26.99 26.99 0\n", init, first,
             log, log);
    json_t *doc = ls_test_import_text(text, LS_FMT_NCCL_TESTS);
    const json_t *rows = json_object_get(nccl_entry(doc), "rows");
    assert_int_equal(json_array_size(rows), 1);
    const json_t *row = json_array_get(rows, 0);
    assert_float_equal(ls_json_num(json_object_get(row, "oop"), "busbw", 0), 26.66, 1e-9);
    assert_null(json_object_get(row, "ip"));
    json_decref(doc);
}

/* A row that lost its last piece, then the next row's first piece: the first row keeps
   its out-of-place group alone, never the next row's size and count as its in-place
   time and algbw; the next row is read whole. */
static void next_row_not_joined(void **state)
{
    (void)state;
    const char *text =
        "# nThread 1 nGpus 2 minBytes 8 maxBytes 16 step: 2(factor) warmup iters: 1 iters: 2 "
        "agg iters: 1 validation: 1 graph: 0\n"
        "node1:65:65 [0] NCCL INFO comm 0x55d5 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank "
        "0 MNNVL 0\n"
        "           8             2     float     sum      -1node1:65:65 [0] NCCL INFO x\n"
        "    10.51    0.50    0.50      0node1:65:65 [0] NCCL INFO x\n"
        "          16             4     float     sum      -1node1:65:65 [0] NCCL INFO x\n"
        "    12.01    1.33    1.33      0node1:65:65 [0] NCCL INFO x\n"
        "    11.90    1.34    1.34      0\n";
    json_t *doc = ls_test_import_text(text, LS_FMT_NCCL_TESTS);
    const json_t *rows = json_object_get(nccl_entry(doc), "rows");
    assert_int_equal(json_array_size(rows), 2);
    const json_t *cut = json_array_get(rows, 0), *whole = json_array_get(rows, 1);
    assert_int_equal(ls_json_int(cut, "bytes", 0), 8);
    assert_float_equal(ls_json_num(json_object_get(cut, "oop"), "busbw", 0), 0.5, 1e-9);
    assert_null(json_object_get(cut, "ip"));
    assert_int_equal(ls_json_int(whole, "bytes", 0), 16);
    assert_float_equal(ls_json_num(json_object_get(whole, "ip"), "busbw", 0), 1.34, 1e-9);
    assert_int_equal(ls_row_piece_starts_row("  16  4  float  sum  -1n1:6:6 [0] NCCL INFO x"), 1);
    assert_int_equal(ls_row_piece_starts_row("  12.01  1.33  1.33  0n1:6:6 [0] NCCL INFO x"), 0);
    assert_int_equal(ls_row_piece_starts_row("n1:6:6 [0] NCCL INFO x"), 0);
    json_decref(doc);
}

/* "GPU Direct RDMA Disabled" where every rank is on one node: info; on two nodes the
   same line stays a warning. */
static void gdr_line_on_one_node(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text(interleaved, LS_FMT_NCCL_TESTS);
    ls_test_fires(doc, "gdr_disabled", "info", "", "one node");
    json_decref(doc);

    doc = ls_test_import_text("node7:651:660 [0] NCCL INFO comm 0x55d5 rank 0 nRanks 2 nNodes 2 "
                              "localRanks 1 localRank 0 MNNVL 0\n"
                              "node7:651:660 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled "
                              "for HCA 0 'mlx5_0'\n",
                              LS_FMT_NCCL_LOG);
    ls_test_fires(doc, "gdr_disabled", "warning", "", "staged through host memory");
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rows_put_back_together),     cmocka_unit_test(pieces_split_and_tails),
        cmocka_unit_test(tail_past_the_line_not_cut), cmocka_unit_test(next_row_not_joined),
        cmocka_unit_test(gdr_line_on_one_node),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
