/* NCCL log and nccl-tests lines built from the formats the tools print (NCCL's debug.cc
   "%s:%d:%d [%d] NCCL INFO", its WARN "%s:%d:%d [%d] %s:%d NCCL WARN", NCCLCHECK's
   "%s:%d -> %d", graph/search.cc's "Pattern ..", alloc.h's "Cuda Alloc Size ..",
   nvls.cc, net_socket.cc; nccl-tests' pre-2019 "NCCL failure %s:%d '%s'"), each under
   the prefixes launchers and loggers put in front, with a healthy twin that stays quiet.
   Synthetic: no real post is fitted here (the real ones are tests/fixtures/real/). */
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
#include "analyze/nccl_messages.h"
#include "import/import.h"
#include "import/nccl_log.h"
#include "import/nccl_text.h"
#include "model/doc.h"

static json_t *import_text(const char *text)
{
    char err[512] = "";
    json_t *doc = ls_import_doc_new();
    if (ls_import_text(doc, text, "synthetic.log", NULL, NULL, err, sizeof err) < 0)
        fail_msg("import refused: %s", err);
    char why[256];
    if (ls_doc_validate(doc, why, sizeof why) != 0)
        fail_msg("document does not validate: %s", why);
    return doc;
}

/* The severity of the first finding of rule, or "" when none fired. */
static const char *fired(const json_t *doc, const char *rule, char *sev, size_t len)
{
    json_t *f = ls_findings(doc);
    size_t i;
    json_t *x;
    sev[0] = '\0';
    json_array_foreach(f, i, x)
        if (!strcmp(json_string_value(json_object_get(x, "rule")), rule)) {
            snprintf(sev, len, "%s", json_string_value(json_object_get(x, "severity")));
            break;
        }
    json_decref(f);
    return sev;
}

static int loud(const json_t *doc)
{
    json_t *f = ls_findings(doc);
    size_t i;
    json_t *x;
    int n = 0;
    json_array_foreach(f, i, x)
        n += strcmp(json_string_value(json_object_get(x, "severity")), "info") != 0;
    json_decref(f);
    return n;
}

static const json_t *log0(const json_t *doc)
{
    return json_array_get(json_object_get(doc, "nccl_logs"), 0);
}

/* The host and GPU of a line, whatever is in front of "host:pid:tid [dev]". */
static void prefixes(void **state)
{
    (void)state;
    static const char *const lines[] = {
        "nodeA:11:12 [3] NCCL INFO Channel 00/0 : 3[3] -> 4[4] via P2P/IPC\n",
        "[1,3]<stdout>:nodeA:11:12 [3] NCCL INFO Channel 00/0 : 3[3] -> 4[4] via P2P/IPC\n",
        "[2] nodeA:11:12 [3] NCCL INFO Channel 00/0 : 3[3] -> 4[4] via P2P/IPC\n",
        "nodeA: nodeA:11:12 [3] NCCL INFO Channel 00/0 : 3[3] -> 4[4] via P2P/IPC\n",
        "2025-01-02 03:04:05,678 - INFO - nodeA:11:12 [3] NCCL INFO Channel 00/0 : 3[3] -> 4[4] "
        "via P2P/IPC\n",
        "[2025-01-02 03:04:05] nodeA:11:12 [3] NCCL INFO Channel 00/0 : 3[3] -> 4[4] via P2P/IPC\n",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        json_t *doc = import_text(lines[i]);
        const json_t *hosts = json_object_get(log0(doc), "hosts");
        assert_int_equal(json_array_size(hosts), 1);
        assert_string_equal(json_string_value(json_array_get(hosts, 0)), "nodeA");
        assert_int_equal(json_array_size(json_object_get(log0(doc), "transports")), 1);
        json_decref(doc);
    }
}

/* WARN lines: the 2.4+ form with FILE:LINE, the 2.27+ form with "(func)", the 2.0-2.2
   form without "NCCL", one pasted without its prefix, and one a forum turned into links. */
static void warn_forms(void **state)
{
    (void)state;
    static const struct {
        const char *line;
        const char *host;
        int gpu;
        const char *text;
    } cases[] = {
        {"nodeB:1:2 [5] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to x failed\n",
         "nodeB", 5, "socketStartConnect: Connect to x failed"},
        {"nodeB:1:2 [5] misc/socket.cc:483 (ncclSocketConnect) NCCL WARN Net : Connection closed\n",
         "nodeB", 5, "Net : Connection closed"},
        {"nodeB:1:2 [0] include/socket.h:311 WARN Socket creation failed : Address family\n",
         "nodeB", 0, "Socket creation failed : Address family"},
        {"include/socket.h:344 WARN Socket creation failed : Address family\n", NULL, -1,
         "Socket creation failed : Address family"},
        /* pasted outside a code block: the forum made links of FILE:LINE and addresses */
        {"> nodeB:1:2 [5] transport/[net_ib.cc:101](http://net_ib.cc:101/) NCCL WARN NET/IB : Got "
         "async event "
         "from [10.0.0.2](http://10.0.0.2/)\n",
         "nodeB", 5, "NET/IB : Got async event from 10.0.0.2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *doc = import_text(cases[i].line);
        const json_t *w = json_array_get(json_object_get(log0(doc), "warnings"), 0);
        assert_non_null(w);
        assert_string_equal(json_string_value(json_object_get(w, "text")), cases[i].text);
        if (cases[i].host)
            assert_string_equal(json_string_value(json_object_get(w, "host")), cases[i].host);
        else
            assert_null(json_object_get(w, "host"));
        assert_int_equal(json_object_get(w, "gpu") ? json_integer_value(json_object_get(w, "gpu"))
                                                   : -1,
                         cases[i].gpu);
        char sev[16];
        assert_string_not_equal(fired(doc, "nccl_warn", sev, sizeof sev), "");
        json_decref(doc);
    }
    /* a word WARN in ordinary text is no NCCL line */
    assert_int_equal(ls_nccl_log_detect("WARN: the disk is full\nsee the WARN above\n"), 0);
}

/* NCCLCHECK's trail with no WARN line: one nccl_warn naming the code, where it was raised
   and the host and GPU; beside a WARN line the trail adds nothing. */
static void error_trail(void **state)
{
    (void)state;
    json_t *doc = import_text("nodeC:7:8 [2] NCCL INFO misc/socket.cc:100 -> 2\n"
                              "nodeC:7:8 [2] NCCL INFO bootstrap.cc:200 -> 2\n"
                              "nodeC:7:7 [2] NCCL INFO group.cc:300 -> 2 [Async thread]\n");
    const json_t *t = json_array_get(json_object_get(log0(doc), "error_trails"), 0);
    assert_int_equal(json_integer_value(json_object_get(t, "code")), 2);
    assert_string_equal(json_string_value(json_object_get(t, "at")), "misc/socket.cc:100");
    assert_int_equal(json_integer_value(json_object_get(t, "lines")), 3);
    char sev[16];
    assert_string_equal(fired(doc, "nccl_warn", sev, sizeof sev), "warning");
    json_decref(doc);

    doc = import_text(
        "nodeC:7:8 [2] misc/socket.cc:99 NCCL WARN socketProgress: Connection closed\n"
        "nodeC:7:8 [2] NCCL INFO misc/socket.cc:100 -> 6\n");
    json_t *f = ls_findings(doc);
    size_t i, n = 0;
    json_t *x;
    json_array_foreach(f, i, x)
        n += !strcmp(json_string_value(json_object_get(x, "rule")), "nccl_warn");
    assert_int_equal(n, 1); /* the WARN line's finding only */
    json_decref(f);
    json_decref(doc);
}

/* Lines of a healthy set-up that name no connection: graph search (2.5, 2.7-2.18 and 2.19+
   forms), its channel and path lines, allocations, NVLS support: they import, quietly. */
static void quiet_setup_lines(void **state)
{
    (void)state;
    json_t *doc = import_text(
        "h:1:2 [0] NCCL INFO Pattern 4, crossNic 0, nChannels 2, speed 12/12, nvlink 1, type 2, "
        "sameChannels 1\n"
        "h:1:2 [0] NCCL INFO Pattern 1, crossNic 0, nChannels 4, speed 24.000000/24.000000, type "
        "NVL/PIX, sameChannels 0\n"
        "h:1:2 [0] NCCL INFO Pattern 3, crossNic 0, nChannels 8, bw 40.000000/40.000000, type "
        "NVL/PIX, sameChannels 1\n"
        "h:1:2 [0] NCCL INFO  0 : GPU/0 GPU/1 GPU/2 GPU/3\n"
        "h:1:2 [0] NCCL INFO GPU/1000 :GPU/1000 (0/5000.000000/LOC) GPU/2000 (1/40.000000/NVL)\n"
        "h:1:2 [0] NCCL INFO channel.cc:20 Cuda Alloc Size 8 pointer 0x7f0000000000\n"
        "h:1:2 [0] NCCL INFO Cuda Host Alloc Size 1048576 pointer 0x7f0000100000\n"
        "h:1:2 [0] NCCL INFO NVLS multicast support is not available on dev 0\n");
    const json_t *l = log0(doc);
    const json_t *g = json_object_get(l, "graphs");
    assert_int_equal(json_array_size(g), 3);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(g, 2), "channels")), 8);
    assert_string_equal(json_string_value(json_object_get(json_array_get(g, 1), "type_intra")),
                        "NVL");
    assert_int_equal(json_integer_value(json_object_get(l, "graph_lines")), 2);
    const json_t *a = json_object_get(l, "allocations");
    assert_int_equal(json_integer_value(json_object_get(a, "count")), 2);
    assert_int_equal(json_integer_value(json_object_get(a, "device_bytes")), 8);
    assert_int_equal(json_integer_value(json_object_get(a, "host_bytes")), 1048576);
    assert_int_equal(json_array_size(json_object_get(json_object_get(l, "nvls"), "unavailable")),
                     1);
    assert_int_equal(loud(doc), 0);
    json_decref(doc);
}

/* NCCL < 2.7 names its socket network only by "NET/Socket : Using": on two hosts that is
   the fall-back (net_socket warning); on one host no traffic leaves it (quiet); a
   "Using network IB" line (2.3: "Using internal Network IB") wins over it. */
static void socket_network(void **state)
{
    (void)state;
    const char *two = "a:1:1 [0] NCCL INFO NET/IB : No device found.\n"
                      "a:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>\n"
                      "b:2:2 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.2<0>\n";
    json_t *doc = import_text(two);
    assert_string_equal(json_string_value(json_object_get(log0(doc), "network")), "Socket");
    assert_int_equal(json_integer_value(json_object_get(log0(doc), "ib_devices")), 0);
    char sev[16];
    assert_string_equal(fired(doc, "net_socket", sev, sizeof sev), "warning");
    json_decref(doc);

    doc = import_text("a:1:1 [0] NCCL INFO NET/Socket : Using [0]lo:127.0.0.1<0>\n"
                      "a:1:2 [1] NCCL INFO NET/Socket : Using [0]lo:127.0.0.1<0>\n");
    assert_string_equal(fired(doc, "net_socket", sev, sizeof sev), "");
    json_decref(doc);

    doc = import_text("a:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>\n"
                      "a:1:1 [0] NCCL INFO Using network IB\n"
                      "b:2:2 [0] NCCL INFO Using network IB\n");
    assert_string_equal(json_string_value(json_object_get(log0(doc), "network")), "IB");
    json_decref(doc);

    /* NCCL 2.3 said "Using internal Network X": the same fact, in both directions (fresh46) */
    doc = import_text("a:1:1 [0] NCCL INFO Using internal Network Socket\n"
                      "b:2:2 [0] NCCL INFO Using internal Network Socket\n");
    assert_string_equal(json_string_value(json_object_get(log0(doc), "network")), "Socket");
    assert_string_equal(fired(doc, "net_socket", sev, sizeof sev), "warning");
    json_decref(doc);
    doc = import_text("a:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>\n"
                      "a:1:1 [0] NCCL INFO Using internal Network IB\n"
                      "b:2:2 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.2<0>\n");
    assert_string_equal(json_string_value(json_object_get(log0(doc), "network")), "IB");
    assert_string_equal(fired(doc, "net_socket", sev, sizeof sev), "");
    json_decref(doc);
}

/* init.cc's channel counts, in the 2.7-2.11 form and the later one: a fact of their own,
   so a piece of set-up lines is read (fresh53); the first line wins. */
static void channel_count_lines(void **state)
{
    (void)state;
    json_t *doc = import_text("a:1:2 [2] NCCL INFO 2 coll channels, 2 p2p channels, 1 p2p "
                              "channels per peer\n"
                              "a:1:2 [2] NCCL INFO NET/FastSocket : Connected after 3 retries.\n");
    const json_t *c = json_object_get(log0(doc), "channels");
    assert_int_equal(ls_json_int(c, "coll", 0), 2);
    assert_int_equal(ls_json_int(c, "p2p", 0), 2);
    assert_int_equal(ls_json_int(c, "p2p_per_peer", 0), 1);
    assert_null(json_object_get(c, "nvls"));
    assert_int_equal(loud(doc), 0);
    json_decref(doc);
    doc = import_text("v:9:9 [1] NCCL INFO 24 coll channels, 24 collnet channels, 0 nvls "
                      "channels, 32 p2p channels, 32 p2p channels per peer\n"
                      "v:9:9 [0] NCCL INFO 2 coll channels, 0 collnet channels, 0 nvls channels, "
                      "2 p2p channels, 2 p2p channels per peer\n");
    c = json_object_get(log0(doc), "channels");
    assert_int_equal(ls_json_int(c, "coll", 0), 24);
    assert_int_equal(ls_json_int(c, "collnet", -1), 24);
    assert_int_equal(ls_json_int(c, "nvls", -1), 0);
    assert_int_equal(ls_json_int(c, "p2p_per_peer", 0), 32);
    json_decref(doc);
}

/* A piece of set-up lines whose only fact is the bootstrap's interface (fresh58): read,
   not refused, and quiet. */
static void bootstrap_only_piece(void **state)
{
    (void)state;
    json_t *doc = import_text("2024/04/30 23:29:35 j-0:305:305 [0] NCCL INFO Bootstrap : Using "
                              "eth0:10.241.101.227<0>\n"
                              "2024/04/30 23:29:35 j-0:306:306 [1] NCCL INFO cudaDriverVersion "
                              "11070\n");
    assert_true(json_is_false(json_object_get(log0(doc), "bootstrap_loopback")));
    assert_int_equal(loud(doc), 0);
    json_decref(doc);
}

static size_t nhosts(const json_t *doc)
{
    return json_array_size(json_object_get(log0(doc), "hosts"));
}

/* A paste cut right after NCCL's "host:pid:tid" prefix (or "host:pid:tid [dev]") still
   shows that host printed: with NCCL 2.5's "NET/Socket : Using" that makes the socket
   network span two hosts (net_socket; info, since NCCL_IB_DISABLE=1 asked for it). The
   twins: the same log without the cut line is one host and quiet; lines that are no
   such prefix add no host; an IB network stays quiet. */
static void cut_prefix_host(void **state)
{
    (void)state;
    const char *fmt = "a:1:1 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.\n"
                      "a:1:1 [0] NCCL INFO NET/Socket : Using [0]veth0:10.0.0.1<0>\n"
                      "a:1:2 [1] NCCL INFO NET/Socket : Using [0]veth0:10.0.0.1<0>\n"
                      "NCCL version 2.5.6+cuda10.0\n"
                      "%s\n";
    static const struct {
        const char *last;
        size_t hosts;
        const char *sev;
    } cases[] = {
        {.last = "host-b.example:84:206", .hosts = 2, .sev = "info"},
        {.last = "host-b:84:206 [3]", .hosts = 2, .sev = "info"},
        {.last = "", .hosts = 1, .sev = ""},
        {.last = "12:34:56", .hosts = 1, .sev = ""},
        {.last = "train.py:12:34 error", .hosts = 1, .sev = ""},
        {.last = "src/x:1:2", .hosts = 1, .sev = ""},
        {.last = "host-b:84:", .hosts = 1, .sev = ""},
    };
    char text[512], sev[16];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(text, sizeof text, fmt, cases[i].last);
        json_t *doc = import_text(text);
        assert_int_equal(nhosts(doc), cases[i].hosts);
        assert_string_equal(fired(doc, "net_socket", sev, sizeof sev), cases[i].sev);
        json_decref(doc);
    }
    json_t *doc = import_text("a:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0\n"
                              "a:1:1 [0] NCCL INFO Using network IB\n"
                              "b:2:2\n");
    assert_int_equal(nhosts(doc), 2);
    assert_string_equal(fired(doc, "net_socket", sev, sizeof sev), "");
    assert_int_equal(loud(doc), 0);
    json_decref(doc);
}

/* NCCL's "Check P2P Type" line (rank 0): 0 where rank 0's node holds two ranks or more
   (directMode 1, or "localRanks N" >= 2) fires nccl_transport; info where the environment
   switched P2P off. The twins stay quiet: 1 (P2P everywhere), 0 with one local rank (NCCL
   prints 0 then always), 0 with connection lines (judged edge by edge), other words. */
static void p2p_check_lines(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        const char *sev;
    } cases[] = {
        {.text = "a:1:2 [0] NCCL INFO Check P2P Type intraNodeP2pSupport 0 directMode 1\n",
         .sev = "warning"},
        {.text = "a:1:2 [0] NCCL INFO comm 0x1 rank 0 nRanks 4 nNodes 1 localRanks 4 "
                 "localRank 0 MNNVL 0\n"
                 "a:1:2 [0] NCCL INFO Check P2P Type isAllDirectP2p 0 directMode 0 "
                 "isAllCudaP2p 0\n",
         .sev = "warning"},
        {.text = "a:1:2 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1\n"
                 "a:1:2 [0] NCCL INFO Check P2P Type intraNodeP2pSupport 0 directMode 1\n",
         .sev = "info"},
        {.text = "a:1:2 [0] NCCL INFO Check P2P Type isAllDirectP2p 1 directMode 1\n", .sev = ""},
        {.text = "a:1:2 [0] NCCL INFO comm 0x1 rank 0 nRanks 2 nNodes 2 localRanks 1 "
                 "localRank 0 MNNVL 0\n"
                 "a:1:2 [0] NCCL INFO Check P2P Type intraNodeP2pSupport 0 directMode 0\n",
         .sev = ""},
        {.text = "a:1:2 [0] NCCL INFO Check P2P Type intraNodeP2pSupport 0 directMode 0\n",
         .sev = ""},
        {.text = "a:1:2 [0] NCCL INFO Check P2P Type intraNodeP2pSupport 2 directMode 1\n"
                 "a:1:2 [0] NCCL INFO Using network IB\n",
         .sev = ""},
    };
    char sev[16];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *doc = import_text(cases[i].text);
        assert_string_equal(fired(doc, "nccl_transport", sev, sizeof sev), cases[i].sev);
        if (!cases[i].sev[0])
            assert_int_equal(loud(doc), 0);
        json_decref(doc);
    }
    /* with its connection lines the edges speak, once */
    json_t *doc = import_text(
        "a:1:2 [0] NCCL INFO Check P2P Type intraNodeP2pSupport 0 directMode 1\n"
        "a:1:2 [0] NCCL INFO Channel 00 : 0[0] -> 1[1] via SHM/direct/direct\n");
    json_t *f = ls_findings(doc);
    size_t k, n = 0;
    json_t *x;
    json_array_foreach(f, k, x) {
        n += !strcmp(json_string_value(json_object_get(x, "rule")), "nccl_transport");
        if (!strcmp(json_string_value(json_object_get(x, "rule")), "nccl_transport"))
            assert_null(strstr(json_string_value(json_object_get(x, "message")), "init check"));
    }
    assert_int_equal(n, 1);
    json_decref(f);
    json_decref(doc);
}

/* Every ring the one rank 0 (NCCL prints a ring as all the communicator's ranks): a
   one-rank communicator, separate_runs as info (a one-GPU job is normal). Quiet: a ring
   of two ranks anywhere, a printed nranks above 1, a rank line of rank 1. */
static void one_rank_ring_lines(void **state)
{
    (void)state;
    static const struct {
        const char *extra;
        const char *sev;
    } cases[] = {
        {.extra = "", .sev = "info"},
        {.extra = "b:2:2 [0] NCCL INFO Channel 00/02 :    0   1\n", .sev = ""},
        {.extra = "a:1:2 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1000 - Init "
                  "COMPLETE\n",
         .sev = ""},
        {.extra = "a:1:2 [1] NCCL INFO comm 0x1 rank 1 nranks 16 cudaDev 1 busId 2000 - Init "
                  "START\n",
         .sev = ""},
    };
    char text[512], sev[16];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(text, sizeof text,
                 "a:1:2 [0] NCCL INFO Channel 00/32 :    0\n"
                 "a:1:2 [0] NCCL INFO Channel 01/32 :    0\n%s",
                 cases[i].extra);
        json_t *doc = import_text(text);
        assert_string_equal(fired(doc, "separate_runs", sev, sizeof sev), cases[i].sev);
        assert_int_equal(loud(doc), 0);
        json_decref(doc);
    }
}

/* One host's lines of a socket network: NCCL's MNNVL line (state 3, cluster UUID 0: a node
   of an NVSwitch fabric, at most 8 GPUs) and more ranks than that node holds put ranks on
   other nodes: net_socket warns. Quiet: 8 ranks; no MNNVL line (a 16-GPU node of another
   kind exists); a multi-node NVLink domain (UUID set); registration not completed; IB. */
static void socket_ranks_beyond_node(void **state)
{
    (void)state;
    static const struct {
        int nranks;
        const char *uuid, *net;
        int fstate;
        const char *sev;
    } cases[] = {
        {.nranks = 16, .uuid = "0.0", .fstate = 3, .net = "Socket", .sev = "warning"},
        {.nranks = 8, .uuid = "0.0", .fstate = 3, .net = "Socket", .sev = ""},
        {.nranks = 16, .uuid = NULL, .fstate = 3, .net = "Socket", .sev = ""},
        {.nranks = 16, .uuid = "7a3f.12", .fstate = 3, .net = "Socket", .sev = ""},
        {.nranks = 16, .uuid = "0.0", .fstate = 1, .net = "Socket", .sev = ""},
        {.nranks = 16, .uuid = "0.0", .fstate = 3, .net = "IB", .sev = ""},
    };
    char text[768], mnnvl[160], sev[16];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mnnvl[0] = '\0';
        if (cases[i].uuid)
            snprintf(mnnvl, sizeof mnnvl,
                     "h:5:5 [1] NCCL INFO MNNVL busId 0x7e000 fabric UUID %s cliqueId 0x0 "
                     "state %d healthMask 0x0\n",
                     cases[i].uuid, cases[i].fstate);
        snprintf(text, sizeof text,
                 "h:5:5 [1] NCCL INFO NET/IB : No device found.\n"
                 "h:5:5 [1] NCCL INFO Using network %s\n"
                 "h:5:5 [1] NCCL INFO ncclCommInitRank comm 0x1 rank 1 nranks %d cudaDev 1 "
                 "nvmlDev 1 busId 7e000 commId 0x2 - Init START\n%s",
                 cases[i].net, cases[i].nranks, mnnvl);
        json_t *doc = import_text(text);
        assert_string_equal(fired(doc, "net_socket", sev, sizeof sev), cases[i].sev);
        json_decref(doc);
    }
}

/* NCCL 2.4-2.11's WARN "Failed to open libibverbs.so[.1]" (2.12 and later print it as
   INFO): only NET/IB is lost, which a communicator inside one node never uses, so no
   finding where the text shows every rank on one node (nNodes 1, localRanks = nRanks,
   nccl-tests' rank lines of the same paste); info where it spans nodes or cannot tell. */
/* A wrapper that comments every line it passes on: the '#'-led result row is the row
   (nccl-tests' own comment lines never hold one), and the run is whole, not failed. */
static void commented_result_row(void **state)
{
    (void)state;
    char sev[16];
    json_t *doc = import_text(
        "#       size         count      type   redop    root     time   algbw   busbw #wrong "
        "    time   algbw   busbw #wrong\n"
        "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)       "
        "     (us)  (GB/s)  (GB/s)\n"
        "#  536870912     134217728     float     sum      -1    80965    6.63    9.95      0 "
        "   77677    6.91   10.37      0\n"
        "# Out of bounds values : 0 OK\n"
        "# Avg bus bandwidth    : 10.1569\n");
    const json_t *e = json_array_get(json_object_get(doc, "measurements"), 0);
    assert_string_equal(json_string_value(json_object_get(e, "status")), "ok");
    assert_string_equal(fired(doc, "entry_failed", sev, sizeof sev), "");
    json_decref(doc);
}

/* Two processes' writes interleaved on one line, the later prefix glued to the earlier
   message's cut tail ("on de" + "proxmox:2:2"): the host is the one the log already named,
   not "deproxmox", and a lone host stays one host. */
static void interleaved_glued_host(void **state)
{
    (void)state;
    json_t *doc = import_text(
        "proxmox:1:1 [1] NCCL INFO comm 0x1 rank 1 nRanks 2 nNodes 1 localRanks 2 localRank 1\n"
        "proxmox:1:1 [1] NCCL INFO NVLS multicast support is not available on deproxmox:2:2 [0] "
        "NCCL INFO ENV/Plugin: Could not find: libnccl-env.so\n"
        "proxmox:2:2 [0] NCCL INFO Channel 00/0 : 0[1] -> 1[2] via P2P/CUMEM\n");
    const json_t *hosts = json_object_get(log0(doc), "hosts");
    assert_int_equal(json_array_size(hosts), 1);
    assert_string_equal(json_string_value(json_array_get(hosts, 0)), "proxmox");
    json_decref(doc);
}

/* A network plugin failing at init (aws-ofi-nccl on an instance without EFA) is info where
   the log's ranks are on one node, known here by the bootstrap on the loopback (ranks of
   another node cannot reach it); an error where the bootstrap is on a real interface. */
static void ofi_failure_on_one_node(void **state)
{
    (void)state;
    static const char *const boot[] = {"Bootstrap : Using [0]lo:127.0.0.1<0>",
                                       "Bootstrap: Using lo:127.0.0.1<0>",
                                       "Bootstrap : Using eth0:10.0.0.1<0>"};
    static const char *const want[] = {"info", "info", "error"};
    for (size_t i = 0; i < sizeof boot / sizeof boot[0]; i++) {
        char text[512], sev[16];
        snprintf(text, sizeof text,
                 "c1:123:890 [0] NCCL INFO %s\n"
                 "c1:123:890 [0] ofi_init:1355 NCCL WARN NET/OFI aws-ofi-nccl initialization "
                 "failed\n"
                 "c1:123:890 [0] NCCL INFO NET/Socket : Using [0]lo:127.0.0.1<0>\n",
                 boot[i]);
        json_t *doc = import_text(text);
        assert_string_equal(fired(doc, "nccl_warn", sev, sizeof sev), want[i]);
        assert_int_equal(json_is_true(json_object_get(log0(doc), "bootstrap_loopback")), i < 2);
        json_decref(doc);
    }
    /* one line on the loopback, another rank's on eth0: not one node */
    json_t *doc = import_text("c1:1:1 [0] NCCL INFO Bootstrap : Using lo:127.0.0.1<0>\n"
                              "c2:2:2 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n"
                              "c1:1:1 [0] NCCL INFO NCCL version 2.18.1+cuda12.1\n");
    assert_true(json_is_false(json_object_get(log0(doc), "bootstrap_loopback")));
    json_decref(doc);
}

static void ibverbs_one_node(void **state)
{
    (void)state;
    static const char warn[] = "h1:5:5 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open "
                               "libibverbs.so[.1]\n"
                               "h1:5:5 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>\n";
    static const struct {
        const char *rest, *sev;
    } cases[] = {
        {"h1:5:5 [0] NCCL INFO comm 0x1 rank 0 nRanks 4 nNodes 1 localRanks 4 localRank 0 "
         "MNNVL 0\n",
         ""},
        {"h1:5:5 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE\n"
         "h1:5:5 [1] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 1 busId 2000 - Init COMPLETE\n",
         ""},
        {"h1:5:5 [0] NCCL INFO comm 0x1 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 "
         "MNNVL 0\n",
         "info"},
        {"h2:7:7 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.2<0>\n", "info"},
        {"h1:5:5 [0] NCCL INFO comm 0x1 rank 0 nranks 16 cudaDev 0 busId 1000 - Init START\n",
         "info"},
        /* the ranks counted on one host, but a connection over the network: another
           communicator leaves the node */
        {"h1:5:5 [0] NCCL INFO comm 0x1 rank 0 nRanks 4 nNodes 1 localRanks 4 localRank 0 "
         "MNNVL 0\n"
         "h1:5:5 [0] NCCL INFO Channel 00/0 : 12[0] -> 0[0] [receive] via NET/Socket/0\n",
         "info"},
        {"", "info"},
    };
    char text[1024], sev[16];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(text, sizeof text, "%s%s", warn, cases[i].rest);
        json_t *doc = import_text(text);
        assert_string_equal(fired(doc, "nccl_warn", sev, sizeof sev), cases[i].sev);
        json_decref(doc);
    }
    /* nccl-tests' header: its rank lines list every rank of the run on one host */
    static const char header[] = "# nThread 1 nGpus 2 minBytes 8 maxBytes 134217728 step: "
                                 "2(factor) warmup iters: 5 "
                                 "iters: 20 validation: 1\n#\n# Using devices\n"
                                 "#   Rank  0 Pid  12877 on h1 device  0 [0x0e] Tesla T4\n"
                                 "#   Rank  1 Pid  12877 on h1 device  1 [0x0f] Tesla T4\n";
    snprintf(text, sizeof text, "%s%s", header, warn);
    json_t *doc = import_text(text);
    assert_string_equal(fired(doc, "nccl_warn", sev, sizeof sev), "");
    json_decref(doc);
    /* a rank line cut: ranks past it may sit on another node */
    snprintf(text, sizeof text, "%.*s%s", (int)(strstr(header, "#   Rank  1") - header), header,
             warn);
    doc = import_text(text);
    assert_string_equal(fired(doc, "nccl_warn", sev, sizeof sev), "info");
    json_decref(doc);
    /* another WARN of the same one-node log still shows */
    snprintf(text, sizeof text, "%s%s%s", warn, cases[0].rest,
             "h1:5:5 [0] enqueue.cc:47 NCCL WARN Cuda failure 'named symbol not found'\n");
    doc = import_text(text);
    assert_string_not_equal(fired(doc, "nccl_warn", sev, sizeof sev), "");
    json_decref(doc);
}

/* A version line behind a launcher tag; interleaved writes keep the whole message. */
static void version_and_interleaving(void **state)
{
    (void)state;
    json_t *doc = import_text(
        "[1,0]<stdout>:NCCL version 2.5.6+cuda10.2\n"
        "h:1:2 [6] NCCL INFO h:1:3 [7] NCCL INFO Ring 04 : 7[7] -> 3[3] via P2P/IPC\n");
    assert_string_equal(json_string_value(json_object_get(log0(doc), "nccl_version")), "2.5.6");
    const json_t *t = json_array_get(json_object_get(log0(doc), "transports"), 0);
    assert_int_equal(json_integer_value(json_object_get(t, "from")), 7);
    json_decref(doc);
}

/* nccl-tests before March 2019: "NCCL failure FILE:LINE 'MSG'" / "Cuda failure ..." with
   no host and no "Test"; NCCL's own "Cuda failure 'x'" (no FILE:LINE) is not one. */
static void old_test_failure(void **state)
{
    (void)state;
    ls_nccl_failure_t f;
    assert_int_equal(ls_nccl_text_failure("NCCL failure common.cu:908 'unhandled cuda error'", &f),
                     0);
    assert_int_equal(f.primary, 1);
    assert_string_equal(f.host, "");
    assert_int_equal(ls_nccl_text_failure("Cuda failure all_reduce.cu:95 'out of memory'", &f), 0);
    assert_int_not_equal(ls_nccl_text_failure("Cuda failure 'named symbol not found'", &f), 0);
    assert_int_not_equal(ls_nccl_text_failure("the NCCL failure common.cu:1 'x' above", &f), 0);

    json_t *doc = import_text("$ ./build/all_reduce_perf -b 8 -e 128M -f 2 -g 4\n"
                              "NCCL failure common.cu:908 'unhandled cuda error'\n");
    char sev[16];
    assert_string_not_equal(fired(doc, "entry_failed", sev, sizeof sev), "");
    json_decref(doc);
}

/* A rank line names at least rank+1 ranks: a device list cut to its last line is not a
   one-rank run. */
static void cut_rank_list(void **state)
{
    (void)state;
    json_t *doc = import_text(
        "#  Rank 15 Group  0 Pid  1 on nodeZ device  7 [0x01] NVIDIA Graphics Device\n"
        "#       size         count      type   redop    root     time   algbw   busbw #wrong     "
        "time   algbw   busbw #wrong\n"
        "   536870912     134217728     float     sum      -1   1806.7  297.16  586.06      0   "
        "1835.9  292.43  576.74      0\n"
        "  1073741824     268435456     float     sum      -1   3108.8  345.38  681.17      0   "
        "2924.7  367.13  724.06      0\n");
    const json_t *e = json_array_get(json_object_get(doc, "measurements"), 0);
    assert_int_equal(json_integer_value(json_object_get(e, "nranks")), 16);
    char sev[16];
    assert_string_equal(fired(doc, "implausible", sev, sizeof sev), "");
    json_decref(doc);
}

/* Catalog rows written from NCCL's WARN call sites (socket.h "Net : Socket creation
   failed : %s"; ibvwrap.cc's "Call to %s failed with error %s" for ibv_create_cq; the
   rest as noted below), each matching its own row. */
static void catalog_rows(void **state)
{
    (void)state;
    ls_nccl_message_t m;
    assert_int_equal(ls_nccl_message_match("Net : Socket creation failed : Address family not "
                                           "supported by protocol",
                                           &m),
                     0);
    assert_string_equal(m.id, "socket_create");
    assert_int_equal(ls_nccl_message_match("Call to ibv_create_cq failed with error Cannot "
                                           "allocate memory",
                                           &m),
                     0);
    assert_string_equal(m.id, "ib_create_cq");
    assert_int_equal(ls_nccl_message_match("Call to ibv_create_qp failed with error Cannot "
                                           "allocate memory",
                                           &m),
                     0);
    assert_string_equal(m.id, "ib_create_qp");
    /* net_ib's async event thread, proxy.cc's service thread, alloc.h, p2p.cc */
    static const struct {
        const char *text, *id;
    } more[] = {
        {"NET/IB : mlx5_3:1 async fatal event on QP (0x1234): invalid request local work queue "
         "error",
         "ib_async_fatal"},
        {"NET/IB : mlx5_3:1 Got async event : port error", "ib_async_event"},
        {"Call to ibv_get_async_event failed", "ib_async_read"},
        {"communicator encountered a fatal error (detected in ncclIbTest)", "comm_fatal"},
        {"[Service thread] Error encountered progressing operation=Connect, res=3, closing "
         "connection",
         "proxy_service_error"},
        {"Failed to CUDA calloc 6291456 bytes", "cuda_calloc"},
        {"rank 3 failed to IPC register userbuff 0x7f00 buffSize 1024 nPeers 2 isLegacyIpc 0",
         "ipc_register_userbuff"},
    };
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
        assert_int_equal(ls_nccl_message_match(more[i].text, &m), 0);
        assert_string_equal(m.id, more[i].id);
    }
}

/* A network transport's message pasted without NCCL's prefix ("NET/IB : ...", net_ib.cc):
   one the WARN catalog knows is a warning; an INFO one (the device list) stays quiet. */
static void bare_net_lines(void **state)
{
    (void)state;
    char sev[16];
    json_t *doc = import_text("NET/IB : Got completion from peer 10.0.0.2<1234> with status=12 "
                              "opcode=0 len=0 vendor err 129 (Recv)\n");
    assert_string_equal(fired(doc, "nccl_warn", sev, sizeof sev), "error");
    json_decref(doc);
    doc = import_text("NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.0.0.1<0>\n");
    assert_string_equal(fired(doc, "nccl_warn", sev, sizeof sev), "");
    assert_int_equal(loud(doc), 0);
    json_decref(doc);
}

/* The last WARN text a framework prints from ncclGetLastError() after "Last error:"
   (PyTorch's ProcessGroupNCCL), on the same line after a launcher's rank prefix or on the
   next line; an empty one (PyTorch's "Exception raised from" follows) adds no warning. */
static void last_error_lines(void **state)
{
    (void)state;
    char sev[16];
    json_t *doc = import_text(
        "RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1331, unhandled system error, NCCL "
        "version 2.18.5 3: Last error: 3: socketStartConnect: Connect to 10.1.2.3<4567> failed "
        ": Connection refused\n");
    assert_string_equal(fired(doc, "nccl_warn", sev, sizeof sev), "error");
    const json_t *w = json_array_get(json_object_get(log0(doc), "warnings"), 0);
    assert_string_equal(json_string_value(json_object_get(w, "text")),
                        "socketStartConnect: Connect to 10.1.2.3<4567> failed : Connection "
                        "refused");
    json_decref(doc);
    doc = import_text("torch.distributed.DistBackendError: NCCL error in: x.cpp:1, unhandled "
                      "system error, NCCL version 2.21.5\n"
                      "Last error:\n"
                      "socketStartConnect: Connect to 10.1.2.3<4567> failed : Connection "
                      "refused\n");
    assert_string_equal(fired(doc, "nccl_warn", sev, sizeof sev), "error");
    json_decref(doc);
    doc = import_text("torch.distributed.DistBackendError: NCCL error in: x.cpp:1, unhandled "
                      "cuda error, NCCL version 2.21.5\n"
                      "Last error:\n"
                      "Exception raised from getNcclErrorDetailStr at x.cpp:2\n");
    assert_int_equal(json_array_size(json_object_get(log0(doc), "warnings")), 0);
    json_decref(doc);
}

/* PyTorch's interpretation line (getNcclErrorDetailStr) with NCCL's last error right after
   it, the "Last error:" word left out of the paste (NVIDIA/nccl#2077): NCCL's message is
   a WARN line, and the CUDA error inside it stays NCCL's (no cuda_errors record, so no
   application "out of memory"); Python's own lines after the interpretation are not
   NCCL's, and a text without an interpretation line is not a framework's NCCL error. */
static void interpretation_then_message(void **state)
{
    (void)state;
    char sev[16];
    json_t *doc = import_text("torch.distributed.DistBackendError: NCCL error in: x.cpp:93, "
                              "unhandled cuda error, NCCL version 2.29.7\n"
                              "ncclUnhandledCudaError: Call to CUDA function failed.\n"
                              "Failed to bind NVLink SHARP (NVLS) Multicast memory of size "
                              "2097152 : CUDA error 2 'out of memory'.\n"
                              "This is usually caused by a system or configuration error in the "
                              "Fabric Manager or NVSwitches.\n");
    assert_string_equal(fired(doc, "nccl_warn", sev, sizeof sev), "error");
    const json_t *w = json_array_get(json_object_get(log0(doc), "warnings"), 0);
    assert_non_null(strstr(json_string_value(json_object_get(w, "text")), "NVLink SHARP"));
    assert_int_equal(json_array_size(json_object_get(log0(doc), "warnings")), 1);
    assert_int_equal(json_array_size(json_object_get(doc, "cuda_errors")), 0);
    json_decref(doc);
    doc = import_text("torch.distributed.DistBackendError: NCCL error in: x.cpp:1, invalid "
                      "usage, NCCL version 2.20.5\n"
                      "ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
                      "Last error:\n"
                      "Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 10\n");
    assert_int_equal(json_array_size(json_object_get(log0(doc), "warnings")), 1);
    json_decref(doc);
    doc = import_text("RuntimeError: NCCL error in: x.cpp:1, unhandled cuda error, NCCL "
                      "version 2.14.3\n"
                      "ncclUnhandledCudaError: Call to CUDA function failed.\n"
                      "  File \"train.py\", line 3, in <module>\n");
    assert_int_equal(json_array_size(json_object_get(log0(doc), "warnings")), 0);
    json_decref(doc);
    /* the program's own next exception is no NCCL message: it stays a CUDA error */
    doc = import_text("RuntimeError: NCCL error in: x.cpp:1, unhandled cuda error, NCCL "
                      "version 2.12.12\n"
                      "ncclUnhandledCudaError: Call to CUDA function failed.\n"
                      "RuntimeError: CUDA error: an illegal memory access was encountered\n");
    assert_int_equal(json_array_size(json_object_get(log0(doc), "warnings")), 0);
    assert_int_equal(json_array_size(json_object_get(doc, "cuda_errors")), 1);
    json_decref(doc);
}

/* The FILE:LINE before "NCCL WARN" is kept (warnings[].at): a CUDA failure printed by
   transport/nvls.cc is NVLS's set-up (the catalog's nvls_cuda_failure), the same failure
   printed by another file stays the general CUDA row. */
static void warn_source_names_row(void **state)
{
    (void)state;
    json_t *doc = import_text("[2025-05-10 23:09:41] h1:630335:630409 [2] transport/nvls.cc:254 "
                              "NCCL WARN Cuda failure 1 'invalid argument'\n"
                              "h1:630335:630410 [3] NCCL INFO transport/nvls.cc:409 -> 1\n");
    const json_t *w = json_array_get(json_object_get(log0(doc), "warnings"), 0);
    assert_string_equal(json_string_value(json_object_get(w, "at")), "transport/nvls.cc:254");
    ls_test_fires(doc, "nccl_warn", "error", "", "NVLink SHARP");
    json_decref(doc);
    doc = import_text(
        "h1:1:2 [1] misc/shmutils.cc:103 NCCL WARN Cuda failure 'invalid argument'\n");
    ls_test_fires(doc, "nccl_warn", "error", "", "a CUDA call inside NCCL failed");
    json_decref(doc);
}

/* paths.cc's "P2P is disabled between connected GPUs A and B" (INFO; NVML says the
   pair's P2P status is not OK): p2p_unavailable naming the pairs; a log whose GPUs connect
   over P2P/IPC stays without it. */
static void p2p_disabled_lines(void **state)
{
    (void)state;
    char sev[16];
    json_t *doc = import_text(
        "h1:10:20 [1] NCCL INFO P2P is disabled between connected GPUs 2 and 1. You can repress "
        "this message with NCCL_IGNORE_DISABLED_P2P=1.\n"
        "h1:10:21 [0] NCCL INFO P2P is disabled between connected GPUs 1 and 2. You can repress "
        "this message with NCCL_IGNORE_DISABLED_P2P=1.\n");
    assert_string_equal(fired(doc, "p2p_unavailable", sev, sizeof sev), "warning");
    assert_int_equal(json_array_size(json_object_get(log0(doc), "p2p_disabled")), 1);
    json_decref(doc);
    doc = import_text("h1:10:20 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read\n"
                      "h1:10:21 [1] NCCL INFO Channel 00/0 : 1[1] -> 0[0] via P2P/IPC/read\n");
    assert_string_equal(fired(doc, "p2p_unavailable", sev, sizeof sev), "");
    json_decref(doc);
    /* transport/p2p.cc's "Could not enable P2P" (cudaDeviceCanAccessPeer said no): the
       pair once, marked as CUDA's answer; a peer query that failed is not that answer */
    doc = import_text("h1:10:20 [0] NCCL INFO Could not enable P2P between dev 0(=1b0) and dev "
                      "3(=1e0)\n"
                      "h1:10:21 [3] NCCL INFO Could not enable P2P between dev 3(=1e0) and dev "
                      "0(=1b0)\n");
    assert_string_equal(fired(doc, "p2p_unavailable", sev, sizeof sev), "warning");
    const json_t *pair = json_array_get(json_object_get(log0(doc), "p2p_disabled"), 0);
    assert_int_equal(json_array_size(json_object_get(log0(doc), "p2p_disabled")), 1);
    assert_string_equal(json_string_value(json_object_get(pair, "by")), "cuda");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(pair, "gpus"), 1)), 3);
    json_decref(doc);
    doc = import_text("h1:10:20 [0] NCCL INFO peer query failed between dev 0(=1b0) and dev "
                      "3(=1e0)\n"
                      "h1:10:21 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct\n");
    assert_string_equal(fired(doc, "p2p_unavailable", sev, sizeof sev), "");
    json_decref(doc);
}

/* A quoted paste ("> ", ">> ") of nccl-tests: the failure line and the rows read as
   unquoted ones. */
static void quoted_nccl_tests(void **state)
{
    (void)state;
    ls_nccl_failure_t f;
    char line[] = ">> Cuda failure common.cu:891 'invalid device ordinal'";
    ls_nccl_text_normalize(line);
    assert_int_equal(ls_nccl_text_failure(line, &f), 0);
    char sev[16];
    json_t *doc = import_text(
        "> #       size         count      type   redop    root     time   algbw   busbw #wrong "
        "    time   algbw   busbw #wrong\n"
        ">    134217728      33554432     float     sum      -1   5190.8   25.86   25.86      0 "
        "  5186.6   25.88   25.88      0\n"
        ">    268435456      67108864     float     sum      -1   10380   25.86   25.86      0 "
        "  10372   25.88   25.88      0\n");
    const json_t *e = json_array_get(json_object_get(doc, "measurements"), 0);
    assert_string_equal(json_string_value(json_object_get(e, "status")), "ok");
    assert_string_equal(fired(doc, "entry_failed", sev, sizeof sev), "");
    json_decref(doc);
}

/* The message of the first finding of rule (copied), or "" when none fired. */
static void message_of(const json_t *doc, const char *rule, char *msg, size_t len)
{
    json_t *f = ls_findings(doc);
    const json_t *x = ls_test_finding(f, rule);
    snprintf(msg, len, "%s", x ? ls_json_str(x, "message", "") : "");
    json_decref(f);
}

/* NCCL 2.4-2.7's SHM line "via direct shared memory" (nccl#367, real8 heldout, seen): two
   ranks of one host, each process seeing its own GPU as device 0, connect through SHM;
   the edge is named by ranks, as "GPU0->GPU0" names no pair. Twins: the same line between
   two GPUs of one process names the GPUs; a P2P line stays quiet. */
static void direct_shared_memory_lines(void **state)
{
    (void)state;
    char sev[16], msg[1024];
    json_t *doc = import_text("c6:117291:117389 [0] NCCL INFO Ring 00 : 2[0] -> 3[0] via direct "
                              "shared memory\n"
                              "c6:117284:117388 [0] NCCL INFO Ring 00 : 1[0] -> 2[0] via direct "
                              "shared memory\n");
    assert_string_equal(fired(doc, "nccl_transport", sev, sizeof sev), "warning");
    message_of(doc, "nccl_transport", msg, sizeof msg);
    assert_non_null(strstr(msg, "through SHM (rank 2->3, rank 1->2)"));
    json_decref(doc);
    doc = import_text("h:7:8 [0] NCCL INFO Ring 00 : 0[0] -> 1[1] via direct shared memory\n");
    message_of(doc, "nccl_transport", msg, sizeof msg);
    assert_non_null(strstr(msg, "through SHM (GPU0->GPU1)"));
    json_decref(doc);
    doc = import_text("h:7:8 [0] NCCL INFO Ring 00 : 0[0] -> 1[1] via P2P/IPC\n");
    assert_string_equal(fired(doc, "nccl_transport", sev, sizeof sev), "");
    json_decref(doc);
}

/* Socket connects NCCL retries (LlamaFactory#8045, real8 heldout, seen): INFO lines only,
   the last at attempt 34 of 34: retries used up, an error naming the host, GPU and the
   error. Twins: two early retries of a refused connect (a peer still starting) are info
   only; NCCL 2.27's "connect to ADDR returned" wording is read the same. */
static void connect_retry_lines(void **state)
{
    (void)state;
    char sev[16], msg[1024];
    json_t *doc = import_text(
        "zgiot:1:2 [0] NCCL INFO socketPollConnect: connect returned No route to host, retrying "
        "(33/34) after sleep for 3300 msec\n"
        "zgiot:1:2 [0] NCCL INFO socketPollConnect: connect returned No route to host, retrying "
        "(34/34) after sleep for 3400 msec\n");
    assert_string_equal(fired(doc, "nccl_warn", sev, sizeof sev), "error");
    message_of(doc, "nccl_warn", msg, sizeof msg);
    assert_non_null(strstr(msg, "on host zgiot, GPU 0 failed with \"No route to host\" and was "
                                "retried 34 of 34 times"));
    json_decref(doc);
    doc = import_text("h:1:2 [3] NCCL INFO socketPollConnect: connect to 10.0.0.4<56849> returned "
                      "Connection refused, retrying (1/34) after sleep for 100 msec\n"
                      "h:1:2 [3] NCCL INFO socketPollConnect: connect to 10.0.0.4<56849> returned "
                      "Connection refused, retrying (2/34) after sleep for 200 msec\n"
                      "h:1:2 [3] NCCL INFO Channel 00/0 : 0[3] -> 1[4] via P2P/IPC\n");
    assert_string_equal(fired(doc, "nccl_warn", sev, sizeof sev), "info");
    assert_int_equal(loud(doc), 0);
    message_of(doc, "nccl_warn", msg, sizeof msg);
    assert_non_null(strstr(msg, "\"Connection refused\" and was retried 2 of 34 times"));
    json_decref(doc);
}

/* nccl-tests' column header with no result row under it (the run failed, or the paste
   stops before the first row), among NCCL_DEBUG=INFO lines: read as NCCL's log, the
   missing rows noted; its connections over the network without GDRDMA are still seen.
   Without any NCCL line the nccl-tests refusal stands. */
static void tests_header_without_rows(void **state)
{
    (void)state;
    const char *header =
        "#                                                     out-of-place                       "
        "in-place          \n"
        "#       size         count    type   redop     time   algbw   busbw  error     time   "
        "algbw   busbw  error\n"
        "#        (B)    (elements)                     (us)  (GB/s)  (GB/s)            (us)  "
        "(GB/s)  (GB/s)       \n";
    char text[2048];
    snprintf(text, sizeof text,
             "nodeb:91:120 [0] NCCL INFO Channel 00 : 1[101c0] -> 0[101c0] [receive] via "
             "NET/IB/0\n"
             "nodea:77:130 [0] NCCL INFO Channel 00 : 1[101c0] -> 0[101c0] [send] via NET/IB/0\n"
             "nodea:77:130 [0] NCCL INFO comm 0x7f00 rank 1 nranks 2 cudaDev 0 busId 101c0 - "
             "Init COMPLETE\n"
             "%s"
             "nodeb:91:91 [0] NCCL INFO Launch mode Parallel\n",
             header);
    json_t *doc = import_text(text);
    const json_t *imp = json_array_get(json_object_get(doc, "imports"), 0);
    assert_true(json_is_true(json_object_get(imp, "incomplete")));
    assert_non_null(strstr(ls_json_str(imp, "missing", ""), "without a result row"));
    char sev[16];
    assert_string_equal(fired(doc, "gdr_disabled", sev, sizeof sev), "warning");
    json_decref(doc);

    char err[512] = "";
    doc = ls_import_doc_new();
    assert_int_equal(ls_import_text(doc, header, "synthetic.log", NULL, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "no nccl-tests results found"));
    json_decref(doc);
}

/* The log's lists keep each entry once, in the order first printed, through the hash
   sets kept while reading (import/nccl_log_extras.c): hosts, WARN lines, GDR lines and
   the connections the shared parser read first; the sets leave no trace in the facts. */
static void facts_lists_once_in_order(void **state)
{
    (void)state;
    json_t *f = ls_nccl_log_facts(
        "hb:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n"
        "ha:1:2 [0] NCCL WARN Call to connect returned Connection refused, retrying\n"
        "hb:1:2 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[1] via P2P/IPC\n"
        "ha:1:2 [0] NCCL WARN Call to connect returned Connection refused, retrying\n"
        "hc:1:2 [0] NCCL WARN Connect to 10.0.0.2<4000> failed\n"
        "hb:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n"
        "ha:1:2 [0] NCCL INFO GPU Direct RDMA Disabled for HCA 0 'mlx5_0'\n"
        "ha:1:2 [0] NCCL INFO GPU Direct RDMA Disabled for HCA 0 'mlx5_0'\n");
    json_t *hosts = json_pack("[s,s,s]", "hb", "ha", "hc");
    assert_true(json_equal(json_object_get(f, "hosts"), hosts));
    json_decref(hosts);
    assert_int_equal(json_array_size(json_object_get(f, "warnings")), 2);
    assert_string_equal(ls_json_str(json_array_get(json_object_get(f, "warnings"), 1), "host", ""),
                        "hc");
    assert_int_equal(json_array_size(json_object_get(f, "gdr")), 1);
    const json_t *t = json_object_get(f, "transports");
    assert_int_equal(json_array_size(t), 2); /* channels 0 and 1, each once */
    assert_int_equal(ls_json_int(json_array_get(t, 1), "channel", -1), 1);
    assert_null(json_object_get(f, "reading_index"));
    json_decref(f);
}

/* A network plugin's WARN: node action none where the thread that printed it went on
   (a later INFO line of that thread, no return-code trail); none given where the paste
   ends after it, where the thread's next line is a trail line, or where only another
   thread goes on. */
static void plugin_warn_thread_went_on(void **state)
{
    (void)state;
    static const char warn[] = "gce-a:4024:4055 [0] net_fastsocket.cc:674 NCCL WARN Maximum "
                               "retry reached for connect 3.\n";
    static const struct {
        const char *after, *action;
    } cases[] = {
        {"gce-a:4024:4055 [0] NCCL INFO NET/FastSocket : Connected after 1000 retries.\n", "none"},
        {"", ""},
        {"gce-a:4024:4055 [0] NCCL INFO transport/net.cc:580 -> 3\n", ""},
        {"gce-a:4024:4099 [0] NCCL INFO NET/FastSocket : Connected after 1000 retries.\n", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "%s%s", warn, cases[i].after);
        json_t *doc = import_text(text);
        ls_test_fires(doc, "nccl_warn", "info", cases[i].action,
                      *cases[i].action ? "carried on" : "what follows it");
        json_decref(doc);
    }
}

/* A paste is cut at its end: its last line cut inside a WARN text that an earlier line
   printed whole takes the whole text (a markdown fence after it changes nothing); a
   shorter WARN inside the log is a message of its own. */
static void cut_warn_only_at_the_end(void **state)
{
    (void)state;
    static const char *const whole = "h:1:2 [0] NCCL WARN Could not find a path for pattern 4, "
                                     "falling back to simple order\n";
    static const struct {
        const char *text;
        const char *second; /* the second warning's text */
    } cases[] = {
        {"h:1:3 [1] NCCL WARN Could not find a pat\n", "Could not find a path for pattern 4, "
                                                       "falling back to simple order"},
        {"h:1:3 [1] NCCL WARN Could not find a pat\n```\n\n", "Could not find a path for "
                                                              "pattern 4, falling back to "
                                                              "simple order"},
        {"h:1:3 [1] NCCL WARN Could not find a pat\nh:1:3 [1] NCCL INFO Init COMPLETE\n",
         "Could not find a pat"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "%s%s", whole, cases[i].text);
        json_t *facts = ls_nccl_log_facts(text);
        const json_t *ws = json_object_get(facts, "warnings");
        assert_int_equal(json_array_size(ws), 2);
        assert_string_equal(json_string_value(json_object_get(json_array_get(ws, 1), "text")),
                            cases[i].second);
        json_decref(facts);
    }
}

/* nccl-tests' footer verdict quoted alone in prose (common.cu prints "# Out of bounds values
   : %d %s" after every run): each verdict is a run's; a failed one is wrong data, a passed
   one alone is no figure (skipped); a verdict after rows stays those rows'. */
static void footer_verdict_quoted_alone(void **state)
{
    (void)state;
    json_t *doc = import_text("Every pair passes:\n\n` Out of bounds values : 0 OK`\n\n"
                              "With 4 GPUs:\n\n` ./all_reduce_perf -b 8 -e 8g -g 4`\n"
                              "` Out of bounds values : 12 FAILED`\n\nThanks!\n");
    const json_t *list = json_object_get(doc, "measurements");
    assert_int_equal(json_array_size(list), 2);
    const json_t *ok = json_array_get(list, 0), *bad = json_array_get(list, 1);
    assert_string_equal(json_string_value(json_object_get(ok, "status")), "skipped");
    assert_int_equal(json_integer_value(json_object_get(bad, "out_of_bounds")), 12);
    assert_string_equal(json_string_value(json_object_get(bad, "status")), "failed");
    assert_string_equal(json_string_value(json_object_get(bad, "collective")), "all_reduce");
    char sev[16];
    assert_string_equal(fired(doc, "wrong_elements", sev, sizeof sev), "error");
    json_decref(doc);
    /* prose that only mentions the footer is not nccl-tests' output */
    char err[256] = "";
    doc = ls_import_doc_new();
    assert_true(ls_import_text(doc, "no Out of bounds values here\n", "p.txt", NULL, NULL, err,
                               sizeof err) < 0);
    json_decref(doc);
}

/* nccl-tests' busbw = algbw x its bus factor (2(n-1)/n for all_reduce): under MPI each
   process's header says "nGpus 1", so the rows tell the rank count (8 at 1.75), or only
   that there is more than one where the collective is not named; one rank prints busbw 0
   and stays one rank. */
static void ranks_from_the_bus_factor(void **state)
{
    (void)state;
    static const char *const header =
        "# nThread 1 nGpus 1 minBytes 1048576 maxBytes 2097152 step: 2(factor) warmup iters: 5 "
        "iters: 20 agg iters: 1 validation: 1 graph: 0\n"
        "#       size         count      type   redop    root     time   algbw   busbw #wrong     "
        "time   algbw   busbw #wrong\n";
    static const struct {
        const char *command, *rows;
        long long nranks; /* -1: absent */
        int one_rank;
    } cases[] = {
        {"./build/all_reduce_perf -b 1M -e 2M\n",
         "     1048576        262144     float     sum      -1    105.9    9.90   17.33      0    "
         "105.7    9.92   17.37      0\n"
         "     2097152        524288     float     sum      -1    142.1   14.76   25.83      0    "
         "140.4   14.94   26.14      0\n",
         8, 0},
        {"",
         "     1048576        262144     float     sum      -1    105.9    9.90   17.33      0    "
         "105.7    9.92   17.37      0\n",
         -1, 0},
        {"./build/all_reduce_perf -b 1M -e 2M\n",
         "     1048576        262144     float     sum      -1     40.1   26.15    0.00      0    "
         "  39.9   26.28    0.00      0\n",
         1, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[2048];
        snprintf(text, sizeof text, "%s%s%s# Out of bounds values : 0 OK\n", cases[i].command,
                 header, cases[i].rows);
        json_t *doc = import_text(text);
        const json_t *e = json_array_get(json_object_get(doc, "measurements"), 0);
        const json_t *n = json_object_get(e, "nranks");
        if (cases[i].nranks < 0)
            assert_null(n);
        else
            assert_int_equal(json_integer_value(n), cases[i].nranks);
        char sev[16];
        assert_string_equal(fired(doc, "implausible", sev, sizeof sev),
                            cases[i].one_rank ? "warning" : "");
        json_decref(doc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plugin_warn_thread_went_on),
        cmocka_unit_test(facts_lists_once_in_order),
        cmocka_unit_test(prefixes),
        cmocka_unit_test(warn_forms),
        cmocka_unit_test(error_trail),
        cmocka_unit_test(quiet_setup_lines),
        cmocka_unit_test(socket_network),
        cmocka_unit_test(channel_count_lines),
        cmocka_unit_test(bootstrap_only_piece),
        cmocka_unit_test(version_and_interleaving),
        cmocka_unit_test(old_test_failure),
        cmocka_unit_test(cut_rank_list),
        cmocka_unit_test(catalog_rows),
        cmocka_unit_test(bare_net_lines),
        cmocka_unit_test(last_error_lines),
        cmocka_unit_test(interpretation_then_message),
        cmocka_unit_test(warn_source_names_row),
        cmocka_unit_test(p2p_disabled_lines),
        cmocka_unit_test(quoted_nccl_tests),
        cmocka_unit_test(cut_prefix_host),
        cmocka_unit_test(p2p_check_lines),
        cmocka_unit_test(one_rank_ring_lines),
        cmocka_unit_test(socket_ranks_beyond_node),
        cmocka_unit_test(ibverbs_one_node),
        cmocka_unit_test(ofi_failure_on_one_node),
        cmocka_unit_test(interleaved_glued_host),
        cmocka_unit_test(commented_result_row),
        cmocka_unit_test(direct_shared_memory_lines),
        cmocka_unit_test(connect_retry_lines),
        cmocka_unit_test(tests_header_without_rows),
        cmocka_unit_test(cut_warn_only_at_the_end),
        cmocka_unit_test(footer_verdict_quoted_alone),
        cmocka_unit_test(ranks_from_the_bus_factor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
