/* Rules on NCCL's own log (transports of nccl entries, live or imported): GPUs of one
   node connected through SHM or the network instead of P2P, network traffic without
   GPUDirect RDMA, and a fall-back to TCP sockets. */
#include "rules.h"
#include "model/doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EDGES_LISTED 6

/* Host of a rank from the entry's ranks[] (multi-node imports); NULL when unknown. */
static const char *rank_host(const json_t *e, long long rank)
{
    size_t i;
    const json_t *r;
    json_array_foreach(json_object_get(e, "ranks"), i, r)
    {
        if (ls_json_int(r, "rank", -1) == rank)
            return ls_json_str(r, "host", NULL);
    }
    return NULL;
}

/* 1 when a transport joins two GPUs of one node. */
static int same_node(const json_t *e, const json_t *t)
{
    long long fr = ls_json_int(t, "from_rank", -1), tr = ls_json_int(t, "to_rank", -1);
    if (ls_json_int(e, "nodes", 1) > 1 || json_array_size(json_object_get(e, "ranks")) > 0) {
        const char *a = rank_host(e, fr), *b = rank_host(e, tr);
        return a && b && !strcmp(a, b) && fr != tr;
    }
    long long from = ls_json_int(t, "from", -1), to = ls_json_int(t, "to", -1);
    return from >= 0 && to >= 0 && from != to;
}

static int is_default(const json_t *e)
{
    return !strcmp(ls_json_str(e, "variant", "default"), "default");
}

static int p2p_switched_off(const ls_machine_t *m, const json_t *e)
{
    const char *v = ls_json_str(e, "variant", "");
    const char *env = ls_json_str(json_object_get(m->doc, "env"), "NCCL_P2P_DISABLE", "");
    return strstr(v, "NCCL_P2P_DISABLE=1") || strstr(v, "NCCL_P2P_LEVEL=LOC") || !strcmp(env, "1");
}

static void append(char *list, size_t len, int *n, const char *item)
{
    if (*n < EDGES_LISTED && !strstr(list, item)) {
        size_t used = strlen(list);
        snprintf(list + used, len - used, "%s%s", *n ? ", " : "", item);
        (*n)++;
    }
}

static void nccl_transport(const ls_machine_t *m, json_t *out)
{
    json_t *seen = json_object(); /* one finding per GPU set and collective */
    for (long i = ls_doc_next_measurement(m->doc, "nccl", 0); i >= 0; i = ls_doc_next_measurement(m->doc, "nccl", i + 1)) {
        const json_t *e = ls_measurement(m, (size_t)i);
        char set[96], subject[128], edges[256] = "", kinds[64] = "";
        int n = 0, nk = 0, all_p2p_ok = m->has_topo && m->topo->has_p2p, all_known = all_p2p_ok, any = 0;
        ls_format_gpu_mask(ls_gpu_mask_of(json_object_get(e, "gpus")), set, sizeof set);
        snprintf(subject, sizeof subject, "%s on GPUs %s", ls_json_str(e, "collective", "nccl"), set);
        if (json_object_get(seen, subject))
            continue;
        size_t k;
        const json_t *t;
        json_array_foreach(json_object_get(e, "transports"), k, t)
        {
            const char *tr = ls_json_str(t, "transport", "");
            if ((strncmp(tr, "SHM", 3) && strncmp(tr, "NET", 3)) || !same_node(e, t))
                continue;
            long long a = ls_json_int(t, "from", -1), b = ls_json_int(t, "to", -1);
            char edge[48], kind[16];
            snprintf(edge, sizeof edge, "GPU%lld->GPU%lld", a, b);
            snprintf(kind, sizeof kind, "%.3s", tr);
            append(edges, sizeof edges, &n, edge);
            append(kinds, sizeof kinds, &nk, kind);
            any = 1;
            if (a < 0 || b < 0 || a >= m->ngpus || b >= m->ngpus || !ls_machine_p2p_ok(m, (int)a, (int)b))
                all_p2p_ok = 0;
            /* known both ways: P2P OK (nccl_p2p_unused grades it) or not possible (p2p_unavailable) */
            if (a < 0 || b < 0 || a >= m->ngpus || b >= m->ngpus ||
                m->topo->p2p_read[a][b] == LS_P2P_UNKNOWN || m->topo->p2p_write[a][b] == LS_P2P_UNKNOWN)
                all_known = 0;
        }
        if (!any)
            continue;
        json_object_set_new(seen, subject, json_true());
        int off = p2p_switched_off(m, e);
        /* where the topology says P2P is OK, nccl_p2p_unused grades it with the variants;
           where it says P2P is impossible, p2p_unavailable does */
        enum ls_severity sev = off || (all_known && is_default(e)) ? LS_SEV_INFO : LS_SEV_WARNING;
        ls_finding_add(out, "nccl_transport", sev, subject, json_pack("[s]", ls_json_str(e, "id", "")),
                       "%s: NCCL connected GPUs of one node through %s (%s%s) instead of P2P, so their traffic "
                       "goes through host memory%s; %s; next: NCCL_DEBUG=INFO shows why, and `nvidia-smi topo "
                       "-p2p r` whether P2P is possible",
                       subject, kinds, edges, n >= EDGES_LISTED ? ", ..." : "",
                       off ? " (P2P was switched off for this run: NCCL_P2P_DISABLE or NCCL_P2P_LEVEL=LOC)" : "",
                       all_p2p_ok   ? "P2P is OK in the topology: NCCL's P2P level (default PXB) stops short of "
                                    "this path, try NCCL_P2P_LEVEL=PHB or SYS"
                       : all_known  ? "the topology says P2P is not possible between them (p2p_unavailable)"
                                    : "likely P2P unavailable (consumer boards, a VM, ACS/IOMMU) or beyond NCCL's "
                                    "P2P level");
    }
    json_decref(seen);
}

/* A line of the entry's text fields that explains GPUDirect RDMA being off (NCCL prints
   "GPU Direct RDMA Disabled for HCA 0 'mlx5_0' (distance 5 > 2)"); NULL when none. */
static const char *gdr_reason(const json_t *e)
{
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)e, key, v)
    {
        size_t i;
        const json_t *s;
        json_array_foreach(v, i, s)
        {
            if (json_is_string(s) && strstr(json_string_value(s), "GPU Direct RDMA Disabled"))
                return json_string_value(s);
        }
    }
    return NULL;
}

static void gdr_disabled(const ls_machine_t *m, json_t *out)
{
    for (long i = ls_doc_next_measurement(m->doc, "nccl", 0); i >= 0; i = ls_doc_next_measurement(m->doc, "nccl", i + 1)) {
        const json_t *e = ls_measurement(m, (size_t)i);
        int without = 0, with = 0;
        size_t k;
        const json_t *t;
        json_array_foreach(json_object_get(e, "transports"), k, t)
        {
            const char *tr = ls_json_str(t, "transport", "");
            if (strncmp(tr, "NET", 3) || strstr(tr, "Socket"))
                continue;
            if (json_is_true(json_object_get(t, "gdrdma")))
                with++;
            else
                without++;
        }
        const char *reason = gdr_reason(e);
        if (!without && !reason)
            continue;
        char set[96], subject[128], cause[200];
        ls_format_gpu_mask(ls_gpu_mask_of(json_object_get(e, "gpus")), set, sizeof set);
        snprintf(subject, sizeof subject, "%s on GPUs %s", ls_json_str(e, "collective", "nccl"), set);
        const json_t *gdr = json_object_get(json_object_get(m->doc, "software"), "gpudirect_rdma");
        if (reason)
            snprintf(cause, sizeof cause, "NCCL says: %s", reason);
        else if (gdr && json_is_null(json_object_get(gdr, "module")))
            snprintf(cause, sizeof cause, "no nvidia_peermem module is loaded");
        else
            snprintf(cause, sizeof cause, "the NIC may be too far from the GPU (NCCL_NET_GDR_LEVEL) or peermem missing");
        ls_finding_add(out, "gdr_disabled", LS_SEV_WARNING, subject, json_pack("[s]", ls_json_str(e, "id", "")),
                       "%s: %d of %d network connections run without GPUDirect RDMA, staging through host memory "
                       "(%s); next: `lsmod | grep peermem`, `nvidia-smi topo -m` (GPU-NIC distance), NCCL_DEBUG=INFO "
                       "for the distance NCCL measured",
                       subject, without ? without : with + without, with + without, cause);
    }
}

static void net_socket(const ls_machine_t *m, json_t *out)
{
    for (long i = ls_doc_next_measurement(m->doc, "nccl", 0); i >= 0; i = ls_doc_next_measurement(m->doc, "nccl", i + 1)) {
        const json_t *e = ls_measurement(m, (size_t)i);
        int n = 0;
        size_t k;
        const json_t *t;
        json_array_foreach(json_object_get(e, "transports"), k, t)
        {
            n += strstr(ls_json_str(t, "transport", ""), "Socket") != NULL;
        }
        if (!n)
            continue;
        char set[96], subject[128];
        ls_format_gpu_mask(ls_gpu_mask_of(json_object_get(e, "gpus")), set, sizeof set);
        snprintf(subject, sizeof subject, "%s on GPUs %s", ls_json_str(e, "collective", "nccl"), set);
        ls_finding_add(out, "net_socket", LS_SEV_WARNING, subject, json_pack("[s]", ls_json_str(e, "id", "")),
                       "%s: NCCL fell back to TCP sockets (NET/Socket, %d connections): no usable RDMA device (no "
                       "InfiniBand/RoCE NIC, the IB verbs library or driver missing, or NCCL_IB_DISABLE=1), so "
                       "bandwidth is that of the kernel's TCP stack; next: `ibv_devinfo`, NCCL_DEBUG=INFO "
                       "NCCL_DEBUG_SUBSYS=NET for why NET/IB was not used",
                       subject, n);
    }
}

void ls_rules_nccl_log(const ls_machine_t *m, json_t *out)
{
    nccl_transport(m, out);
    gdr_disabled(m, out);
    net_socket(m, out);
}
