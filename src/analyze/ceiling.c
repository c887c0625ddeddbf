/* Hardware ceilings of measured figures (ceiling.h). */
#include "ceiling.h"
#include "spec.h"
#include "model/theory.h"
#include "model/doc.h"
#include "model/vocab.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <pthread.h>
#include <string.h>

/* The built-in datasheet, parsed once for every caller (fleet reads documents on several
   threads); NULL rows when it cannot be read. */
static ls_datasheet_t datasheet;
static pthread_once_t datasheet_once = PTHREAD_ONCE_INIT;

static void datasheet_load(void)
{
    char err[160];
    if (ls_datasheet_builtin(&datasheet, err, sizeof err))
        datasheet.rows = NULL, datasheet.n = 0;
}

const ls_spec_row_t *ls_part_of(const ls_machine_t *m, int g)
{
    pthread_once(&datasheet_once, datasheet_load);
    return datasheet.n && g >= 0 && g < m->ngpus && m->gpu[g]
               ? ls_datasheet_row_of(&datasheet, m->gpu[g])
               : NULL;
}

/* PCIe generation and width of GPU g's part from the datasheet where the document
   records none (a paste that names the GPU model but has no nvidia-smi -q); 0 when the
   part is not in it. */
static int part_pcie(const ls_machine_t *m, int g, int *gen, int *width, const char **key)
{
    pthread_once(&datasheet_once, datasheet_load);
    const ls_spec_row_t *row = datasheet.n ? ls_datasheet_row_of(&datasheet, m->gpu[g]) : NULL;
    if (!row || row->pcie_gen <= 0 || row->pcie_width <= 0)
        return 0;
    *gen = row->pcie_gen, *width = row->pcie_width, *key = row->key;
    return 1;
}

const char *ls_path_name(enum ls_path path)
{
    static const char *names[] = {"unknown", "NVLink",     "PCIe P2P",
                                  "staged",  "host",       "pageable",
                                  "HBM",     "NCCL busbw", "NCCL busbw through host memory"};
    return (unsigned)path <= LS_PATH_NCCL_HOST ? names[path] : "unknown";
}

double ls_ceiling_pcie_gpu(const ls_machine_t *m, int g, char *basis, size_t len)
{
    if (g < 0 || g >= m->ngpus)
        return 0;
    const json_t *p = json_object_get(m->gpu[g], "pcie");
    int gen = (int)ls_json_int(p, "gen_max", 0), width = (int)ls_json_int(p, "width_max", 0);
    double raw = ls_pcie_theoretical_gbps(gen, width);
    const char *part = NULL;
    if (raw <= 0)
        raw = ls_json_num(p, "theoretical_gbps", 0);
    if (raw <= 0 && part_pcie(m, g, &gen, &width, &part))
        raw = ls_pcie_theoretical_gbps(gen, width); /* the link the part is built with */
    if (raw <= 0)
        return 0;
    /* every 256-byte payload travels with 24 bytes of TLP header, CRC, sequence, framing */
    double v = raw * LS_PCIE_TLP_PAYLOAD / (LS_PCIE_TLP_PAYLOAD + LS_PCIE_TLP_OVERHEAD);
    if (basis && gen > 0 && width > 0)
        snprintf(basis, len, "PCIe Gen%d x%d%s%s after %s and TLP overhead", gen, width,
                 part ? " assumed from the part " : "", part ? part : "",
                 gen <= 2   ? "8b/10b"
                 : gen <= 5 ? "128b/130b"
                            : "FLIT");
    else if (basis)
        snprintf(basis, len, "PCIe %.1f GB/s after encoding and TLP overhead", raw);
    return v;
}

/* NVLink generation of a board by name: datasheet facts (P100 NVLink 1, V100 and GV100
   NVLink 2, A100/A800 NVLink 3, H100/H200/H800 NVLink 4, B100/B200 NVLink 5); 0 for any
   other board, whose NVLink (if any) is unknown. */
static int board_generation(const char *name)
{
    static const struct {
        const char *model;
        int generation;
    } boards[] = {{"P100", 1}, {"V100", 2}, {"GV100", 2}, {"A100", 3}, {"A800", 3},
                  {"H100", 4}, {"H200", 4}, {"H800", 4},  {"B100", 5}, {"B200", 5}};
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        const char *at = strstr(name, boards[i].model);
        /* "A100" but not "RTX A1000" */
        if (at && !isdigit((unsigned char)at[strlen(boards[i].model)]))
            return boards[i].generation;
    }
    return 0;
}

double ls_ceiling_nvlink_rate(const ls_machine_t *m, int g, int *generation)
{
    size_t i;
    const json_t *l;
    *generation = 0;
    if (g < 0 || g >= m->ngpus)
        return 0;
    json_array_foreach(json_object_get(m->gpu[g], "nvlinks"), i, l) {
        if (!json_is_true(json_object_get(l, "active")))
            continue;
        *generation = (int)ls_json_int(l, "version", 0);
        if (ls_json_num(l, "gbps", 0) > 0)
            return ls_json_num(l, "gbps", 0);
        if (*generation > 0)
            return ls_nvlink_rate_by_version((unsigned)*generation);
    }
    *generation = board_generation(ls_machine_gpu_name(m, g));
    return ls_nvlink_rate_by_version((unsigned)*generation);
}

double ls_ceiling_pair(const ls_machine_t *m, int a, int b, enum ls_path *path, char *basis,
                       size_t len)
{
    *path = LS_PATH_UNKNOWN;
    if (!m->has_topo || a < 0 || b < 0 || a >= m->ngpus || b >= m->ngpus || a == b)
        return 0;
    ls_link_t link = m->topo->gpu_gpu[a][b];
    if (link.type == LS_LINK_NV) {
        int gen;
        double rate = ls_ceiling_nvlink_rate(m, a, &gen);
        if (rate <= 0)
            rate = ls_ceiling_nvlink_rate(m, b, &gen);
        *path = LS_PATH_NVLINK;
        if (rate <= 0 || link.nvlinks <= 0)
            return 0;
        if (gen > 0)
            snprintf(basis, len, "%d x NVLink %d at %.2f GB/s", link.nvlinks, gen, rate);
        else
            snprintf(basis, len, "%d NVLinks at %.2f GB/s", link.nvlinks, rate);
        return link.nvlinks * rate;
    }
    if (link.type < LS_LINK_PIX)
        return 0;
    *path = LS_PATH_PCIE;
    char ba[128], bb[128];
    double pa = ls_ceiling_pcie_gpu(m, a, ba, sizeof ba),
           pb = ls_ceiling_pcie_gpu(m, b, bb, sizeof bb);
    if (pa <= 0 || pb <= 0)
        return 0;
    snprintf(basis, len, "%s", pa <= pb ? ba : bb);
    return fmin(pa, pb);
}

static int entry_gpu(const json_t *e)
{
    long long g = ls_json_int(e, "gpu", -1);
    const json_t *gs = json_array_get(json_object_get(e, "gpus"), 0);
    return (int)(g >= 0 ? g : json_is_integer(gs) ? json_integer_value(gs) : -1);
}

static int is_bidir(const json_t *e)
{
    return !strcmp(ls_json_str(e, "direction", ""), LS_DIR_BIDIR);
}

static double p2p_ceiling(const ls_machine_t *m, const json_t *e, ls_ceiling_t *c)
{
    int a = (int)ls_json_int(e, "src", -1), b = (int)ls_json_int(e, "dst", -1);
    const json_t *p2p = json_object_get(e, "p2p");
    int direct = p2p ? json_is_true(p2p) : strcmp(ls_json_str(e, "method", ""), LS_P2P_STAGED) != 0;
    double v;
    if (direct) {
        v = ls_ceiling_pair(m, a, b, &c->path, c->basis, sizeof c->basis);
    } else {
        /* through pinned host memory: down one GPU's PCIe link and up the other's */
        /* a GPU whose link is unknown leaves its basis unwritten: empty, never read raw */
        char ba[128] = "", bb[128] = "";
        double pa = ls_ceiling_pcie_gpu(m, a, ba, sizeof ba),
               pb = ls_ceiling_pcie_gpu(m, b, bb, sizeof bb);
        c->path = LS_PATH_STAGED;
        v = pa > 0 && pb > 0 ? fmin(pa, pb) : 0;
        if (v > 0)
            snprintf(c->basis, sizeof c->basis, "%s", pa <= pb ? ba : bb);
    }
    return is_bidir(e) ? 2 * v : v;
}

static double host_ceiling(const ls_machine_t *m, const json_t *e, ls_ceiling_t *c)
{
    c->path = strcmp(ls_json_str(e, "memory", LS_MEM_PINNED), LS_MEM_PAGEABLE) ? LS_PATH_HOST
                                                                               : LS_PATH_PAGEABLE;
    double v = ls_ceiling_pcie_gpu(m, entry_gpu(e), c->basis, sizeof c->basis);
    return is_bidir(e) || !strcmp(ls_json_str(e, "method", ""), LS_DIR_BIDIR) ? 2 * v : v;
}

static double hbm_ceiling(const ls_machine_t *m, const json_t *e, ls_ceiling_t *c)
{
    int g = entry_gpu(e);
    const json_t *gpu = g >= 0 && g < m->ngpus ? m->gpu[g] : NULL;
    const json_t *clk = json_object_get(gpu, "clocks");
    long long width = ls_json_int(gpu, "memory_bus_width_bits", 0),
              mhz = ls_json_int(clk, "mem_max_mhz", 0);
    c->path = LS_PATH_HBM;
    if (width > 0 && mhz > 0) {
        snprintf(c->basis, sizeof c->basis, "%lld-bit memory bus x %lld MHz x 2", width, mhz);
        return ls_hbm_theoretical_gbps((unsigned)mhz, (unsigned)width);
    }
    double th = ls_json_num(gpu, "hbm_theoretical_gbps", 0);
    snprintf(c->basis, sizeof c->basis, "memory bus x clock as recorded");
    return th;
}

/* Total NVLink of GPU g, one direction: active links x rate; 0 unknown. */
static double gpu_nvlink_total(const ls_machine_t *m, int g)
{
    size_t i, active = 0;
    const json_t *l;
    json_array_foreach(json_object_get(m->gpu[g], "nvlinks"), i, l) {
        active += json_is_true(json_object_get(l, "active"));
    }
    int gen;
    double rate = ls_ceiling_nvlink_rate(m, g, &gen);
    return active && rate > 0 ? (double)active * rate
                              : ls_json_num(m->gpu[g], "nvlink_theoretical_gbps", 0);
}

/* A collective within one node is bounded by its slowest GPU's share of the fabric:
   every pair NV: the smallest GPU's total NVLink (the pair's links for two GPUs);
   otherwise the slowest PCIe link of its GPUs. Across nodes: unknown. */
static double nccl_ceiling(const ls_machine_t *m, const json_t *e, ls_ceiling_t *c)
{
    const json_t *gpus = json_object_get(e, "gpus");
    size_t k = json_array_size(gpus);
    c->path = LS_PATH_NCCL;
    if (ls_json_int(e, "nodes", 1) > 1 || k < 2 || !m->has_topo)
        return 0;
    int idx[LS_MAX_GPUS], all_nv = 1;
    for (size_t i = 0; i < k && i < LS_MAX_GPUS; i++) {
        idx[i] = (int)json_integer_value(json_array_get(gpus, i));
        if (idx[i] < 0 || idx[i] >= m->ngpus)
            return 0;
    }
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < k; j++)
            if (idx[i] != idx[j] && m->topo->gpu_gpu[idx[i]][idx[j]].type != LS_LINK_NV)
                all_nv = 0;
    /* a pair without P2P, or beyond NCCL's default P2P level (PXB), goes through host
       memory (SHM): the PCIe link still bounds it, but host memory sets its pace */
    for (size_t i = 0; i < k && !all_nv; i++)
        for (size_t j = 0; j < k; j++)
            if (idx[i] != idx[j] && (!ls_machine_p2p_ok(m, idx[i], idx[j]) ||
                                     m->topo->gpu_gpu[idx[i]][idx[j]].type > LS_LINK_PXB))
                c->path = LS_PATH_NCCL_HOST;
    double v = INFINITY;
    for (size_t i = 0; i < k; i++) {
        double g;
        if (all_nv && k == 2) {
            enum ls_path p;
            g = ls_ceiling_pair(m, idx[0], idx[1], &p, c->basis, sizeof c->basis);
        } else if (all_nv) {
            g = gpu_nvlink_total(m, idx[i]);
            snprintf(c->basis, sizeof c->basis, "the smallest GPU's total NVLink, one direction");
        } else {
            g = ls_ceiling_pcie_gpu(m, idx[i], c->basis, sizeof c->basis);
        }
        if (g <= 0)
            return 0;
        v = fmin(v, g);
    }
    return isfinite(v) ? v : 0;
}

int ls_ceiling_family(const ls_fam_t *fam)
{
    return fam == &ls_fam_p2p || fam == &ls_fam_host || fam == &ls_fam_hbm || fam == &ls_fam_nccl;
}

double ls_ceiling_entry(const ls_machine_t *m, const json_t *e, ls_ceiling_t *c)
{
    const char *family = ls_json_str(e, "family", "");
    memset(c, 0, sizeof *c);
    double v = 0;
    if (!strcmp(family, LS_FAMILY_P2P))
        v = p2p_ceiling(m, e, c);
    else if (!strcmp(family, LS_FAMILY_HOST))
        v = host_ceiling(m, e, c);
    else if (!strcmp(family, LS_FAMILY_HBM))
        v = hbm_ceiling(m, e, c);
    else if (!strcmp(family, LS_FAMILY_NCCL))
        v = nccl_ceiling(m, e, c);
    else
        return 0;
    double recorded = ls_json_num(e, "theoretical", 0);
    if (recorded > 0 && strcmp(family, LS_FAMILY_NCCL)) {
        /* a limit recorded with the figure itself wins (the tool knew its path) */
        v = recorded;
        snprintf(c->basis, sizeof c->basis, "recorded with the figure");
    }
    c->gbps = v > 0 ? v : 0;
    if (c->gbps <= 0)
        c->basis[0] = '\0';
    return c->gbps;
}
