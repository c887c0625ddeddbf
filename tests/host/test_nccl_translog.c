/* NCCL INFO log parser: the real 2 x H200 log, and logs written from NCCL's format
   strings for SHM, a PCIe host-bridge crossing, NET/IB with and without GDRDMA, and an
   old version's bus-id brackets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "model/doc.h"
#include "model/translog.h"
#include "util/fileio.h"

static json_t *parse_fixture(const char *name)
{
    char err[512];
    char *text = ls_read_file(ls_fixture(name), NULL, err, sizeof err);
    if (!text)
        fail_msg("%s", err);
    json_t *out = ls_nccl_parse_log(text);
    free(text);
    return out;
}

static int count_transport(const json_t *out, const char *cls, int from, int to, const char *side)
{
    int n = 0;
    size_t i;
    const json_t *t;
    json_array_foreach(json_object_get(out, "transports"), i, t) {
        if (strcmp(ls_json_str(t, "transport", ""), cls) == 0 &&
            (from < 0 || ls_json_int(t, "from", -9) == from) &&
            (to < 0 || ls_json_int(t, "to", -9) == to) &&
            (!side || strcmp(ls_json_str(t, "side", ""), side) == 0))
            n++;
    }
    return n;
}

static void h200_fixture(void **s)
{
    (void)s;
    json_t *out = parse_fixture("h200x2/nccl-debug-info-all_reduce.txt");
    assert_string_equal(ls_json_str(out, "nccl_version", ""), "2.28.3");
    assert_int_equal(json_array_size(json_object_get(out, "ranks")), 2);
    /* 24 channels each way, P2P/direct pointer (same process) */
    assert_int_equal(json_array_size(json_object_get(out, "transports")), 48);
    assert_int_equal(count_transport(out, "P2P/direct pointer", 0, 1, "both"), 24);
    assert_int_equal(count_transport(out, "P2P/direct pointer", 1, 0, "both"), 24);
    /* ring order from "Channel 00/24 : 0 1" */
    const json_t *rings = json_object_get(out, "rings");
    assert_int_equal(json_array_size(rings), 24);
    const json_t *r0 = json_array_get(rings, 0);
    assert_int_equal(ls_json_int(r0, "channel", -1), 0);
    assert_int_equal(json_array_size(json_object_get(r0, "ranks")), 2);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(r0, "ranks"), 1)), 1);
    /* trees: 24 channels x 2 ranks, channel 6 rooted at rank 1 */
    const json_t *trees = json_object_get(out, "trees");
    assert_int_equal(json_array_size(trees), 48);
    size_t i;
    const json_t *t;
    int seen = 0;
    json_array_foreach(trees, i, t) {
        if (ls_json_int(t, "channel", -1) == 6 && ls_json_int(t, "rank", -1) == 1) {
            assert_int_equal(ls_json_int(t, "up", 0), -1);
            assert_int_equal(json_integer_value(json_array_get(json_object_get(t, "down"), 0)), 0);
            seen = 1;
        }
    }
    assert_true(seen);
    assert_int_equal(json_array_size(json_object_get(out, "nccl_env")), 1);
    assert_string_equal(json_string_value(json_array_get(json_object_get(out, "nccl_env"), 0)),
                        "NCCL_NVLS_ENABLE set by environment to 0");
    json_t *lines = json_array();
    assert_int_equal(ls_nccl_transport_summary(json_object_get(out, "transports"), lines), 2);
    assert_string_equal(json_string_value(json_array_get(lines, 0)),
                        "GPU0 -> GPU1: P2P/direct pointer x24 channels");
    json_decref(lines);
    json_decref(out);
}

static void shm_when_p2p_disabled(void **s)
{
    (void)s;
    json_t *out = parse_fixture("nccl/shm-p2p-disabled.log");
    assert_int_equal(count_transport(out, "SHM", 0, 1, NULL), 2);
    assert_int_equal(count_transport(out, "SHM", 1, 0, NULL), 2);
    assert_int_equal(count_transport(out, "P2P/direct pointer", -1, -1, NULL), 0);
    assert_string_equal(json_string_value(json_array_get(json_object_get(out, "nccl_env"), 0)),
                        "NCCL_P2P_DISABLE set by environment to 1");
    json_decref(out);
}

/* Seed 000's finding: P2P OK on the host-bridge edges, NCCL used SHM there. */
static void shm_across_host_bridge_is_a_finding(void **s)
{
    (void)s;
    json_t *out = parse_fixture("nccl/phb-shm-8gpu.log");
    json_t *transports = json_object_get(out, "transports");
    assert_int_equal(json_array_size(transports), 16);
    assert_int_equal(count_transport(out, "SHM", 3, 4, NULL), 2);
    assert_int_equal(count_transport(out, "P2P/IPC", 4, 5, NULL), 2);
    /* topology: 0-3 and 4-7 PIX inside a switch, PHB across; P2P OK everywhere */
    json_t *links = json_array();
    for (int a = 0; a < 8; a++)
        for (int b = 0; b < 8; b++)
            if (a != b)
                json_array_append_new(links, json_pack("{s:i, s:i, s:s, s:s, s:s}", "a", a, "b", b,
                                                       "type", (a < 4) == (b < 4) ? "PIX" : "PHB",
                                                       "p2p_read", "OK", "p2p_write", "OK"));
    assert_int_equal(ls_nccl_annotate_links(transports, links), 16);
    json_t *lines = json_array();
    assert_int_equal(ls_nccl_transport_findings(transports, lines), 2);
    assert_string_equal(json_string_value(json_array_get(lines, 0)),
                        "P2P is OK but NCCL used SHM on 3 -> 4 (link PHB)");
    assert_string_equal(json_string_value(json_array_get(lines, 1)),
                        "P2P is OK but NCCL used SHM on 7 -> 0 (link PHB)");
    /* where P2P is not OK (CNS), SHM is expected: no finding */
    size_t i;
    json_t *l;
    json_array_foreach(links, i, l)
        json_object_set_new(l, "p2p_read", json_string("CNS"));
    ls_nccl_annotate_links(transports, links);
    json_array_clear(lines);
    assert_int_equal(ls_nccl_transport_findings(transports, lines), 0);
    json_decref(lines);
    json_decref(links);
    json_decref(out);
}

static void net_ib_with_and_without_gdrdma(void **s)
{
    (void)s;
    json_t *out = parse_fixture("nccl/net-ib-gdrdma.log");
    assert_string_equal(ls_json_str(out, "nccl_version", ""), "2.21.5");
    /* one GPU 0 on each host: both directions are GPU0 -> GPU0 */
    assert_int_equal(count_transport(out, "NET/IB", 0, 0, "send"), 4);
    assert_int_equal(count_transport(out, "NET/IB", -1, -1, "receive"), 4);
    int gdr = 0, plain = 0, shared = 0;
    size_t i;
    const json_t *t;
    json_array_foreach(json_object_get(out, "transports"), i, t) {
        if (json_is_true(json_object_get(t, "gdrdma")))
            gdr++;
        else
            plain++;
        if (strstr(ls_json_str(t, "via", ""), "/Shared"))
            shared++;
    }
    assert_int_equal(gdr, 4);   /* gpu-a's sends and receives */
    assert_int_equal(plain, 4); /* gpu-b: no GPUDirect RDMA */
    assert_int_equal(shared, 1);
    /* "Trees [0] 1/-1/-1->0->-1": rank 0 is the root of channel 0 with child 1 */
    const json_t *tree = json_array_get(json_object_get(out, "trees"), 0);
    assert_int_equal(ls_json_int(tree, "rank", -1), 0);
    assert_int_equal(ls_json_int(tree, "up", 0), -1);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(tree, "down"), 0)), 1);
    /* across hosts no link type is given: the GPU numbers are not one topology's */
    json_t *links = json_pack("[{s:i, s:i, s:s, s:s, s:s}]", "a", 0, "b", 0, "type", "X",
                              "p2p_read", "OK", "p2p_write", "OK");
    assert_int_equal(ls_nccl_annotate_links(json_object_get(out, "transports"), links), 0);
    json_t *lines = json_array();
    ls_nccl_transport_summary(json_object_get(out, "transports"), lines);
    assert_string_equal(json_string_value(json_array_get(lines, 0)),
                        "rank 0 -> rank 1, GPU0 -> GPU0: NET/IB/GDRDMA x2 channels");
    assert_string_equal(json_string_value(json_array_get(lines, 1)),
                        "rank 1 -> rank 0, GPU0 -> GPU0: NET/IB x2 channels");
    json_decref(lines);
    json_decref(links);
    json_decref(out);
}

static void old_format_with_bus_ids(void **s)
{
    (void)s;
    json_t *out = parse_fixture("nccl/net-socket-old.log");
    assert_string_equal(ls_json_str(out, "nccl_version", ""), "2.7.8");
    /* "0[60] -> 1[70]": bus ids, mapped to the GPUs through the rank table */
    assert_int_equal(count_transport(out, "NET/Socket", 0, 1, NULL), 1);
    assert_int_equal(count_transport(out, "NET/Socket", 1, 0, NULL), 1);
    json_decref(out);
}

static void junk_and_classes(void **s)
{
    (void)s;
    json_t *out = ls_nccl_parse_log("hello\nNCCL INFO Channel\nNCCL INFO Channel 00/0 : x\n"
                                    "NCCL INFO Tree : 1\nNCCL INFO NCCL version \n");
    assert_int_equal(json_array_size(json_object_get(out, "transports")), 0);
    assert_true(json_is_null(json_object_get(out, "nccl_version")));
    json_decref(out);
    out = ls_nccl_parse_log(NULL);
    assert_non_null(out);
    json_decref(out);
    char cls[64];
    ls_nccl_transport_class("P2P/CUMEM/read", cls, sizeof cls);
    assert_string_equal(cls, "P2P/CUMEM");
    ls_nccl_transport_class("P2P/IPC/CE", cls, sizeof cls);
    assert_string_equal(cls, "P2P/IPC");
    ls_nccl_transport_class("NET/IB/3(5)/GDRDMA/Shared", cls, sizeof cls);
    assert_string_equal(cls, "NET/IB");
    ls_nccl_transport_class("SHM/CE/direct", cls, sizeof cls);
    assert_string_equal(cls, "SHM");
    ls_nccl_transport_class("P2P/indirect/1[1]", cls, sizeof cls);
    assert_string_equal(cls, "P2P/indirect");
    /* NCCL 2.4-2.7 name their SHM transport "direct shared memory" (nccl#367, real8) */
    ls_nccl_transport_class("direct shared memory", cls, sizeof cls);
    assert_string_equal(cls, "SHM");
    /* its twin: P2P's "direct pointer" stays P2P */
    ls_nccl_transport_class("P2P/direct pointer", cls, sizeof cls);
    assert_string_equal(cls, "P2P/direct pointer");
}

/* MPI: every rank's log, in blocks as wide as the longest, joined before parsing. A
   shorter rank 0 used to cut the text at its own end, losing the other ranks' edges. */
static void ranks_logs_joined(void **s)
{
    (void)s;
    const char *logs[3] = {"h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM\n",
                           "h:2:2 [1] NCCL INFO Channel 00/0 : 1[1] -> 2[2] via P2P/CUMEM/read\n"
                           "h:2:2 [1] NCCL INFO Channel 01/0 : 1[1] -> 2[2] via P2P/CUMEM/read\n",
                           "h:3:3 [2] NCCL INFO Channel 00/0 : 2[2] -> 0[0] via SHM/direct/direct"};
    size_t width = 0;
    for (int k = 0; k < 3; k++)
        width = strlen(logs[k]) + 1 > width ? strlen(logs[k]) + 1 : width;
    char *blocks = calloc(3, width);
    for (int k = 0; k < 3; k++)
        memcpy(blocks + (size_t)k * width, logs[k], strlen(logs[k]) + 1);
    char *text = ls_nccl_join_logs(blocks, 3, width);
    assert_non_null(text);
    assert_non_null(strstr(text, "1[1] -> 2[2]"));
    assert_non_null(strstr(text, "2[2] -> 0[0] via SHM"));
    assert_int_equal(strlen(text), strlen(logs[0]) + strlen(logs[1]) + strlen(logs[2]) + 3);
    json_t *out = ls_nccl_parse_log(text);
    assert_int_equal(json_array_size(json_object_get(out, "transports")), 4);
    assert_int_equal(count_transport(out, "SHM", 2, 0, NULL), 1);
    json_decref(out);
    free(text);
    free(blocks);
    /* an empty rank and a block filled to the brim (no NUL) */
    char two[8] = {'a', 'b', 'c', 'd', '\0', 0, 0, 0};
    text = ls_nccl_join_logs(two, 2, 4);
    assert_string_equal(text, "abcd\n\n");
    free(text);
}

/* Repeats kept once, in the order first printed, through the per-list hashes of the
   parse (model/translog.c): a connection, a ring, a tree node, a rank, an environment
   line; a bus-id bracket mapped through the rank table; the hashes leave no trace. */
static void repeats_once_in_order(void **s)
{
    (void)s;
    json_t *out = ls_nccl_parse_log(
        "h:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 60 - Init COMPLETE\n"
        "h:1:1 [0] NCCL INFO comm 0x1 rank 1 nranks 2 cudaDev 1 busId 70 - Init COMPLETE\n"
        "h:1:1 [0] NCCL INFO comm 0x1 rank 1 nranks 2 cudaDev 5 busId 90 - Init COMPLETE\n"
        "h:1:1 [0] NCCL INFO NCCL_P2P_LEVEL set by environment to NVL\n"
        "h:1:1 [0] NCCL INFO NCCL_P2P_LEVEL set by environment to NVL\n"
        "h:1:1 [0] NCCL INFO Channel 00/02 :    0   1\n"
        "h:1:1 [0] NCCL INFO Channel 00/02 :    1   0\n"
        "h:1:1 [0] NCCL INFO Trees [0] 1/-1/-1->0->-1 [1] 1/-1/-1->0->-1\n"
        "h:1:1 [0] NCCL INFO Trees [0] 1/-1/-1->0->-1\n"
        "h:1:1 [0] NCCL INFO Channel 01/0 : 1[70] -> 0[60] via P2P/IPC\n"
        "h:1:1 [0] NCCL INFO Channel 00/0 : 0[60] -> 1[70] via P2P/IPC\n"
        "h:1:1 [0] NCCL INFO Channel 01/0 : 1[70] -> 0[60] via P2P/IPC\n");
    const json_t *ranks = json_object_get(out, "ranks"), *t = json_object_get(out, "transports");
    assert_int_equal(json_array_size(ranks), 2);
    assert_int_equal(ls_json_int(json_array_get(ranks, 1), "gpu", -1), 1); /* the first kept */
    assert_int_equal(json_array_size(json_object_get(out, "nccl_env")), 1);
    assert_int_equal(json_array_size(json_object_get(out, "rings")), 1);
    const json_t *ring = json_object_get(json_array_get(json_object_get(out, "rings"), 0), "ranks");
    assert_int_equal(json_integer_value(json_array_get(ring, 0)), 0);    /* the first ring kept */
    assert_int_equal(json_array_size(json_object_get(out, "trees")), 2); /* channels 0 and 1 */
    assert_int_equal(json_array_size(t), 2);
    assert_int_equal(ls_json_int(json_array_get(t, 0), "channel", -1), 1); /* first printed */
    assert_int_equal(ls_json_int(json_array_get(t, 0), "from", -1), 1);    /* [70]: rank 1's */
    assert_int_equal(ls_json_int(json_array_get(t, 0), "to", -1), 0);
    assert_null(json_object_get(out, "parse_index"));
    json_decref(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(h200_fixture),
        cmocka_unit_test(shm_when_p2p_disabled),
        cmocka_unit_test(shm_across_host_bridge_is_a_finding),
        cmocka_unit_test(net_ib_with_and_without_gdrdma),
        cmocka_unit_test(old_format_with_bus_ids),
        cmocka_unit_test(junk_and_classes),
        cmocka_unit_test(ranks_logs_joined),
        cmocka_unit_test(repeats_once_in_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
