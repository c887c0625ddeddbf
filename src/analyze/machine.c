#include "machine.h"
#include "model/doc.h"
#include "model/view.h"
#include "model/vocab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ls_popcount64(uint64_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

int ls_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double ls_median(const double *values, int n)
{
    if (n <= 0)
        return 0;
    double *s = malloc((size_t)n * sizeof *s);
    if (!s)
        return 0;
    memcpy(s, values, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, ls_cmp_double);
    double med = (n % 2) ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    free(s);
    return med;
}

static int entry_ok(const json_t *e)
{
    return strcmp(ls_json_str(e, "status", ""), "ok") == 0 && ls_json_num(e, "value", 0) > 0;
}

/* Direct P2P beats staged; among equals the higher median wins. */
static void keep_better(ls_pair_bw_t *slot, const json_t *e)
{
    const json_t *p2p = json_object_get(e, "p2p");
    int direct = p2p ? json_is_true(p2p) : strcmp(ls_json_str(e, "method", ""), LS_P2P_STAGED) != 0;
    double v = ls_json_num(e, "value", 0);
    if (slot->value > 0 && (slot->direct > direct || (slot->direct == direct && slot->value >= v)))
        return;
    const json_t *st = json_object_get(e, "stats");
    slot->value = v;
    slot->min = ls_json_num(st, "min", v);
    slot->max = ls_json_num(st, "max", v);
    slot->stddev = ls_json_num(st, "stddev", 0);
    slot->n = (int)ls_json_int(st, "n", 1);
    slot->direct = direct;
    slot->id = ls_json_str(e, "id", "");
}

static void load_p2p(ls_machine_t *m)
{
    LS_DOC_FOREACH(v, m->doc, &ls_fam_p2p)
    {
        int a = v.src, b = v.dst; /* -1 when absent */
        if (!v.ok || !(v.value > 0) || a < 0 || b < 0 || a >= m->ngpus || b >= m->ngpus || a == b)
            continue;
        if (v.direction && !strcmp(v.direction, LS_DIR_BIDIR))
            keep_better(&m->bidir[a < b ? a : b][a < b ? b : a], v.json);
        else
            keep_better(&m->uni[a][b], v.json);
    }
}

static void load_hbm(ls_machine_t *m)
{
    for (long i = ls_doc_next_measurement(m->doc, LS_FAMILY_HBM, 0); i >= 0;
         i = ls_doc_next_measurement(m->doc, LS_FAMILY_HBM, i + 1)) {
        const json_t *e = json_array_get(json_object_get(m->doc, "measurements"), (size_t)i);
        long long g = ls_json_int(e, "gpu", -1);
        if (g < 0) {
            const json_t *gs = json_object_get(e, "gpus");
            g = json_is_integer(json_array_get(gs, 0)) ? json_integer_value(json_array_get(gs, 0))
                                                       : -1;
        }
        if (!entry_ok(e) || g < 0 || g >= m->ngpus)
            continue;
        double v = ls_json_num(e, "value", 0);
        if (v > m->hbm[g]) {
            m->hbm[g] = v;
            m->hbm_id[g] = ls_json_str(e, "id", "");
            double th = ls_json_num(e, "theoretical", 0);
            if (th > 0)
                m->hbm_theoretical[g] = th;
        }
    }
}

static void load_gpus(ls_machine_t *m)
{
    size_t i;
    const json_t *g;
    json_array_foreach(json_object_get(m->doc, "gpus"), i, g) {
        long long idx = ls_json_int(g, "index", -1);
        if (idx < 0 || idx >= LS_MAX_GPUS)
            continue;
        if (idx + 1 > m->ngpus)
            m->ngpus = (int)idx + 1;
        m->gpu[idx] = g;
        m->numa[idx] = (int)ls_json_int(g, "numa_node", -1);
        m->memory[idx] = ls_json_int(g, "memory_total_bytes", 0);
        m->hbm_theoretical[idx] = ls_json_num(g, "hbm_theoretical_gbps", 0);
    }
}

/* GPUs that only the figures name (a p2pBandwidthLatencyTest or nvbandwidth paste
   without its device list): counted by their indices, so that the plan still groups
   them; their names and facts stay unknown. */
static void count_measured_gpus(ls_machine_t *m)
{
    LS_DOC_FOREACH(v, m->doc, NULL)
    {
        const int named[] = {v.src, v.dst, v.gpu}; /* integers: the reader checked them */
        for (size_t k = 0; k < sizeof named / sizeof named[0]; k++)
            if (named[k] >= 0 && named[k] < LS_MAX_GPUS && named[k] + 1 > m->ngpus)
                m->ngpus = named[k] + 1;
    }
}

ls_machine_t *ls_machine_new(const json_t *doc)
{
    ls_machine_t *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->topo = calloc(1, sizeof *m->topo);
    if (!m->topo) {
        free(m);
        return NULL;
    }
    m->doc = doc;
    ls_view_pin(doc); /* the rules and the plan read the entries' views decoded once */
    for (int g = 0; g < LS_MAX_GPUS; g++)
        m->numa[g] = -1;
    load_gpus(m);
    count_measured_gpus(m);
    m->has_topo = ls_topo_from_doc(doc, m->topo) == 0 &&
                  json_array_size(json_object_get(doc, "links")) > 0;
    load_p2p(m);
    load_hbm(m);
    return m;
}

void ls_machine_free(ls_machine_t *m)
{
    if (!m)
        return;
    ls_view_unpin(m->doc);
    free(m->topo);
    free(m);
}

const char *ls_machine_gpu_name(const ls_machine_t *m, int g)
{
    return ls_json_str(m->gpu[g], "name", "");
}

int ls_machine_geforce(const ls_machine_t *m, int g)
{
    if (g < 0 || g >= m->ngpus)
        return 0;
    const char *name = ls_machine_gpu_name(m, g);
    return strstr(name, "GeForce") != NULL || strstr(name, "TITAN") != NULL;
}

static int type_rank(enum ls_link_type t)
{
    switch (t) {
    case LS_LINK_NV: return 1;
    case LS_LINK_PIX: return 2;
    case LS_LINK_PXB: return 3;
    case LS_LINK_PHB: return 4;
    case LS_LINK_NODE: return 5;
    case LS_LINK_SYS: return 6;
    default: return 7;
    }
}

int ls_machine_p2p_ok(const ls_machine_t *m, int a, int b)
{
    if (m->has_topo && m->topo->has_p2p)
        return m->topo->p2p_read[a][b] == LS_P2P_OK && m->topo->p2p_write[a][b] == LS_P2P_OK &&
               m->topo->p2p_read[b][a] == LS_P2P_OK && m->topo->p2p_write[b][a] == LS_P2P_OK;
    if (m->uni[a][b].value > 0 || m->uni[b][a].value > 0)
        return m->uni[a][b].direct || m->uni[b][a].direct;
    return 1; /* nothing says otherwise */
}

int ls_machine_rank(const ls_machine_t *m, int a, int b)
{
    if (!m->has_topo)
        return 7;
    int r1 = type_rank(m->topo->gpu_gpu[a][b].type), r2 = type_rank(m->topo->gpu_gpu[b][a].type);
    int r = r1 > r2 ? r1 : r2;
    if (r < 6 && !ls_machine_p2p_ok(m, a, b))
        r = 6; /* no direct path: traffic goes through host memory */
    return r;
}

const char *ls_machine_link_word(const ls_machine_t *m, int a, int b, char *buf, size_t len)
{
    if (!m->has_topo || m->topo->gpu_gpu[a][b].type == LS_LINK_NONE) {
        snprintf(buf, len, "?");
        return buf;
    }
    ls_link_format(m->topo->gpu_gpu[a][b], buf, len);
    return buf;
}

/* One direction of a GPU's PCIe link after encoding, GB/s; 0 when unknown. */
static double pcie_gbps(const ls_machine_t *m, int g)
{
    return ls_json_num(json_object_get(m->gpu[g], "pcie"), "theoretical_gbps", 0);
}

/* NVLink per direction for a bonded set of n links between a and b. */
static double nvlink_gbps(const ls_machine_t *m, int a, int nlinks)
{
    const json_t *links = json_object_get(m->gpu[a], "nvlinks");
    double per_link = ls_json_num(json_array_get(links, 0), "gbps", 0);
    /* About 80% of the signalling rate is reached by copies (NVLink 2-4); unknown rate:
       unknown figure */
    return nlinks * 0.8 * per_link;
}

double ls_machine_pair_gbps(const ls_machine_t *m, int a, int b, int *measured)
{
    if (m->uni[a][b].value > 0) {
        *measured = 1;
        return m->uni[a][b].value;
    }
    *measured = 0;
    if (!m->has_topo || ls_machine_rank(m, a, b) == 7)
        return 0; /* no link class: unknown, never a guessed class */
    double pcie = 0.8 * (pcie_gbps(m, a) < pcie_gbps(m, b) ? pcie_gbps(m, a) : pcie_gbps(m, b));
    int rank = ls_machine_rank(m, a, b);
    switch (rank) {
    case 1: return nvlink_gbps(m, a, m->topo->gpu_gpu[a][b].nvlinks);
    case 2:
    case 3: return pcie;
    case 4: return 0.75 * pcie; /* through the CPU's root complex */
    case 5: return 0.6 * pcie;
    default: return 0.5 * pcie; /* across sockets or staged through host memory */
    }
}

double ls_nccl_largest_bytes(const json_t *e)
{
    double b = ls_json_num(e, "bytes", 0);
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(e, "rows"), i, row) {
        b = fmax(b, ls_json_num(row, "bytes", 0));
    }
    return b;
}

/* A row's time in microseconds (out-of-place, else in-place; -1 when neither has one). */
static double row_time_us(const json_t *row)
{
    const json_t *side = json_object_get(row, "oop");
    double t = ls_json_num(json_is_object(side) ? side : json_object_get(row, "ip"), "time_us", -1);
    return t;
}

int ls_nccl_latency_bound(const json_t *e, double *small_us, double *large_us)
{
    double small_b = 0, large_b = 0, small_t = -1, large_t = -1;
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(e, "rows"), i, row) {
        double b = ls_json_num(row, "bytes", -1), t = row_time_us(row);
        if (b < 0 || t <= 0)
            continue;
        if (small_t < 0 || b < small_b)
            small_b = b, small_t = t;
        if (large_t < 0 || b > large_b)
            large_b = b, large_t = t;
    }
    if (small_us)
        *small_us = small_t;
    if (large_us)
        *large_us = large_t;
    /* one size, or no times: the curve cannot tell */
    if (small_t <= 0 || large_t <= 0 || large_b <= small_b)
        return 0;
    /* t(n) = alpha + n / beta, and the smallest size's time is alpha (its transfer term is
       the least of the sweep): below twice that time the transfer term at the largest
       size is less than the fixed latency, so its busbw measures the latency, not the
       links (nccl-1039: 18.59 us at 64 B against 19.12 us at 8 B) */
    return large_t < LS_LATENCY_BOUND_FACTOR * small_t;
}

double ls_nccl_busbw_at(const json_t *e, double bytes)
{
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(e, "rows"), i, row) {
        if (ls_json_num(row, "bytes", -1) != bytes)
            continue;
        const json_t *side = json_object_get(row, "oop");
        double v = ls_json_num(json_is_object(side) ? side : json_object_get(row, "ip"), "busbw",
                               -1);
        if (v >= 0)
            return v;
    }
    double largest = ls_nccl_largest_bytes(e);
    return largest == bytes || largest <= 0 || bytes <= 0 ? ls_json_num(e, "value", 0) : NAN;
}
