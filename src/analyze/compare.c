/* Figures, their identities, and two documents side by side. A change counts when
   it is larger than both the threshold and what the samples' spread explains: three
   times the combined coefficient of variation sqrt(cv_a^2 + cv_b^2). An imported
   figure or a single sample has no spread; the threshold alone decides. */
#include "compare.h"
#include "model/doc.h"
#include "model/families.h"
#include "model/vocab.h"
#include "model/view.h"
#include "util/array.h"
#include "util/log.h"
#include "util/parse.h"
#include "util/strindex.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Below this size nccl-tests' busbw (two decimals) is too coarse to compare: the
   figure is the time instead. */
#define NCCL_BUSBW_FROM_BYTES (1024LL * 1024)

static void copy_str(json_t *dst, const json_t *src, const char *key)
{
    const json_t *v = json_object_get(src, key);
    if (json_is_string(v))
        json_object_set_new(dst, key, json_string(json_string_value(v)));
}

static void copy_int(json_t *dst, const json_t *src, const char *key)
{
    const json_t *v = json_object_get(src, key);
    if (json_is_integer(v))
        json_object_set_new(dst, key, json_integer(json_integer_value(v)));
}

static void copy_any(json_t *dst, const json_t *src, const char *key)
{
    json_t *v = json_object_get(src, key);
    if (v)
        json_object_set_new(dst, key, json_deep_copy(v));
}

/* Copies each key of a NULL-terminated list, "s:" a string, "i:" an integer, "*:" any
   value, when the source holds one of that kind. */
static void copy_keys(json_t *dst, const json_t *src, const char *const *keys)
{
    for (; *keys; keys++) {
        const char *key = *keys + 2;
        if (**keys == 's')
            copy_str(dst, src, key);
        else if (**keys == 'i')
            copy_int(dst, src, key);
        else
            copy_any(dst, src, key);
    }
}

/* The attributes that name what an entry measured: its family's identity keys
   (model/families.c, docs/schema.md); a family this build does not know, by its id. */
static json_t *entry_identity(const json_t *e)
{
    static const char *const unknown_keys[] = {"s:method", "s:id", "s:subject", NULL};
    const char *family = ls_json_str(e, "family", "");
    const ls_fam_t *fam = ls_fam_find(family);
    json_t *m = json_pack("{s:s}", "family", family);
    /* "staged" is each tool's own way without P2P (linkscope: two copies through pinned
       host memory; p2pBandwidthLatencyTest: cudaMemcpyPeer with peer access off, staged
       by the driver): different methods, never paired */
    if (strcmp(ls_json_str(e, "method", ""), LS_P2P_STAGED) == 0)
        json_object_set_new(m, "staged_by",
                            json_string(ls_json_str(e, "source", LS_SOURCE_LINKSCOPE)));
    copy_keys(m, e, fam && fam->identity ? fam->identity : unknown_keys);
    return m;
}

static json_t *nccl_identity(const json_t *e, int without_variant)
{
    json_t *m = json_pack("{s:s}", "family", LS_FAMILY_NCCL);
    copy_str(m, e, "collective");
    if (!without_variant)
        json_object_set_new(m, "variant", json_string(ls_json_str(e, "variant", "default")));
    copy_str(m, e, "dtype");
    copy_str(m, e, "redop");
    if (ls_json_int(e, "root", -1) >= 0)
        copy_int(m, e, "root");
    copy_any(m, e, "gpus");
    copy_int(m, e, "nranks");
    return m;
}

static void gpus_text(const json_t *gpus, char *buf, size_t len)
{
    size_t used = 0, i;
    const json_t *g;
    buf[0] = '\0';
    json_array_foreach(gpus, i, g) {
        if (used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%lld", i ? "," : "",
                                     (long long)json_integer_value(g));
    }
}

/* One word per label: "host h2d h2d GPU0" (method and direction the same word) reads
   "host h2d GPU0". */
static void drop_repeated_words(char *buf)
{
    char out[512] = "", prev[128] = "";
    size_t used = 0;
    for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (strcmp(w, prev) == 0)
            continue;
        used += (size_t)snprintf(out + used, used < sizeof out ? sizeof out - used : 0, "%s%s",
                                 used ? " " : "", w);
        snprintf(prev, sizeof prev, "%s", w);
    }
    strcpy(buf, out);
}

static void label_of(const json_t *m, char *buf, size_t len)
{
    const char *family = ls_json_str(m, "family", "?");
    const ls_fam_t *fam = ls_fam_find(family);
    const char *method = ls_json_str(m, "method", "");
    const char *under = ls_json_str(m, "under", NULL);
    char extra[64] = "";
    if (under)
        snprintf(extra, sizeof extra, " (under %s)", under);
    if (fam && fam->per == LS_PER_PAIR) { /* p2p, latency: "p2p ce uni GPU0->GPU1" */
        const json_t *p2p = json_object_get(m, "p2p");
        long long dst = ls_json_int(m, "dst", -1);
        char dsttext[32];
        if (dst < 0)
            snprintf(dsttext, sizeof dsttext, "host");
        else
            snprintf(dsttext, sizeof dsttext, "GPU%lld", dst);
        const char *mode = ls_json_str(m, "mode", NULL);
        const char *direction = ls_json_str(m, "direction", NULL);
        snprintf(buf, len, "%s %s%s%s%s%s GPU%lld->%s%s%s", family, method, mode ? "-" : "",
                 mode ? mode : "", direction ? " " : "", direction ? direction : "",
                 ls_json_int(m, "src", -1), dsttext, json_is_false(p2p) ? " (no P2P)" : "", extra);
    } else if (fam == &ls_fam_host) {
        long long node = ls_json_int(m, "numa_node", -1);
        char nodetext[24] = "";
        if (json_object_get(m, "numa_node"))
            snprintf(nodetext, sizeof nodetext, " node%lld", node);
        snprintf(buf, len, "host %s %s GPU%lld%s %s%s", method, ls_json_str(m, "direction", ""),
                 ls_json_int(m, "gpu", -1), nodetext, ls_json_str(m, "memory", ""), extra);
    } else if (fam == &ls_fam_nccl) {
        char gpus[128], size[32];
        gpus_text(json_object_get(m, "gpus"), gpus, sizeof gpus);
        ls_format_size((uint64_t)ls_json_int(m, "bytes", 0), size, sizeof size);
        const char *variant = ls_json_str(m, "variant", "default");
        char vtext[96] = "";
        if (strcmp(variant, "default") != 0)
            snprintf(vtext, sizeof vtext, " [%s]", variant);
        snprintf(buf, len, "%s %s %s GPUs %s%s %s", ls_json_str(m, "collective", "?"), size,
                 ls_json_str(m, "metric", ""), gpus, vtext,
                 strcmp(ls_json_str(m, "dtype", "float"), "float") ? ls_json_str(m, "dtype", "")
                                                                   : "");
    } else { /* any other family (hbm's "hbm read GPU0"): its identity's GPUs, and the
                entry's id where the identity holds it */
        char who[64] = "";
        if (json_is_integer(json_object_get(m, "src")) &&
            json_is_integer(json_object_get(m, "dst")))
            snprintf(who, sizeof who, " GPU%lld->GPU%lld", ls_json_int(m, "src", -1),
                     ls_json_int(m, "dst", -1));
        else if (json_is_integer(json_object_get(m, "gpu")))
            snprintf(who, sizeof who, " GPU%lld", ls_json_int(m, "gpu", -1));
        snprintf(buf, len, "%s %s%s %s", family, method, who, ls_json_str(m, "id", ""));
    }
    size_t n = strlen(buf);
    while (n && buf[n - 1] == ' ')
        buf[--n] = '\0';
    drop_repeated_words(buf);
}

static ls_figure_t *push(ls_figures_t *figs)
{
    return ls_array_push(&figs->items, &figs->n, &figs->cap, sizeof *figs->items, 64);
}

/* Takes match (reference stolen) and fills key and label. */
static int add_figure(ls_figures_t *figs, json_t *match, double value, const char *unit, double cv,
                      int n, const json_t *entry)
{
    const char *entry_id = ls_json_str(entry, "id", "");
    ls_figure_t *f = push(figs);
    if (!f) {
        json_decref(match);
        return -1;
    }
    f->match = match;
    char *key = json_dumps(match, JSON_COMPACT | JSON_SORT_KEYS);
    snprintf(f->key, sizeof f->key, "%s", key ? key : "");
    free(key);
    label_of(match, f->label, sizeof f->label);
    f->value = value;
    snprintf(f->unit, sizeof f->unit, "%s", unit);
    f->higher_is_better = strcmp(unit, "GB/s") == 0 ||
                          strcmp(unit, "TFLOP/s") == 0; /* bandwidth, throughput */
    f->cv = cv;
    f->n = n;
    snprintf(f->entry_id, sizeof f->entry_id, "%s", entry_id);
    snprintf(f->tool, sizeof f->tool, "%s", ls_json_str(entry, "source", ""));
    snprintf(f->file, sizeof f->file, "%s", ls_json_str(entry, "source_file", ""));
    return 0;
}

static int collect_nccl(const json_t *e, int without_variant, ls_figures_t *figs)
{
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(e, "rows"), i, row) {
        long long bytes = ls_json_int(row, "bytes", -1);
        const json_t *res = json_object_get(row, "oop");
        if (!json_is_object(res))
            res = json_object_get(row, "ip");
        int bw = bytes >= NCCL_BUSBW_FROM_BYTES;
        const json_t *v = json_object_get(res, bw ? "busbw" : "time_us");
        if (bytes < 0 || !json_is_number(v))
            continue;
        json_t *m = nccl_identity(e, without_variant);
        json_object_set_new(m, "bytes", json_integer(bytes));
        json_object_set_new(m, "metric", json_string(bw ? "busbw" : "time"));
        if (add_figure(figs, m, json_number_value(v), bw ? "GB/s" : "us", 0, 0, e) != 0)
            return -1;
    }
    return 0;
}

static int same_origin(const ls_figure_t *a, const ls_figure_t *b)
{
    return strcmp(a->key, b->key) == 0 && strcmp(a->tool, b->tool) == 0 &&
           strcmp(a->file, b->file) == 0;
}

/* rank = figures of the same key, tool and file before this one. Only figures of one
   key are compared (a hash index of the keys): linear in the figures. */
static void number_repeats(ls_figures_t *figs)
{
    const char **keys = malloc((figs->n + 1) * sizeof *keys);
    ls_strindex_t ix;
    if (!keys)
        abort();
    for (size_t i = 0; i < figs->n; i++)
        keys[i] = figs->items[i].key;
    if (ls_strindex_build(&ix, keys, figs->n) != 0)
        abort();
    for (size_t i = 0; i < figs->n; i++)
        for (size_t k = ls_strindex_first(&ix, keys[i]); k != LS_STRINDEX_NONE && k < i;
             k = ls_strindex_next(&ix, k))
            figs->items[i].rank += same_origin(&figs->items[k], &figs->items[i]);
    ls_strindex_free(&ix);
    free(keys);
}

int ls_figures_collect(const json_t *doc, int without_variant, ls_figures_t *out)
{
    memset(out, 0, sizeof *out);
    LS_DOC_FOREACH(v, doc, NULL)
    {
        const json_t *e = v.json;
        if (!v.ok)
            continue;
        if (v.fam == &ls_fam_nccl) { /* a figure per size, from its rows */
            if (collect_nccl(e, without_variant, out) != 0)
                return -1;
            continue;
        }
        const json_t *value = json_object_get(e, "value");
        if (!json_is_number(value))
            continue;
        const json_t *stats = json_object_get(e, "stats");
        int n = (int)ls_json_int(stats, "n", 0);
        double cv = n >= 2 ? ls_json_num(stats, "cv", 0) : 0;
        json_t *m = entry_identity(e);
        json_object_set_new(m, "metric", json_string(ls_json_str(e, "metric", "")));
        if (add_figure(out, m, json_number_value(value), ls_json_str(e, "unit", ""), cv, n, e) != 0)
            return -1;
    }
    number_repeats(out);
    return 0;
}

void ls_figures_free(ls_figures_t *figs)
{
    for (size_t i = 0; i < figs->n; i++)
        json_decref(figs->items[i].match);
    free(figs->items);
    memset(figs, 0, sizeof *figs);
}

static int value_equal(const char *key, const json_t *want, const json_t *have)
{
    if (strcmp(key, "bytes") == 0 && json_is_string(want)) {
        uint64_t bytes;
        return ls_parse_size(json_string_value(want), &bytes) == 0 && json_is_integer(have) &&
               (uint64_t)json_integer_value(have) == bytes;
    }
    if (json_is_number(want) && json_is_number(have))
        return json_number_value(want) == json_number_value(have);
    return json_equal(want, have);
}

int ls_figure_matches(const ls_figure_t *fig, const json_t *match)
{
    const char *key;
    const json_t *want;
    json_object_foreach((json_t *)match, key, want) {
        const json_t *have = json_object_get(fig->match, key);
        if (!have || !value_equal(key, want, have))
            return 0;
    }
    return 1;
}

/* ---- comparing ---------------------------------------------------------- */

static double noise_pct(const ls_figure_t *a, const ls_figure_t *b)
{
    double sum = 0;
    if (a->n >= 2)
        sum += a->cv * a->cv;
    if (b->n >= 2)
        sum += b->cv * b->cv;
    return 3.0 * sqrt(sum) * 100.0;
}

/* "nvbandwidth: run1.txt", "linkscope" for figures measured by linkscope itself. */
static void source_text(const ls_figure_t *f, char *buf, size_t len)
{
    if (!f->tool[0])
        snprintf(buf, len, "linkscope");
    else if (f->file[0])
        snprintf(buf, len, "%s: %s", f->tool, f->file);
    else
        snprintf(buf, len, "%s", f->tool);
}

/* The label, with the tool when a figure was imported ("[nvbandwidth]", or
   "[p2pBandwidthLatencyTest vs nvbandwidth]" when the two sides differ). */
static void row_label(const ls_figure_t *a, const ls_figure_t *b, char *buf, size_t len)
{
    if (!a->tool[0] && !b->tool[0])
        snprintf(buf, len, "%s", a->label);
    else if (strcmp(a->tool, b->tool) == 0)
        snprintf(buf, len, "%s [%s]", a->label, a->tool);
    else
        snprintf(buf, len, "%s [%s vs %s]", a->label, a->tool[0] ? a->tool : "linkscope",
                 b->tool[0] ? b->tool : "linkscope");
}

static json_t *compare_row(const ls_figure_t *a, const ls_figure_t *b,
                           const ls_compare_opts_t *opts)
{
    double threshold = opts->threshold_pct;
    if (!a->higher_is_better && opts->latency_threshold_pct > 0)
        threshold = opts->latency_threshold_pct;
    double limit = fmax(threshold, noise_pct(a, b));
    char label[320], src_a[160], src_b[160];
    row_label(a, b, label, sizeof label);
    source_text(a, src_a, sizeof src_a);
    source_text(b, src_b, sizeof src_b);
    json_t *row = json_pack("{s:s, s:s, s:s, s:f, s:f}", "key", a->key, "label", label, "unit",
                            a->unit, "a", a->value, "b", b->value);
    const char *verdict = "same";
    if (a->value > 0 && b->value >= 0) {
        double ratio = b->value / a->value;
        double change = (ratio - 1.0) * 100.0;
        json_object_set_new(row, "ratio", json_real(ratio));
        json_object_set_new(row, "change_pct", json_real(change));
        if (fabs(change) > limit)
            verdict = ((change > 0) == (a->higher_is_better != 0)) ? "gain" : "regression";
        else if (fabs(change) > threshold) /* beyond the threshold, inside the samples' noise */
            json_object_set_new(row, "within_noise", json_true());
    } else if (a->value != b->value) {
        verdict = "n/a";
    }
    json_object_set_new(row, "limit_pct", json_real(limit));
    json_object_set_new(row, "verdict", json_string(verdict));
    json_object_set_new(row, "match", json_deep_copy(a->match));
    if (a->tool[0] || b->tool[0]) {
        json_object_set_new(row, "source_a", json_string(src_a));
        json_object_set_new(row, "source_b", json_string(src_b));
    }
    return row;
}

/* Orders figures of one key by tool, file and position (not by import order). */
static int origin_cmp(const ls_figure_t *x, const ls_figure_t *y)
{
    int c = strcmp(x->tool, y->tool);
    if (!c)
        c = strcmp(x->file, y->file);
    return c ? c : x->rank - y->rank;
}

/* The unpaired figure of list b (of key) that pairs best with a: same tool, file and
   rank; else same tool and rank; else the first in origin order. NULL when none. Only
   the figures of a's key are visited (ix indexes fb's keys): linear in the figures. */
static const ls_figure_t *partner(const ls_figure_t *a, const ls_figures_t *fb,
                                  const ls_strindex_t *ix, const unsigned char *used_b, int pass)
{
    const ls_figure_t *best = NULL;
    for (size_t k = ls_strindex_first(ix, a->key); k != LS_STRINDEX_NONE;
         k = ls_strindex_next(ix, k)) {
        const ls_figure_t *b = &fb->items[k];
        if (used_b[k])
            continue;
        int fits = pass == 0 ? strcmp(a->tool, b->tool) == 0 && strcmp(a->file, b->file) == 0 &&
                                   a->rank == b->rank
                   : pass == 1 ? strcmp(a->tool, b->tool) == 0 && a->rank == b->rank
                               : 1;
        if (fits && (!best || origin_cmp(b, best) < 0))
            best = b;
    }
    return best;
}

/* Figures in origin order, ties in list order (pointers into one array). */
static int origin_ptr_cmp(const void *x, const void *y)
{
    const ls_figure_t *a = *(const ls_figure_t *const *)x, *b = *(const ls_figure_t *const *)y;
    int c = origin_cmp(a, b);
    return c ? c : (a > b) - (a < b);
}

/* pair_of[i] = the index in fb paired with fa's figure i, or -1. */
static void pair_figures(const ls_figures_t *fa, const ls_figures_t *fb, long *pair_of)
{
    unsigned char *used_b = calloc(fb->n + 1, 1);
    const ls_figure_t **order = malloc((fa->n + 1) * sizeof *order);
    const char **keys = malloc((fb->n + 1) * sizeof *keys);
    ls_strindex_t ix;
    if (!used_b || !order || !keys)
        abort();
    for (size_t k = 0; k < fb->n; k++)
        keys[k] = fb->items[k].key;
    if (ls_strindex_build(&ix, keys, fb->n) != 0)
        abort();
    for (size_t i = 0; i < fa->n; i++) {
        pair_of[i] = -1;
        order[i] = &fa->items[i];
    }
    /* fa's figures in origin order, so that the last pass does not follow import order */
    qsort(order, fa->n, sizeof *order, origin_ptr_cmp);
    for (int pass = 0; pass < 3; pass++)
        for (size_t o = 0; o < fa->n; o++) {
            size_t i = (size_t)(order[o] - fa->items);
            if (pair_of[i] >= 0)
                continue;
            const ls_figure_t *b = partner(&fa->items[i], fb, &ix, used_b, pass);
            if (b) {
                pair_of[i] = (long)(b - fb->items);
                used_b[pair_of[i]] = 1;
            }
        }
    ls_strindex_free(&ix);
    free(keys);
    free(order);
    free(used_b);
}

/* Rows for every figure paired across the two documents; NULL when none is. */
static json_t *compare_figures(const ls_figures_t *fa, const ls_figures_t *fb,
                               const ls_compare_opts_t *opts)
{
    json_t *rows = json_array();
    int regressions = 0, gains = 0, paired = 0;
    long *pair_of = malloc((fa->n + 1) * sizeof *pair_of);
    if (!pair_of)
        abort();
    pair_figures(fa, fb, pair_of);
    for (size_t i = 0; i < fa->n; i++) {
        if (pair_of[i] < 0)
            continue;
        json_t *row = compare_row(&fa->items[i], &fb->items[pair_of[i]], opts);
        const char *v = ls_json_str(row, "verdict", "");
        regressions += strcmp(v, "regression") == 0;
        gains += strcmp(v, "gain") == 0;
        paired++;
        json_array_append_new(rows, row);
    }
    free(pair_of);
    if (json_array_size(rows) == 0) {
        json_decref(rows);
        return NULL;
    }
    return json_pack("{s:o, s:i, s:i, s:i, s:i}", "rows", rows, "only_a", (int)fa->n - paired,
                     "only_b", (int)fb->n - paired, "regressions", regressions, "gains", gains);
}

/* "2 x NVIDIA H200" (or "1 x NVIDIA H100 NVL, 1 x NVIDIA H100 80GB HBM3" when mixed). */
void ls_gpu_summary(const json_t *doc, char *buf, size_t len)
{
    const json_t *gpus = json_object_get(doc, "gpus");
    buf[0] = '\0';
    size_t used = 0, i;
    const json_t *g;
    const char *first = NULL;
    int same = 1, count = 0;
    json_array_foreach(gpus, i, g) {
        const char *name = ls_json_str(g, "name", "?");
        if (!first)
            first = name;
        same &= strcmp(first, name) == 0;
        count++;
    }
    if (count == 0)
        return;
    if (same) {
        snprintf(buf, len, "%d x %s", count, first);
        return;
    }
    /* mixed: each name once with its count, in the order they first appear (11 V100s of
       five kinds read "6 x Tesla V100-PCIE-32GB, 2 x Quadro GV100, ...", not 11 names) */
    json_array_foreach(gpus, i, g) {
        const char *name = ls_json_str(g, "name", "?");
        size_t k, n = 0;
        const json_t *h;
        int seen = 0;
        json_array_foreach(gpus, k, h) {
            seen |= k < i && strcmp(ls_json_str(h, "name", "?"), name) == 0;
            n += strcmp(ls_json_str(h, "name", "?"), name) == 0;
        }
        if (!seen && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%zu x %s", used ? ", " : "", n,
                                     name);
    }
}

static void nic_firmware(const json_t *doc, char *buf, size_t len)
{
    size_t used = 0, i;
    const json_t *nic;
    buf[0] = '\0';
    json_array_foreach(json_object_get(doc, "nics"), i, nic) {
        const char *fw = ls_json_str(nic, "firmware", NULL);
        if (fw && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s %s", used ? ", " : "",
                                     ls_json_str(nic, "name", "?"), fw);
    }
}

static void add_context(json_t *list, const char *what, const char *a, const char *b)
{
    if ((!a || !*a) && (!b || !*b))
        return;
    /* unknown on one side is not a difference: imported documents know less */
    int differs = a && *a && b && *b && strcmp(a, b) != 0;
    a = a && *a ? a : "-";
    b = b && *b ? b : "-";
    json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:b}", "what", what, "a", a, "b", b,
                                          "differs", differs));
}

static json_t *context_lines(const json_t *a, const json_t *b)
{
    json_t *list = json_array();
    char ga[512], gb[512];
    ls_gpu_summary(a, ga, sizeof ga);
    ls_gpu_summary(b, gb, sizeof gb);
    add_context(list, "GPUs", ga, gb);
    static const char *const software[][2] = {{"driver", "driver"},
                                              {"CUDA driver", "cuda_driver"},
                                              {"CUDA runtime", "cuda_runtime"},
                                              {"NCCL", "nccl"}};
    const json_t *sa = json_object_get(a, "software"), *sb = json_object_get(b, "software");
    for (size_t k = 0; k < sizeof software / sizeof software[0]; k++)
        add_context(list, software[k][0], ls_json_str(sa, software[k][1], NULL),
                    ls_json_str(sb, software[k][1], NULL));
    char fa[512], fb[512];
    nic_firmware(a, fa, sizeof fa);
    nic_firmware(b, fb, sizeof fb);
    add_context(list, "NIC firmware", fa, fb);
    const json_t *ha = json_object_get(a, "host"), *hb = json_object_get(b, "host");
    add_context(list, "host", ls_json_str(ha, "hostname", NULL), ls_json_str(hb, "hostname", NULL));
    add_context(list, "created", ls_json_str(a, "created", NULL), ls_json_str(b, "created", NULL));
    add_context(list, "source", ls_json_str(a, "source", "linkscope"),
                ls_json_str(b, "source", "linkscope"));
    return list;
}

/* "p2p, hbm, nccl": the families of the figures, each once (a family is named once in
   buf, which is all that is searched: a handful of words). */
static void families_text(const ls_figures_t *figs, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < figs->n; i++) {
        const char *fam = ls_json_str(figs->items[i].match, "family", "?");
        char word[64];
        snprintf(word, sizeof word, "%s,", fam);
        char listed[1024];
        snprintf(listed, sizeof listed, "%s,", buf);
        int seen = strncmp(listed, word, strlen(word)) == 0;
        snprintf(word, sizeof word, ", %s,", fam);
        seen |= strstr(listed, word) != NULL;
        if (!seen && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", fam);
    }
    if (!buf[0])
        snprintf(buf, len, "none");
}

json_t *ls_compare_docs(const json_t *a, const json_t *b, const ls_compare_opts_t *opts, char *err,
                        size_t errlen)
{
    ls_figures_t fa, fb;
    json_t *result = NULL;
    if (ls_figures_collect(a, 0, &fa) == 0 && ls_figures_collect(b, 0, &fb) == 0) {
        result = compare_figures(&fa, &fb, opts);
        if (!result) {
            char famA[128], famB[128];
            families_text(&fa, famA, sizeof famA);
            families_text(&fb, famB, sizeof famB);
            ls_seterr(err, errlen,
                      "no figure in common (first has %zu: %s; second has %zu: %s): nothing "
                      "to compare",
                      fa.n, famA, fb.n, famB);
        } else {
            json_object_set_new(result, "context", context_lines(a, b));
        }
        ls_figures_free(&fb);
    } else {
        ls_seterr(err, errlen, "out of memory");
    }
    ls_figures_free(&fa);
    return result;
}

/* Figures of one variant only, with the variant left out of the identity. */
static int collect_variant(const json_t *doc, const char *variant, ls_figures_t *out)
{
    json_t *copy = json_pack("{s:[]}", "measurements");
    json_t *list = json_object_get(copy, "measurements");
    LS_DOC_FOREACH(v, doc, &ls_fam_nccl)
    {
        if (strcmp(ls_json_str(v.json, "variant", "default"), variant) == 0)
            json_array_append(list, (json_t *)v.json);
    }
    int rc = ls_figures_collect(copy, 1, out);
    json_decref(copy);
    return rc;
}

static json_t *variant_names(const json_t *doc)
{
    json_t *names = json_array();
    LS_DOC_FOREACH(v, doc, &ls_fam_nccl)
    {
        ls_json_add_string_once(names, ls_json_str(v.json, "variant", "default"));
    }
    return names;
}

json_t *ls_compare_variants(const json_t *doc, const char *base, const ls_compare_opts_t *opts,
                            char *err, size_t errlen)
{
    json_t *names = variant_names(doc);
    int has_base = 0;
    size_t i;
    const json_t *n;
    json_array_foreach(names, i, n)
        has_base |= strcmp(json_string_value(n), base) == 0;
    if (json_array_size(names) < 2 || !has_base) {
        ls_seterr(err, errlen,
                  "the document has %zu nccl variant%s%s; --variants needs \"%s\" and at least "
                  "one other",
                  json_array_size(names), json_array_size(names) == 1 ? "" : "s",
                  has_base ? "" : " and none named the base", base);
        json_decref(names);
        return NULL;
    }
    ls_figures_t fbase;
    collect_variant(doc, base, &fbase);
    json_t *blocks = json_array();
    json_array_foreach(names, i, n) {
        const char *v = json_string_value(n);
        if (strcmp(v, base) == 0)
            continue;
        ls_figures_t fv;
        collect_variant(doc, v, &fv);
        json_t *block = compare_figures(&fbase, &fv, opts);
        if (block) {
            json_object_set_new(block, "variant", json_string(v));
            json_array_append_new(blocks, block);
        }
        ls_figures_free(&fv);
    }
    ls_figures_free(&fbase);
    json_decref(names);
    if (json_array_size(blocks) == 0) {
        json_decref(blocks);
        ls_seterr(err, errlen, "no variant shares a collective, GPU set and size with \"%s\"",
                  base);
        return NULL;
    }
    return json_pack("{s:s, s:o}", "base", base, "variants", blocks);
}
