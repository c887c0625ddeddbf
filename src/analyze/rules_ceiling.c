/* Ceiling rules: every bandwidth figure against the most its own path can carry
   (ceiling.h). `below_ceiling` flags paths far below it, per path type; `implausible`
   flags figures above it and one-rank "collectives", which measure no link at all. */
#include "ceiling.h"
#include "rules.h"
#include "model/doc.h"
#include "model/vocab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* This many figures of one kind below their ceilings make one finding, not one each. */
#define BELOW_GROUP 4

typedef struct {
    const json_t *e;
    ls_ceiling_t c;
    double ratio;
} below_t;

double ls_ceiling_floor(enum ls_path path)
{
    switch (path) {
    case LS_PATH_NVLINK: return LS_CEILING_NVLINK;
    case LS_PATH_PCIE: return LS_CEILING_PCIE;
    case LS_PATH_HOST: return LS_CEILING_HOST;
    case LS_PATH_HBM: return LS_CEILING_HBM;
    case LS_PATH_NCCL: return LS_CEILING_NCCL;
    case LS_PATH_STAGED: return LS_CEILING_STAGED;
    default: return 0; /* pageable copies: CPU and host memory set the pace */
    }
}

/* A figure that a ceiling can judge: ok, large enough to be bandwidth-bound, measured
   alone (not while other copies shared the path). */
static int judged(const json_t *e)
{
    const char *family = ls_json_str(e, "family", "");
    double bytes = ls_json_num(e, "bytes", 0);
    if (strcmp(ls_json_str(e, "status", ""), "ok") || ls_json_num(e, "value", 0) <= 0 ||
        json_object_get(e, "under") || !strcmp(ls_json_str(e, "metric", ""), "latency"))
        return 0;
    if (!strcmp(family, LS_FAMILY_NCCL)) {
        /* a variant that turns peer access off goes through host memory, not the links */
        const char *v = ls_json_str(e, "variant", "default");
        if (strstr(v, "NCCL_P2P_DISABLE=1") || strstr(v, "NCCL_P2P_LEVEL=LOC") ||
            strstr(v, "NCCL_NVLS") || strstr(v, "NCCL_SHM") || strstr(v, "NCCL_NET"))
            return 0;
        return ls_nccl_largest_bytes(e) >= LS_CEILING_NCCL_MIN_BYTES &&
               ls_json_int(e, "nranks", 2) > 1;
    }
    return bytes <= 0 || bytes >= 4.0 * 1024 * 1024;
}

/* What an entry is about: its pair ("GPU0->GPU1"), its GPUs ("GPU3", "GPUs 0-3"), or,
   naming no GPU, its id (written into what); its subject text into subject. */
static ls_about_t entry_about(const json_t *e, char *what, char *subject, size_t len)
{
    long long s = ls_json_int(e, "src", -1), d = ls_json_int(e, "dst", -1);
    ls_about_t a;
    if (s >= 0 && d >= 0) {
        a = strcmp(ls_json_str(e, "direction", ""), LS_DIR_BIDIR) ? LS_ABOUT_PAIR(s, d)
                                                                  : LS_ABOUT_BOTH(s, d);
    } else {
        a = LS_ABOUT_GPUS(ls_gpu_mask_of(json_object_get(e, "gpus")) |
                          ls_gpu_bit(ls_json_int(e, "gpu", -1)));
        /* no GPU named (a paste without rank lines): say so, never an empty list */
        snprintf(what, len, "%s (GPUs not in the paste)", ls_json_str(e, "id", "the run"));
        if (!a.gpus)
            a.what = what;
    }
    ls_about_text(&a, subject, len);
    return a;
}

static const char *next_step(enum ls_path path)
{
    switch (path) {
    case LS_PATH_NVLINK:
        return "check the links: `nvidia-smi nvlink -s` (all at full speed?) and `nvidia-smi "
               "nvlink -e` (errors); "
               "on NVSwitch systems `systemctl status nvidia-fabricmanager`";
    case LS_PATH_PCIE:
        return "check the path: `nvidia-smi -q | grep -A3 'Link Width'` under load, ACS: `lspci "
               "-vvv | grep ACSCtl`, "
               "and IOMMU on the kernel command line (`cat /proc/cmdline`)";
    case LS_PATH_STAGED:
        return "check both GPUs' PCIe links under load (`nvidia-smi -q | grep -A3 'Link Width'`) "
               "and host "
               "memory placement (`nvidia-smi topo -m` NUMA affinity, `numactl -H`)";
    case LS_PATH_HOST:
        return "check the PCIe link under load (`nvidia-smi -q | grep -A3 'Link Width'`) and that "
               "the buffer is pinned "
               "and on the GPU's NUMA node (`linkscope host`)";
    case LS_PATH_HBM:
        return "check clocks and throttling while it runs: `nvidia-smi -q -d CLOCK,PERFORMANCE` "
               "(memory clock at "
               "max? power cap?)";
    default:
        return "compare NCCL's transports (`NCCL_DEBUG=INFO`) with the topology and rerun on an "
               "idle machine";
    }
}

static const char *label_of(const json_t *e)
{
    return !strcmp(ls_json_str(e, "family", ""), LS_FAMILY_NCCL)
               ? ls_json_str(e, "collective", LS_FAMILY_NCCL)
               : ls_json_str(e, "method", "unknown");
}

/* A ceiling from the part's datasheet link (the paste gave no link width or generation)
   is what the card is built with, not what its slot wired: never more than a warning. */
static enum ls_severity below_severity(const ls_ceiling_t *c, double ratio)
{
    int assumed = strstr(c->basis, "assumed from the part") != NULL;
    return ratio < ls_ceiling_floor(c->path) / 2 && !assumed ? LS_SEV_ERROR : LS_SEV_WARNING;
}

static void below_one(const below_t *b, json_t *out)
{
    double v = ls_json_num(b->e, "value", 0), frac = ls_ceiling_floor(b->c.path);
    char what[96], subject[96];
    ls_about_t about = entry_about(b->e, what, subject, sizeof subject);
    ls_finding_add(out, "below_ceiling", below_severity(&b->c, b->ratio), about,
                   json_pack("[s]", ls_json_str(b->e, "id", "")),
                   "%s %s %s %.1f GB/s is %.0f%% of its ceiling %.1f GB/s (%s; a healthy %s path "
                   "reaches at "
                   "least %.0f%%): a link running at part speed, a downtrained or shared path, or "
                   "clocks held "
                   "down; next: %s",
                   subject, ls_path_name(b->c.path), label_of(b->e), v, 100 * b->ratio, b->c.gbps,
                   b->c.basis, ls_path_name(b->c.path), 100 * frac, next_step(b->c.path));
}

/* Figures of one kind: same path, family, method or collective, direction and tool. */
static int same_kind(const below_t *a, const below_t *b)
{
    return a->c.path == b->c.path && !strcmp(label_of(a->e), label_of(b->e)) &&
           !strcmp(ls_json_str(a->e, "family", ""), ls_json_str(b->e, "family", "")) &&
           !strcmp(ls_json_str(a->e, "direction", ""), ls_json_str(b->e, "direction", "")) &&
           !strcmp(ls_json_str(a->e, "source", ""), ls_json_str(b->e, "source", ""));
}

/* Many figures of one kind below their ceilings (a whole box at half speed): one
   finding with the median, the worst and every figure as evidence. */
static void below_group(const below_t *list, int n, int first, const char *done, json_t *out)
{
    double ratios[LS_MAX_GPUS * LS_MAX_GPUS], worst = 2;
    int count = 0, worst_i = first;
    uint64_t gpus = 0;
    json_t *evidence = json_array();
    for (int i = first; i < n; i++) {
        if (done[i] || !same_kind(&list[first], &list[i]))
            continue;
        char what[96], subject[96];
        gpus |= entry_about(list[i].e, what, subject, sizeof subject).gpus;
        if (count < (int)(sizeof ratios / sizeof *ratios))
            ratios[count] = list[i].ratio;
        count++;
        json_array_append_new(evidence, json_string(ls_json_str(list[i].e, "id", "")));
        if (list[i].ratio < worst)
            worst = list[i].ratio, worst_i = i;
    }
    const below_t *w = &list[worst_i];
    double frac = ls_ceiling_floor(w->c.path);
    char what[96], worst_subject[96];
    entry_about(w->e, what, worst_subject, sizeof worst_subject);
    ls_finding_add(out, "below_ceiling", below_severity(&w->c, worst), LS_ABOUT_GPUS(gpus),
                   evidence,
                   "%d %s %s figures are below %.0f%% of their ceilings (median %.0f%%, worst %s "
                   "%.1f of %.1f GB/s, "
                   "%.0f%%; %s): the whole fabric runs at part speed (link speed, firmware, fabric "
                   "manager) "
                   "rather than one link; next: %s",
                   count, ls_path_name(w->c.path), label_of(w->e), 100 * frac,
                   100 * ls_median(ratios, count < (int)(sizeof ratios / sizeof *ratios)
                                               ? count
                                               : (int)(sizeof ratios / sizeof *ratios)),
                   worst_subject, ls_json_num(w->e, "value", 0), w->c.gbps, 100 * worst, w->c.basis,
                   next_step(w->c.path));
}

static void below_all(const below_t *list, int n, json_t *out)
{
    char *done = calloc((size_t)n + 1, 1);
    if (!done)
        return;
    for (int i = 0; i < n; i++) {
        if (done[i])
            continue;
        int kind = 0;
        for (int j = i; j < n; j++)
            kind += !done[j] && same_kind(&list[i], &list[j]);
        if (kind >= BELOW_GROUP) {
            below_group(list, n, i, done, out);
            for (int j = n - 1; j >= i; j--)
                if (same_kind(&list[i], &list[j]))
                    done[j] = 1;
        } else {
            below_one(&list[i], out);
            done[i] = 1;
        }
    }
    free(done);
}

/* Largest busbw any row of an nccl entry reports (its value when it has no rows). */
static double nccl_peak(const json_t *e)
{
    double peak = ls_json_num(e, "value", 0);
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(e, "rows"), i, row) {
        peak = fmax(peak, fmax(ls_json_num(json_object_get(row, "oop"), "busbw", 0),
                               ls_json_num(json_object_get(row, "ip"), "busbw", 0)));
    }
    return peak;
}

static void one_rank(const json_t *e, json_t *out)
{
    char what[96], subject[96];
    ls_about_t about = entry_about(e, what, subject, sizeof subject);
    char figure[64] = "any figure it prints"; /* a paste cut before the rows has none */
    if (json_is_number(json_object_get(e, "value")))
        snprintf(figure, sizeof figure, "its %.1f GB/s (peak %.1f)", ls_json_num(e, "value", 0),
                 nccl_peak(e));
    ls_finding_add(out, "implausible", LS_SEV_WARNING, about,
                   json_pack("[s]", ls_json_str(e, "id", "")),
                   "%s: %s ran on one rank: no data crossed any link, so %s measures a local copy, "
                   "not the "
                   "interconnect; do not believe it; next: run one rank per GPU (`-g N` or `mpirun "
                   "-np N`)",
                   subject,
                   strcmp(ls_json_str(e, "collective", "unknown"), "unknown")
                       ? ls_json_str(e, "collective", "")
                       : "the collective (not named in the paste)",
                   figure);
}

static void above(const json_t *e, const ls_ceiling_t *c, json_t *out)
{
    int nccl = !strcmp(ls_json_str(e, "family", ""), LS_FAMILY_NCCL);
    double v = nccl ? nccl_peak(e) : ls_json_num(e, "value", 0);
    if (v <= (nccl ? LS_IMPLAUSIBLE_NCCL : LS_IMPLAUSIBLE_COPY) * c->gbps)
        return;
    char what[96], subject[96];
    ls_about_t about = entry_about(e, what, subject, sizeof subject);
    ls_finding_add(out, "implausible", LS_SEV_WARNING, about,
                   json_pack("[s]", ls_json_str(e, "id", "")),
                   "%s %s %.1f GB/s is %.0f%% of the physical ceiling %.1f GB/s (%s): the figure "
                   "cannot be "
                   "right (wrong byte count, a copy that never crossed the link, or the wrong "
                   "GPUs); do not "
                   "believe it; next: rerun with data checking on",
                   subject, ls_json_str(e, "id", ""), v, 100 * v / c->gbps, c->gbps, c->basis);
}

void ls_rules_ceiling(const ls_machine_t *m, json_t *out)
{
    size_t cap = json_array_size(json_object_get(m->doc, "measurements"));
    below_t *list = calloc(cap ? cap : 1, sizeof *list);
    int n = 0;
    if (!list)
        return;
    LS_DOC_FOREACH(v, m->doc, NULL)
    {
        const json_t *e = v.json;
        if (!v.ok || !ls_ceiling_family(v.fam)) /* latency and the others: no ceiling */
            continue;
        int nccl = v.fam == &ls_fam_nccl;
        if (nccl &&
            ls_json_int(e, "nranks", (long long)json_array_size(json_object_get(e, "gpus"))) == 1 &&
            ls_json_int(e, "nodes", 1) <= 1) {
            one_rank(e, out);
            continue;
        }
        ls_ceiling_t c;
        if (ls_ceiling_entry(m, e, &c) <= 0)
            continue;
        above(e, &c, out);
        double frac = ls_ceiling_floor(c.path), r = ls_json_num(e, "value", 0) / c.gbps;
        /* both directions at once through host memory share its bandwidth and the root
           complex's arbitration (their spread: LS_NOISY_CV_HOST_SHARED): one-way only. So
           for a GPU's own host copies: a link at part speed shows in each one-way figure,
           and both at once healthy idle hosts reached 59% (an H100 lease, session 15) to 88%
           (H200) of twice the link: the host's duplex, not the link's (docs/analysis.md) */
        if ((c.path == LS_PATH_STAGED || c.path == LS_PATH_HOST) && v.direction &&
            !strcmp(v.direction, LS_DIR_BIDIR))
            frac = 0;
        if (judged(e) && frac > 0 && r < frac && (size_t)n < cap)
            list[n++] = (below_t){e, c, r};
    }
    below_all(list, n, out);
    free(list);
}
