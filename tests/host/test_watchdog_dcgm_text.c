/* PyTorch's NCCL watchdog text and dcgmi diag's text table (tests/fixtures/real/
   watchdog-* and dcgm-*, README.md there names each source): what each text holds is
   read from it, and the findings say what the text shows and no more; the healthy twins
   stay quiet. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "analyze/analyze.h"
#include "import/import.h"
#include "model/doc.h"
#include "util/fileio.h"

static void import_into(json_t *doc, const char *file, enum ls_import_format want)
{
    char rel[256];
    snprintf(rel, sizeof rel, "real/%s", file);
    ls_test_import(doc, rel, (int)want);
}

static json_t *import_real(const char *file, enum ls_import_format want)
{
    json_t *doc = ls_import_doc_new();
    import_into(doc, file, want);
    return doc;
}

static json_t *import_str(const char *text)
{
    json_t *doc = ls_import_doc_new();
    char err[512];
    if (ls_import_text(doc, text, "pasted.txt", NULL, NULL, err, sizeof err) < 0)
        fail_msg("%s", err);
    return doc;
}

/* No finding above info: a healthy text stays quiet. */
static void quiet(const json_t *findings)
{
    size_t i;
    const json_t *f;
    json_array_foreach(findings, i, f) {
        if (strcmp(ls_json_str(f, "severity", ""), "info") != 0)
            fail_msg("%s: %s", ls_json_str(f, "rule", ""), ls_json_str(f, "message", ""));
    }
}

static const char *timeout_message(const json_t *doc, json_t **findings)
{
    *findings = ls_findings(doc);
    const json_t *f = ls_test_finding(*findings, "collective_timeout");
    assert_non_null(f);
    assert_string_equal(ls_json_str(f, "severity", ""), "error");
    /* a timeout names no GPU: the plan keeps none out for it */
    assert_null(json_object_get(f, "gpus"));
    return ls_json_str(f, "message", "");
}

static void has(const char *msg, const char *part)
{
    if (!strstr(msg, part))
        fail_msg("'%s' not in: %s", part, msg);
}

/* LlamaFactory#6269, two pieces of one paste: every figure of the WorkNCCL line, the
   progress lines' group and SeqNums, and the ranks the two pieces name together. */
static void watchdog_two_pieces_of_one_job(void **state)
{
    (void)state;
    json_t *doc = import_real("watchdog-llamafactory6269-reduce-scatter-pg1-a.txt",
                              LS_FMT_TORCH_WATCHDOG);
    import_into(doc, "watchdog-llamafactory6269-reduce-scatter-pg1-b.txt", LS_FMT_TORCH_WATCHDOG);
    const json_t *w = json_array_get(json_object_get(doc, "torch_watchdog"), 0);
    const json_t *t = json_array_get(json_object_get(w, "timeouts"), 0);
    assert_int_equal(ls_json_int(t, "rank", -1), 0);
    assert_int_equal(ls_json_int(t, "seq", -1), 7753);
    assert_string_equal(ls_json_str(t, "op", ""), "_REDUCE_SCATTER_BASE");
    assert_int_equal(ls_json_int(t, "numel_in", -1), 544997376);
    assert_int_equal(ls_json_int(t, "numel_out", -1), 68124672);
    assert_int_equal(ls_json_int(t, "timeout_ms", -1), 600000);
    assert_int_equal(ls_json_int(t, "ran_ms", -1), 600061);
    const json_t *p = json_array_get(json_object_get(w, "progress"), 0);
    assert_string_equal(ls_json_str(p, "pg", ""), "1");
    assert_int_equal(ls_json_int(p, "last_enqueued", -1), 7755);
    assert_int_equal(ls_json_int(p, "last_completed", -1), 7752);
    json_t *f;
    const char *msg = timeout_message(doc, &f);
    has(msg, "on ranks 0, 2, 3, 4, 6");
    has(msg, "last completed SeqNum 7752");
    has(msg, "Not in the paste: ranks 1, 5");
    has(msg, "is not in the text");
    has(msg, "NCCL_DEBUG=INFO");
    json_decref(f);
    json_decref(doc);
}

/* OFA#271: the 1.x form (no element counts, no [rankN]: prefix); the last line is cut in
   its op name, which is then unknown, not a second collective. */
static void watchdog_old_form_cut_op(void **state)
{
    (void)state;
    json_t *doc = import_real("watchdog-ofa271-8xv100-old-no-numel.txt", LS_FMT_TORCH_WATCHDOG);
    const json_t *list = json_object_get(json_array_get(json_object_get(doc, "torch_watchdog"), 0),
                                         "timeouts");
    assert_int_equal(json_array_size(list), 6);
    assert_null(json_object_get(json_array_get(list, 5), "op"));
    assert_int_equal(ls_json_int(json_array_get(list, 5), "group_rank", -1), 5);
    json_t *f;
    const char *msg = timeout_message(doc, &f);
    has(msg,
        "ALLREDUCE SeqNum 469508 timed out after 1802 s (limit 1800 s) on ranks 1, 2, 3, 5, 6, 7");
    assert_null(strstr(msg, "different collectives"));
    json_decref(f);
    json_decref(doc);
}

/* nccl#1409: rank 7 in a BROADCAST and rank 3 in an ALLREDUCE, both SeqNum 80078. */
static void watchdog_two_ops_one_seqnum(void **state)
{
    (void)state;
    json_t *doc = import_real("watchdog-nccl1409-broadcast-vs-allreduce-80078.txt",
                              LS_FMT_TORCH_WATCHDOG);
    json_t *f;
    const char *msg = timeout_message(doc, &f);
    has(msg, "Ranks 7 and 3 are in different collectives at the same SeqNum 80078");
    has(msg, "on rank 3.");
    assert_null(strstr(msg, "is not in the text"));
    json_decref(f);
    json_decref(doc);
}

/* vllm#23448 (2.5's "failure detected" wording): rank 3 waits in 5729, which rank 0 of
   the same group (GUID 67) completed. */
static void watchdog_rank_behind(void **state)
{
    (void)state;
    json_t *doc = import_real("watchdog-vllm23448-rank3-one-behind.txt", LS_FMT_TORCH_WATCHDOG);
    const json_t *p =
        json_array_get(json_object_get(json_array_get(json_object_get(doc, "torch_watchdog"), 0),
                                       "progress"),
                       0);
    assert_string_equal(ls_json_str(p, "pg", ""), "67");
    assert_int_equal(ls_json_int(p, "at", -1), 5730);
    assert_int_equal(ls_json_int(p, "last_enqueued", -1), 6464);
    json_t *f;
    const char *msg = timeout_message(doc, &f);
    has(msg,
        "Rank 3 is behind: it waits in SeqNum 5729 of process group 67, which rank 0 completed");
    json_decref(f);
    json_decref(doc);
}

/* sglang#3424: the terminal wrapped "Timeout(ms)=" and "last compl|eted" onto new lines. */
static void watchdog_wrapped_lines(void **state)
{
    (void)state;
    json_t *doc = import_real("watchdog-sglang3424-wrapped-allgather.txt", LS_FMT_TORCH_WATCHDOG);
    const json_t *w = json_array_get(json_object_get(doc, "torch_watchdog"), 0);
    const json_t *t = json_array_get(json_object_get(w, "timeouts"), 0);
    assert_int_equal(ls_json_int(t, "timeout_ms", -1), 600000);
    assert_int_equal(ls_json_int(t, "ran_ms", -1), 600022);
    assert_string_equal(ls_json_str(t, "pg", "none"), "none"); /* the timeout line names none */
    const json_t *p = json_array_get(json_object_get(w, "progress"), 0);
    assert_int_equal(ls_json_int(p, "last_completed", -1), 1522788);
    assert_string_equal(ls_json_str(p, "pg", ""), "3");
    assert_true(json_is_true(json_object_get(w, "taken_down")));
    json_decref(doc);
}

/* The forms of 2.4 (printing code): rank 0 waits in SeqNum 34 of group 0; rank 3 of the
   same group last enqueued 33: it never called 34. */
static void watchdog_rank_never_issued(void **state)
{
    (void)state;
    json_t *doc = import_str(
        "[rank0]:[E ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective operation "
        "timeout: WorkNCCL(SeqNum=34, OpType=ALLREDUCE, NumelIn=8, NumelOut=8, "
        "Timeout(ms)=600000) ran for 600100 milliseconds before timing out.\n"
        "[rank0]:[E ProcessGroupNCCL.cpp:1664] [PG 0 (default_pg) Rank 0] Exception (either an "
        "error or timeout) detected by watchdog at work: 34, last enqueued NCCL work: 34, last "
        "completed NCCL work: 33.\n"
        "[rank3]:[E ProcessGroupNCCL.cpp:1316] [PG 0 (default_pg) Rank 3] Received a dump signal "
        "due to a collective timeout from  rank 0 and we will try our best to dump the debug "
        "info. Last enqueued NCCL work: 33, last completed NCCL work: 33.\n");
    json_t *f;
    const char *msg = timeout_message(doc, &f);
    has(msg, "Rank 3 never called SeqNum 34 of process group 0 (its last enqueued is 33), which "
             "rank 0 waits in");
    assert_null(strstr(msg, "is not in the text"));
    json_decref(f);
    json_decref(doc);
}

/* vllm#5458: the first collective of the group never completed. */
static void watchdog_first_collective(void **state)
{
    (void)state;
    json_t *doc = import_real("watchdog-vllm5458-first-collective-timeout.txt",
                              LS_FMT_TORCH_WATCHDOG);
    json_t *f;
    const char *msg = timeout_message(doc, &f);
    has(msg, "ALLREDUCE SeqNum 1 (1 element)");
    has(msg, "first collective never completed");
    json_decref(f);
    json_decref(doc);
}

/* picotron#6 (real8 train): each rank's timeout printed again in its what() line, rank
   3's copy cut at "WorkNCCL(Seq": two timeouts, not a third unknown one, and the first
   collective is named as such. */
static void watchdog_cut_copy_of_a_timeout(void **state)
{
    (void)state;
    json_t *doc = import_real("watchdog-picotron6-first-allreduce.txt", LS_FMT_TORCH_WATCHDOG);
    const json_t *list = json_object_get(json_array_get(json_object_get(doc, "torch_watchdog"), 0),
                                         "timeouts");
    assert_int_equal(json_array_size(list), 2);
    json_t *f;
    const char *msg = timeout_message(doc, &f);
    has(msg, "ALLREDUCE SeqNum 1 (1 element) timed out after 121 s (limit 120 s) on ranks 2, 3.");
    has(msg, "first collective never completed");
    assert_null(strstr(msg, "a collective timed out on rank"));
    json_decref(f);
    json_decref(doc);
    /* the twin: a cut line of a rank no other line names is that rank's own timeout */
    doc = import_str("[Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9, "
                     "OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600100 milliseconds before "
                     "timing out.\n"
                     "[Rank 4] Watchdog caught collective operation timeout: WorkNCCL(Seq\n");
    list = json_object_get(json_array_get(json_object_get(doc, "torch_watchdog"), 0), "timeouts");
    assert_int_equal(json_array_size(list), 2);
    assert_int_equal(ls_json_int(json_array_get(list, 1), "group_rank", -1), 4);
    json_decref(doc);
}

/* LlamaFactory#8261 (real8 heldout, seen): a numbered paste whose first piece ends inside
   "Watchdog caught collective operati": rank 5's timeout, its op unknown; the second piece
   (rank 4 taken down) adds no timeout. Twins: a line that goes on with other words after
   "Watchdog caught " is no timeout, nor is text that is not PyTorch's. */
static void watchdog_line_cut_in_its_message(void **state)
{
    (void)state;
    json_t *doc = import_real("watchdog-llamafactory8261-numbered-terminated.txt",
                              LS_FMT_TORCH_WATCHDOG);
    import_into(doc, "watchdog-llamafactory8261-numbered-terminated-2.txt", LS_FMT_TORCH_WATCHDOG);
    const json_t *w = json_object_get(doc, "torch_watchdog");
    const json_t *list = json_object_get(json_array_get(w, 0), "timeouts");
    assert_int_equal(json_array_size(list), 1);
    assert_int_equal(ls_json_int(json_array_get(list, 0), "group_rank", -1), 5);
    assert_null(json_object_get(json_array_get(list, 0), "op"));
    assert_int_equal(json_array_size(json_object_get(json_array_get(w, 1), "timeouts")), 0);
    json_t *f;
    has(timeout_message(doc, &f), "a collective timed out on rank 5");
    json_decref(f);
    json_decref(doc);
    char err[256];
    static const char *const not_cut[] = {"[Rank 5] Watchdog caught collective operations in "
                                          "flight: 3\n",
                                          "Watchdog caught a squirrel\n"};
    for (int i = 0; i < 2; i++) {
        doc = ls_import_doc_new();
        assert_true(ls_import_text(doc, not_cut[i], "pasted.txt", NULL, NULL, err, sizeof err) < 0);
        json_decref(doc);
    }
}

/* The healthy twin (pytorch#88000): the 1.13 options block, a 5000 ms limit, no timeout. */
static void watchdog_options_quiet(void **state)
{
    (void)state;
    json_t *doc = import_real("watchdog-pytorch88000-options-no-timeout.txt",
                              LS_FMT_TORCH_WATCHDOG);
    const json_t *w = json_array_get(json_object_get(doc, "torch_watchdog"), 0);
    assert_int_equal(ls_json_int(w, "timeout_setting_ms", -1), 5000);
    json_t *f = ls_findings(doc);
    assert_null(ls_test_finding(f, "collective_timeout"));
    quiet(f);
    json_decref(f);
    json_decref(doc);
}

/* The 2.x options line (printing code: "initialization options: size: N, global rank: R,
   TIMEOUT(ms): T"), and a stuck watchdog with no collective named. */
static void watchdog_options_line_and_stuck(void **state)
{
    (void)state;
    json_t *doc = import_str("[rank2]:[I ProcessGroupNCCL.cpp:869] [PG 0 Rank 2] ProcessGroupNCCL "
                             "initialization options: size: 8, global rank: 2, TIMEOUT(ms): "
                             "1800000, USE_HIGH_PRIORITY_STREAM: 0\n");
    const json_t *w = json_array_get(json_object_get(doc, "torch_watchdog"), 0);
    assert_int_equal(ls_json_int(w, "size", -1), 8);
    assert_int_equal(ls_json_int(w, "timeout_setting_ms", -1), 1800000);
    json_t *f = ls_findings(doc);
    quiet(f);
    json_decref(f);
    json_decref(doc);
    doc = import_str("[rank1]:[E1111 17:10:53.1 ProcessGroupNCCL.cpp:1401] [PG 0 Rank 1] "
                     "ProcessGroupNCCL's watchdog got stuck for 480 seconds without making "
                     "progress in monitoring enqueued collectives.\n");
    const char *msg = timeout_message(doc, &f);
    has(msg, "got stuck for 480 s");
    json_decref(f);
    json_decref(doc);
}

/* go-dcgm#52: GPU Memory passes on GPU 1 and fails on GPU 0; the warning, cut into the
   column's width, joins back into DCGM's sentence and belongs to GPU 0. */
/* The watchdog's lines with the node's kernel log pasted under them: the timeout and the
   Xid both (the Xid is what to act on: the node, not the job), and a table of nvidia-smi
   pasted with a watchdog text is read too; a watchdog text alone keeps no kernel log. */
static void watchdog_with_kernel_log(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text("[rank3]:[E603 17:48:01.005271823 ProcessGroupNCCL.cpp:632] "
                                      "[Rank 3] Watchdog caught "
                                      "collective operation timeout: WorkNCCL(SeqNum=24, "
                                      "OpType=ALLREDUCE, NumelIn=1024, "
                                      "NumelOut=1024, Timeout(ms)=600000) ran for 600068 "
                                      "milliseconds before timing out.\n"
                                      "[Mon Jun  3 17:38:12 2025] NVRM: Xid (PCI:0000:3b:00): 79, "
                                      "pid=1234, name=python, GPU "
                                      "has fallen off the bus.\n",
                                      LS_FMT_TORCH_WATCHDOG);
    ls_test_fires(doc, "collective_timeout", "error", "", "SeqNum 24");
    ls_test_fires(doc, "xid", "error", "reboot", "Xid 79");
    json_decref(doc);
    doc = ls_test_import_text("[rank3]:[E603 17:48:01.005271823 ProcessGroupNCCL.cpp:632] [Rank 3] "
                              "Watchdog caught "
                              "collective operation timeout: WorkNCCL(SeqNum=24, OpType=ALLREDUCE, "
                              "NumelIn=1024, "
                              "NumelOut=1024, Timeout(ms)=600000) ran for 600068 milliseconds "
                              "before timing out.\n",
                              LS_FMT_TORCH_WATCHDOG);
    assert_null(json_object_get(doc, "kernel_logs"));
    ls_test_silent(doc, "xid");
    json_decref(doc);
}

static void dcgm_text_fail_gpu0(void **state)
{
    (void)state;
    json_t *doc = import_real("dcgm-godcgm52-memory-fail-gpu0.txt", LS_FMT_DCGM_DIAG_TEXT);
    const json_t *d = json_array_get(json_object_get(doc, "dcgm"), 0);
    assert_non_null(json_object_get(d, "incomplete"));
    const json_t *t = json_array_get(json_object_get(d, "tests"), 0);
    assert_string_equal(ls_json_str(t, "name", ""), "GPU Memory");
    assert_string_equal(ls_json_str(t, "category", ""), "Hardware");
    const json_t *bad = json_array_get(json_object_get(t, "results"), 1);
    assert_string_equal(ls_json_str(bad, "status", ""), "fail");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(bad, "gpus"), 0)), 0);
    const char *msg = ls_json_str(json_array_get(json_object_get(bad, "problems"), 0), "message",
                                  "");
    has(msg, "cuCtxCreate Check DCGM and system logs for errors. Reset GPU. Restart DCGM.");
    has(msg, "Unable to create CUDA context: 'CUDA-capable device(s) is/are busy");
    json_t *f = ls_findings(doc);
    const json_t *x = ls_test_finding(f, "dcgm_failed");
    assert_non_null(x);
    assert_string_equal(ls_json_str(x, "severity", ""), "error");
    assert_string_equal(ls_json_str(x, "subject", ""), "GPU0");
    json_decref(f);
    json_decref(doc);
}

/* DCGM#49 (2.4): "Fail - All" and a warning whose pieces break inside words. */
static void dcgm_text_fail_all_pieces(void **state)
{
    (void)state;
    json_t *doc = import_real("dcgm-dcgm49-a100-pcie-fail-nvlink-down.txt", LS_FMT_DCGM_DIAG_TEXT);
    const json_t *t =
        json_array_get(json_object_get(json_array_get(json_object_get(doc, "dcgm"), 0), "tests"),
                       0);
    assert_string_equal(ls_json_str(t, "name", ""), "PCIe");
    const json_t *r = json_array_get(json_object_get(t, "results"), 0);
    assert_string_equal(ls_json_str(r, "status", ""), "fail");
    const char *msg = ls_json_str(json_array_get(json_object_get(r, "problems"), 0), "message", "");
    has(msg, "link 0 is currently down Run a field diagnostic on the GPU., GPU 0GPU 0's NvLink "
             "link 1 is currently down Run a field diagnostic");
    json_t *f = ls_findings(doc);
    assert_non_null(ls_test_finding(f, "dcgm_failed"));
    json_decref(f);
    json_decref(doc);
}

/* DCGM#253 (4.2.3): a test's summary over one row a GPU; a summary alone counts for the
   GPUs the metadata lists. Healthy: quiet. */
static void dcgm_text_per_gpu_pass(void **state)
{
    (void)state;
    json_t *doc = import_real("dcgm-dcgm253-4.2.3-per-gpu-pass-cut.txt", LS_FMT_DCGM_DIAG_TEXT);
    const json_t *d = json_array_get(json_object_get(doc, "dcgm"), 0);
    assert_string_equal(ls_json_str(d, "version", ""), "4.2.3");
    assert_string_equal(ls_json_str(d, "driver", ""), "570.148.08");
    const json_t *sw = json_array_get(json_object_get(d, "tests"), 0);
    assert_int_equal(json_array_size(json_object_get(sw, "results")), 4);
    const json_t *mem = json_array_get(json_object_get(d, "tests"), 1);
    assert_int_equal(json_array_size(
                         json_object_get(json_array_get(json_object_get(mem, "results"), 0),
                                         "gpus")),
                     4);
    json_t *f = ls_findings(doc);
    quiet(f);
    assert_non_null(ls_test_finding(f, "dcgm_passed"));
    json_decref(f);
    json_decref(doc);
}

/* A whole table (DCGM's layout) with a warned test: not cut, a warning. */
static void dcgm_text_whole_table_warn(void **state)
{
    (void)state;
    json_t *doc = import_str(
        "Successfully ran diagnostic for group.\n"
        "+---------------------------+------------------------------------------------+\n"
        "| Diagnostic                | Result                                         |\n"
        "+===========================+================================================+\n"
        "|-----  Deployment  --------+------------------------------------------------|\n"
        "| Persistence Mode          | Warn - GPU: 1                                  |\n"
        "| Warning                   | GPU 1 Persistence mode for GPU 1 is disabled.  |\n"
        "+---------------------------+------------------------------------------------+\n");
    const json_t *d = json_array_get(json_object_get(doc, "dcgm"), 0);
    assert_null(json_object_get(d, "incomplete"));
    json_t *f = ls_findings(doc);
    const json_t *x = ls_test_finding(f, "dcgm_failed");
    assert_non_null(x);
    assert_string_equal(ls_json_str(x, "severity", ""), "warning");
    assert_string_equal(ls_json_str(x, "subject", ""), "GPU1");
    json_decref(f);
    json_decref(doc);
}

/* The printing code's list form (dcgmi/Diag.cpp HelperDisplayGpuResults): "Pass - GPUs:
   0, 1, 3" over "Fail - GPU: 2", and a warning of exactly 45 characters a piece. */
static void dcgm_text_gpu_lists(void **state)
{
    (void)state;
    json_t *doc = import_str(
        "+-----  Integration  -------+------------------------------------------------+\n"
        "| PCIe                      | Pass - GPUs: 0, 1, 3                           |\n"
        "|                           | Fail - GPU: 2                                  |\n"
        "| Warning                   | GPU 2 PCIe replay count violation (1234) for   |\n"
        "|                           | GPU 2. Run a field diagnostic on the GPU.      |\n"
        "+---------------------------+------------------------------------------------+\n");
    const json_t *t =
        json_array_get(json_object_get(json_array_get(json_object_get(doc, "dcgm"), 0), "tests"),
                       0);
    const json_t *pass = json_array_get(json_object_get(t, "results"), 0);
    assert_int_equal(json_array_size(json_object_get(pass, "gpus")), 3);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(pass, "gpus"), 2)), 3);
    const json_t *bad = json_array_get(json_object_get(t, "results"), 1);
    assert_string_equal(ls_json_str(json_array_get(json_object_get(bad, "problems"), 0), "message",
                                    ""),
                        "GPU 2 PCIe replay count violation (1234) for GPU 2. Run a field "
                        "diagnostic on the GPU.");
    json_t *f = ls_findings(doc);
    const json_t *x = ls_test_finding(f, "dcgm_failed");
    assert_non_null(x);
    assert_string_equal(ls_json_str(x, "subject", ""), "GPU2");
    json_decref(f);
    json_decref(doc);
}

/* A text with a watchdog's or dcgmi's signature but nothing either reader can use: one
   line naming the file, nothing added. */
static void refused_in_one_line(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "ProcessGroupNCCL's watchdog got stuck for a while\n",
        "Successfully ran diagnostic for group.\n",
    };
    static const char *const words[] = {"PyTorch NCCL watchdog text", "dcgmi diag text"};
    for (size_t i = 0; i < 2; i++) {
        json_t *doc = ls_import_doc_new();
        char err[512] = "";
        assert_int_equal(ls_import_text(doc, texts[i], "pasted.txt", NULL, NULL, err, sizeof err),
                         -1);
        assert_non_null(strstr(err, "pasted.txt: "));
        assert_non_null(strstr(err, words[i]));
        assert_null(strchr(err, '\n'));
        assert_null(json_object_get(doc, "torch_watchdog"));
        assert_null(json_object_get(doc, "dcgm"));
        json_decref(doc);
    }
}

/* The ranks and groups of a stuck watchdog, as each rank's line prefix names them (2.5's
   "[PG ID P PG GUID G(name) Rank R]", the older "[PG P Rank R]" of a heartbeat line): the
   message names them and says no collective timed out; with "Some NCCL operations have
   failed or timed out" it keeps saying operations failed. */
static void watchdog_stuck_ranks(void **state)
{
    (void)state;
    json_t *f;
    json_t *doc = import_str(
        "[rank4]:[E205 18:11:06.3 ProcessGroupNCCL.cpp:1870] [PG ID 12 PG GUID 99(EXPERT_GROUP) "
        "Rank 4] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress "
        "in monitoring enqueued collectives.\n"
        "[rank1]:[E1019 01:04:03.3 ProcessGroupNCCL.cpp:1413] [PG 3 Rank 1] Heartbeat monitor "
        "timed out! Process will be terminated after dumping debug info.\n");
    const json_t *stuck = json_object_get(json_array_get(json_object_get(doc, "torch_watchdog"), 0),
                                          "stuck");
    assert_int_equal(json_array_size(stuck), 2);
    assert_string_equal(ls_json_str(json_array_get(stuck, 0), "pg_name", ""), "EXPERT_GROUP");
    const char *msg = timeout_message(doc, &f);
    has(msg, "No collective timeout is in the text");
    has(msg, "got stuck for 480 s on rank 4 (PG 99 EXPERT_GROUP), rank 1 (PG 3)");
    json_decref(f);
    json_decref(doc);
    doc = import_str("[rank0]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 0] Heartbeat monitor "
                     "timed out! Process will be terminated after dumping debug info.\n"
                     "[E ProcessGroupNCCL.cpp:916] [Rank 0] Some NCCL operations have failed or "
                     "timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU "
                     "operations might run on corrupted/incomplete data.\n");
    msg = timeout_message(doc, &f);
    has(msg, "NCCL operations failed or timed out");
    has(msg, "heartbeat monitor timed out on rank 0 (PG 0)");
    json_decref(f);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(watchdog_two_pieces_of_one_job),
        cmocka_unit_test(watchdog_old_form_cut_op),
        cmocka_unit_test(watchdog_two_ops_one_seqnum),
        cmocka_unit_test(watchdog_rank_behind),
        cmocka_unit_test(watchdog_wrapped_lines),
        cmocka_unit_test(watchdog_rank_never_issued),
        cmocka_unit_test(watchdog_first_collective),
        cmocka_unit_test(watchdog_cut_copy_of_a_timeout),
        cmocka_unit_test(watchdog_line_cut_in_its_message),
        cmocka_unit_test(watchdog_options_quiet),
        cmocka_unit_test(watchdog_options_line_and_stuck),
        cmocka_unit_test(watchdog_stuck_ranks),
        cmocka_unit_test(watchdog_with_kernel_log),
        cmocka_unit_test(dcgm_text_fail_gpu0),
        cmocka_unit_test(dcgm_text_fail_all_pieces),
        cmocka_unit_test(dcgm_text_per_gpu_pass),
        cmocka_unit_test(dcgm_text_whole_table_warn),
        cmocka_unit_test(dcgm_text_gpu_lists),
        cmocka_unit_test(refused_in_one_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
