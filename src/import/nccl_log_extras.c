#include "nccl_log_extras.h"
#include "model/doc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "misc/socket.cc:564 -> 2", "transport/net.cc:1298 -> 6", "group.cc:64 -> 2 [Async
   thread]", "socket.cc:80 -> 6 (Connection reset)": NCCLCHECK's INFO line ("%s:%d -> %d",
   NCCL's src/include/checks.h) under a failed call; the first line of each code, host and GPU
   is where the error was raised, the rest pass it up. */
#define TRAIL_HOST_KEY "host" /* the machine's name in a trail fact, not the host family */

static int error_trail(const char *msg, const char *host, int dev, json_t *facts)
{
    char at[128];
    int code;
    if (sscanf(msg, "%127[^ ] -> %d", at, &code) != 2 || !strchr(at, ':') ||
        !isdigit((unsigned char)strrchr(at, ':')[1]))
        return 0;
    if (code == 0)
        return 1;
    json_t *list = ls_json_array_at(facts, "error_trails");
    size_t i;
    json_t *t;
    json_array_foreach(list, i, t) {
        const json_t *g = json_object_get(t, "gpu");
        if (json_integer_value(json_object_get(t, "code")) == code &&
            !strcmp(json_string_value(json_object_get(t, TRAIL_HOST_KEY)), host) &&
            (g ? json_integer_value(g) : -1) == dev) {
            json_object_set_new(t, "lines",
                                json_integer(json_integer_value(json_object_get(t, "lines")) + 1));
            return 1;
        }
    }
    t = json_pack("{s:i, s:s, s:s, s:i}", "code", code, "at", at, TRAIL_HOST_KEY, host, "lines", 1);
    if (dev >= 0)
        json_object_set_new(t, "gpu", json_integer(dev));
    json_array_append_new(list, t);
    return 1;
}

/* The index in error_trails of the record a trail line (msg) went to, or -1 when msg is
   no trail line or has code 0. */
static long trail_record(const char *msg, const char *host, int dev, const json_t *facts)
{
    char at[128];
    int code;
    if (sscanf(msg, "%127[^ ] -> %d", at, &code) != 2 || !strchr(at, ':') ||
        !isdigit((unsigned char)strrchr(at, ':')[1]) || code == 0)
        return -1;
    size_t i;
    const json_t *t;
    json_array_foreach(json_object_get(facts, "error_trails"), i, t) {
        const json_t *g = json_object_get(t, "gpu");
        if (json_integer_value(json_object_get(t, "code")) == code &&
            !strcmp(ls_json_str(t, TRAIL_HOST_KEY, ""), host) &&
            (g ? json_integer_value(g) : -1) == dev)
            return (long)i;
    }
    return -1;
}

/* 1 when msg is a trail line whatever its code, or one cut inside it: "FILE:LINE" alone,
   "FILE:LINE ->" (nccl-1610, nccl#1710's last lines): no sign that the thread went on. */
static int trail_like(const char *msg)
{
    size_t n = strcspn(msg, " \r\n");
    const char *colon = memchr(msg, ':', n);
    if (!colon || colon + 1 == msg + n ||
        strspn(colon + 1, "0123456789") != (size_t)(msg + n - colon - 1))
        return 0;
    const char *rest = msg + n;
    rest += strspn(rest, " ");
    return !*rest || *rest == '\r' || *rest == '\n' || !strncmp(rest, "->", 2);
}

/* Adds one to list[at]'s count key ("handled": the thread that printed it went on;
   "unknown": it did not, or it cannot be told). The error trails and the WARN lines are
   followed the same way. */
static void count_at(json_t *facts, const char *list, long at, const char *key)
{
    json_t *e = at >= 0 ? json_array_get(json_object_get(facts, list), (size_t)at) : NULL;
    if (e)
        json_object_set_new(e, key, json_integer(ls_json_int(e, key, 0) + 1));
}

/* facts[name]: thread ("host:pid:tid") -> the position of its last open line. */
static json_t *open_threads(json_t *facts, const char *name)
{
    json_t *open = json_object_get(facts, name);
    if (!open) {
        open = json_object();
        json_object_set_new(facts, name, open);
    }
    return open;
}

/* The paste ended: lines still open are unknown; each entry of list whose every line went
   on is marked went_on, the counts taken off. */
static void threads_end(json_t *facts, const char *list, const char *name)
{
    const char *thread;
    json_t *v;
    json_object_foreach(json_object_get(facts, name), thread, v)
        count_at(facts, list, (long)json_integer_value(v), "unknown");
    json_object_del(facts, name);
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(facts, list), i, e) {
        if (ls_json_int(e, "handled", 0) > 0 && ls_json_int(e, "unknown", 0) == 0)
            json_object_set_new(e, "went_on", json_true());
        json_object_del(e, "handled");
        json_object_del(e, "unknown");
    }
}

void ls_nccl_trail_thread(const char *msg, const char *host, int dev, const char *thread,
                          json_t *facts)
{
    long idx = trail_record(msg, host ? host : "", dev, facts);
    if (!thread || !thread[0]) { /* no tid: a trail of it can never be told handled */
        if (idx >= 0)
            count_at(facts, "error_trails", idx, "unknown");
        return;
    }
    json_t *open = open_threads(facts, "trail_threads");
    const json_t *was = json_object_get(open, thread);
    if (idx >= 0) {
        /* another record's code passed up on the same thread: the first was not handled */
        if (was && json_integer_value(was) != idx)
            count_at(facts, "error_trails", json_integer_value(was), "unknown");
        json_object_set_new(open, thread, json_integer(idx));
        return;
    }
    if (!was || trail_like(msg))
        return;
    count_at(facts, "error_trails", json_integer_value(was), "handled"); /* it went on */
    json_object_del(open, thread);
}

void ls_nccl_trail_threads_end(json_t *facts)
{
    threads_end(facts, "error_trails", "trail_threads");
}

void ls_nccl_warn_line(json_t *facts, const char *thread, long at)
{
    if (!thread || !thread[0]) { /* no tid: never told gone on */
        count_at(facts, "warnings", at, "unknown");
        return;
    }
    json_t *open = open_threads(facts, "warn_threads");
    const json_t *was = json_object_get(open, thread);
    if (was) /* another WARN of the thread before it went on */
        count_at(facts, "warnings", (long)json_integer_value(was), "unknown");
    json_object_set_new(open, thread, json_integer(at));
}

void ls_nccl_warn_info(json_t *facts, const char *msg, const char *thread)
{
    json_t *open = json_object_get(facts, "warn_threads");
    const json_t *was = thread && thread[0] ? json_object_get(open, thread) : NULL;
    if (!was || trail_like(msg))
        return;
    count_at(facts, "warnings", (long)json_integer_value(was), "handled"); /* it went on */
    json_object_del(open, thread);
}

void ls_nccl_warn_threads_end(json_t *facts)
{
    threads_end(facts, "warnings", "warn_threads");
}

/* "socketPollConnect: connect returned No route to host, retrying (26/34) after sleep for
   2600 msec" (2.24-2.26), "...: connect to 10.0.0.4<5> returned ..." (2.27 on): NCCL's
   socket connect failed with ETIMEDOUT, EHOSTUNREACH or ECONNREFUSED and is retried,
   NCCL_SOCKET_RETRY_CNT times (default 34), before a WARN ends it (misc/socket.cc,
   os/linux.cc). One record per host, GPU and error: the highest attempt read. */
static int connect_retry(const char *msg, const char *host, int dev, json_t *facts)
{
    const char *ret = strstr(msg, " returned "), *at = strstr(msg, ", retrying (");
    long n, of;
    if (!ret || !at || at < ret || !strstr(msg, "connect") ||
        sscanf(at, ", retrying (%ld/%ld)", &n, &of) != 2 || n < 1 || of < 1)
        return 0;
    char err[64];
    snprintf(err, sizeof err, "%.*s", (int)(at - ret - 10), ret + 10);
    json_t *list = ls_json_array_at(facts, "connect_retries");
    size_t i;
    json_t *r;
    json_array_foreach(list, i, r) {
        const json_t *g = json_object_get(r, "gpu");
        if (!strcmp(ls_json_str(r, TRAIL_HOST_KEY, ""), host) &&
            (g ? json_integer_value(g) : -1) == dev && !strcmp(ls_json_str(r, "error", ""), err)) {
            if (n > ls_json_int(r, "attempt", 0))
                json_object_set_new(r, "attempt", json_integer(n));
            return 1;
        }
    }
    r = json_pack("{s:s, s:s, s:i, s:i}", TRAIL_HOST_KEY, host, "error", err, "attempt", (int)n,
                  "of", (int)of);
    if (dev >= 0)
        json_object_set_new(r, "gpu", json_integer(dev));
    json_array_append_new(list, r);
    return 1;
}

/* "Pattern 4, crossNic 0, nChannels 4, bw 24.000000/24.000000, type NVL/PXB, sameChannels
   0" (src/graph/search.cc; "speed" for "bw" before 2.19; NCCL 2.5: "speed %d/%d, nvlink
   %d, type %d"). */
static int graph_line(const char *msg, json_t *facts)
{
    int pattern, cross, nch;
    if (sscanf(msg, "Pattern %d, crossNic %d, nChannels %d", &pattern, &cross, &nch) != 3)
        return 0;
    json_t *g = json_pack("{s:i, s:b, s:i}", "pattern", pattern, "cross_nic", cross, "channels",
                          nch);
    const char *bw = strstr(msg, " bw ");
    bw = bw ? bw + 4 : strstr(msg, " speed ") ? strstr(msg, " speed ") + 7 : NULL;
    double intra, inter;
    if (bw && sscanf(bw, "%lf/%lf", &intra, &inter) == 2) {
        json_object_set_new(g, "bw_intra", json_real(intra));
        json_object_set_new(g, "bw_inter", json_real(inter));
    }
    char ti[16], te[16];
    const char *type = strstr(msg, " type ");
    if (type && sscanf(type + 6, "%15[A-Z]/%15[A-Z]", ti, te) == 2) {
        json_object_set_new(g, "type_intra", json_string(ti));
        json_object_set_new(g, "type_inter", json_string(te));
    }
    json_array_append_new(ls_json_array_at(facts, "graphs"), g);
    return 1;
}

/* A node of NCCL's topology at the start of msg: "GPU/1", "NET/7", "CPU/0", "NIC/0",
   "NVS/0", "PCI/13000". */
static int topo_node(const char *msg)
{
    static const char *const kinds[] = {"GPU/", "NET/", "CPU/", "NIC/", "NVS/", "PCI/"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strncmp(msg, kinds[i], 4) && isxdigit((unsigned char)msg[4]))
            return 1;
    return 0;
}

/* The graph search's channel lines "0 : NET/1 GPU/1 GPU/8 ... NET/1" (search.cc prints
   each channel of a graph) and the path lines "NET/7 :GPU/16000 (7/9.000000/SYS) ..."
   (topo paths, NCCL_DEBUG_SUBSYS=GRAPH). */
static int graph_detail(const char *msg, json_t *facts)
{
    int ch, used = 0;
    int channel = sscanf(msg, "%d : %n", &ch, &used) == 1 && used > 0 && topo_node(msg + used);
    const char *colon = strstr(msg, " :");
    int path = topo_node(msg) && colon && topo_node(colon + 2 + (colon[2] == ' '));
    if (!channel && !path)
        return 0;
    json_object_set_new(facts, "graph_lines",
                        json_integer(json_integer_value(json_object_get(facts, "graph_lines")) +
                                     1));
    return 1;
}

/* "Cuda Alloc Size 1824 pointer 0x7f0baaa00200", "Cuda Host Alloc Size 1048576 pointer
   0x..." (NCCL's src/include/alloc.h, NCCL_DEBUG_SUBSYS=ALLOC), optionally after the
   "channel.cc:24 " that NCCL_DEBUG_FILE-less builds print before it. */
static int allocation(const char *msg, json_t *facts)
{
    const char *a = strstr(msg, "Cuda Alloc Size ");
    const char *h = strstr(msg, "Cuda Host Alloc Size ");
    long long bytes;
    if (!(a || h) || sscanf(a ? a + 16 : h + 21, "%lld pointer", &bytes) != 1)
        return 0;
    json_t *o = ls_json_object_at(facts, "allocations");
    const char *key = a ? "device_bytes" : "host_bytes";
    json_object_set_new(o, "count",
                        json_integer(json_integer_value(json_object_get(o, "count")) + 1));
    json_object_set_new(o, key, json_integer(json_integer_value(json_object_get(o, key)) + bytes));
    return 1;
}

/* "NVLS multicast support is available on dev 0" / "... is not available on dev 5"
   (src/transport/nvls.cc, 2.17+). */
static int nvls_line(const char *msg, json_t *facts)
{
    int d;
    const char *p = strstr(msg, "NVLS multicast support is ");
    if (!p)
        return 0;
    p += strlen("NVLS multicast support is ");
    int not = !strncmp(p, "not ", 4);
    if (sscanf(p + (not ? 4 : 0), "available on dev %d", &d) != 1)
        return 0;
    json_t *list = ls_json_array_at(ls_json_object_at(facts, "nvls"),
                                    not ? "unavailable" : "available");
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v)
        if (json_integer_value(v) == d)
            return 1;
    json_array_append_new(list, json_integer(d));
    return 1;
}

/* 1 when one interface of a "Bootstrap : Using" list ("lo:127.0.0.1<0>", "[0]eth0:
   10.0.0.1<0>") is the loopback: the interface lo or an address of 127.0.0.0/8 or ::1. */
static int loopback_iface(const char *w, size_t len)
{
    if (len && *w == '[') {
        const char *close = memchr(w, ']', len);
        if (!close)
            return 0;
        len -= (size_t)(close + 1 - w);
        w = close + 1;
    }
    const char *colon = memchr(w, ':', len);
    if (!colon)
        return 0;
    const char *addr = colon + 1;
    size_t alen = len - (size_t)(addr - w);
    return (colon - w == 2 && !strncmp(w, "lo", 2)) || (alen >= 4 && !strncmp(addr, "127.", 4)) ||
           (alen >= 3 && !strncmp(addr, "::1", 3) && (alen == 3 || addr[3] == '<'));
}

/* "Bootstrap : Using lo:127.0.0.1<0>" (init.cc / bootstrap.cc; "Bootstrap: Using" from
   2.2x): NCCL's bootstrap listens on that address, and the ncclUniqueId every rank
   connects to carries it, so a bootstrap on the loopback only reaches ranks of its own
   node. "bootstrap_loopback": true while every such line of the log uses the loopback
   alone, false once one does not. */
static int bootstrap_line(const char *msg, json_t *facts)
{
    if (strncmp(msg, "Bootstrap", 9))
        return 0;
    const char *p = msg + 9;
    while (*p == ' ')
        p++;
    if (*p != ':')
        return 0;
    p++;
    while (*p == ' ')
        p++;
    if (strncmp(p, "Using ", 6))
        return 0;
    p += 6;
    int all = 1, any = 0;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " \r\n");
        if (!len)
            break;
        any = 1;
        all &= loopback_iface(p, len);
        p += len;
    }
    if (!any)
        return 0;
    const json_t *was = json_object_get(facts, "bootstrap_loopback");
    if (!was || json_is_true(was))
        json_object_set_new(facts, "bootstrap_loopback", json_boolean(all));
    return 1;
}

/* The network NCCL < 2.7 used: "NET/Socket : Using [0]ens3:..." is printed only by the
   socket transport it falls back to (src/transport/net_socket.cc); "Using network X"
   (2.7+; "Using internal Network X" in 2.3) names it where it is printed and wins. "NET/IB : No
   device found." */
static int network_lines(const char *msg, json_t *facts)
{
    if (!strncmp(msg, "NET/IB : No device found", 24)) {
        json_object_set_new(facts, "ib_devices", json_integer(0));
        return 1;
    }
    if (strncmp(msg, "NET/Socket : Using", 18))
        return 0;
    if (!json_object_get(facts, "network") && !json_object_get(facts, "network_said"))
        json_object_set_new(facts, "network", json_string("Socket"));
    return 1;
}

json_t *ls_nccl_facts_index(json_t *facts, const char *key)
{
    return ls_json_list_index(facts, "reading_index", key);
}

void ls_nccl_facts_index_end(json_t *facts)
{
    json_object_del(facts, "reading_index");
}

/* The set key of a list's entry: its compact JSON text, keys sorted; malloc'd. */
static char *entry_key(const json_t *v)
{
    return json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
}

/* The entries a list held before its set was made, into the set: each at the first
   position it holds. */
static void index_entries(json_t *ix, const json_t *arr)
{
    size_t i;
    const json_t *v;
    json_array_foreach(arr, i, v) {
        char *k = entry_key(v);
        if (k && !json_object_get(ix, k))
            json_object_set_new_nocheck(ix, k, json_integer((json_int_t)i));
        free(k);
    }
}

long ls_nccl_facts_append_once(json_t *facts, const char *list, json_t *value)
{
    json_t *arr = ls_json_array_at(facts, list);
    int fresh = !json_object_get(json_object_get(facts, "reading_index"), list);
    json_t *ix = ls_nccl_facts_index(facts, list);
    if (fresh)
        index_entries(ix, arr);
    char *key = entry_key(value);
    const json_t *at = key ? json_object_get(ix, key) : NULL;
    long pos = !key ? -1 : at ? (long)json_integer_value(at) : (long)json_array_size(arr);
    if (key && !at && json_array_append_new(arr, value) == 0)
        json_object_set_new_nocheck(ix, key, json_integer(pos));
    else if (key && !at)
        pos = -1; /* not appended: value was released */
    else
        json_decref(value);
    free(key);
    return pos;
}

/* "P2P is disabled between connected GPUs 2 and 1. You can repress this message with
   NCCL_IGNORE_DISABLED_P2P=1." (INFO) and "P2P is disabled between NVLINK connected GPUs
   %d and %d. ..." (WARN): NCCL's src/graph/paths.cc prints them when NVML reports the
   pair's P2P status not OK although a PCIe path below SYS, or NVLink, joins them; the
   numbers are the GPUs' NVML indices. And "Could not enable P2P between dev 0(=1b0) and
   dev 3(=1e0)" (INFO, transport/p2p.cc): cudaDeviceCanAccessPeer answered 0 for the pair,
   so CUDA gives it no peer access; the numbers are CUDA device ordinals ("by": "cuda").
   Kept once per host and unordered pair. */
int ls_nccl_log_p2p_disabled(const char *msg, const char *host, json_t *facts)
{
    const char *p = strstr(msg, "P2P is disabled between ");
    const char *cuda = strstr(msg, "Could not enable P2P between dev ");
    int a, b;
    if (cuda) {
        if (sscanf(cuda + strlen("Could not enable P2P between "),
                   "dev %d(=%*[0-9a-fA-Fx]) and dev %d", &a, &b) != 2)
            return 0;
    } else if (p) {
        p += strlen("P2P is disabled between ");
        if (!strncmp(p, "NVLINK ", 7))
            p += 7;
        if (sscanf(p, "connected GPUs %d and %d", &a, &b) != 2)
            return 0;
    } else
        return 0;
    if (a < 0 || b < 0 || a == b)
        return 0;
    json_t *o = json_pack("{s:s, s:[i,i]}", "host", host ? host : "", "gpus", a < b ? a : b,
                          a < b ? b : a);
    if (cuda)
        json_object_set_new(o, "by", json_string("cuda"));
    ls_nccl_facts_append_once(facts, "p2p_disabled", o);
    return 1;
}

/* NCCL's init check of its intra-node P2P transport (src/transport.cc,
   ncclTransportCheckP2pType, printed by rank 0 only): "Check P2P Type intraNodeP2pSupport
   S directMode D" (2.1x) or "Check P2P Type isAllDirectP2p S directMode D [isAllCudaP2p
   C]" (later). S is 1 only when every pair of the node's local ranks can use the P2P
   transport directly (and 0 whenever the node holds a single rank); D is 1 when two of
   those ranks share one process, so it implies at least two local ranks. Kept as
   "p2p_check" {all_direct, direct_mode, host, text}, the first one printed. */
static int p2p_check(const char *msg, const char *host, json_t *facts)
{
    const char *p = strstr(msg, "Check P2P Type ");
    char word[32];
    int all, direct, used = 0;
    if (!p || sscanf(p + 15, "%31s %d directMode %d%n", word, &all, &direct, &used) != 3 || !used ||
        (strcmp(word, "intraNodeP2pSupport") && strcmp(word, "isAllDirectP2p")) ||
        (all != 0 && all != 1) || (direct != 0 && direct != 1))
        return 0;
    if (!json_object_get(facts, "p2p_check"))
        json_object_set_new(facts, "p2p_check",
                            json_pack("{s:b, s:b, s:s, s:s}", "all_direct", all, "direct_mode",
                                      direct, "host", host ? host : "", "text", p));
    return 1;
}

/* The channel counts of a communicator NCCL settled on at init (init.cc): "2 coll
   channels, 2 p2p channels, 1 p2p channels per peer" (2.7-2.11), with "N collnet
   channels" and "N nvls channels" between them in later versions. Kept as "channels"
   {coll, collnet, nvls, p2p, p2p_per_peer, host}, each count the line gives, the first
   line printed. */
static int channel_counts(const char *msg, const char *host, json_t *facts)
{
    int coll, used = 0;
    if (sscanf(msg, "%d coll channels,%n", &coll, &used) != 1 || !used)
        return 0;
    if (json_object_get(facts, "channels"))
        return 1;
    json_t *o = json_pack("{s:i, s:s}", "coll", coll, "host", host ? host : "");
    static const char *const kinds[] = {"collnet", "nvls", "p2p"};
    for (const char *p = msg + used; *p;) {
        int n, at = 0;
        char word[16];
        if (sscanf(p, " %d %15s channels%n", &n, word, &at) != 2 || !at)
            break;
        p += at;
        int per_peer = !strncmp(p, " per peer", 9);
        for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
            if (!strcmp(word, kinds[k]))
                json_object_set_new(o, per_peer ? "p2p_per_peer" : kinds[k], json_integer(n));
        p += per_peer ? 9 : 0;
        p += *p == ',';
    }
    json_object_set_new(facts, "channels", o);
    return 1;
}

/* "MNNVL busId 0x7e000 fabric UUID 0.0 cliqueId 0x0 state 3 healthMask 0x0" (NCCL 2.19+,
   init.cc): printed only where NVML's GPU fabric state is not NOT_SUPPORTED, i.e. a GPU
   (Hopper or later) on an NVSwitch fabric; state 3 is NVML_GPU_FABRIC_STATE_COMPLETED
   (registered with Fabric Manager), a zero cluster UUID no multi-node NVLink domain.
   Kept as "fabric" {state, cluster_uuid_zero, host}, the first one printed. */
static int mnnvl_line(const char *msg, const char *host, json_t *facts)
{
    unsigned long bus, u0, u1;
    unsigned clique, mask;
    int state;
    if (strncmp(msg, "MNNVL busId ", 12) ||
        sscanf(msg, "MNNVL busId %lx fabric UUID %lx.%lx cliqueId %x state %d healthMask %x", &bus,
               &u0, &u1, &clique, &state, &mask) != 6)
        return 0;
    if (!json_object_get(facts, "fabric"))
        json_object_set_new(facts, "fabric",
                            json_pack("{s:i, s:b, s:s}", "state", state, "cluster_uuid_zero",
                                      !u0 && !u1, "host", host ? host : ""));
    return 1;
}

int ls_nccl_network_said(const char *msg, char net[32])
{
    return sscanf(msg, "Using network %31s", net) == 1 ||
           sscanf(msg, "Using internal Network %31s", net) == 1;
}

void ls_nccl_log_extras(const char *msg, const char *host, int dev, json_t *facts)
{
    char net[32];
    if (ls_nccl_network_said(msg, net)) /* said outright: NET/Socket lines no longer guess it */
        json_object_set_new(facts, "network_said", json_true());
    (void)(error_trail(msg, host ? host : "", dev, facts) ||
           connect_retry(msg, host ? host : "", dev, facts) || graph_line(msg, facts) ||
           graph_detail(msg, facts) || allocation(msg, facts) || nvls_line(msg, facts) ||
           network_lines(msg, facts) || bootstrap_line(msg, facts) ||
           ls_nccl_log_p2p_disabled(msg, host, facts) || p2p_check(msg, host, facts) ||
           mnnvl_line(msg, host, facts) || channel_counts(msg, host, facts));
}

int ls_nccl_log_extras_any(const json_t *facts)
{
    static const char *const keys[] = {"error_trails",      "graphs",        "graph_lines",
                                       "allocations",       "nvls",          "ib_devices",
                                       "p2p_disabled",      "bare_messages", "connect_retries",
                                       "p2p_check",         "fabric",        "channels",
                                       "bootstrap_loopback"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (json_object_get(facts, keys[i]))
            return 1;
    return 0;
}
