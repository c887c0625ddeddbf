/* Placement rules: GPUs and NICs on a NUMA node away from their peers, GPUs whose
   nearest NIC is across the SMP interconnect, and P2P that NCCL could use but did not. */
#include "rules.h"
#include "model/doc.h"
#include "model/vocab.h"
#include "model/nccl_log.h"
#include "util/parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 when g reaches the GPUs of group over NVLink only (an NVSwitch box whose GPUs sit on
   uneven NUMA nodes): their traffic never crosses the SMP interconnect. */
static int nvlink_to_group(const ls_machine_t *m, const int *grp, int g, int group)
{
    int known = 0;
    for (int o = 0; o < m->ngpus && m->has_topo; o++) {
        if (o == g || grp[o] != group || m->topo->gpu_gpu[g][o].type == LS_LINK_NONE)
            continue;
        if (m->topo->gpu_gpu[g][o].type != LS_LINK_NV)
            return 0;
        known++;
    }
    return known > 0;
}

/* A CPU list ("0-7,16-23") as ranges; the number of ranges, -1 when it is no list. */
static int cpu_ranges(const char *list, long lo[], long hi[], int max)
{
    int n = 0;
    for (const char *p = list; *p;) {
        char *end;
        lo[n] = strtol(p, &end, 10);
        if (end == p || lo[n] < 0)
            return -1;
        hi[n] = lo[n];
        if (*end == '-' && (hi[n] = strtol(end + 1, &end, 10)) < lo[n])
            return -1;
        if (++n == max && *end)
            return -1;
        if (*end && *end != ',')
            return -1;
        p = *end ? end + 1 : end;
    }
    return n;
}

/* 1 when the CPU lists a and b share no CPU (both must be lists). */
static int cpus_disjoint(const char *a, const char *b)
{
    long alo[32], ahi[32], blo[32], bhi[32];
    int na = cpu_ranges(a, alo, ahi, 32), nb = cpu_ranges(b, blo, bhi, 32);
    if (na <= 0 || nb <= 0)
        return 0;
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            if (alo[i] <= bhi[j] && blo[j] <= ahi[i])
                return 0;
    return 1;
}

/* The GPUs' socket groups for numa_placement: their NUMA nodes where known (a live run,
   or topo -m's NUMA Affinity column); else, for a topo -m of a driver that prints no NUMA
   column, its CPU Affinity sets: nvidia-smi prints there the CPUs of the GPU's own NUMA
   node (NVML's ideal CPU affinity), so GPUs with disjoint sets sit on different nodes,
   whose numbers stay unknown. 0 NUMA nodes, 1 CPU sets, -1 no grouping (a set unknown,
   cut or overlapping another: unknown stays unknown). */
static int placement_groups(const ls_machine_t *m, int grp[LS_MAX_GPUS])
{
    int known = 0, next = 0;
    for (int g = 0; g < m->ngpus; g++)
        known |= (grp[g] = m->numa[g]) >= 0;
    if (known)
        return 0;
    if (!m->has_topo || m->topo->ngpus != m->ngpus)
        return -1;
    for (int g = 0; g < m->ngpus; g++) {
        const char *a = m->topo->cpu_affinity[g];
        grp[g] = -1;
        for (int o = 0; o < g && grp[g] < 0; o++)
            if (!strcmp(a, m->topo->cpu_affinity[o]))
                grp[g] = grp[o];
        for (int o = 0; o < g && grp[g] < 0; o++)
            if (!cpus_disjoint(a, m->topo->cpu_affinity[o]))
                return -1;
        if (grp[g] < 0)
            grp[g] = next++;
    }
    return next > 1 ? 1 : -1;
}

/* GPU index of group k's first GPU. */
static int first_of(const ls_machine_t *m, const int *grp, int k)
{
    for (int g = 0; g < m->ngpus; g++)
        if (grp[g] == k)
            return g;
    return 0;
}

static void numa_gpus(const ls_machine_t *m, json_t *out)
{
    int grp[LS_MAX_GPUS];
    int by = placement_groups(m, grp);
    if (by < 0)
        return;
    int largest, major = ls_group_majority(grp, m->ngpus, &largest);
    for (int g = 0; g < m->ngpus; g++) {
        if (!ls_group_minority(grp, m->ngpus, g) || nvlink_to_group(m, grp, g, major))
            continue;
        char path[48];
        snprintf(path, sizeof path, by ? "gpus[%d].cpu_affinity" : "gpus[%d].numa_node", g);
        if (by)
            ls_finding_add(out, "numa_placement", LS_SEV_WARNING, LS_ABOUT_GPU(g),
                           json_pack("[s]", path),
                           "GPU%d's CPU affinity (%s) is another NUMA node's than the one %d of "
                           "the %d GPUs share (%s): its traffic to them crosses the SMP "
                           "interconnect",
                           g, m->topo->cpu_affinity[g], largest, m->ngpus,
                           m->topo->cpu_affinity[first_of(m, grp, major)]);
        else
            ls_finding_add(out, "numa_placement", LS_SEV_WARNING, LS_ABOUT_GPU(g),
                           json_pack("[s]", path),
                           "GPU%d sits on NUMA node %d while %d of the %d GPUs are on node %d: "
                           "its traffic to them crosses the SMP interconnect",
                           g, m->numa[g], largest, m->ngpus, major);
    }
}

static void numa_nics(const ls_machine_t *m, json_t *out)
{
    size_t i;
    const json_t *nic;
    json_array_foreach(json_object_get(m->doc, "nics"), i, nic) {
        long long node = ls_json_int(nic, "numa_node", -1);
        int gpus_here = 0, known = 0;
        for (int g = 0; g < m->ngpus; g++)
            gpus_here += m->numa[g] == node, known += m->numa[g] >= 0;
        if (node < 0 || !known || gpus_here)
            continue;
        char path[48];
        snprintf(path, sizeof path, "nics[%zu].numa_node", i);
        ls_finding_add(out, "numa_placement", LS_SEV_WARNING,
                       LS_ABOUT_WHAT(ls_json_str(nic, "name", "NIC")), json_pack("[s]", path),
                       "NIC %s sits on NUMA node %lld where no GPU is",
                       ls_json_str(nic, "name", ls_json_str(nic, "label", "")), node);
    }
}

/* Rank of the nearest NIC of GPU g (2 PIX/PXB, 4 PHB, 5 NODE, 6 SYS), its index in
 *nic; 0 when unknown: no link recorded, or one of them unknown (a cut paste). */
static int nearest_nic(const ls_machine_t *m, int g, int *nic)
{
    int best = 0;
    size_t i;
    const json_t *l;
    json_array_foreach(json_object_get(m->doc, "gpu_nic_links"), i, l) {
        ls_link_t link;
        if (ls_json_int(l, "gpu", -1) != g)
            continue;
        if (ls_link_parse(ls_json_str(l, "type", "?"), &link) || link.type == LS_LINK_NONE)
            return 0;
        int r = link.type == LS_LINK_SYS    ? 6
                : link.type == LS_LINK_NODE ? 5
                : link.type == LS_LINK_PHB  ? 4
                                            : 2;
        if (!best || r < best)
            best = r, *nic = (int)ls_json_int(l, "nic", -1);
    }
    return best;
}

static void nic_distance(const ls_machine_t *m, json_t *out)
{
    int per_gpu_nics = 0; /* some GPU has its own NIC behind a PCIe switch */
    for (int g = 0; g < m->ngpus; g++) {
        int nic = -1;
        per_gpu_nics |= nearest_nic(m, g, &nic) == 2;
    }
    for (int g = 0; g < m->ngpus; g++) {
        int nic = -1;
        if (nearest_nic(m, g, &nic) != 6)
            continue;
        const json_t *n = json_array_get(json_object_get(m->doc, "nics"),
                                         (size_t)(nic < 0 ? 0 : nic));
        const char *name = ls_json_str(n, "name", "");
        if (!*name)
            name = ls_json_str(n, "label", "");
        char fallback[16];
        if (!*name) {
            snprintf(fallback, sizeof fallback, "NIC%d", nic);
            name = fallback;
        }
        /* a warning where NICs are laid out per GPU and this one misses out; on a machine
           with a few NICs on one socket, the GPUs of the other socket are SYS by design */
        ls_finding_add(out, "nic_distance", per_gpu_nics ? LS_SEV_WARNING : LS_SEV_INFO,
                       LS_ABOUT_GPU(g), json_pack("[s]", "gpu_nic_links"),
                       "GPU%d's nearest NIC (%s) is at SYS distance: network traffic crosses the "
                       "SMP "
                       "interconnect and GPUDirect RDMA is off by default",
                       g, name);
    }
}

static int same_set(const json_t *x, const json_t *y)
{
    const json_t *gx = json_object_get(x, "gpus"), *gy = json_object_get(y, "gpus");
    if (json_array_size(gx) != json_array_size(gy))
        return 0;
    return ls_gpu_mask_of(gx) == ls_gpu_mask_of(gy) &&
           !strcmp(ls_json_str(x, "collective", ""), ls_json_str(y, "collective", ""));
}

static int is_default(const json_t *e)
{
    return !strcmp(ls_json_str(e, "variant", "default"), "default");
}

/* An ok nccl entry on e's set and collective whose variant is default (want_default)
   or names NCCL_P2P_LEVEL. */
static int set_entry(const json_t *e, const json_t *o, int want_default)
{
    if (!same_set(e, o) || strcmp(ls_json_str(o, "status", ""), "ok"))
        return 0;
    return want_default ? is_default(o)
                        : strstr(ls_json_str(o, "variant", ""), "NCCL_P2P_LEVEL") != NULL;
}

/* The largest size the entries of set_entry reached (0 unknown). */
static double set_largest(const ls_machine_t *m, const json_t *e, int want_default)
{
    double largest = 0;
    for (long i = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, 0); i >= 0;
         i = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, i + 1))
        if (set_entry(e, ls_measurement(m, (size_t)i), want_default))
            largest = fmax(largest, ls_nccl_largest_bytes(ls_measurement(m, (size_t)i)));
    return largest;
}

/* Median busbw at `at` bytes (0: each entry's value) of the entries of set_entry; adds
   their ids to ids. */
static double set_median(const ls_machine_t *m, const json_t *e, int want_default, double at,
                         json_t *ids, char *variant, size_t vlen)
{
    double vals[64];
    int n = 0;
    for (long i = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, 0); i >= 0 && n < 64;
         i = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, i + 1)) {
        const json_t *o = ls_measurement(m, (size_t)i);
        if (!set_entry(e, o, want_default) || !isfinite(ls_nccl_busbw_at(o, at)))
            continue;
        vals[n++] = ls_nccl_busbw_at(o, at);
        if (!want_default && variant)
            snprintf(variant, vlen, "%s", ls_json_str(o, "variant", ""));
        if (ids)
            json_array_append_new(ids, json_string(ls_json_str(o, "id", "")));
    }
    return ls_median(vals, n);
}

/* Edges of e's transports that went through SHM or NET where P2P is OK: "4->5, 5->0". */
static int unused_p2p_edges(const ls_machine_t *m, const json_t *e, char *list, size_t len)
{
    int n = 0;
    size_t i;
    const json_t *t;
    uint64_t seen[LS_MAX_GPUS] = {0}; /* edges listed, by source GPU */
    list[0] = '\0';
    json_array_foreach(json_object_get(e, "transports"), i, t) {
        long long a = ls_json_int(t, "from", -1), b = ls_json_int(t, "to", -1);
        const char *tr = ls_json_str(t, "transport", "");
        if (a < 0 || b < 0 || a >= m->ngpus || b >= m->ngpus || a == b || !m->has_topo ||
            !m->topo->has_p2p || !ls_machine_p2p_ok(m, (int)a, (int)b))
            continue;
        if (!ls_nccl_transport_skips_p2p(tr))
            continue;
        if (seen[a] >> b & 1) /* not strstr: "GPU1->GPU2" is inside "GPU1->GPU21" */
            continue;
        seen[a] |= 1ULL << b;
        char edge[64];
        snprintf(edge, sizeof edge, "GPU%lld->GPU%lld", a, b);
        size_t used = strlen(list);
        snprintf(list + used, len - used, "%s%s", n ? ", " : "", edge);
        n++;
    }
    return n;
}

static void nccl_p2p_unused(const ls_machine_t *m, json_t *out)
{
    for (long i = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, 0); i >= 0;
         i = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, i + 1)) {
        const json_t *e = ls_measurement(m, (size_t)i);
        if (!is_default(e) || strcmp(ls_json_str(e, "status", ""), "ok"))
            continue;
        int seen = 0; /* report a set once, at its first default entry */
        for (long j = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, 0); j >= 0 && j < i && !seen;
             j = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, j + 1))
            seen = is_default(ls_measurement(m, (size_t)j)) &&
                   same_set(e, ls_measurement(m, (size_t)j));
        char edges[384];
        if (seen || !unused_p2p_edges(m, e, edges, sizeof edges))
            continue;
        json_t *ids = json_array();
        char variant[64] = "", subject[64], tail[240], size[48] = "";
        /* default and variant compared at one size: the largest both reached */
        double top_def = set_largest(m, e, 1), top_alt = set_largest(m, e, 0);
        double at = top_def > 0 && top_alt > 0 ? fmin(top_def, top_alt) : 0;
        if (at > 0) {
            char s[32];
            ls_format_size((uint64_t)at, s, sizeof s);
            snprintf(size, sizeof size, " busbw at %s", s);
        }
        double def = set_median(m, e, 1, at, ids, NULL, 0);
        double alt = set_median(m, e, 0, at, ids, variant, sizeof variant);
        enum ls_severity sev = LS_SEV_INFO;
        if (alt > 0 && def > 0) {
            double gain = alt / def - 1;
            sev = gain >= LS_NCCL_VARIANT_GAIN ? LS_SEV_WARNING : LS_SEV_INFO;
            snprintf(tail, sizeof tail, "; %s measured%s %.2f vs %.2f GB/s (%+.0f%%)%s", variant,
                     size, alt, def, 100 * gain,
                     gain >= LS_NCCL_VARIANT_GAIN ? ": worth setting for this job"
                                                  : ": keep the default");
        } else {
            snprintf(tail, sizeof tail, "; try NCCL_P2P_LEVEL=PHB for this job and compare");
        }
        ls_about_t about = LS_ABOUT_ON(ls_json_str(e, "collective", "?"),
                                       ls_gpu_mask_of(json_object_get(e, "gpus")));
        ls_about_text(&about, subject, sizeof subject);
        ls_finding_add(out, "nccl_p2p_unused", sev, about, ids,
                       "%s: NCCL used SHM/NET on %s where P2P is supported (default P2P level "
                       "stops at PXB)%s",
                       subject, edges, tail);
    }
}

void ls_rules_placement(const ls_machine_t *m, json_t *out)
{
    numa_gpus(m, out);
    numa_nics(m, out);
    nic_distance(m, out);
    nccl_p2p_unused(m, out);
}
