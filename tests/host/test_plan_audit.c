/* What `linkscope plan` says of real pastes, audited (docs/analysis.md, "What the plan
   says, audited (session 8)"): each misstatement found on the real corpus, checked on
   its real text beside a healthy twin where the statement must stay. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/machine.h"
#include "helpers.h"
#include "import/import.h"
#include "model/doc.h"

static json_t *imported(const char *relative, int format)
{
    json_t *doc = ls_import_doc_new();
    ls_test_import(doc, relative, format);
    return doc;
}

/* 1 when any "needs" line of the plan holds text. */
static int needs_say(const json_t *plan, const char *text)
{
    size_t i;
    const json_t *h;
    json_array_foreach(json_object_get(plan, "needs"), i, h) {
        if (strstr(json_string_value(h), text))
            return 1;
    }
    return 0;
}

/* nccl-1039: four rows of 8 to 64 B, 17.7 to 19.5 us each: latency, so the plan quotes no
   "0.010 GB/s at the largest size" as a measured all_reduce bandwidth and says why. */
static void test_latency_bound_sweep_is_no_bandwidth(void **state)
{
    (void)state;
    json_t *doc = imported("real/nccl-1039-v100pcie-small-rows.txt", LS_FMT_NCCL_TESTS);
    const json_t *e = json_array_get(json_object_get(doc, "measurements"), 0);
    double t0, t1;
    assert_int_equal(ls_nccl_latency_bound(e, &t0, &t1), 1);
    assert_true(t0 > 19.1 && t0 < 19.13); /* 19.12 us at 8 B */
    assert_true(t1 > 18.58 && t1 < 18.6); /* 18.59 us at 64 B */
    json_t *plan = ls_plan(doc);
    assert_int_equal(json_array_size(json_object_get(plan, "measured_groups")), 0);
    size_t i;
    const json_t *g;
    json_array_foreach(json_object_get(plan, "groups"), i, g)
        assert_null(json_object_get(g, "measured_busbw_gbps"));
    assert_true(needs_say(plan, "stops at 64 B, a latency-bound size"));
    json_decref(plan);
    json_decref(doc);
}

/* Its healthy twin, the H200 pair's own nccl-tests all_reduce (8 B to its largest size,
   the time growing with the size past the latency-bound rows):
   bandwidth, quoted as measured, no latency-bound note. */
static void test_bandwidth_bound_sweep_is_quoted(void **state)
{
    (void)state;
    json_t *doc = imported("h200x2/nccl-tests-all_reduce.txt", LS_FMT_NCCL_TESTS);
    const json_t *e = json_array_get(json_object_get(doc, "measurements"), 0);
    assert_int_equal(ls_nccl_latency_bound(e, NULL, NULL), 0);
    json_t *plan = ls_plan(doc);
    const json_t *mg = json_array_get(json_object_get(plan, "measured_groups"), 0);
    assert_non_null(mg);
    assert_true(ls_json_num(mg, "measured_busbw_gbps", 0) > 1); /* busbw at the largest row, GB/s */
    assert_false(needs_say(plan, "latency-bound"));
    json_decref(plan);
    json_decref(doc);
}

/* The first nccl_warn finding of a log's document. */
static json_t *trail_finding(const char *relative, int format, const json_t **found)
{
    json_t *doc = imported(relative, format);
    json_t *findings = ls_findings(doc);
    *found = ls_test_finding(findings, "nccl_warn");
    assert_non_null(*found);
    json_decref(doc);
    return findings;
}

/* nccl-367: "include/net.h:19 -> 2" on three threads of NCCL 2.4, each going on with its
   "CUDA Dev 0[3], Socket NIC distance : SYS" or ring lines: NCCL handled the code (net.cc
   takes the NIC path it cannot resolve as distance SYS), so no warning says it failed. */
static void test_handled_trail_is_no_failure(void **state)
{
    (void)state;
    const json_t *f;
    json_t *findings = trail_finding("real/nccl-367-16rank-container-shm-socket.log",
                                     LS_FMT_NCCL_LOG, &f);
    assert_string_equal(ls_json_str(f, "severity", ""), "info");
    assert_non_null(strstr(ls_json_str(f, "message", ""), "include/net.h:19"));
    assert_non_null(strstr(ls_json_str(f, "message", ""), "handled the code itself"));
    json_decref(findings);
}

/* Its twin, nccl-1610 (a PyTorch watchdog paste with NCCL's lines): a socket.cc trail of error 3
   whose thread prints only the trail (its last line cut inside "misc/socket.cc:621 ->"): whether
   NCCL stopped on it is unknown, said so, and still a warning. */
static void test_trail_without_sequel_is_unknown(void **state)
{
    (void)state;
    const json_t *f;
    json_t *findings = trail_finding("real/nccl-1610-timestamp-trail.log", LS_FMT_TORCH_WATCHDOG,
                                     &f);
    assert_string_equal(ls_json_str(f, "severity", ""), "warning");
    assert_non_null(strstr(ls_json_str(f, "message", ""), "is unknown from the text"));
    assert_null(strstr(ls_json_str(f, "message", ""), "handled the code itself"));
    json_decref(findings);
}

/* The plan's summary line that holds text (NULL when none does). */
static const char *summary_with(const json_t *plan, const char *text)
{
    size_t i;
    const json_t *h;
    json_array_foreach(json_object_get(plan, "summary"), i, h) {
        if (strstr(json_string_value(h), text))
            return json_string_value(h);
    }
    return NULL;
}

/* dcgm-godcgm52: DCGM names GPU 0 and GPU 1, but no list of the machine's GPUs is in the
   document: the plan said "0 GPU in the text", now that it holds no GPU list. */
static void test_no_gpu_list_is_not_no_gpu(void **state)
{
    (void)state;
    json_t *doc = imported("real/dcgm-godcgm52-memory-fail-gpu0.txt", LS_FMT_DCGM_DIAG_TEXT);
    json_t *plan = ls_plan(doc);
    assert_null(summary_with(plan, "0 GPU in the text"));
    assert_non_null(summary_with(plan, "holds no list of the machine's GPUs"));
    json_decref(plan);
    json_decref(doc);
}

/* Its twin, nccl-tests249: one rank on one A10G listed by its rank line: one GPU, said. */
static void test_one_gpu_is_said(void **state)
{
    (void)state;
    json_t *doc = imported("real/nccl-tests249-a10g-one-rank.txt", LS_FMT_NCCL_TESTS);
    json_t *plan = ls_plan(doc);
    assert_non_null(summary_with(plan, "1 GPU in the text"));
    assert_null(summary_with(plan, "no list of the machine's GPUs"));
    json_decref(plan);
    json_decref(doc);
}

/* The p2p_unavailable message of a p2pBandwidthLatencyTest paste. */
static char *p2p_message(const char *relative)
{
    json_t *doc = imported(relative, LS_FMT_P2P_SAMPLE);
    json_t *findings = ls_findings(doc);
    const json_t *f = ls_test_finding(findings, "p2p_unavailable");
    assert_non_null(f);
    char *msg = strdup(ls_json_str(f, "message", ""));
    json_decref(findings);
    json_decref(doc);
    return msg;
}

/* nccl-tests#117: the paste is cut after GPU 0's seven CANNOT lines of 8 GPUs' 28 pairs:
   it said "7 of 28 GPU pairs" as if 21 had peer access; they are unknown. */
static void test_cut_peer_list_counts_unknown_pairs(void **state)
{
    (void)state;
    char *msg = p2p_message("real/p2p-nccltests117-8x2080ti-cannot.txt");
    assert_non_null(strstr(msg, "7 of 7 GPU pairs the text states (of 28; the other 21 unknown)"));
    free(msg);
}

/* A paste stating some pairs with access: aikitoria5 states 15 of 21 pairs, two of them
   with peer access (GPU 0-1, 2-3), six not at all. */
static void test_stated_pairs_are_counted(void **state)
{
    (void)state;
    char *msg = p2p_message("real/p2p-aikitoria5-mixed-cannot.txt");
    assert_non_null(strstr(msg, "13 of 15 GPU pairs the text states (of 21; the other 6 unknown)"));
    free(msg);
}

/* The healthy twin: seed 000's document (11 GV100s, every pair measured) states every
   pair, so its count stays "10 of 55 GPU pairs" with nothing unknown. */
static void test_every_pair_stated_says_no_unknown(void **state)
{
    (void)state;
    char err[256];
    json_t *doc = ls_doc_read(ls_fixture("analyze/seed000-gv100x11.json"), err, sizeof err);
    assert_non_null(doc);
    json_t *findings = ls_findings(doc);
    const json_t *f = ls_test_finding(findings, "p2p_unavailable");
    assert_non_null(f);
    assert_non_null(strstr(ls_json_str(f, "message", ""), "on 10 of 55 GPU pairs ("));
    assert_null(strstr(ls_json_str(f, "message", ""), "unknown)"));
    json_decref(findings);
    json_decref(doc);
}

/* The plan of a p2pBandwidthLatencyTest paste, its summary line on memory-bound work. */
static void hbm_summary(const char *relative, const char *want)
{
    json_t *doc = imported(relative, LS_FMT_P2P_SAMPLE);
    json_t *plan = ls_plan(doc);
    const char *line = summary_with(plan, "Memory-bound single-GPU work");
    assert_non_null(line);
    assert_non_null(strstr(line, want));
    json_decref(plan);
    json_decref(doc);
}

/* tinygrad#44: GPU 0's 1012 GB/s leads GPU 1's 936 alone: "GPU 0", not "GPUs 0". */
static void test_one_best_hbm_gpu_is_singular(void **state)
{
    (void)state;
    hbm_summary("real/p2p-tinygrad44-2x4090.txt", ": GPU 0 (highest measured HBM bandwidth)");
}

/* Its twin: three of six RTX PRO 6000s within 5% of the fastest stay plural. */
static void test_several_best_hbm_gpus_are_plural(void **state)
{
    (void)state;
    hbm_summary("real/p2p-rtx6kpro-6gpu-web-collapsed.txt",
                ": GPUs 0,1,5 (highest measured HBM bandwidth)");
}

/* The message of the first finding of rule for one real text. */
static char *message_of(const char *relative, int format, const char *rule)
{
    json_t *doc = imported(relative, format);
    json_t *findings = ls_findings(doc);
    const json_t *f = ls_test_finding(findings, rule);
    assert_non_null(f);
    char *msg = strdup(ls_json_str(f, "message", ""));
    json_decref(findings);
    json_decref(doc);
    return msg;
}

/* nccl-tests#213: two headers of "nThread 1 nGpus 8", the paste cut at rank 4: each run
   holds 8 ranks; the finding said "2 single-node runs of 4 ranks each". */
static void test_cut_rank_list_takes_the_header_count(void **state)
{
    (void)state;
    json_t *doc = imported("real/nccl-tests213-two-headers-h800.txt", LS_FMT_NCCL_TESTS);
    assert_int_equal(ls_json_int(json_array_get(json_object_get(doc, "measurements"), 0), "nranks",
                                 0),
                     8);
    json_decref(doc);
    char *msg = message_of("real/nccl-tests213-two-headers-h800.txt", LS_FMT_NCCL_TESTS,
                           "separate_runs");
    assert_non_null(strstr(msg, "2 single-node runs of 8 ranks each"));
    free(msg);
}

/* Its twin, nccl-tests#294: one process per GPU (nGpus 1) and 12 rank lines: 12 ranks. */
static void test_rank_lines_above_the_header_count_stay(void **state)
{
    (void)state;
    json_t *doc = imported("real/nccl-tests294-16rank-2node.txt", LS_FMT_NCCL_TESTS);
    assert_int_equal(ls_json_int(json_array_get(json_object_get(doc, "measurements"), 0), "nranks",
                                 0),
                     12);
    json_decref(doc);
}

/* nccl-tests#249: "GPU0 its collective (not named in the paste) ran on one rank" read as one
   noun; now "GPU0: the collective (not named in the paste) ran on one rank". Twin:
   nccl-tests#287 names all_reduce. */
static void test_one_rank_names_its_subject(void **state)
{
    (void)state;
    char *msg = message_of("real/nccl-tests249-a10g-one-rank.txt", LS_FMT_NCCL_TESTS,
                           "implausible");
    assert_non_null(strstr(msg, "GPU0: the collective (not named in the paste) ran on one rank"));
    free(msg);
    msg = message_of("real/nccl-tests287-5090-one-rank.txt", LS_FMT_NCCL_TESTS, "implausible");
    assert_non_null(strstr(msg, "GPU0: all_reduce ran on one rank"));
    free(msg);
}

/* pytorch#68893: one NET/Socket connection, said "1 connections"; twin nccl-tests#171: 11. */
static void test_socket_connections_counted_in_words(void **state)
{
    (void)state;
    char *msg = message_of("real/nccl-pytorch68893-ansi-socket.log", LS_FMT_NCCL_LOG, "net_socket");
    assert_non_null(strstr(msg, "(NET/Socket, 1 connection)"));
    free(msg);
    msg = message_of("real/nccl-tests171-2host-socket-shm.log", LS_FMT_NCCL_LOG, "net_socket");
    assert_non_null(strstr(msg, "(NET/Socket, 11 connections)"));
    free(msg);
}

/* topo-club178: two GPUs at SYS, GPU1 on NUMA node 1 and GPU0's node blank: the plan said
   "no NUMA node known"; one is known, no two GPUs share one. Twin: topo-deepep128 (all SYS,
   GPUs 0-3 on node 0) groups by node. */
static void test_one_numa_node_known_is_not_none(void **state)
{
    (void)state;
    json_t *doc = imported("real/topo-club178-2x3090-sys.txt", LS_FMT_TOPO);
    json_t *plan = ls_plan(doc);
    assert_null(summary_with(plan, "no NUMA node known"));
    assert_non_null(summary_with(plan, "nor on one known NUMA node"));
    json_decref(plan);
    json_decref(doc);
    doc = imported("real/topo-deepep128-8xh20-allsys-cut.txt", LS_FMT_TOPO);
    plan = ls_plan(doc);
    assert_non_null(summary_with(plan, "group by NUMA node instead"));
    json_decref(plan);
    json_decref(doc);
}

/* dcgm#49: "PCIe | Fail - All" in a table cut before its metadata: the finding said
   "failed on GPU unknown"; every GPU failed, how many is not in the paste. Twin:
   godcgm#52's "Fail - GPU: 0" names GPU0. */
static void test_dcgm_fail_all_is_every_gpu(void **state)
{
    (void)state;
    char *msg = message_of("real/dcgm-dcgm49-a100-pcie-fail-nvlink-down.txt", LS_FMT_DCGM_DIAG_TEXT,
                           "dcgm_failed");
    assert_non_null(
        strstr(msg, "PCIe test failed on every GPU (\"All\"; how many is not in the paste)"));
    assert_null(strstr(msg, "GPU unknown"));
    free(msg);
    msg = message_of("real/dcgm-godcgm52-memory-fail-gpu0.txt", LS_FMT_DCGM_DIAG_TEXT,
                     "dcgm_failed");
    assert_non_null(strstr(msg, "GPU Memory test failed on GPU0"));
    free(msg);
    /* a bare "Fail" (the row names no GPU, as DCGM 2.x's summary rows): not quoted as "All" */
    msg = message_of("real/fresh22-dcgmdiag-deepops-prolog-deployment-five-fail-no-gpu.txt",
                     LS_FMT_DCGM_DIAG_TEXT, "dcgm_failed");
    assert_non_null(strstr(msg, "failed on the GPUs of the run (its row names none"));
    assert_null(strstr(msg, "\"All\""));
    free(msg);
}

/* deepresearcher#16: rank 3's "Some NCCL operations have failed or timed out" (no op, no
   SeqNum) under its ALLTOALL SeqNum 8 timeout was said again as "; a collective timed out
   on rank 3". Twin: nccl#1409's two ranks in two collectives at one SeqNum stay two. */
static void test_bare_timeout_line_is_not_a_second_timeout(void **state)
{
    (void)state;
    char *msg = message_of("real/watchdog-deepresearcher16-ray-alltoall-pg5.txt",
                           LS_FMT_TORCH_WATCHDOG, "collective_timeout");
    assert_non_null(strstr(msg, "ALLTOALL SeqNum 8"));
    assert_null(strstr(msg, "a collective timed out"));
    free(msg);
    msg = message_of("real/watchdog-nccl1409-broadcast-vs-allreduce-80078.txt",
                     LS_FMT_TORCH_WATCHDOG, "collective_timeout");
    assert_non_null(strstr(msg, "BROADCAST SeqNum 80078"));
    assert_non_null(strstr(msg, "ALLREDUCE SeqNum 80078"));
    free(msg);
}

/* The ecc message of a finding (NULL when the rule did not fire on GPU gpu). */
static const char *ecc_message(const json_t *findings, int gpu)
{
    size_t i;
    const json_t *f;
    json_array_foreach(findings, i, f) {
        const json_t *gpus = json_object_get(f, "gpus");
        if (!strcmp(ls_json_str(f, "rule", ""), "ecc") &&
            json_integer_value(json_array_get(gpus, 0)) == gpu)
            return ls_json_str(f, "message", "");
    }
    return NULL;
}

/* smi-q-gls-v100sxm2-x8: GPU4's lifetime errors came with a retired page the plan did not
   name; its twin, the same GPU with no page retired, says nothing of pages. */
static void test_retired_page_named_with_lifetime_errors(void **state)
{
    (void)state;
    json_t *doc = imported("real/smi-q-gls-v100sxm2-x8.txt", LS_FMT_SMI_QUERY);
    json_t *f = ls_findings(doc);
    const char *m = ecc_message(f, 4);
    assert_non_null(m);
    assert_non_null(strstr(m, "4 corrected and 0 uncorrected ECC errors over its life"));
    assert_non_null(
        strstr(m, "1 page retired for them (1 single-bit, 0 double-bit), none pending"));
    assert_string_equal(ls_json_str(ls_test_finding(f, "ecc"), "severity", ""), "info");
    json_decref(f);
    json_t *gpu4 = json_array_get(json_object_get(doc, "gpus"), 4);
    json_t *pages = json_object_get(json_object_get(gpu4, "ecc"), "retired_pages");
    json_object_set_new(pages, "single_bit", json_integer(0));
    f = ls_findings(doc);
    m = ecc_message(f, 4);
    assert_non_null(m);
    assert_null(strstr(m, "retired"));
    json_decref(f);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_latency_bound_sweep_is_no_bandwidth),
        cmocka_unit_test(test_bandwidth_bound_sweep_is_quoted),
        cmocka_unit_test(test_handled_trail_is_no_failure),
        cmocka_unit_test(test_trail_without_sequel_is_unknown),
        cmocka_unit_test(test_no_gpu_list_is_not_no_gpu),
        cmocka_unit_test(test_one_gpu_is_said),
        cmocka_unit_test(test_cut_peer_list_counts_unknown_pairs),
        cmocka_unit_test(test_stated_pairs_are_counted),
        cmocka_unit_test(test_every_pair_stated_says_no_unknown),
        cmocka_unit_test(test_one_best_hbm_gpu_is_singular),
        cmocka_unit_test(test_several_best_hbm_gpus_are_plural),
        cmocka_unit_test(test_cut_rank_list_takes_the_header_count),
        cmocka_unit_test(test_rank_lines_above_the_header_count_stay),
        cmocka_unit_test(test_one_rank_names_its_subject),
        cmocka_unit_test(test_socket_connections_counted_in_words),
        cmocka_unit_test(test_one_numa_node_known_is_not_none),
        cmocka_unit_test(test_dcgm_fail_all_is_every_gpu),
        cmocka_unit_test(test_bare_timeout_line_is_not_a_second_timeout),
        cmocka_unit_test(test_retired_page_named_with_lifetime_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
