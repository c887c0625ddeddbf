/* One pasted matrix, no repeats: a direction of a GPU pair far below its mirror
   (one_way_low). The samples-based asymmetry rule (rules_links.c) needs a spread to
   compare with; a single figure each way cannot give one, so only a gap no noise makes
   is named (LS_ONE_WAY_RATIO, rules.h), and the wording says how much the text supports. */
#include "rules.h"
#include "model/doc.h"
#include "model/vocab.h"

#include <stdio.h>
#include <string.h>

static void one_way(const ls_machine_t *m, int a, int b, json_t *out)
{
    const ls_pair_bw_t *ab = &m->uni[a][b], *ba = &m->uni[b][a];
    if (ab->value <= 0 || ba->value <= 0 || ab->direct != ba->direct)
        return;
    if (ab->n >= 2 && ba->n >= 2)
        return; /* with samples both ways, asymmetry judges the gap against their spread */
    int lo = ab->value < ba->value ? a : b, hi = lo == a ? b : a;
    const ls_pair_bw_t *slow = &m->uni[lo][hi], *fast = &m->uni[hi][lo];
    double ratio = slow->value / fast->value;
    if (ratio >= LS_ONE_WAY_RATIO)
        return;
    char subject[48], causes[512];
    ls_about_t about = LS_ABOUT_PAIR(lo, hi);
    ls_about_text(&about, subject, sizeof subject);
    ls_pair_causes(m, lo, hi, causes, sizeof causes);
    /* a quarter or less of the mirror is beyond any lane-count mismatch of one link */
    const char *strength = ratio < LS_ONE_WAY_RATIO / 2 ? "far below" : "below";
    ls_finding_add(out, "one_way_low", LS_SEV_WARNING, about,
                   json_pack("[s,s]", slow->id ? slow->id : "", fast->id ? fast->id : ""),
                   "%s %s %.1f GB/s is %s its mirror GPU%d->GPU%d %.1f GB/s (%.0f%%); the link is "
                   "full duplex, "
                   "so one direction should match the other; this rests on %s, so rerun to "
                   "confirm; likely: %s; next: `nvidia-smi topo -m`, "
                   "`nvidia-smi -q | grep -A3 'Link Width'`, `lspci -vvv | grep ACSCtl`",
                   subject, slow->direct ? "P2P" : "staged", slow->value, strength, hi, lo,
                   fast->value, 100 * ratio,
                   slow->n >= 2 || fast->n >= 2 ? "one direction without repeats"
                                                : "one figure each way (no repeats in the paste)",
                   causes);
}

/* An ok figure measured alone (not "under" other traffic: a bidirectional test's
   directions share the link). */
static int alone(const json_t *e)
{
    return !strcmp(ls_json_str(e, "status", ""), "ok") && !json_object_get(e, "under");
}

/* The figure of e's GPU's host path in direction dir by the same tool and memory as e
   (pinned or unnamed: a pageable copy is paced by the CPU), measured alone and above 0;
   the same method too unless any_method. NULL without one. */
static const json_t *host_figure(const ls_machine_t *m, const json_t *e, const char *dir,
                                 int any_method)
{
    for (long i = ls_doc_next_measurement(m->doc, LS_FAMILY_HOST, 0); i >= 0;
         i = ls_doc_next_measurement(m->doc, LS_FAMILY_HOST, i + 1)) {
        const json_t *r = ls_measurement(m, (size_t)i);
        if (!strcmp(ls_json_str(r, "direction", ""), dir) && alone(r) &&
            ls_json_int(r, "gpu", -1) == ls_json_int(e, "gpu", -2) &&
            !strcmp(ls_json_str(r, "source", ""), ls_json_str(e, "source", "")) &&
            !strcmp(ls_json_str(r, "memory", ""), ls_json_str(e, "memory", "")) &&
            (any_method || !strcmp(ls_json_str(r, "method", ""), ls_json_str(e, "method", ""))) &&
            ls_json_num(r, "value", 0) > 0)
            return r;
    }
    return NULL;
}

/* The figure of a GPU's host path in one direction by the same tool, method and memory as
   e; NULL without one. */
static const json_t *host_mirror(const ls_machine_t *m, const json_t *e, const char *dir)
{
    return host_figure(m, e, dir, 0);
}

/* 1 when another method of the same tool measured GPU g's host path alike both ways. */
static int host_witness(const ls_machine_t *m, const json_t *e)
{
    for (long i = ls_doc_next_measurement(m->doc, LS_FAMILY_HOST, 0); i >= 0;
         i = ls_doc_next_measurement(m->doc, LS_FAMILY_HOST, i + 1)) {
        const json_t *r = ls_measurement(m, (size_t)i), *w;
        if (!strcmp(ls_json_str(r, "direction", ""), LS_DIR_H2D) && alone(r) &&
            strcmp(ls_json_str(r, "method", ""), ls_json_str(e, "method", "")) &&
            ls_json_int(r, "gpu", -1) == ls_json_int(e, "gpu", -2) &&
            (w = host_mirror(m, r, LS_DIR_D2H)) &&
            ls_json_num(r, "value", 0) >= LS_HOST_ONE_WAY_RATIO * ls_json_num(w, "value", 0))
            return 1;
    }
    return 0;
}

/* Each GPU's host->GPU figure against its GPU->host one (LS_HOST_ONE_WAY_RATIO): one
   finding per tool and method, naming how many GPUs of those measured both ways; the
   same on every GPU points at the host side or the method, not one card. */
static void host_one_way(const ls_machine_t *m, const char *method, json_t *out)
{
    json_t *evidence = json_array();
    double slow = 0, fast = 0, lo = 1;
    int both = 0, low = 0, witness = 0;
    const char *source = "?";
    unsigned long long gpus = 0;
    for (long i = ls_doc_next_measurement(m->doc, LS_FAMILY_HOST, 0); i >= 0;
         i = ls_doc_next_measurement(m->doc, LS_FAMILY_HOST, i + 1)) {
        const json_t *e = ls_measurement(m, (size_t)i), *r;
        const char *mem = ls_json_str(e, "memory", "pinned");
        if (strcmp(ls_json_str(e, "direction", ""), LS_DIR_H2D) ||
            strcmp(ls_json_str(e, "method", ""), method) || strcmp(mem, "pinned") || !alone(e) ||
            ls_json_int(e, "gpu", -1) < 0 || ls_json_int(e, "gpu", -1) >= 64 ||
            !(r = host_mirror(m, e, LS_DIR_D2H)))
            continue;
        double h2d = ls_json_num(e, "value", 0), d2h = ls_json_num(r, "value", 0);
        both++;
        if (h2d >= LS_HOST_ONE_WAY_RATIO * d2h)
            continue;
        low++;
        gpus |= ls_gpu_bit((int)ls_json_int(e, "gpu", 0));
        slow += h2d, fast += d2h, source = ls_json_str(e, "source", "?");
        lo = h2d / d2h < lo ? h2d / d2h : lo;
        witness += host_witness(m, e);
        json_array_append_new(evidence, json_string(ls_json_str(e, "id", "")));
        json_array_append_new(evidence, json_string(ls_json_str(r, "id", "")));
    }
    if (!low) {
        json_decref(evidence);
        return;
    }
    char where[96];
    if (low == both && both > 1)
        snprintf(where, sizeof where, "on every GPU measured both ways (%d), alike", both);
    else
        snprintf(where, sizeof where, "on %d of %d GPUs measured both ways", low, both);
    ls_finding_add(out, "one_way_low", witness == low ? LS_SEV_INFO : LS_SEV_WARNING,
                   LS_ABOUT_ON("host path", gpus), evidence,
                   "host->GPU %.1f GB/s against GPU->host %.1f GB/s (%s %s, pinned; mean, the "
                   "lowest %.0f%%) %s: the PCIe link is full duplex with the same lanes each "
                   "way, so only the read protocol (host->GPU is the GPU reading host memory) "
                   "differs, and it explains at most a fifth; %s; next: %s",
                   slow / low, fast / low, source, method, 100 * lo, where,
                   witness == low ? "another method of the same tool finds both directions "
                                    "alike: this method's reads, not the link"
                   : low == both && both > 1
                       ? "the same on every GPU points at the host side (root complex or IOMMU "
                         "read latency, the CPU's memory) or the copy method, not one card"
                       : "likely: the slot's or switch's read path, or the copy method",
                   strcmp(method, "sm")
                       ? "the SM copy of the same tool (host_to_device_memcpy_sm) "
                         "to tell the engine from the path, `lspci -vvv` (MaxReadReq)"
                       : "the copy engine's figure (nvbandwidth "
                         "host_to_device_memcpy_ce), `lspci -vvv` (MaxReadReq, "
                         "IOMMU)");
}

/* The one-way figure (dir) of bidirectional host figure e's GPU by the same tool and
   memory, measured alone; the same method too, where the tool names one apart from the
   direction (linkscope's own host step names its method by the direction). */
static const json_t *host_one_way_of(const ls_machine_t *m, const json_t *e, const char *dir)
{
    return host_figure(m, e, dir,
                       !strcmp(ls_json_str(e, "method", ""), ls_json_str(e, "direction", "")));
}

/* The copy engines GPU g's CUDA reports (gpus[].cuda.async_engines, linkscope's own
   inventory), -1 where unknown (an imported paste does not print it). */
static int async_engines(const ls_machine_t *m, int g)
{
    const json_t *gpu = g >= 0 && g < m->ngpus ? m->gpu[g] : NULL;
    const json_t *n = json_object_get(json_object_get(gpu, "cuda"), "async_engines");
    return json_is_integer(n) ? (int)json_integer_value(n) : -1;
}

/* One GPU's pinned host copy both ways at once against its one-way figures. */
typedef struct {
    const json_t *e;
    int g;
    double v, sum;
    enum { BIDIR_OK, BIDIR_TURNS, BIDIR_LOW } kind;
} host_bidir_t;

/* A GPU with a single copy engine (cudaDevAttrAsyncEngineCount 1, deviceQuery's "Yes
   with 1 copy engine(s)") runs one direction at a time: both directions' bytes over the
   sum of their times, 2*h*d/(h+d), about one way's figure, by design. A figure within
   LS_BIDIR_TURNS_FRACTION of that is BIDIR_TURNS; below it no engine count explains. */
static void bidir_judge(const ls_machine_t *m, host_bidir_t *b, double h, double d)
{
    double turns = 2 * h * d / (h + d);
    int engines = async_engines(m, b->g);
    if (b->v >= LS_BIDIR_SUM_FRACTION * b->sum)
        b->kind = BIDIR_OK;
    else if (b->v < LS_BIDIR_TURNS_FRACTION * turns || engines >= 2)
        b->kind = BIDIR_LOW;
    else if (engines >= 0) /* 1 or 0 engines: one direction at a time is the design */
        b->kind = BIDIR_OK;
    else
        b->kind = BIDIR_TURNS;
}

/* A GPU of unknown engine count whose figure is one engine's: BIDIR_LOW where another
   GPU of the same board name (named in the document) reached the sum with the same tool,
   so the board has engines for both directions. */
static void bidir_peers(const ls_machine_t *m, host_bidir_t *rows, int n)
{
    for (int i = 0; i < n; i++) {
        const char *name = ls_machine_gpu_name(m, rows[i].g);
        for (int j = 0; rows[i].kind == BIDIR_TURNS && *name && j < n; j++)
            if (rows[j].kind == BIDIR_OK && !strcmp(ls_machine_gpu_name(m, rows[j].g), name) &&
                !strcmp(ls_json_str(rows[j].e, "source", ""), ls_json_str(rows[i].e, "source", "")))
                rows[i].kind = BIDIR_LOW;
    }
}

/* The GPUs' pinned bidirectional host figures with both one-way figures; their count. */
static int host_bidir_rows(const ls_machine_t *m, host_bidir_t *rows, int max)
{
    int n = 0;
    for (long i = ls_doc_next_measurement(m->doc, LS_FAMILY_HOST, 0); i >= 0 && n < max;
         i = ls_doc_next_measurement(m->doc, LS_FAMILY_HOST, i + 1)) {
        const json_t *e = ls_measurement(m, (size_t)i), *h, *d;
        long long g = ls_json_int(e, "gpu", -1);
        if (strcmp(ls_json_str(e, "direction", ""), LS_DIR_BIDIR) || !alone(e) ||
            strcmp(ls_json_str(e, "memory", "pinned"), "pinned") || g < 0 || g >= 64 ||
            !(h = host_one_way_of(m, e, LS_DIR_H2D)) || !(d = host_one_way_of(m, e, LS_DIR_D2H)))
            continue;
        host_bidir_t *b = &rows[n++];
        double hv = ls_json_num(h, "value", 0), dv = ls_json_num(d, "value", 0);
        *b = (host_bidir_t){.e = e, .g = (int)g, .v = ls_json_num(e, "value", 0), .sum = hv + dv};
        bidir_judge(m, b, hv, dv);
    }
    bidir_peers(m, rows, n);
    return n;
}

/* The rows of this kind: their GPUs, evidence and the worst one (lowest share of its sum). */
static int bidir_of_kind(const host_bidir_t *rows, int n, int kind, unsigned long long *gpus,
                         json_t *evidence, const host_bidir_t **worst)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        if ((int)rows[i].kind != kind)
            continue;
        count++;
        *gpus |= ls_gpu_bit(rows[i].g);
        json_array_append_new(evidence, json_string(ls_json_str(rows[i].e, "id", "")));
        if (!*worst || rows[i].v / rows[i].sum < (*worst)->v / (*worst)->sum)
            *worst = &rows[i];
    }
    return count;
}

static void bidir_low_finding(const host_bidir_t *rows, int n, json_t *out)
{
    unsigned long long gpus = 0;
    const host_bidir_t *w = NULL;
    json_t *evidence = json_array();
    int low = bidir_of_kind(rows, n, BIDIR_LOW, &gpus, evidence, &w);
    if (!low) {
        json_decref(evidence);
        return;
    }
    ls_finding_add(out, "bidir_low", LS_SEV_WARNING, LS_ABOUT_ON("host path", gpus), evidence,
                   "both directions at once between host and GPU fall below %.0f%% of the two "
                   "one-way figures' sum on %d of %d GPUs measured both ways (%s, pinned; worst "
                   "GPU%d: %.1f GB/s against %.1f): the link does not carry both directions at "
                   "full speed (a lane or link partly down, a root port or switch uplink that "
                   "shares the path, the socket's memory or IOMMU); next: `nvidia-smi -q | grep "
                   "-A3 'Link Width'` for those GPUs, `lspci -vvv` on their path (LnkSta, "
                   "ACSCtl), and the same copies pinned to the GPU's own NUMA node",
                   100 * LS_BIDIR_SUM_FRACTION, low, n, ls_json_str(w->e, "source", "?"), w->g,
                   w->v, w->sum);
}

/* GPUs of unknown engine count whose figure both ways is one engine's: said, not warned. */
static void bidir_turns_finding(const host_bidir_t *rows, int n, json_t *out)
{
    unsigned long long gpus = 0;
    const host_bidir_t *w = NULL;
    json_t *evidence = json_array();
    int turns = bidir_of_kind(rows, n, BIDIR_TURNS, &gpus, evidence, &w), full = 0;
    if (!turns) {
        json_decref(evidence);
        return;
    }
    for (int i = 0; i < n; i++)
        full += rows[i].v >= LS_BIDIR_SUM_FRACTION * rows[i].sum;
    char peers[160] = "";
    if (full) /* boards unnamed: the same model is likely, not known */
        snprintf(peers, sizeof peers,
                 "; %d other GPU%s of the same tool reach%s the sum: if %s the same board, "
                 "this one's path is at fault",
                 full, full > 1 ? "s" : "", full > 1 ? "" : "es", full > 1 ? "they are" : "it is");
    ls_finding_add(out, "bidir_low", LS_SEV_INFO, LS_ABOUT_ON("host path", gpus), evidence,
                   "both directions at once between host and GPU come to about one direction's "
                   "figure on %d of %d GPUs measured both ways (%s, pinned; GPU%d: %.1f GB/s "
                   "against a one-way sum of %.1f): what a GPU with a single copy engine gives, "
                   "as it runs one direction at a time, and the paste does not say how many "
                   "this GPU has; with 2 or more the link does not carry both directions at "
                   "once%s; next: deviceQuery's `Concurrent copy and kernel execution` line "
                   "(`Yes with 1 copy engine(s)`: by design)",
                   turns, n, ls_json_str(w->e, "source", "?"), w->g, w->v, w->sum, peers);
}

/* A GPU's pinned host path both ways at once (the sum: linkscope's own host step,
   busGrind's BiDir row) below LS_BIDIR_SUM_FRACTION of its two one-way figures: the link
   is full duplex, so both directions at once should reach about their sum (0.9 of it on
   the bundled H200 runs), where the GPU has two copy engines or more (bidir_judge).
   Pageable copies are paced by the CPU's staging, not the link: not judged. */
static void host_bidir_low(const ls_machine_t *m, json_t *out)
{
    host_bidir_t rows[LS_MAX_GPUS * 4];
    int n = host_bidir_rows(m, rows, (int)(sizeof rows / sizeof rows[0]));
    bidir_low_finding(rows, n, out);
    bidir_turns_finding(rows, n, out);
}

void ls_rules_matrix(const ls_machine_t *m, json_t *out)
{
    host_bidir_low(m, out);
    json_t *methods = json_object(); /* each method of a host->GPU figure, once */
    for (long i = ls_doc_next_measurement(m->doc, LS_FAMILY_HOST, 0); i >= 0;
         i = ls_doc_next_measurement(m->doc, LS_FAMILY_HOST, i + 1)) {
        const json_t *e = ls_measurement(m, (size_t)i);
        if (!strcmp(ls_json_str(e, "direction", ""), LS_DIR_H2D))
            json_object_set_new(methods, ls_json_str(e, "method", ""), json_true());
    }
    const char *method;
    const json_t *v;
    json_object_foreach(methods, method, v)
        host_one_way(m, method, out);
    json_decref(methods);
    for (int a = 0; a < m->ngpus; a++)
        for (int b = a + 1; b < m->ngpus; b++)
            one_way(m, a, b, out);
}
