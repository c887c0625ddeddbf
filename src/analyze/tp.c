#include "tp.h"
#include "machine.h"
#include "../model/doc.h"
#include "../model/vocab.h"
#include "../util/log.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- Presets ---------------------------------------------------------------------
   hidden_size and num_hidden_layers as the models' published config.json give them. */
static const ls_tp_preset_t presets[] = {
    {"llama3-8b", "llama3.1-8b,llama-3-8b,llama-3.1-8b", 4096, 32, 0, 0, ""},
    {"llama3-70b", "llama3.1-70b,llama-3-70b,llama-3.1-70b", 8192, 80, 0, 0, ""},
    {"llama3.3-70b", "llama-3.3-70b", 8192, 80, 0, 0, ""},
    {"llama3.1-405b", "llama-3.1-405b", 16384, 126, 0, 0, ""},
    {"qwen3-8b", "", 4096, 36, 0, 0, ""},
    {"qwen3-32b", "", 5120, 64, 0, 0, ""},
    {"qwen3-30b-a3b", "qwen3-coder-30b-a3b", 2048, 48, 128, 8,
     "MoE: experts sharded by tensor parallelism (one all-reduce after the MoE block); "
     "expert-parallel all-to-all is not modelled"},
    {"mixtral-8x7b", "", 4096, 32, 8, 2,
     "MoE: experts sharded by tensor parallelism (one all-reduce after the MoE block); "
     "expert-parallel all-to-all is not modelled"},
};

const ls_tp_preset_t *ls_tp_presets(int *count)
{
    *count = (int)(sizeof presets / sizeof presets[0]);
    return presets;
}

static int alias_matches(const char *aliases, const char *name)
{
    size_t len = strlen(name);
    const char *p = aliases;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (n == len && strncasecmp(p, name, n) == 0)
            return 1;
        p += n + (comma ? 1 : 0);
    }
    return 0;
}

const ls_tp_preset_t *ls_tp_preset_find(const char *name)
{
    if (!name || !*name)
        return NULL;
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (strcasecmp(presets[i].name, name) == 0 || alias_matches(presets[i].aliases, name))
            return &presets[i];
    return NULL;
}

/* ---- Counts and sizes -------------------------------------------------------------- */

int ls_tp_allreduces_per_pass(const ls_tp_shape_t *shape)
{
    return 2 * shape->layers;
}

uint64_t ls_tp_allreduce_bytes(const ls_tp_shape_t *shape, uint64_t tokens)
{
    return tokens * (uint64_t)shape->hidden * (uint64_t)shape->bytes;
}

/* ---- Link formula ------------------------------------------------------------------ */

double ls_tp_ring_allreduce_us(double bw_gbps, double lat_us, int nranks, double bytes)
{
    if (nranks < 2)
        return 0;
    double steps = 2.0 * (nranks - 1);
    /* bytes / (bw * 1e9 B/s) seconds = bytes / (bw * 1e3) us */
    return steps * lat_us + steps / nranks * bytes / (bw_gbps * 1e3);
}

/* ---- Alpha-beta fit ------------------------------------------------------------------ */

int ls_tp_fit_alpha_beta(const double *bytes, const double *time_us, size_t n, double *alpha_us,
                         double *bw_gbps)
{
    double smax = 0;
    for (size_t i = 0; i < n; i++)
        smax = fmax(smax, bytes[i]);
    if (n < 2 || smax <= 0)
        return -1;
    /* Sizes scaled to [0, 1] keep the normal equations well conditioned. */
    double sw = 0, sx = 0, sxx = 0, sy = 0, sxy = 0;
    for (size_t i = 0; i < n; i++) {
        double w = 1.0 / (time_us[i] * time_us[i]);
        double x = bytes[i] / smax;
        sw += w, sx += w * x, sxx += w * x * x, sy += w * time_us[i], sxy += w * x * time_us[i];
    }
    double det = sw * sxx - sx * sx;
    if (!(det > 1e-300 * sw * sxx))
        return -1; /* all sizes equal */
    double alpha = (sxx * sy - sx * sxy) / det;
    double slope = (sw * sxy - sx * sy) / det; /* us per (smax bytes) */
    if (alpha < 0) {
        alpha = 0;
        slope = sxy / sxx;
    }
    if (!(slope > 0))
        return -1;
    *alpha_us = alpha;
    *bw_gbps = smax / slope / 1e3; /* bytes per us / 1e3 = GB/s */
    return 0;
}

/* ---- Curves ------------------------------------------------------------------------- */

typedef struct {
    double bytes, time_us; /* bytes first: the sort key (ls_cmp_double) */
} point_t;

static size_t merge_duplicates(point_t *pts, size_t n)
{
    size_t out = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        double sum = 0;
        while (j < n && pts[j].bytes == pts[i].bytes)
            sum += pts[j++].time_us;
        pts[out].bytes = pts[i].bytes;
        pts[out++].time_us = sum / (double)(j - i);
        i = j;
    }
    return out;
}

/* Fits the points [from, to) of the curve; 0 or -1. */
static int fit_span(const ls_tp_curve_t *c, size_t from, size_t to, double *alpha, double *bw)
{
    return ls_tp_fit_alpha_beta(c->bytes + from, c->time_us + from, to - from, alpha, bw);
}

static void fit_ends(ls_tp_curve_t *c)
{
    size_t lo_end = 2, hi_start = c->n - 2;
    while (lo_end < c->n && c->bytes[lo_end] <= c->bytes[0] * LS_TP_END_SPAN)
        lo_end++;
    while (hi_start > 0 && c->bytes[hi_start - 1] >= c->bytes[c->n - 1] / LS_TP_END_SPAN)
        hi_start--;
    c->have_low_fit = fit_span(c, 0, lo_end, &c->low_alpha_us, &c->low_bw_gbps) == 0;
    c->have_high_fit = fit_span(c, hi_start, c->n, &c->high_alpha_us, &c->high_bw_gbps) == 0;
}

static void fit_curve(ls_tp_curve_t *c)
{
    if (c->n >= 2)
        fit_ends(c);
    c->have_fit = ls_tp_fit_alpha_beta(c->bytes, c->time_us, c->n, &c->alpha_us, &c->bw_gbps) == 0;
    if (!c->have_fit)
        return;
    double sum2 = 0, worst = 0;
    for (size_t i = 0; i < c->n; i++) {
        double fit = c->alpha_us + c->bytes[i] / (c->bw_gbps * 1e3);
        double rel = fabs(fit - c->time_us[i]) / c->time_us[i];
        worst = fmax(worst, rel);
        sum2 += rel * rel;
    }
    c->fit_max_rel = worst;
    c->fit_rms_rel = sqrt(sum2 / (double)c->n);
}

int ls_tp_curve_init(ls_tp_curve_t *c, const double *bytes, const double *time_us, size_t n,
                     char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    point_t *pts = calloc(n ? n : 1, sizeof *pts);
    if (!pts)
        return ls_seterr(err, errlen, "out of memory");
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (bytes[i] > 0 && time_us[i] > 0 && isfinite(bytes[i]) && isfinite(time_us[i]))
            pts[kept++] = (point_t){bytes[i], time_us[i]};
    if (kept == 0) {
        free(pts);
        return ls_seterr(err, errlen, "no point with a positive size and time");
    }
    qsort(pts, kept, sizeof *pts, ls_cmp_double); /* by bytes, the first member */
    kept = merge_duplicates(pts, kept);
    c->bytes = malloc(kept * sizeof *c->bytes);
    c->time_us = malloc(kept * sizeof *c->time_us);
    if (!c->bytes || !c->time_us) {
        free(pts);
        ls_tp_curve_free(c);
        return ls_seterr(err, errlen, "out of memory");
    }
    for (size_t i = 0; i < kept; i++)
        c->bytes[i] = pts[i].bytes, c->time_us[i] = pts[i].time_us;
    c->n = kept;
    free(pts);
    fit_curve(c);
    return 0;
}

void ls_tp_curve_free(ls_tp_curve_t *c)
{
    free(c->bytes);
    free(c->time_us);
    c->bytes = c->time_us = NULL;
    c->n = 0;
}

static double fit_time(const ls_tp_curve_t *c, double bytes)
{
    return c->alpha_us + bytes / (c->bw_gbps * 1e3);
}

double ls_tp_curve_time_us(const ls_tp_curve_t *c, double bytes, enum ls_tp_how *how)
{
    enum ls_tp_how dummy;
    how = how ? how : &dummy;
    if (c->n == 0)
        return NAN;
    if (bytes < c->bytes[0] || bytes > c->bytes[c->n - 1]) {
        int below = bytes < c->bytes[0];
        *how = below ? LS_TP_FIT_BELOW : LS_TP_FIT_ABOVE;
        if (below && c->have_low_fit)
            return c->low_alpha_us + bytes / (c->low_bw_gbps * 1e3);
        if (!below && c->have_high_fit)
            return c->high_alpha_us + bytes / (c->high_bw_gbps * 1e3);
        if (c->have_fit)
            return fit_time(c, bytes);
        return below ? c->time_us[0] : c->time_us[c->n - 1]; /* one point: nothing better */
    }
    size_t hi = 0;
    while (c->bytes[hi] < bytes)
        hi++;
    if (c->bytes[hi] == bytes) {
        *how = LS_TP_EXACT;
        return c->time_us[hi];
    }
    size_t lo = hi - 1;
    double f = log(bytes / c->bytes[lo]) / log(c->bytes[hi] / c->bytes[lo]);
    *how = LS_TP_INTERP;
    return exp(log(c->time_us[lo]) + f * log(c->time_us[hi] / c->time_us[lo]));
}

const char *ls_tp_how_name(enum ls_tp_how how)
{
    switch (how) {
    case LS_TP_EXACT: return "measured";
    case LS_TP_INTERP: return "interpolated";
    case LS_TP_FIT_BELOW: return "fit (below range)";
    case LS_TP_FIT_ABOVE: return "fit (above range)";
    case LS_TP_FORMULA: return "ring formula";
    }
    return "?";
}

/* ---- Run documents ----------------------------------------------------------------- */

int ls_tp_entry_nranks(const json_t *entry)
{
    long long n = ls_json_int(entry, "nranks", 0);
    if (n > 0)
        return (int)n;
    return (int)json_array_size(json_object_get(entry, "gpus"));
}

static int same_gpu_set(const json_t *entry, const int *gpus, int ngpus)
{
    const json_t *list = json_object_get(entry, "gpus");
    if (ngpus == 0)
        return 1;
    if (!json_is_array(list) || json_array_size(list) != (size_t)ngpus)
        return 0;
    for (int i = 0; i < ngpus; i++) {
        int found = 0;
        size_t k;
        const json_t *g;
        json_array_foreach(list, k, g)
            found |= json_is_integer(g) && json_integer_value(g) == gpus[i];
        if (!found)
            return 0;
    }
    return 1;
}

static void describe_candidates(const json_t *doc, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (long i = ls_doc_next_measurement(doc, LS_FAMILY_NCCL, 0); i >= 0 && used < len;
         i = ls_doc_next_measurement(doc, LS_FAMILY_NCCL, i + 1)) {
        const json_t *m = json_array_get(json_object_get(doc, "measurements"), (size_t)i);
        if (strcmp(ls_json_str(m, "collective", ""), "all_reduce") != 0)
            continue;
        char gpus[64] = "";
        size_t k, g = 0;
        const json_t *v;
        json_array_foreach(json_object_get(m, "gpus"), k, v) {
            if (g + 1 >= sizeof gpus) /* gpus + g must stay inside the buffer */
                break;
            int w = snprintf(gpus + g, sizeof gpus - g, "%s%lld", k ? "," : "",
                             (long long)json_integer_value(v));
            g = w < 0 ? g : g + (size_t)w < sizeof gpus ? g + (size_t)w : sizeof gpus - 1;
        }
        int w = snprintf(buf + used, len - used, "%s[gpus %s, variant %s]", used ? " " : "", gpus,
                         ls_json_str(m, "variant", "default"));
        used = w < 0 ? used : used + (size_t)w < len ? used + (size_t)w : len;
    }
}

const json_t *ls_tp_find_allreduce(const json_t *doc, const int *gpus, int ngpus,
                                   const char *variant, char *err, size_t errlen)
{
    return ls_tp_find_allreduce_ranks(doc, gpus, ngpus, variant, 0, err, errlen);
}

const json_t *ls_tp_find_allreduce_ranks(const json_t *doc, const int *gpus, int ngpus,
                                         const char *variant, int nranks, char *err, size_t errlen)
{
    const json_t *list = json_object_get(doc, "measurements");
    const json_t *first = NULL, *preferred = NULL;
    int matches = 0;
    for (long i = ls_doc_next_measurement(doc, LS_FAMILY_NCCL, 0); i >= 0;
         i = ls_doc_next_measurement(doc, LS_FAMILY_NCCL, i + 1)) {
        const json_t *m = json_array_get(list, (size_t)i);
        const char *v = ls_json_str(m, "variant", "default");
        if (strcmp(ls_json_str(m, "collective", ""), "all_reduce") != 0 ||
            !json_is_array(json_object_get(m, "rows")) || !same_gpu_set(m, gpus, ngpus) ||
            (nranks > 0 && ls_tp_entry_nranks(m) != nranks))
            continue;
        if (variant && strcmp(v, variant) != 0)
            continue;
        matches++;
        first = first ? first : m;
        if (!variant && !preferred && strcmp(v, "default") == 0)
            preferred = m;
    }
    if (preferred)
        return preferred;
    if (matches == 1 || (variant && first))
        return first;
    char have[400];
    describe_candidates(doc, have, sizeof have);
    if (matches > 1)
        ls_seterr(err, errlen,
                  "several nccl all_reduce entries match and none is variant "
                  "\"default\": choose one with --variant (the document has %s)",
                  have);
    else
        ls_seterr(err, errlen,
                  "no nccl all_reduce entry with rows for %s%s%s (the document has %s)",
                  ngpus ? "the GPUs asked" : "any GPUs", variant ? " and variant " : "",
                  variant ? variant : "", have[0] ? have : "none");
    return NULL;
}

static double row_time(const json_t *row, int *wrong)
{
    const json_t *side = json_object_get(row, "oop");
    if (!json_is_object(side))
        side = json_object_get(row, "ip");
    *wrong = (int)ls_json_int(side, "wrong", 0);
    return ls_json_num(side, "time_us", -1);
}

int ls_tp_curve_from_entry(ls_tp_curve_t *curve, const json_t *entry, int *skipped, char *err,
                           size_t errlen)
{
    const json_t *rows = json_object_get(entry, "rows");
    size_t n = json_array_size(rows);
    double *bytes = calloc(n ? n : 1, sizeof *bytes), *t = calloc(n ? n : 1, sizeof *t);
    size_t kept = 0;
    int bad = 0;
    for (size_t i = 0; bytes && t && i < n; i++) {
        const json_t *row = json_array_get(rows, i);
        int wrong = 0;
        double time_us = row_time(row, &wrong);
        double b = ls_json_num(row, "bytes", -1);
        if (wrong != 0 || time_us <= 0 || b <= 0) {
            bad++;
            continue;
        }
        bytes[kept] = b, t[kept++] = time_us;
    }
    int rc = (bytes && t) ? ls_tp_curve_init(curve, bytes, t, kept, err, errlen)
                          : ls_seterr(err, errlen, "out of memory");
    free(bytes);
    free(t);
    if (skipped)
        *skipped = bad;
    return rc;
}

/* ---- Sources ------------------------------------------------------------------------ */

double ls_tp_source_time_us(const ls_tp_source_t *src, int nranks, double bytes,
                            enum ls_tp_how *how)
{
    if (src->kind == LS_TP_SRC_LINK) {
        if (how)
            *how = LS_TP_FORMULA;
        return ls_tp_ring_allreduce_us(src->bw_gbps, src->lat_us, nranks, bytes);
    }
    return ls_tp_curve_time_us(&src->curve, bytes, how);
}
