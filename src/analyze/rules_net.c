/* A multi-node collective's bus bandwidth against the NICs NCCL says it uses (net_below_nics).
   NCCL spreads a ring's channels over a node's NICs and every ring crosses each node
   boundary, so past the latency-bound sizes an all-node ring's busbw approaches the sum of
   one node's NIC bandwidth (NCCL's maintainers quote ~24 GB/s busbw per 200 Gb/s NIC, 96%
   of its 25 GB/s line rate: NVIDIA/nccl-tests#119). Judged only where the log printed every
   NIC's speed (`NET/IB: [0] mlx5_0:uverbs0:1/IB … speed=200000`) and each node has at least
   as many ranks as NICs (a NIC needs a GPU to drive it; with fewer, the GPUs' own PCIe
   links bound the figure). */
#include "rules.h"
#include "machine.h"
#include "model/doc.h"
#include "model/vocab.h"
#include "util/parse.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Half the NICs' bandwidth: what a node gives with half its NICs down, or every link at
   half its rate; a healthy run reaches ~90% of it (the maintainers' 24 of 25 GB/s). */
#define LS_NET_LOW 0.5

typedef struct {
    double gbps; /* one node's NICs together, GB/s */
    int nics;
    char names[160];
} node_nics_t;

/* The first log that printed a speed for every NIC of its `NET/IB : Using` list. */
static int nics_with_speed(const json_t *doc, node_nics_t *n)
{
    size_t i;
    const json_t *log;
    json_array_foreach(json_object_get(doc, "nccl_logs"), i, log) {
        const json_t *speeds = json_object_get(log, "net_speeds");
        const json_t *devs = json_object_get(log, "net_devices");
        if (!json_is_object(speeds) || json_array_size(devs) == 0)
            continue;
        memset(n, 0, sizeof *n);
        size_t k, used = 0;
        const json_t *d;
        int all = 1;
        json_array_foreach(devs, k, d) {
            const char *name = ls_json_str(d, "name", "");
            long long mbps = ls_json_int(speeds, name, 0);
            all &= mbps > 0;
            n->gbps += (double)mbps / 8000.0; /* Mb/s -> GB/s */
            n->nics++;
            if (used < sizeof n->names)
                used += (size_t)snprintf(n->names + used, sizeof n->names - used, "%s%s %lld Gb/s",
                                         used ? ", " : "", name, mbps / 1000);
        }
        if (all)
            return 0;
    }
    return -1;
}

/* Largest busbw of the rows at or above the latency-bound sizes. */
static double large_busbw(const json_t *e)
{
    double best = 0;
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(e, "rows"), i, row) {
        if (ls_json_num(row, "bytes", 0) < LS_CEILING_NCCL_MIN_BYTES)
            continue;
        const json_t *r = json_object_get(row, "oop") ? json_object_get(row, "oop")
                                                      : json_object_get(row, "ip");
        best = fmax(best, ls_json_num(r, "busbw", 0));
    }
    return best;
}

void ls_rules_net(const ls_machine_t *m, json_t *out)
{
    node_nics_t nics;
    if (nics_with_speed(m->doc, &nics) != 0 || nics.gbps <= 0)
        return;
    for (long i = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, 0); i >= 0;
         i = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, i + 1)) {
        const json_t *e = ls_measurement(m, (size_t)i);
        long long nodes = ls_json_int(e, "nodes", 1), nranks = ls_json_int(e, "nranks", 0);
        double bus = large_busbw(e);
        if (nodes < 2 || nranks / nodes < nics.nics || bus <= 0 ||
            strcmp(ls_json_str(e, "status", "ok"), "ok") != 0 || bus >= LS_NET_LOW * nics.gbps)
            continue;
        ls_finding_add(out, "net_below_nics", LS_SEV_WARNING,
                       LS_ABOUT_WHAT(ls_json_str(e, "id", "")),
                       json_pack("[s, s]", ls_json_str(e, "id", ""), "nccl_logs.net_speeds"),
                       "%s across %lld nodes reaches %.1f GB/s busbw, %.0f%% of the %.1f GB/s of "
                       "the %d NIC%s "
                       "NCCL uses on each node (%s): a run across nodes approaches the sum of one "
                       "node's NICs, so "
                       "half of them (or their rate) is not carrying traffic; next: `ibstat` on "
                       "every node (ports "
                       "Active at full rate?), NCCL_DEBUG_SUBSYS=INIT,NET for the channels per "
                       "NIC, and GPUDirect "
                       "RDMA (GDR) in the connection lines",
                       ls_json_str(e, "collective", "collective"), nodes, bus,
                       100 * bus / nics.gbps, nics.gbps, nics.nics, nics.nics == 1 ? "" : "s",
                       nics.names);
    }
}
