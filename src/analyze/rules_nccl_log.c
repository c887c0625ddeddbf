/* Rules on NCCL's own log (transports of nccl entries, live or imported): GPUs of one
   node connected through SHM or the network instead of P2P, network traffic without
   GPUDirect RDMA, and a fall-back to TCP sockets. */
#include "rules.h"
#include "model/doc.h"
#include "nccl_messages.h"
#include "model/vocab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EDGES_LISTED 6

/* One place NCCL's connections are recorded: an nccl entry (live or imported with a
   debug log) or a log imported on its own (top-level nccl_logs[], docs/import.md). */
typedef struct {
    const json_t *obj; /* has "transports" */
    ls_about_t about;  /* its collective on its GPUs, or the log (what: the subject) */
    char subject[128]; /* "all_reduce on GPUs 0,1", "NCCL log x.log" */
    char evidence[96]; /* entry id or "nccl_logs[2]" */
    int is_entry;
} log_src_t;

static int sources(const ls_machine_t *m, log_src_t *out, int max)
{
    int n = 0;
    for (long i = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, 0); i >= 0 && n < max;
         i = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, i + 1)) {
        const json_t *e = ls_measurement(m, (size_t)i);
        out[n].obj = e, out[n].is_entry = 1;
        out[n].about = LS_ABOUT_ON(ls_json_str(e, "collective", LS_FAMILY_NCCL),
                                   ls_gpu_mask_of(json_object_get(e, "gpus")));
        ls_about_text(&out[n].about, out[n].subject, sizeof out[n].subject);
        snprintf(out[n].evidence, sizeof out[n].evidence, "%s", ls_json_str(e, "id", ""));
        n++;
    }
    size_t k;
    const json_t *l;
    json_array_foreach(json_object_get(m->doc, "nccl_logs"), k, l) {
        if (n >= max)
            break;
        const char *file = ls_json_str(l, "file", "");
        const char *base = strrchr(file, '/');
        out[n].obj = l, out[n].is_entry = 0;
        snprintf(out[n].subject, sizeof out[n].subject, "NCCL log %s",
                 base    ? base + 1
                 : *file ? file
                         : "imported");
        out[n].about = LS_ABOUT_WHAT(out[n].subject);
        snprintf(out[n].evidence, sizeof out[n].evidence, "nccl_logs[%zu]", k);
        n++;
    }
    return n;
}

/* Host of a rank from ranks[] ({rank, host}) or rank_hosts: an imported log's object
   ({"3": host}) or an MPI entry's array (the host of each rank, rank order; docs/schema.md);
   NULL unknown. */
static const char *rank_host(const json_t *e, long long rank)
{
    size_t i;
    const json_t *r;
    json_array_foreach(json_object_get(e, "ranks"), i, r) {
        if (ls_json_int(r, "rank", -1) == rank && json_is_string(json_object_get(r, "host")))
            return ls_json_str(r, "host", NULL);
    }
    const json_t *hosts = json_object_get(e, "rank_hosts");
    if (json_is_array(hosts))
        return rank >= 0 ? json_string_value(json_array_get(hosts, (size_t)rank)) : NULL;
    char key[24];
    snprintf(key, sizeof key, "%lld", rank);
    return ls_json_str(hosts, key, NULL);
}

/* Nodes an entry ran on: nccl-tests' count, or linkscope's MPI nodes[] array. */
static long long entry_nodes(const json_t *e)
{
    const json_t *nodes = json_object_get(e, "nodes");
    return json_is_array(nodes) ? (long long)json_array_size(nodes) : ls_json_int(e, "nodes", 1);
}

/* 1 when a transport joins two GPUs (two ranks) of one node. SHM works only within a
   node; NET is between nodes unless both ranks are known to be on one host. */
static int same_node(const json_t *e, const json_t *t)
{
    long long fr = ls_json_int(t, "from_rank", -1), tr = ls_json_int(t, "to_rank", -1);
    long long from = ls_json_int(t, "from", -1), to = ls_json_int(t, "to", -1);
    int distinct = (fr >= 0 && tr >= 0 && fr != tr) ||
                   (fr < 0 && from >= 0 && to >= 0 && from != to);
    if (!strncmp(ls_json_str(t, "transport", ""), "SHM", 3))
        return distinct;
    if (json_is_boolean(json_object_get(t, "same_host")))
        return json_is_true(json_object_get(t, "same_host")) && distinct;
    const char *a = rank_host(e, fr), *b = rank_host(e, tr);
    if (a && b)
        return !strcmp(a, b) && distinct;
    /* a single-node run of linkscope or nccl-tests (one host, no rank table) */
    return e && json_object_get(e, "family") && entry_nodes(e) <= 1 &&
           !json_array_size(json_object_get(e, "ranks")) && distinct;
}

static int is_default(const json_t *e)
{
    return !strcmp(ls_json_str(e, "variant", "default"), "default");
}

static int p2p_switched_off(const ls_machine_t *m, const json_t *e)
{
    const char *v = ls_json_str(e, "variant", "");
    const char *env = ls_json_str(json_object_get(m->doc, "env"), "NCCL_P2P_DISABLE", "");
    size_t i;
    const json_t *line;
    json_array_foreach(json_object_get(e, "nccl_env"), i, line) {
        if (json_is_string(line) &&
            strstr(json_string_value(line), "NCCL_P2P_DISABLE set by environment to 1"))
            return 1;
    }
    const char *level = ls_json_str(json_object_get(m->doc, "env"), "NCCL_P2P_LEVEL", "");
    return strstr(v, "NCCL_P2P_DISABLE=1") || strstr(v, "NCCL_P2P_LEVEL=LOC") ||
           !strcmp(env, "1") || !strcmp(level, "LOC");
}

/* The first GPU pair the topology joins by NVLink ("NV#"), into a, b; 0 without one. */
static int nvlink_pair(const ls_machine_t *m, int *a, int *b)
{
    char w[16];
    for (*a = 0; m->has_topo && *a < m->ngpus; (*a)++)
        for (*b = *a + 1; *b < m->ngpus; (*b)++)
            if (ls_machine_link_word(m, *a, *b, w, sizeof w), !strncmp(w, "NV", 2))
                return 1;
    return 0;
}

/* The environment switched P2P off (NCCL_P2P_DISABLE=1 or NCCL_P2P_LEVEL=LOC in the
   document's env: NCCL's log line "... set by environment to ...", or the environment
   discovery recorded for linkscope's own run): the GPUs of a node then talk
   through host memory by choice. Info (the right setting where P2P is slower than the
   host, p2p_no_gain); warning where the topology shows an NVLink it leaves unused. */
static void p2p_env_off(const ls_machine_t *m, json_t *out)
{
    const json_t *env = json_object_get(m->doc, "env");
    const char *dis = ls_json_str(env, "NCCL_P2P_DISABLE", ""),
               *lvl = ls_json_str(env, "NCCL_P2P_LEVEL", "");
    if (strcmp(dis, "1") && strcmp(lvl, "LOC"))
        return;
    int by_level = strcmp(dis, "1") != 0;
    char what[64], tail[160] = "";
    snprintf(what, sizeof what, "%s=%s", by_level ? "NCCL_P2P_LEVEL" : "NCCL_P2P_DISABLE",
             by_level ? lvl : dis);
    int a, b, nv = nvlink_pair(m, &a, &b);
    if (nv)
        snprintf(tail, sizeof tail,
                 "; GPUs %d and %d have NVLink (topology), which it leaves unused", a, b);
    ls_finding_add(out, "p2p_env_off", nv ? LS_SEV_WARNING : LS_SEV_INFO, LS_ABOUT_WHAT("run"),
                   json_pack("[s]", by_level ? "env.NCCL_P2P_LEVEL" : "env.NCCL_P2P_DISABLE"),
                   "The environment sets %s: P2P is switched off, so GPUs of one "
                   "node exchange data through host memory (SHM) by choice, not by a fault%s; "
                   "unset it "
                   "to measure the peer path, keep it only where P2P is slower than the host",
                   what, tail);
}

static void append(char *list, size_t len, int *n, const char *item)
{
    if (*n < EDGES_LISTED && !strstr(list, item)) {
        size_t used = strlen(list);
        snprintf(list + used, len - used, "%s%s", *n ? ", " : "", item);
        (*n)++;
    }
}

/* An edge by its GPUs, else its ranks: two ranks "on one GPU" name no GPU pair (NCCL 2.4
   prints the process's CUDA device, 0 in every process that sees one GPU). */
static void edge_name(const json_t *t, char *edge, size_t len)
{
    long long a = ls_json_int(t, "from", -1), b = ls_json_int(t, "to", -1);
    if (a >= 0 && b >= 0 &&
        (a != b || ls_json_int(t, "from_rank", -1) == ls_json_int(t, "to_rank", -1)))
        snprintf(edge, len, "GPU%lld->GPU%lld", a, b);
    else
        snprintf(edge, len, "rank %lld->%lld", ls_json_int(t, "from_rank", -1),
                 ls_json_int(t, "to_rank", -1));
}

static void transport_finding(const ls_machine_t *m, const log_src_t *src, json_t *seen,
                              json_t *out)
{
    const json_t *e = src->obj;
    char edges[256] = "", kinds[64] = "";
    int n = 0, nk = 0, all_p2p_ok = m->has_topo && m->topo->has_p2p, all_known = all_p2p_ok,
        any = 0;
    if (json_object_get(seen, src->subject))
        return;
    size_t k;
    const json_t *t;
    json_array_foreach(json_object_get(e, "transports"), k, t) {
        const char *tr = ls_json_str(t, "transport", "");
        if ((strncmp(tr, "SHM", 3) && strncmp(tr, "NET", 3)) || !same_node(e, t))
            continue;
        long long a = ls_json_int(t, "from", -1), b = ls_json_int(t, "to", -1);
        char edge[48], kind[16];
        edge_name(t, edge, sizeof edge);
        snprintf(kind, sizeof kind, "%.3s", tr);
        append(edges, sizeof edges, &n, edge);
        append(kinds, sizeof kinds, &nk, kind);
        any = 1;
        int known = src->is_entry && a >= 0 && b >= 0 && a < m->ngpus && b < m->ngpus;
        if (!known || !ls_machine_p2p_ok(m, (int)a, (int)b))
            all_p2p_ok = 0;
        /* known both ways: P2P OK (nccl_p2p_unused grades it) or not possible (p2p_unavailable) */
        if (!known || m->topo->p2p_read[a][b] == LS_P2P_UNKNOWN ||
            m->topo->p2p_write[a][b] == LS_P2P_UNKNOWN)
            all_known = 0;
    }
    if (!any)
        return;
    json_object_set_new(seen, src->subject, json_true());
    int off = p2p_switched_off(m, e);
    /* where the topology says P2P is OK, nccl_p2p_unused grades it with the variants;
       where it says P2P is impossible, p2p_unavailable does */
    enum ls_severity sev = off || (all_known && is_default(e)) ? LS_SEV_INFO : LS_SEV_WARNING;
    ls_finding_about(out, "nccl_transport", sev, src->about, src->subject, src->evidence,
                     "NCCL connected GPUs of one node through %s (%s%s) instead of P2P, so their "
                     "traffic "
                     "goes through host memory or the NIC%s; %s; next: NCCL_DEBUG=INFO shows why, "
                     "and `nvidia-smi "
                     "topo -p2p r` whether P2P is possible",
                     kinds, edges, n >= EDGES_LISTED ? ", ..." : "",
                     off ? " (P2P was switched off for this run: NCCL_P2P_DISABLE or "
                           "NCCL_P2P_LEVEL=LOC)"
                         : "",
                     all_p2p_ok ? "P2P is OK in the topology: NCCL's P2P level (default PXB) stops "
                                  "short of "
                                  "this path, try NCCL_P2P_LEVEL=PHB or SYS"
                     : all_known
                         ? "the topology says P2P is not possible between them (p2p_unavailable)"
                         : "likely P2P unavailable (consumer boards, a VM, ACS/IOMMU, GPUs in "
                           "different containers) or beyond NCCL's P2P level");
}

/* NCCL's own init check (import: p2p_check, printed by rank 0): "intraNodeP2pSupport 0"
   / "isAllDirectP2p 0" where rank 0's node holds at least two ranks (directMode 1, two
   ranks in one process, or "localRanks N" >= 2; with one local rank NCCL prints 0
   always) says some pair of that node's GPUs cannot use the P2P transport directly: its
   traffic goes through host memory (SHM) or through another GPU. Read only where the log
   shows no connection line (those are judged edge by edge above). */
static void p2p_check_finding(const ls_machine_t *m, const log_src_t *src, json_t *out)
{
    const json_t *c = json_object_get(src->obj, "p2p_check");
    if (!c || !json_is_false(json_object_get(c, "all_direct")) ||
        (!json_is_true(json_object_get(c, "direct_mode")) &&
         ls_json_int(src->obj, "local_ranks", 0) < 2))
        return;
    const char *host = ls_json_str(c, "host", "");
    int off = p2p_switched_off(m, src->obj);
    ls_finding_about(out, "nccl_transport", off ? LS_SEV_INFO : LS_SEV_WARNING, src->about,
                     src->subject, src->evidence,
                     "NCCL's init check says not every pair of GPUs%s%s can use its P2P "
                     "transport directly (\"%s\"): such pairs exchange data through host "
                     "memory (SHM) or through another GPU%s; next: `nvidia-smi topo -p2p r` "
                     "for which pairs, NCCL_DEBUG=INFO for the connection lines (via P2P / SHM)",
                     host[0] ? " of " : " of one node", host,
                     ls_json_str(c, "text", "Check P2P Type"),
                     off ? " (P2P was switched off for this run: NCCL_P2P_DISABLE or "
                           "NCCL_P2P_LEVEL=LOC)"
                         : "");
}

static void nccl_transport(const ls_machine_t *m, const log_src_t *src, int n, json_t *out)
{
    json_t *seen = json_object(); /* one finding per GPU set and collective */
    for (int i = 0; i < n; i++) {
        int had = json_object_get(seen, src[i].subject) != NULL;
        transport_finding(m, &src[i], seen, out);
        if (!had && !json_object_get(seen, src[i].subject))
            p2p_check_finding(m, &src[i], out);
    }
    json_decref(seen);
}

/* 1 when NCCL's network for this log or entry is TCP sockets (`Using network Socket`,
   or the line came from NET/Socket). Sockets move host memory only: NCCL's socket
   transport never registers GPU memory with a NIC, so it prints "GPU Direct RDMA
   Disabled" for every interface it uses ('eth0'); that is how sockets work, not a fault
   (net_socket judges the fall-back itself). */
static int socket_network(const json_t *e, const char *line)
{
    return !strcmp(ls_json_str(e, "network", ""), "Socket") || (line && strstr(line, "NET/Socket"));
}

/* NCCL's own words on GPUDirect RDMA being off on an RDMA network: the entry's or log's
   gdr[] (enabled false) or any text line saying "GPU Direct RDMA Disabled" / "disabling
   GDR"; lines of a socket network are not counted (socket_network). */
static const char *gdr_reason(const json_t *e)
{
    size_t i;
    const json_t *g;
    json_array_foreach(json_object_get(e, "gdr"), i, g) {
        const char *text = ls_json_str(g, "text", "GPU Direct RDMA disabled");
        if (json_is_false(json_object_get(g, "enabled")) && !socket_network(e, text))
            return text;
    }
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)e, key, v) {
        const json_t *s;
        json_array_foreach(v, i, s) {
            const char *line = json_string_value(s);
            if (line &&
                (strstr(line, "GPU Direct RDMA Disabled") || strstr(line, "disabling GDR")) &&
                !socket_network(e, line))
                return line;
        }
    }
    return NULL;
}

/* 1 when NCCL uses GPUDirect RDMA for receives only: NCCL_NET_GDR_READ off, its default
   where the GPU reading over PCIe is not known to be fast (e.g. before NVLink-era
   platforms); then a [send] connection staged through host memory is NCCL's design, not
   GPUDirect off. NCCL says so ("GPU Direct RDMA Enabled for GPU ... (distance 1 < 2),
   read 0"; "read 1" says reads are on, and then a send without it counts); where it says
   neither, a [receive] connection over the network with /GDRDMA shows the NIC writes
   into GPU memory, and NCCL chooses the read side apart (transport/net.cc asks for GDR
   once for the receive, once with read set for the send). */
static int gdr_receive_only(const json_t *e)
{
    size_t i;
    const json_t *g, *t;
    int read_said = 0;
    json_array_foreach(json_object_get(e, "gdr"), i, g) {
        if (!json_is_true(json_object_get(g, "enabled")))
            continue;
        if (json_is_false(json_object_get(g, "read")))
            return 1;
        read_said |= json_is_true(json_object_get(g, "read"));
    }
    if (read_said)
        return 0;
    json_array_foreach(json_object_get(e, "transports"), i, t) {
        if (!strncmp(ls_json_str(t, "transport", ""), "NET", 3) &&
            !strcmp(ls_json_str(t, "side", ""), "receive") &&
            json_is_true(json_object_get(t, "gdrdma")) && !same_node(e, t))
            return 1;
    }
    return 0;
}

static int log_one_node(const log_src_t *src, int n, int i);

static void gdr_disabled(const ls_machine_t *m, const log_src_t *src, int n, json_t *out)
{
    for (int i = 0; i < n; i++) {
        const json_t *e = src[i].obj;
        int without = 0, with = 0, receive_only = gdr_receive_only(e);
        size_t k;
        const json_t *t;
        json_array_foreach(json_object_get(e, "transports"), k, t) {
            const char *tr = ls_json_str(t, "transport", "");
            if (strncmp(tr, "NET", 3) || strstr(tr, "Socket") || same_node(e, t))
                continue;
            if (receive_only && !strcmp(ls_json_str(t, "side", ""), "send"))
                continue; /* read 0: sends staged through the host by NCCL's choice */
            if (json_is_true(json_object_get(t, "gdrdma")))
                with++;
            else
                without++;
        }
        const char *reason = gdr_reason(e);
        if (!without && !reason)
            continue;
        char cause[240], count[96] = "";
        const json_t *gdr = json_object_get(json_object_get(m->doc, "software"), "gpudirect_rdma");
        if (reason)
            snprintf(cause, sizeof cause, "NCCL says: %s", reason);
        else if (gdr && json_is_null(json_object_get(gdr, "module")))
            snprintf(cause, sizeof cause, "no nvidia_peermem module is loaded");
        else
            snprintf(cause, sizeof cause,
                     "the NIC may be too far from the GPU (NCCL_NET_GDR_LEVEL) or peermem missing");
        if (with + without)
            snprintf(count, sizeof count, "%d of %d network connections run without it: ", without,
                     with + without);
        else if (log_one_node(src, n, i)) {
            /* NCCL probes every NIC at init and says so even where the communicator never
               leaves the node: a node's own traffic goes over P2P or SHM, not the NIC */
            ls_finding_about(out, "gdr_disabled", LS_SEV_INFO, src[i].about, src[i].subject,
                             src[i].evidence,
                             "GPUDirect RDMA is off for the node's NICs (%s), but every rank of "
                             "this log is on one node, which NCCL never reaches through its "
                             "network: nothing here is slower for it; it matters when a job "
                             "spans nodes",
                             cause);
            continue;
        }
        ls_finding_about(out, "gdr_disabled", LS_SEV_WARNING, src[i].about, src[i].subject,
                         src[i].evidence,
                         "GPUDirect RDMA is off: %snetwork traffic is staged through host memory "
                         "(%s); next: "
                         "`lsmod | grep peermem`, `nvidia-smi topo -m` (GPU-NIC distance), "
                         "NCCL_DEBUG=INFO for the "
                         "distance NCCL measured",
                         count, cause);
    }
}

/* 1 when the environment turned NCCL's IB transport off (NCCL_IB_DISABLE=1 in the
   document's env, which holds the log's "set by environment" lines too): then sockets
   are what was asked for, not a fall-back. */
static int ib_disabled_by_env(const ls_machine_t *m)
{
    const char *v = ls_json_str(json_object_get(m->doc, "env"), "NCCL_IB_DISABLE", "");
    return v[0] == '1' && (v[1] == '\0' || v[1] == '.');
}

/* The most GPUs one host of an NVSwitch fabric without a multi-node NVLink domain holds:
   Hopper and Blackwell HGX/DGX baseboards carry 8 GPUs (HGX H100/H200/H20/H800, B200,
   B300); more GPUs on one NVLink fabric come only as a multi-node domain (GB200 NVL72,
   GH200 NVL32), which gives the fabric a cluster UUID. */
#define LS_NVSWITCH_NODE_GPUS 8

/* 1 when the log's ranks cannot all sit on one host: NCCL's MNNVL line says the GPU is on
   an NVSwitch fabric registered with Fabric Manager (state 3) with no multi-node NVLink
   domain (cluster UUID 0), so its node holds at most LS_NVSWITCH_NODE_GPUS GPUs, and NCCL
   refuses two ranks of one communicator on one GPU ("Duplicate GPU detected"). */
static int ranks_exceed_node(const json_t *e)
{
    const json_t *f = json_object_get(e, "fabric");
    return f && ls_json_int(f, "state", 0) == 3 &&
           json_is_true(json_object_get(f, "cluster_uuid_zero")) &&
           ls_json_int(e, "nranks", 0) > LS_NVSWITCH_NODE_GPUS;
}

static void net_socket(const ls_machine_t *m, const log_src_t *src, int n, json_t *out)
{
    for (int i = 0; i < n; i++) {
        const json_t *e = src[i].obj;
        int sockets = 0;
        size_t k;
        const json_t *t;
        json_array_foreach(json_object_get(e, "transports"), k, t) {
            sockets += strstr(ls_json_str(t, "transport", ""), "Socket") != NULL;
        }
        /* "Using network Socket" matters only where traffic leaves the node */
        size_t hosts = json_array_size(json_object_get(e, "hosts"));
        int beyond = ranks_exceed_node(e);
        int said = !strcmp(ls_json_str(e, "network", ""), "Socket") &&
                   (hosts > 1 || ls_json_int(e, "nnodes", 1) > 1 ||
                    ls_json_int(e, "nodes", 1) > 1 || beyond);
        if (!sockets && !said)
            continue;
        char conns[200] = "";
        if (sockets)
            snprintf(conns, sizeof conns, ", %d connection%s", sockets, sockets == 1 ? "" : "s");
        else if (beyond && hosts <= 1 && ls_json_int(e, "nnodes", 1) <= 1)
            snprintf(conns, sizeof conns,
                     "; %lld ranks, more than the %d GPUs a node of this NVSwitch fabric holds "
                     "(NCCL's MNNVL line: registered, no multi-node NVLink domain), so the "
                     "communicator spans nodes",
                     ls_json_int(e, "nranks", 0), LS_NVSWITCH_NODE_GPUS);
        if (ib_disabled_by_env(m)) {
            ls_finding_about(out, "net_socket", LS_SEV_INFO, src[i].about, src[i].subject,
                             "env.NCCL_IB_DISABLE",
                             "NCCL uses TCP sockets (NET/Socket%s) because NCCL_IB_DISABLE=1 is "
                             "set: asked for, "
                             "not a fall-back; bandwidth is that of the kernel's TCP stack; next: "
                             "unset "
                             "NCCL_IB_DISABLE where an InfiniBand/RoCE NIC is meant to carry the "
                             "traffic",
                             conns);
            continue;
        }
        ls_finding_about(out, "net_socket", LS_SEV_WARNING, src[i].about, src[i].subject,
                         src[i].evidence,
                         "NCCL fell back to TCP sockets (NET/Socket%s): no usable RDMA device "
                         "(no "
                         "InfiniBand/RoCE NIC, the IB verbs library or driver missing, or "
                         "NCCL_IB_DISABLE=1), so "
                         "bandwidth is that of the kernel's TCP stack; next: `ibv_devinfo`, "
                         "NCCL_DEBUG=INFO "
                         "NCCL_DEBUG_SUBSYS=NET for why NET/IB was not used",
                         conns);
    }
}

/* WARN lines of one source grouped by catalog row (or by text, for a line the catalog
   does not know): {key: {text, at?, count, hosts[], gpus[]}} in first-seen order. */
/* One WARN text (w: {text, host, gpu, at}) into its group: by catalog id (a row of the
   source file that printed it included), else by text. */
static void group_warning(json_t *groups, const json_t *w)
{
    const char *text = ls_json_str(w, "text", "");
    ls_nccl_message_t msg;
    const char *key = ls_nccl_message_match_at(ls_json_str(w, "at", NULL), text, &msg) == 0 ? msg.id
                                                                                            : text;
    json_t *g = json_object_get(groups, key);
    if (!g) {
        g = json_pack("{s:s, s:i, s:[], s:[], s:b}", "text", text, "count", 0, "hosts", "gpus",
                      "went_on", 1);
        if (json_object_get(w, "at")) /* the source file that named the row */
            json_object_set(g, "at", json_object_get(w, "at"));
        json_object_set_new(groups, key, g);
    }
    if (!json_is_true(json_object_get(w, "went_on"))) /* every line's thread went on */
        json_object_set_new(g, "went_on", json_false());
    json_object_set_new(g, "count", json_integer(ls_json_int(g, "count", 0) + 1));
    const json_t *h = json_object_get(w, "host");
    json_t *hosts = json_object_get(g, "hosts"), *gpus = json_object_get(g, "gpus");
    size_t k;
    const json_t *v;
    int seen = 0;
    json_array_foreach(hosts, k, v)
        seen |= json_equal(v, h);
    if (h && !seen)
        json_array_append(hosts, (json_t *)h);
    const json_t *gpu = json_object_get(w, "gpu");
    seen = 0;
    json_array_foreach(gpus, k, v)
        seen |= json_equal(v, gpu);
    if (gpu && !seen)
        json_array_append(gpus, (json_t *)gpu);
}

/* The log's WARN lines, and its bare network-transport messages (pasted without NCCL's
   prefix, import/nccl_log_bare.h) that the catalog knows as warnings; a bare message the
   catalog does not know (an INFO line such as "NET/IB : Using [0]mlx5_0:1/IB") is no
   warning. */
static json_t *warn_groups(const json_t *e)
{
    json_t *groups = json_object();
    size_t i;
    const json_t *w;
    json_array_foreach(json_object_get(e, "warnings"), i, w)
        group_warning(groups, w);
    json_array_foreach(json_object_get(e, "bare_messages"), i, w) {
        ls_nccl_message_t msg;
        if (ls_nccl_message_match(json_string_value(w), &msg) != 0)
            continue;
        json_t *one = json_pack("{s:O}", "text", w);
        group_warning(groups, one);
        json_decref(one);
    }
    return groups;
}

/* " on host a, b; GPU 0, 3" from a group's hosts and GPUs ("" when neither is known). */
static void warn_where(const json_t *g, char *out, size_t len)
{
    char hosts[160] = "", gpus[96] = "";
    int nh = 0, ng = 0;
    size_t k;
    const json_t *v;
    json_array_foreach(json_object_get(g, "hosts"), k, v)
        append(hosts, sizeof hosts, &nh, json_string_value(v));
    json_array_foreach(json_object_get(g, "gpus"), k, v) {
        char num[24];
        snprintf(num, sizeof num, "%lld", (long long)json_integer_value(v));
        append(gpus, sizeof gpus, &ng, num);
    }
    snprintf(out, len, "%s%s%s%s%s%s", nh || ng ? " on " : "",
             nh ? (nh > 1 ? "hosts " : "host ") : "", hosts, nh && ng ? ", " : "",
             ng ? (ng > 1 ? "GPUs " : "GPU ") : "", gpus);
}

/* ncclResult_t (NCCL's src/nccl.h.in): what the number NCCLCHECK's trail passes up means. */
static const char *const result_names[] = {
    [1] = "ncclUnhandledCudaError: a CUDA call failed",
    [2] = "ncclSystemError: a system call (socket, memory, file) failed",
    [3] = "ncclInternalError: an internal check failed",
    [4] = "ncclInvalidArgument: a bad argument",
    [5] = "ncclInvalidUsage: the API was used wrongly",
    [6] = "ncclRemoteError: a remote peer failed or went away",
    [7] = "ncclInProgress",
    [8] = "ncclTimeout: an operation timed out",
};

/* " on HOST, GPU N" of one line's host and GPU, in warn_where's words. */
static void line_where(const json_t *line, char *where, size_t len)
{
    json_t *g = json_pack("{s:[], s:[]}", "hosts", "gpus");
    if (*ls_json_str(line, "host", ""))
        json_array_append(json_object_get(g, "hosts"), json_object_get(line, "host"));
    if (json_object_get(line, "gpu"))
        json_array_append(json_object_get(g, "gpus"), json_object_get(line, "gpu"));
    warn_where(g, where, len);
    json_decref(g);
}

/* A failed call's return-code trail ("misc/socket.cc:564 -> 2" up to "group.cc:64 -> 2")
   where the paste holds no WARN line: one finding per code, host and GPU
   (import/nccl_log_extras.c). Info where every trail's thread went on after it (the code
   was handled); else a warning that says whether NCCL stopped on it is unknown. */
static void error_trails(const log_src_t *src, json_t *out)
{
    size_t k;
    const json_t *t;
    json_array_foreach(json_object_get(src->obj, "error_trails"), k, t) {
        long long code = ls_json_int(t, "code", 0);
        const char *name = code > 0 &&
                                   code <
                                       (long long)(sizeof result_names / sizeof result_names[0]) &&
                                   result_names[code]
                               ? result_names[code]
                               : "an NCCL error code this build does not name";
        char where[300];
        line_where(t, where, sizeof where);
        if (json_is_true(json_object_get(t, "went_on"))) {
            /* the same host:pid:tid printed NCCL's next steps after the trail: the caller
               took the code and went on (NCCL 2.4's net.cc reads an unresolvable NIC PCI
               path, include/net.h:19, as distance SYS; import/nccl_log_extras.c) */
            ls_finding_about(out, "nccl_warn", LS_SEV_INFO, src->about, src->subject, src->evidence,
                             "an NCCL call returned error %lld (%s)%s at %s (%lld line%s of its "
                             "return-code trail), and the thread that printed it went on with "
                             "NCCL's work after it: NCCL handled the code itself (a probe it "
                             "falls back from), not a failure; next: nothing for these lines",
                             code, name, where, ls_json_str(t, "at", "unknown"),
                             ls_json_int(t, "lines", 1),
                             ls_json_int(t, "lines", 1) == 1 ? "" : "s");
            continue;
        }
        ls_finding_about(out, "nccl_warn", LS_SEV_WARNING, src->about, src->subject, src->evidence,
                         "an NCCL call returned error %lld (%s)%s, raised at %s (%lld line%s of "
                         "its return-code trail); the paste holds no WARN line saying why, and "
                         "whether NCCL handled the code or stopped on it is unknown from the "
                         "text (no later line of the thread that printed it shows it going on); "
                         "next: the lines before it, or rerun with NCCL_DEBUG=WARN (INFO for the "
                         "context)",
                         code, name, where, ls_json_str(t, "at", "unknown"),
                         ls_json_int(t, "lines", 1), ls_json_int(t, "lines", 1) == 1 ? "" : "s");
    }
}

/* The catalog's rows for a TCP connection to another rank that failed from its far end or
   on the way to it (refused, closed, reset, timed out, retries used up): the line is about
   the peer or the network between, not this node's GPUs, so its finding carries node
   action none (the peer's own log holds the cause); so do the job's set-up rows below.
   Other WARN lines stay without one. */
static const char *const peer_socket_ids[] = {
    "socket_closed",     "socket_connect",     "socket_refused",
    "socket_timeout",    "socket_reset",       "socket_recv",
    "socket_recv_errno", "socket_retries_out", "socket_retries_out_old",
};

/* The catalog's rows whose every likely cause is the job's own set-up, never the node's
   hardware (data/nccl-messages.tsv's cause column): an address never filled in
   (socket_family: NCCL_SOCKET_IFNAME matching nothing, or a unique id garbled between
   ranks of different NCCL versions), an interface NCCL_SOCKET_IFNAME names missing
   (no_socket_if), two ranks given one GPU (duplicate_gpu), a setting NCCL refused
   (env_ignored), one rank given to two processes or world sizes that differ between
   processes (bootstrap.cc's root: bootstrap_rank_twice, bootstrap_nranks_mismatch).
   Fixing the launch mends them; the node stays in service: node action none. */
static const char *const job_setup_ids[] = {"socket_family",        "no_socket_if",
                                            "duplicate_gpu",        "env_ignored",
                                            "bootstrap_rank_twice", "bootstrap_nranks_mismatch"};

static int listed(const char *id, const char *const *ids, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(id, ids[i]))
            return 1;
    return 0;
}

static void peer_socket_action(const char *id, json_t *out)
{
    if (listed(id, peer_socket_ids, sizeof peer_socket_ids / sizeof peer_socket_ids[0]) ||
        listed(id, job_setup_ids, sizeof job_setup_ids / sizeof job_setup_ids[0]))
        json_object_set_new(json_array_get(out, json_array_size(out) - 1), "node_action",
                            json_string(ls_action_name(LS_ACT_NONE)));
}

/* A socket connect NCCL retried (import/nccl_log_extras.c) where the paste holds no WARN
   line: retries used up (the attempt NCCL_SOCKET_RETRY_CNT of its count) end NCCL's init
   with the WARN the paste cut; fewer are info (Connection refused while a peer starts is
   normal). */
static void connect_retries(const log_src_t *src, json_t *out)
{
    size_t k;
    const json_t *r;
    json_array_foreach(json_object_get(src->obj, "connect_retries"), k, r) {
        long long n = ls_json_int(r, "attempt", 0), of = ls_json_int(r, "of", 0);
        char where[300];
        line_where(r, where, sizeof where);
        ls_finding_about(out, "nccl_warn", n >= of ? LS_SEV_ERROR : LS_SEV_INFO, src->about,
                         src->subject, src->evidence,
                         "NCCL's socket connect%s failed with \"%s\" and was retried %lld of %lld "
                         "times (NCCL_SOCKET_RETRY_CNT)%s; likely: no route between the hosts on "
                         "the interface NCCL chose, a firewall, or the peer not listening; next: "
                         "NCCL_SOCKET_IFNAME, `ip route get` and `ping` to the peer from this host",
                         where, ls_json_str(r, "error", "unknown"), n, of,
                         n >= of ? ": the retries are used up, so NCCL's set-up fails with it"
                                 : "");
        peer_socket_action("socket_retries_out", out); /* the same failure, its WARN cut */
    }
}

/* 1 when an nccl-tests entry read from the same file as log lists nranks ranks on one
   host: its rank lines (printed by rank 0 for every rank of the run) name as many distinct
   GPUs as the run has ranks and no second host (no "nodes", not several runs). */
static int entry_one_host(const log_src_t *src, int n, const json_t *log)
{
    const char *file = ls_json_str(log, "file", ""), *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    for (int j = 0; j < n; j++) {
        const json_t *e = src[j].obj;
        long long nranks = ls_json_int(e, "nranks", 0);
        if (src[j].is_entry && nranks > 0 && !strcmp(ls_json_str(e, "source_file", ""), base) &&
            entry_nodes(e) <= 1 && !json_object_get(e, "separate_runs") &&
            (long long)json_array_size(json_object_get(e, "gpus")) >= nranks)
            return 1;
    }
    return 0;
}

/* 1 when the text shows every rank of the log's communicator on one node: NCCL's "nNodes
   1", rank 0's node holding all ranks ("localRanks" = "nRanks"), each rank's host known
   and one, the bootstrap on the loopback alone (import: bootstrap_loopback), or
   nccl-tests' rank lines of the same paste (entry_one_host); never where the
   log names two hosts or shows a connection over the network (NET/...: a communicator,
   another than the one whose ranks were counted, leaves the node). */
static int log_one_node(const log_src_t *src, int n, int i)
{
    const json_t *e = src[i].obj;
    if (src[i].is_entry || json_array_size(json_object_get(e, "hosts")) > 1)
        return 0;
    size_t k;
    const json_t *t;
    json_array_foreach(json_object_get(e, "transports"), k, t) {
        if (!strncmp(ls_json_str(t, "transport", ""), "NET", 3))
            return 0; /* a connection over the network: some communicator leaves the node */
    }
    long long nranks = ls_json_int(e, "nranks", 0);
    if (json_object_get(e, "nnodes"))
        return ls_json_int(e, "nnodes", 0) == 1;
    if (json_is_true(json_object_get(e, "bootstrap_loopback")))
        return 1; /* ranks of another node cannot reach a bootstrap on 127.0.0.1 */
    if (nranks > 0 && ls_json_int(e, "local_ranks", 0) == nranks)
        return 1;
    if (nranks > 0 && (long long)json_object_size(json_object_get(e, "rank_hosts")) >= nranks)
        return 1; /* every rank's host named, and the log names one host */
    return entry_one_host(src, n, e);
}

/* The catalog rows a one-node communicator does not care about: the IB verbs library
   missing only takes NET/IB away, and NCCL carries a node's own traffic over P2P or SHM,
   never its network (NCCL 2.12 and later print the same "Failed to open libibverbs.so[.1]"
   as INFO, misc/ibvwrap.cc; 2.4 to 2.11 as WARN). */
static int harmless_in_one_node(const char *id)
{
    return !strcmp(id, "ibverbs_missing");
}

/* The catalog rows of a network plugin failing (aws-ofi-nccl's NET/OFI lines, NCCL's
   NET/Plugin loader): NCCL then goes on with its own transports, and a one-node
   communicator never uses a network for its traffic (log_one_node also finds no
   connection over one), so there it is shown as info. */
static int plugin_row(const char *id)
{
    return !strcmp(id, "ofi_error") || !strcmp(id, "net_plugin");
}

/* 1 when at ("net_fastsocket.cc:765", a WARN line's FILE:LINE) is a network plugin's
   source file, not NCCL's own: NCCL's transports are net.cc, net_ib.cc and net_socket.cc
   (.cu before 2.19); a plugin (nccl-fastsocket's net_fastsocket.cc, aws-ofi-nccl's
   nccl_ofi_*.c) prints through NCCL's logger with its own file names. */
static int plugin_source(const char *at)
{
    static const char *const own[] = {"net.cc",    "net.cu",        "net_ib.cc",
                                      "net_ib.cu", "net_socket.cc", "net_socket.cu"};
    if (!at || !*at)
        return 0;
    const char *base = strrchr(at, '/');
    base = base ? base + 1 : at;
    size_t n = strcspn(base, ":");
    if (!(n > 4 && !strncmp(base, "net_", 4)) && strncmp(base, "nccl_ofi", 8))
        return 0;
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (strlen(own[i]) == n && !strncmp(base, own[i], n))
            return 0;
    return 1;
}

/* A network plugin's WARN the catalog does not know (it holds NCCL's own messages): shown,
   not judged. Where the thread that printed each of its lines went on with its work after
   it (a later INFO line of that thread, no return-code trail: import/nccl_log_extras.c),
   the plugin handled it and carried on, so the node needs nothing for it (node action
   none); else whether it hurt the job is in what follows it. */
static void plugin_warning(const log_src_t *src, const json_t *g, const char *where,
                           const char *times, json_t *out)
{
    int went_on = json_is_true(json_object_get(g, "went_on"));
    ls_finding_about(out, "nccl_warn", LS_SEV_INFO, src->about, src->subject, src->evidence,
                     "a network plugin's own warning%s%s: \"%s\"; it is the plugin's word, not "
                     "NCCL's (linkscope's catalog holds NCCL's messages): %s",
                     where, times, ls_json_str(g, "text", ""),
                     went_on ? "the thread that printed it went on with its work after it (a "
                               "later line of that thread), so the plugin handled it and "
                               "carried on; next: nothing for the node"
                             : "whether it hurt the job is in what follows it (NCCL's own WARN "
                               "lines, an error code, a timeout)");
    if (went_on)
        json_object_set_new(json_array_get(out, json_array_size(out) - 1), "node_action",
                            json_string(ls_action_name(LS_ACT_NONE)));
}

/* nccl_warn: every WARN line of a log, named from the catalog (data/nccl-messages.tsv)
   with the host and GPU that printed it; a line the catalog does not know still shows,
   as an unrecognized NCCL warning with its text. */
static void nccl_warn(const log_src_t *src, int n, json_t *out)
{
    for (int i = 0; i < n; i++) {
        json_t *groups = warn_groups(src[i].obj);
        if (!json_object_size(groups)) { /* a WARN line, where there is one, says it better */
            error_trails(&src[i], out);
            connect_retries(&src[i], out);
        }
        const char *key;
        json_t *g;
        json_object_foreach(groups, key, g) {
            char where[300], times[32] = "";
            warn_where(g, where, sizeof where);
            long long count = ls_json_int(g, "count", 1);
            if (count > 1)
                snprintf(times, sizeof times, ", %lld lines", count);
            const char *text = ls_json_str(g, "text", "");
            ls_nccl_message_t msg;
            if (ls_nccl_message_match_at(ls_json_str(g, "at", NULL), text, &msg) != 0 &&
                plugin_source(ls_json_str(g, "at", NULL))) {
                plugin_warning(&src[i], g, where, times, out);
                continue;
            }
            if (ls_nccl_message_match_at(ls_json_str(g, "at", NULL), text, &msg) != 0) {
                ls_finding_about(out, "nccl_warn", LS_SEV_WARNING, src[i].about, src[i].subject,
                                 src[i].evidence,
                                 "unrecognized NCCL warning%s%s: \"%s\"; the lines before it in "
                                 "the log "
                                 "say what NCCL was doing",
                                 where, times, text);
                continue;
            }
            if (harmless_in_one_node(msg.id) && log_one_node(src, n, i))
                continue;
            int moot = plugin_row(msg.id) && log_one_node(src, n, i);
            char tail[700];
            if (moot)
                snprintf(tail, sizeof tail,
                         "harmless here: every rank of this log is on one node, whose traffic "
                         "NCCL carries over P2P or SHM, never a network plugin; it matters when "
                         "a job spans nodes (then: %s)",
                         msg.next);
            else
                snprintf(tail, sizeof tail, "likely: %s; next: %s", msg.cause, msg.next);
            ls_finding_about(out, "nccl_warn", moot ? LS_SEV_INFO : (enum ls_severity)msg.severity,
                             src[i].about, src[i].subject, src[i].evidence,
                             "%s (%s%s%s): \"%s\"; %s", msg.meaning, msg.subsystem, where, times,
                             text, tail);
            if (moot)
                json_object_set_new(json_array_get(out, json_array_size(out) - 1), "node_action",
                                    json_string(ls_action_name(LS_ACT_NONE)));
            peer_socket_action(msg.id, out);
        }
        json_decref(groups);
    }
}

/* NCCL's "P2P is disabled between [NVLINK] connected GPUs A and B" (import: p2p_disabled):
   NVML says the pair has no peer access although PCIe below SYS or NVLink joins them, so
   NCCL moves their traffic through host memory; its "Could not enable P2P between dev A
   and dev B" ("by": "cuda"): CUDA's cudaDeviceCanAccessPeer said no for the pair. One
   finding per log, unless the document already named unavailable pairs from a topology
   or a P2P test (rules_p2p.c). */
static void p2p_disabled(const log_src_t *src, int n, json_t *out)
{
    size_t k;
    const json_t *f;
    json_array_foreach(out, k, f)
        if (!strcmp(ls_json_str(f, "rule", ""), "p2p_unavailable"))
            return;
    for (int i = 0; i < n; i++) {
        const json_t *list = json_object_get(src[i].obj, "p2p_disabled"), *p;
        char pairs[160] = "", host[96] = "";
        int np = 0, by_nvml = 0;
        json_array_foreach(list, k, p) {
            by_nvml |= strcmp(ls_json_str(p, "by", "nvml"), "cuda") != 0;
            char one[32];
            snprintf(one, sizeof one, "%lld<->%lld",
                     (long long)json_integer_value(json_array_get(json_object_get(p, "gpus"), 0)),
                     (long long)json_integer_value(json_array_get(json_object_get(p, "gpus"), 1)));
            if (np++ < EDGES_LISTED) {
                size_t used = strlen(pairs);
                snprintf(pairs + used, sizeof pairs - used, "%s%s", np > 1 ? ", " : "", one);
            }
            if (!host[0] && *ls_json_str(p, "host", ""))
                snprintf(host, sizeof host, " on %s", ls_json_str(p, "host", ""));
        }
        if (!np)
            continue;
        ls_finding_add(out, "p2p_unavailable", LS_SEV_WARNING, src[i].about,
                       json_pack("[s]", src[i].evidence),
                       "%s: NCCL found peer-to-peer access off between %s%s (%s: %s) and "
                       "sends their traffic through host memory (SHM); likely: consumer boards "
                       "whose driver disables P2P, a VM, or ACS/IOMMU on the PCIe path; next: "
                       "`nvidia-smi topo -p2p r`, check ACS: `lspci -vvv | grep ACSCtl`",
                       src[i].subject, by_nvml ? "connected GPUs" : "CUDA devices", host, pairs,
                       by_nvml ? "NVML reports their P2P status not OK"
                               : "cudaDeviceCanAccessPeer says no");
    }
}

/* A log of one-rank communicators: NCCL prints each channel's ring as the ordered list of
   all the communicator's ranks ("Channel 00/32 :    0 1 2 3"), so where every ring is
   the one rank 0 (and no rank line says more) the communicator holds one rank and NCCL
   moves nothing between GPUs or nodes. Info: one GPU alone is a normal job; where more
   were meant, the processes never joined one communicator (each started its own). */
static void one_rank_rings(const log_src_t *src, int n, json_t *out)
{
    for (int i = 0; i < n; i++) {
        const json_t *e = src[i].obj, *r, *rk;
        size_t k, rings = json_array_size(json_object_get(e, "rings"));
        int one = rings > 0 && !src[i].is_entry && ls_json_int(e, "nranks", 1) == 1 &&
                  ls_json_int(e, "ring_ranks_max", 1) == 1 &&
                  !json_array_size(json_object_get(e, "transports"));
        json_array_foreach(json_object_get(e, "rings"), k, r) {
            const json_t *ranks = json_object_get(r, "ranks");
            one &= json_array_size(ranks) == 1 && json_integer_value(json_array_get(ranks, 0)) == 0;
        }
        json_array_foreach(json_object_get(e, "ranks"), k, rk)
            one &= ls_json_int(rk, "rank", 0) == 0;
        if (!one)
            continue;
        size_t hosts = json_array_size(json_object_get(e, "hosts"));
        ls_finding_about(out, "separate_runs", LS_SEV_INFO, src[i].about, src[i].subject,
                         src[i].evidence,
                         "every ring of the log (%zu channel%s) is rank 0 alone%s: a one-rank "
                         "communicator, so NCCL moves no data between GPUs or nodes in it; "
                         "normal for a one-GPU job, but where more GPUs or nodes were meant their "
                         "processes never joined one communicator (each started its own "
                         "one-rank run); next: check the launcher passes the rank and world size "
                         "(torchrun / mpirun -np N; nccl-tests built with MPI=1)",
                         rings, rings == 1 ? "" : "s",
                         hosts > 1 ? ", on each host that printed one" : "");
    }
}

#define MAX_SOURCES 256

void ls_rules_nccl_log(const ls_machine_t *m, json_t *out)
{
    log_src_t *src = calloc(MAX_SOURCES, sizeof *src);
    if (!src)
        return;
    int n = sources(m, src, MAX_SOURCES);
    nccl_transport(m, src, n, out);
    gdr_disabled(m, src, n, out);
    net_socket(m, src, n, out);
    nccl_warn(src, n, out);
    p2p_disabled(src, n, out);
    p2p_env_off(m, out);
    one_rank_rings(src, n, out);
    free(src);
}
