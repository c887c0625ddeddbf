/* P2P rules: peer access unavailable, peer access that gains nothing over the host,
   bidirectional figures far below their one-way figures or their peers, cross-socket
   pairs slower than same-socket ones, and a topology where every pair goes through the
   host while the GPUs share a socket. */
#include "rules.h"
#include "p2p_index.h"
#include "model/doc.h"
#include "model/vocab.h"
#include "model/entry.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LISTED 6

static int direct(const json_t *e)
{
    return ls_p2p_direct(e);
}

static int uni(const json_t *e)
{
    return ls_p2p_uni(e);
}

/* Appends "0<->1" (sep "<->") to a list of at most MAX_LISTED pairs, then counts the rest. */
static void list_pair(char *list, size_t len, int *n, int a, const char *sep, int b)
{
    if (*n < MAX_LISTED) {
        size_t used = strlen(list);
        snprintf(list + used, len - used, "%s%d%s%d", *n ? ", " : "", a, sep, b);
    }
    (*n)++;
}

static void list_tail(char *list, size_t len, int n)
{
    if (n > MAX_LISTED) {
        size_t used = strlen(list);
        snprintf(list + used, len - used, " and %d more", n - MAX_LISTED);
    }
}

/* 1 when something in the document says a and b have no peer access: topo -p2p words,
   cudaDeviceCanAccessPeer, or a figure flagged no_p2p (p2pBandwidthLatencyTest's
   "CANNOT Access Peer", linkscope's own check). */
static int no_peer_access(const ls_machine_t *m, const ls_p2p_index_t *ix, int a, int b,
                          const char **why)
{
    if (m->has_topo && m->topo->has_p2p &&
        (ls_p2p_status_blocks(m->topo->p2p_read[a][b]) ||
         ls_p2p_status_blocks(m->topo->p2p_write[a][b]))) {
        enum ls_p2p_status s = ls_p2p_status_blocks(m->topo->p2p_read[a][b])
                                   ? m->topo->p2p_read[a][b]
                                   : m->topo->p2p_write[a][b];
        *why = ls_p2p_word(s);
        return 1;
    }
    const json_t *l = ix->blocking_link[a][b], *e = ix->no_p2p_entry[a][b];
    if (l) {
        /* a topo -p2p word whose capability (read, write) the paste did not name */
        *why = json_is_false(json_object_get(l, "cuda_peer_access"))
                   ? "cudaDeviceCanAccessPeer = 0"
                   : ls_json_str(l, "p2p_status", "");
        return 1;
    }
    if (e) {
        *why = !strcmp(ls_json_str(e, "source", ""), "p2pBandwidthLatencyTest")
                   ? "CANNOT Access Peer"
                   : "no peer access";
        return 1;
    }
    return 0;
}

/* 1 when the document names every GPU and each is a GeForce or TITAN board
   (ls_machine_geforce): NVIDIA's driver gives these cards no PCIe peer access, so a
   machine of them has none by design. */
static int all_geforce(const ls_machine_t *m)
{
    for (int g = 0; g < m->ngpus; g++)
        if (!ls_machine_geforce(m, g))
            return 0;
    return m->ngpus > 0;
}

/* nvbandwidth waives its device-to-device testcases when no GPU pair has peer access
   (its filter of accessible peer pairs finds none). */
static void waived(const ls_machine_t *m, json_t *out)
{
    LS_DOC_FOREACH(v, m->doc, &ls_fam_p2p)
    {
        const json_t *e = v.json;
        if (strcmp(v.status, "skipped"))
            continue;
        const char *id = v.id, *test = ls_json_str(e, "test", id);
        if (strcmp(ls_json_str(e, "source", ""), "nvbandwidth") ||
            !strstr(test, "device_to_device") || !strstr(ls_json_str(e, "error", ""), "waived"))
            continue;
        if (all_geforce(m)) {
            ls_finding_add(out, "p2p_unavailable", LS_SEV_INFO, LS_ABOUT_WHAT("all GPUs"),
                           json_pack("[s]", id),
                           "nvbandwidth waived %s: no GPU pair has peer access, so copies "
                           "between GPUs go through host memory and NCCL uses SHM; the "
                           "platform's design, not a fault: every GPU is a GeForce or TITAN board "
                           "(%s), and NVIDIA's driver gives them no PCIe peer access",
                           test, ls_machine_gpu_name(m, 0));
            return;
        }
        ls_finding_add(out, "p2p_unavailable", LS_SEV_WARNING, LS_ABOUT_WHAT("all GPUs"),
                       json_pack("[s]", id),
                       "nvbandwidth waived %s: it does so when no GPU pair has peer access, so "
                       "every copy between "
                       "GPUs goes through host memory and NCCL uses SHM: likely consumer boards "
                       "whose driver "
                       "disables P2P, a VM, or ACS/IOMMU; next: `nvidia-smi topo -p2p r`, check "
                       "ACS: "
                       "`lspci -vvv | grep ACSCtl`",
                       test);
        return;
    }
}

/* 1 when the document says whether pair a, b has peer access: a topology's P2P matrix, a
   link naming cudaDeviceCanAccessPeer or carrying a topo -p2p word, or a copy figure
   measured between the two. */
static int peer_access_stated(const ls_machine_t *m, int a, int b)
{
    if ((m->has_topo && m->topo->has_p2p) || m->uni[a][b].value > 0 || m->uni[b][a].value > 0)
        return 1;
    size_t i;
    const json_t *l;
    json_array_foreach(json_object_get(m->doc, "links"), i, l) {
        long long x = ls_json_int(l, "a", -1), y = ls_json_int(l, "b", -1);
        if (((x == a && y == b) || (x == b && y == a)) &&
            (json_is_boolean(json_object_get(l, "cuda_peer_access")) ||
             json_is_string(json_object_get(l, "p2p_status"))))
            return 1;
    }
    return 0;
}

/* 1 when the document says GPU g has peer access to some other GPU (a pair it states,
   none of its words blocking it). */
static int reaches_a_peer(const ls_machine_t *m, const ls_p2p_index_t *ix, int g)
{
    const char *why;
    for (int h = 0; h < m->ngpus; h++)
        if (h != g && peer_access_stated(m, g, h) && !no_peer_access(m, ix, g, h, &why))
            return 1;
    return 0;
}

/* 1 when pair a, b's missing peer access (why: the word that says so) is the platform's
   design, not a fault: a GeForce board (NVIDIA's driver gives GeForce cards no PCIe peer
   access; nvidia-smi's GNS says so of any board), or two GPUs that each reach other GPUs
   as peers, so the driver and both GPUs do peer access and only this pair's path has
   none (pairs joined by NVLink but not by a PCIe tree that allows it: a DGX-1's
   cross-socket pairs; boards in separate PCIe islands). A data-center GPU that reaches no
   peer at all, or a machine where no such pair has access, stays unexplained: ACS, an
   IOMMU, a VM's bridge, a card in the wrong slot. */
static int by_design(const ls_machine_t *m, const ls_p2p_index_t *ix, int a, int b, const char *why)
{
    if (ls_machine_geforce(m, a) || ls_machine_geforce(m, b) || !strcmp(why, "GNS"))
        return 1;
    return reaches_a_peer(m, ix, a) && reaches_a_peer(m, ix, b);
}

static void p2p_unavailable(const ls_machine_t *m, const ls_p2p_index_t *ix, json_t *out)
{
    char list[256] = "", why_first[48] = "";
    int n = 0, total = 0, stated = 0, fa = -1, fb = -1, designed = 0;
    uint64_t gpus = 0;
    double staged[LS_MAX_GPUS * 2];
    int nstaged = 0;
    for (int a = 0; a < m->ngpus; a++)
        for (int b = a + 1; b < m->ngpus; b++) {
            const char *why = NULL;
            total++;
            if (!no_peer_access(m, ix, a, b, &why)) {
                stated += peer_access_stated(m, a, b);
                continue;
            }
            stated++;
            if (!n) {
                snprintf(why_first, sizeof why_first, "%s", why);
                fa = a, fb = b;
            }
            designed += by_design(m, ix, a, b, why);
            list_pair(list, sizeof list, &n, a, "<->", b);
            gpus |= 1ULL << a | 1ULL << b;
            if (m->uni[a][b].value > 0 && !m->uni[a][b].direct &&
                nstaged < (int)(sizeof staged / sizeof *staged))
                staged[nstaged++] = m->uni[a][b].value;
        }
    if (!n) {
        waived(m, out);
        return;
    }
    list_tail(list, sizeof list, n);
    char cost[128] = "";
    if (nstaged)
        snprintf(cost, sizeof cost,
                 "; copies between them go through host memory at %.1f GB/s (median)",
                 ls_median(staged, nstaged));
    /* a cut paste (nccl-tests#117: GPU 0's seven lines of 28 pairs) says nothing of the
       rest: they are unknown, not pairs with peer access */
    char of[96];
    if (stated < total)
        snprintf(of, sizeof of, "%d GPU pairs the text states (of %d; the other %d unknown)",
                 stated, total, total - stated);
    else
        snprintf(of, sizeof of, "%d GPU pairs", total);
    if (designed == n) {
        const char *meaning = ls_pair_smi_word_meaning(m, fa, fb);
        char word[200];
        snprintf(word, sizeof word, "%s%s%s%s", why_first, meaning ? " (" : "",
                 meaning ? meaning : "", meaning ? ")" : "");
        ls_finding_add(out, "p2p_unavailable", LS_SEV_INFO, LS_ABOUT_GPUS(gpus),
                       json_pack("[s]", "links"),
                       "No peer-to-peer access on %d of %s (%s; %s)%s, and NCCL sends their "
                       "traffic through shared host memory (SHM); the platform's design, not a "
                       "fault: each pair holds a GeForce or TITAN board (NVIDIA's driver gives "
                       "them no PCIe "
                       "peer access) or joins GPUs that both reach other GPUs as peers (the "
                       "driver and the GPUs do peer access, only these pairs' paths give none: "
                       "GPUs joined by NVLink, not by a PCIe tree that allows it, across sockets, "
                       "separate PCIe islands); next: place the GPUs of one job among peers "
                       "(`nvidia-smi topo -p2p r`)",
                       n, of, list, word, cost);
        return;
    }
    char causes[512];
    ls_pair_causes(m, fa, fb, causes, sizeof causes);
    ls_finding_add(out, "p2p_unavailable", LS_SEV_WARNING, LS_ABOUT_GPUS(gpus),
                   json_pack("[s]", "links"),
                   "No peer-to-peer access on %d of %s (%s; %s)%s, and NCCL sends their "
                   "traffic "
                   "through shared host memory (SHM) or the network; likely (GPU%d<->GPU%d): %s; "
                   "next: "
                   "`nvidia-smi topo -p2p r`, check ACS: `lspci -vvv | grep ACSCtl`",
                   n, of, list, why_first, cost, fa, fb, causes);
}

/* The entry of e's pair (reversed if asked) of the same tool and mode, direct or staged as
   asked, one-way (want_uni) or bidirectional: a hash lookup (p2p_index.c). */
static const json_t *same_pair(const ls_p2p_index_t *ix, const json_t *e, int want_direct,
                               int reverse, int want_uni)
{
    long long a = ls_json_int(e, "src", -1), b = ls_json_int(e, "dst", -1);
    return reverse ? ls_p2p_partner(ix, e, b, a, want_direct, want_uni)
                   : ls_p2p_partner(ix, e, a, b, want_direct, want_uni);
}

/* The GPU-to-GPU write latency of pair a->b with peer access on (enabled = 1) or off,
   as p2pBandwidthLatencyTest prints it (method gpu_copy, "p2p" true or false); 0 when
   the document has none. */
static double write_latency(const ls_machine_t *m, int a, int b, int enabled)
{
    LS_DOC_FOREACH(v, m->doc, &ls_fam_latency)
    {
        const json_t *p2p = json_object_get(v.json, "p2p");
        if (v.ok && v.src == a && v.dst == b && !strcmp(v.method_word, "gpu_copy") &&
            json_is_boolean(p2p) && json_is_true(p2p) == enabled && v.value > 0)
            return v.value;
    }
    return 0;
}

/* 1 when the pair's latencies show its copies take the direct path: a peer write lands
   in a fraction of the time a copy staged through host memory takes (about 1 us against
   10-20 us: the staged copy is two copies and a synchronization), here under half. */
static int direct_path_shown(const ls_machine_t *m, int a, int b, double *direct_us,
                             double *staged_us)
{
    *direct_us = write_latency(m, a, b, 1), *staged_us = write_latency(m, a, b, 0);
    return *direct_us > 0 && *staged_us > 0 && *direct_us < LS_DIRECT_LATENCY_FRACTION * *staged_us;
}

static void p2p_no_gain(const ls_machine_t *m, const ls_p2p_index_t *ix, json_t *out)
{
    char list[256] = "";
    int n = 0, compared = 0;
    double worst = INFINITY, wd = 0, ws = 0;
    int wa = -1, wb = -1, shown = 0;
    double lat_direct = 0, lat_staged = 0;
    json_t *evidence = json_array();
    uint64_t gpus = 0;
    LS_DOC_FOREACH(v, m->doc, &ls_fam_p2p)
    {
        const json_t *e = v.json;
        /* one-way against one-way, bidirectional against bidirectional (both directions
           at once through the host against both at once peer to peer) */
        if (!ls_p2p_view_ok(&v) || !direct(e) || json_object_get(e, "under"))
            continue;
        const json_t *s = same_pair(ix, e, 0, 0, ls_p2p_uni_word(v.direction));
        if (!s)
            continue;
        compared++;
        double d = v.value, h = ls_json_num(s, "value", 0); /* ok: d is a number */
        if (d >= LS_P2P_NO_GAIN * h)
            continue;
        int a = (int)ls_json_int(e, "src", 0), b = (int)ls_json_int(e, "dst", 0);
        list_pair(list, sizeof list, &n, a, uni(e) ? "->" : "<->", b);
        gpus |= 1ULL << (a & 63) | 1ULL << (b & 63);
        json_array_append_new(evidence, json_string(ls_json_str(e, "id", "")));
        json_array_append_new(evidence, json_string(ls_json_str(s, "id", "")));
        if (d / h < worst)
            worst = d / h, wd = d, ws = h, wa = a, wb = b;
        double du, su;
        if (direct_path_shown(m, a, b, &du, &su) || direct_path_shown(m, b, a, &du, &su))
            shown++, lat_direct = du, lat_staged = su;
    }
    if (!n) {
        json_decref(evidence);
        return;
    }
    list_tail(list, sizeof list, n);
    /* at a fraction of the staged speed direct copies are slower, not "no faster": the
       wording follows the worst pair's ratio */
    int slower = worst < LS_P2P_SLOWER;
    if (!slower && shown == n) {
        /* the direct path is taken (the latencies say so) and moves what the staged one
           does: one bottleneck limits both, each GPU's own link */
        ls_finding_add(out, "p2p_no_gain", LS_SEV_INFO, LS_ABOUT_GPUS(gpus), evidence,
                       "P2P takes the direct path (a peer write %.2f us against %.2f us staged "
                       "through host memory) but moves no more than the staged copy on %d of %d "
                       "pair directions (%s; worst %.1f GB/s direct vs %.1f GB/s staged, %.0f%%): "
                       "both paths are held by the same limit, the GPUs' own PCIe links (narrow or "
                       "slow links, a shared uplink), so P2P gains latency, not bandwidth; next: "
                       "`nvidia-smi -q | grep -A3 'Link Width'` for each GPU's link",
                       lat_direct, lat_staged, n, compared, list, wd, ws, 100 * worst);
        return;
    }
    char causes[512];
    ls_pair_causes(m, wa, wb, causes, sizeof causes);
    ls_finding_add(out, "p2p_no_gain", LS_SEV_WARNING, LS_ABOUT_GPUS(gpus), evidence,
                   "P2P is enabled but %s copying through host memory on %d of %d pair directions "
                   "(%s; worst %.1f GB/s direct vs %.1f GB/s staged, %.0f%%): peer traffic is not "
                   "taking a "
                   "direct path; likely: %s; next: check ACS: `lspci -vvv | grep ACSCtl`, IOMMU: "
                   "`cat /proc/cmdline`, and compare NCCL with NCCL_P2P_DISABLE=1",
                   slower ? "slower than" : "no faster than", n, compared, list, wd, ws,
                   100 * worst, causes);
}

/* How one bidirectional figure compares: with its pair's two one-way figures' sum and
   with the median of the pairs of its link. */
typedef struct {
    double v, sum, med;
    int peers, low_sum, low_peer;
    const json_t *f, *r; /* the one-way figures a->b and b->a */
} bidir_judged_t;

static int bidir_judge(const ls_machine_t *m, ls_p2p_index_t *ix, const json_t *e,
                       bidir_judged_t *j)
{
    j->v = ls_json_num(e, "value", 0);
    j->f = same_pair(ix, e, 1, 0, 1), j->r = same_pair(ix, e, 1, 1, 1);
    j->sum = j->f && j->r ? ls_json_num(j->f, "value", 0) + ls_json_num(j->r, "value", 0) : 0;
    j->med = ls_p2p_bidir_peers(m, ix, e, &j->peers);
    j->low_sum = j->sum > 0 && j->v < LS_BIDIR_SUM_FRACTION * j->sum;
    j->low_peer = j->med > 0 && j->v < LS_BIDIR_PEER_FRACTION * j->med;
    return j->low_sum || j->low_peer;
}

static void bidir_detail(const bidir_judged_t *j, char *detail, size_t len)
{
    detail[0] = '\0';
    if (j->low_sum)
        snprintf(detail, len, "%.0f%% of its two one-way figures' sum %.1f GB/s",
                 100 * j->v / j->sum, j->sum);
    if (j->low_peer) {
        size_t used = strlen(detail);
        snprintf(detail + used, len - used,
                 "%s%.0f%% of the median %.1f GB/s of %d other pairs of its link",
                 used ? " and " : "", 100 * j->v / j->med, j->med, j->peers);
    }
}

/* One finding a pair. A tool that measures both directions at once from each end
   (p2pBandwidthLatencyTest's matrix: a<->b and b<->a) measured the pair twice: both low
   is the link (warning); one low while its repeat is not is not confirmed (info, with
   both figures: rerun). */
static void bidir_low(const ls_machine_t *m, ls_p2p_index_t *ix, json_t *out)
{
    LS_DOC_FOREACH(ent, m->doc, &ls_fam_p2p)
    {
        const json_t *e = ent.json;
        if (!ls_p2p_view_ok(&ent) || ls_p2p_uni_word(ent.direction) || !direct(e) ||
            json_object_get(e, "under"))
            continue;
        long long a = ls_json_int(e, "src", -1), b = ls_json_int(e, "dst", -1);
        const json_t *twin = same_pair(ix, e, 1, 1, 0);
        bidir_judged_t j, tj;
        int low = bidir_judge(m, ix, e, &j), twin_low = twin && bidir_judge(m, ix, twin, &tj);
        if (!low || (twin_low && a > b))
            continue; /* quiet, or its pair's finding is made from the twin */
        char subject[48], detail[200], repeat[160] = "";
        ls_about_t about = LS_ABOUT_BOTH(a < b ? a : b, a < b ? b : a);
        ls_about_text(&about, subject, sizeof subject);
        bidir_detail(&j, detail, sizeof detail);
        json_t *evidence = json_pack("[s]", ls_json_str(e, "id", ""));
        if (twin)
            json_array_append_new(evidence, json_string(ls_json_str(twin, "id", "")));
        if (j.low_sum) {
            json_array_append_new(evidence, json_string(ls_json_str(j.f, "id", "")));
            json_array_append_new(evidence, json_string(ls_json_str(j.r, "id", "")));
        }
        if (twin)
            snprintf(repeat, sizeof repeat, "; its repeat from the other end, %.1f GB/s, %s",
                     ls_json_num(twin, "value", 0),
                     twin_low ? "is low too" : "is not low: one measurement, rerun to confirm");
        ls_finding_add(out, "bidir_low", !twin || twin_low ? LS_SEV_WARNING : LS_SEV_INFO, about,
                       evidence,
                       "%s both directions at once %.1f GB/s (%s %s) is %s%s: the link does not "
                       "carry both directions at full speed (a lane or link partly down, a shared "
                       "switch uplink, or a half-duplex path through the host); next: `nvidia-smi "
                       "nvlink -s` / `nvidia-smi -q | grep -A3 'Link Width'`, and check ACS: "
                       "`lspci -vvv | grep ACSCtl`",
                       subject, j.v, ls_json_str(e, "source", "?"), ls_json_str(e, "method", "?"),
                       detail, repeat);
    }
}

/* -1 unknown, 0 same socket, 1 across sockets. */
static int across_sockets(const ls_machine_t *m, int a, int b)
{
    if (m->has_topo && m->topo->gpu_gpu[a][b].type == LS_LINK_NV)
        return -1; /* NVLink: the socket does not matter */
    if (m->has_topo && m->topo->gpu_gpu[a][b].type != LS_LINK_NONE)
        return m->topo->gpu_gpu[a][b].type == LS_LINK_SYS;
    if (m->numa[a] >= 0 && m->numa[b] >= 0)
        return m->numa[a] != m->numa[b];
    return -1;
}

static void cross_socket_slow(const ls_machine_t *m, json_t *out)
{
    double same[LS_MAX_GPUS * 4], cross[LS_MAX_GPUS * 4];
    int ns = 0, nc = 0, cap = LS_MAX_GPUS * 4;
    uint64_t gpus = 0;
    for (int a = 0; a < m->ngpus; a++)
        for (int b = 0; b < m->ngpus; b++) {
            int x = a != b ? across_sockets(m, a, b) : -1;
            if (x < 0 || m->uni[a][b].value <= 0)
                continue;
            if (x && nc < cap)
                cross[nc++] = m->uni[a][b].value, gpus |= 1ULL << a | 1ULL << b;
            else if (!x && ns < cap)
                same[ns++] = m->uni[a][b].value;
        }
    if (!nc || !ns)
        return;
    double mc = ls_median(cross, nc), ms = ls_median(same, ns);
    if (mc >= LS_CROSS_SOCKET_RATIO * ms)
        return;
    ls_finding_add(out, "cross_socket_slow", LS_SEV_WARNING, LS_ABOUT_GPUS(gpus),
                   json_pack("[s]", "links"),
                   "GPU pairs across CPU sockets reach %.1f GB/s (median of %d pair directions), "
                   "%.0f%% of the "
                   "%.1f GB/s of pairs within one socket (%d): traffic crosses the SMP "
                   "interconnect, often "
                   "without P2P; keep communicating GPUs on one socket (`linkscope plan` groups), "
                   "next: "
                   "`nvidia-smi topo -m` (CPU Affinity) and `numactl -H`",
                   mc, nc, 100 * mc / ms, ms, ns);
}

/* 1 when GPUs a and b are known to sit on one CPU socket (NUMA node or affinity). */
static int share_socket(const ls_machine_t *m, int a, int b)
{
    if (ls_json_int(json_object_get(m->doc, "host"), "numa_nodes", 0) == 1)
        return 1;
    if (m->numa[a] >= 0 && m->numa[a] == m->numa[b])
        return 1;
    const char *na = m->topo->numa_affinity[a], *ca = m->topo->cpu_affinity[a];
    return (*na && strcmp(na, "N/A") && !strcmp(na, m->topo->numa_affinity[b])) ||
           (*ca && strcmp(ca, "N/A") && !strcmp(ca, m->topo->cpu_affinity[b]));
}

/* 1 when the document's links came from nvidia-smi's PCIe-only matrix (topo -mp): a pair
   joined by NVLink shows its PCIe path there. */
static int pci_only_view(const ls_machine_t *m)
{
    size_t i;
    const json_t *l;
    json_array_foreach(json_object_get(m->doc, "links"), i, l)
        if (json_is_true(json_object_get(l, "pci_only")))
            return 1;
    return 0;
}

static void all_pairs_host(const ls_machine_t *m, json_t *out)
{
    int pairs = 0, sys_same = 0, phb_same = 0;
    if (!m->has_topo || m->ngpus < 2 || pci_only_view(m))
        return; /* -mp hides NVLink: how the GPUs reach each other is not in it */
    for (int a = 0; a < m->ngpus; a++)
        for (int b = 0; b < m->ngpus; b++) {
            if (a == b)
                continue;
            enum ls_link_type t = m->topo->gpu_gpu[a][b].type;
            if (t == LS_LINK_NONE)
                continue; /* a cut paste: judge the pairs it has */
            if (t != LS_LINK_PHB && t != LS_LINK_SYS)
                return;
            pairs++;
            /* SYS means "across the SMP interconnect": between GPUs of one socket it is wrong */
            sys_same += t == LS_LINK_SYS && share_socket(m, a, b);
            phb_same += t == LS_LINK_PHB && share_socket(m, a, b);
        }
    if (!pairs || (!sys_same && !phb_same))
        return;
    int sys = sys_same > 0;
    ls_finding_add(out, "all_pairs_host", sys ? LS_SEV_WARNING : LS_SEV_INFO,
                   LS_ABOUT_WHAT("all GPUs"), json_pack("[s]", "links"),
                   "Every GPU pair is at %s while GPUs share a CPU socket: no PCIe switch joins "
                   "any two "
                   "GPUs, so P2P (where allowed) crosses the CPU's root complex; %s; next: `lspci "
                   "-tv` for the "
                   "real tree, check ACS: `lspci -vvv | grep ACSCtl`",
                   sys ? "SYS" : "PHB or SYS",
                   sys ? "SYS inside one socket is what a VM's flat virtual PCIe tree or ACS "
                         "shows: ask for the "
                         "host's topology or passthrough of the switches"
                       : "usual for GPUs on separate root ports or in a VM");
}

void ls_rules_p2p(const ls_machine_t *m, json_t *out)
{
    ls_p2p_index_t *ix = ls_p2p_index_new(m);
    if (ix) {
        p2p_unavailable(m, ix, out);
        p2p_no_gain(m, ix, out);
        bidir_low(m, ix, out);
    }
    ls_p2p_index_free(ix);
    cross_socket_slow(m, out);
    all_pairs_host(m, out);
}
