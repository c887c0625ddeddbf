/* The headline figures of a run: one line per kind of figure, the range over GPUs or
   pairs, with unit, method and the theoretical peak where the document has one. What
   `linkscope run` prints before the findings; every figure is an entry's median. */
#include "render.h"
#include "format.h"
#include "status.h"
#include "table.h"
#include "strbuf.h"
#include "model/doc.h"
#include "model/entry.h"
#include "model/gpuset.h"
#include "model/families.h"
#include "model/view.h"
#include "model/vocab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *label; /* what the line says */
    const ls_fam_t *family;
    const char *method, *direction, *unit;
    int through_host; /* 1: only through-host figures, 0: only direct ones */
} headline_t;

static const headline_t lines[] = {
    {"P2P one direction (copy engine)", &ls_fam_p2p, LS_P2P_CE, LS_DIR_UNI, "GB/s", 0},
    {"P2P both directions, summed (copy engine)", &ls_fam_p2p, LS_P2P_CE, LS_DIR_BIDIR, "GB/s", 0},
    {"P2P one direction, SM kernel reading peer", &ls_fam_p2p, LS_P2P_SM_READ, LS_DIR_UNI, "GB/s",
     0},
    {"P2P one direction via host memory (P2P off)", &ls_fam_p2p, LS_P2P_STAGED, LS_DIR_UNI, "GB/s",
     1},
    {"GPU-GPU latency, one-way store (ping-pong)", &ls_fam_latency, LS_LAT_GPU_PINGPONG, NULL, "us",
     0},
    {"GPU-GPU latency, pointer chase (read)", &ls_fam_latency, LS_LAT_POINTER_CHASE, NULL, "us", 0},
    {"GPU-GPU latency, GPU-timed copy", &ls_fam_latency, LS_LAT_GPU_COPY, NULL, "us", 0},
    {"HBM traffic (read + write), read kernel", &ls_fam_hbm, LS_HBM_READ, NULL, "GB/s", 0},
    {"HBM traffic (read + write), copy engine", &ls_fam_hbm, LS_HBM_COPY_CE, NULL, "GB/s", 0},
    {"host to GPU, pinned", &ls_fam_host, LS_DIR_H2D, NULL, "GB/s", 0},
    {"GPU to host, pinned", &ls_fam_host, LS_DIR_D2H, NULL, "GB/s", 0},
};

/* 1 when entry v (of the line's family) is one of the line's figures: read from its view
   (a number's value is never NaN in JSON: NaN is no value). */
static int matches(const ls_view_t *v, const headline_t *h)
{
    if (!v->ok || strcmp(v->method_word, h->method) ||
        !(v->flags & LS_VF_THROUGH_HOST) != !h->through_host)
        return 0;
    if (h->direction && strcmp(v->direction ? v->direction : LS_DIR_UNI, h->direction))
        return 0;
    if (h->family == &ls_fam_host && (strcmp(ls_json_str(v->json, "memory", ""), LS_MEM_PINNED) ||
                                      json_is_false(json_object_get(v->json, "local"))))
        return 0;
    return !isnan(v->value);
}

/* An entry's peak: the hardware ceiling the analysis derived (plan.ceilings, issue 11),
   else the theoretical figure recorded with it; 0 unknown. */
static double peak_of(const json_t *plan, const json_t *e)
{
    if (json_is_object(json_object_get(plan, "ceilings")))
        return ls_plan_ceiling(plan, e);
    return ls_json_num(e, "theoretical", 0);
}

/* The figure of a line that is lowest against its own ceiling: on a mixed or degraded
   machine the range's top says nothing of its worst pair. */
typedef struct {
    const json_t *e; /* NULL: no figure with a known ceiling */
    double share, peak, best_share;
} worst_t;

/* min..max of the matching entries' values, the highest peak, and the worst figure. */
static int range(const json_t *doc, const json_t *plan, const headline_t *h, double *lo, double *hi,
                 double *peak, int *n, worst_t *w)
{
    *lo = INFINITY, *hi = -INFINITY, *peak = 0, *n = 0;
    *w = (worst_t){NULL, INFINITY, 0, 0};
    LS_DOC_FOREACH(ent, doc, h->family)
    {
        const json_t *e = ent.json;
        if (!matches(&ent, h))
            continue;
        double v = ent.value, p = peak_of(plan, e);
        *lo = fmin(*lo, v), *hi = fmax(*hi, v), (*n)++;
        *peak = fmax(*peak, p);
        if (p > 0 && v / p < w->share)
            w->e = e, w->share = v / p, w->peak = p;
        if (p > 0)
            w->best_share = fmax(w->best_share, v / p);
    }
    return *n > 0;
}

/* A worst figure is named when it is more than 5% below the line's best against their
   ceilings (the plan's "within 5% of the fastest" is the same speed). */
static int worst_named(const worst_t *w)
{
    return w->e && w->share < 0.95 * w->best_share;
}

/* Who a figure is of: "GPU4->GPU0", "GPU0<->GPU4" (both directions), "GPU3". */
static void subject_of(const json_t *e, char *buf, size_t len)
{
    long long s = ls_json_int(e, "src", -1), d = ls_json_int(e, "dst", -1);
    if (s >= 0 && d >= 0)
        snprintf(buf, len, "GPU%lld%sGPU%lld", s,
                 !strcmp(ls_json_str(e, "direction", LS_DIR_UNI), LS_DIR_BIDIR) ? "<->" : "->", d);
    else
        snprintf(buf, len, "GPU%lld", ls_json_int(e, "gpu", -1));
}

/* One headline row: a kind of figure, its range, unit and peak. The peak is the
   hardware ceiling of analyze (plan.ceilings), "unknown" for a bandwidth without one;
   the share is the worst figure's of its own ceiling. */
typedef struct {
    char label[96], range[64], unit[8], peak[24], share[16], worst[160], worst_who[64],
        worst_value[24];
    int n;
} row_t;

static int measured_row(const json_t *doc, const json_t *plan, const headline_t *h, row_t *r)
{
    double lo, hi, peak;
    worst_t w;
    if (!range(doc, plan, h, &lo, &hi, &peak, &r->n, &w))
        return 0;
    char a[24], z[24];
    ls_fmt_num(lo, a, sizeof a);
    ls_fmt_num(hi, z, sizeof z);
    snprintf(r->label, sizeof r->label, "%s", h->label);
    if (hi > lo)
        snprintf(r->range, sizeof r->range, "%s .. %s", a, z);
    else
        snprintf(r->range, sizeof r->range, "%s", a);
    snprintf(r->unit, sizeof r->unit, "%s", h->unit);
    r->peak[0] = r->share[0] = r->worst[0] = '\0';
    if (w.e) {
        ls_fmt_num(w.peak, r->peak, sizeof r->peak);
        snprintf(r->share, sizeof r->share, "%.0f%%", 100.0 * w.share);
    } else if (!strcmp(h->unit, "GB/s")) {
        snprintf(r->peak, sizeof r->peak, "unknown"); /* never a guessed class */
    }
    if (worst_named(&w)) {
        char who[48], v[24];
        subject_of(w.e, who, sizeof who);
        ls_fmt_num(ls_json_num(w.e, "value", NAN), v, sizeof v);
        snprintf(r->worst, sizeof r->worst,
                 "worst: %s at %s %s (the best figure: %.0f%% of its ceiling)", who, v, h->unit,
                 100.0 * w.best_share);
        snprintf(r->worst_who, sizeof r->worst_who, "worst: %s", who);
        snprintf(r->worst_value, sizeof r->worst_value, "%s", v);
    }
    return 1;
}

/* The line's head, then each piece where it fits the width, else on a line of its own
   under it (a piece's leading "; " or blanks dropped there). */
static void pieces(ls_buf_t *b, const char *head, const char *const *piece, int n)
{
    int width = ls_term_width(), col = ls_text_width(head);
    ls_buf_puts(b, head);
    for (int i = 0; i < n; i++) {
        if (!piece[i] || !piece[i][0])
            continue;
        const char *p = piece[i];
        if (col + ls_text_width(p) > width) {
            p += strspn(p, "; ");
            ls_buf_puts(b, "\n      ");
            col = 6;
        }
        ls_buf_puts(b, p);
        col += ls_text_width(p);
    }
    while (b->len && b->data[b->len - 1] == ' ')
        b->data[--b->len] = '\0'; /* no trailing blanks */
    ls_buf_puts(b, "\n");
}

/* Label and range columns: 44 and 14 wide at 100 columns and more; narrower, as wide
   as the rows need, and the figure counts left out (the title says so). */
typedef struct {
    int label, range, counts;
    int nccl_label, nccl_range; /* the collectives' */
} cols_t;

static void measured_line(ls_buf_t *b, const row_t *r, const cols_t *c)
{
    char head[192], share[48] = "", count[16] = "";
    snprintf(head, sizeof head, "  %-*s %*s %-4s", c->label, r->label, c->range, r->range, r->unit);
    if (r->share[0])
        snprintf(share, sizeof share, "  %s of %s", r->share, r->peak);
    else if (r->peak[0])
        snprintf(share, sizeof share, "  peak unknown");
    if (c->counts)
        snprintf(count, sizeof count, "  [%d]", r->n);
    const char *p[] = {share, count};
    pieces(b, head, p, 2);
    if (r->worst[0]) {
        ls_buf_puts(b, "      ");
        ls_buf_wrap(b, r->worst, 6, 8, ls_term_width());
    }
}

typedef struct {
    char s[24];
} num_t;

static num_t ls_fmt_num_s(double v)
{
    num_t n;
    ls_fmt_num(v, n.s, sizeof n.s);
    return n;
}

static int is_collective(const json_t *e)
{
    return !strcmp(ls_json_str(e, "family", ""), LS_FAMILY_NCCL) &&
           !strcmp(ls_json_str(e, "status", ""), "ok") &&
           json_object_get(e, "value"); /* an imported paste cut before its first row */
}

/* "NCCL all_reduce, GPUs 0,5, default": the set, as the same size runs on many sets. */
static void collective_label(const json_t *e, char *label, size_t len)
{
    char who[96];
    /* over several nodes GPU indices repeat: count ranks, not distinct indices */
    long long nodes = ls_json_int(e, "nodes", 1);
    if (nodes > 1) {
        snprintf(who, sizeof who, "%lldx%lld", nodes,
                 ls_json_int(e, "nranks", 0) / (nodes ? nodes : 1));
    } else if (json_array_size(json_object_get(e, "gpus"))) {
        char set[80];
        ls_format_gpu_mask(ls_gpu_mask_of(json_object_get(e, "gpus")), set, sizeof set);
        snprintf(who, sizeof who, "GPUs %s", set);
    } else {
        snprintf(who, sizeof who, "GPUs unknown");
    }
    snprintf(label, len, "NCCL %s, %s, %s", ls_json_str(e, "collective", "?"), who,
             ls_json_str(e, "variant", "default"));
}

/* Each collective's bus bandwidth at its largest size and time at its smallest. */
static void collective_lines(ls_buf_t *b, const json_t *doc, const json_t *plan, const cols_t *c)
{
    LS_DOC_FOREACH(ent, doc, &ls_fam_nccl)
    {
        const json_t *e = ent.json;
        if (!is_collective(e))
            continue;
        char label[160], bw[24], big[24], small_us[24], small[24], head[320], at[40] = "",
                                                                              time[64] = "";
        collective_label(e, label, sizeof label);
        ls_fmt_num(ls_json_num(e, "value", NAN), bw, sizeof bw);
        /* an import may know the figure but not the sizes: nothing said of them then */
        if (isfinite(ls_json_num(e, "bytes", NAN))) {
            ls_fmt_bytes(ls_json_num(e, "bytes", NAN), big, sizeof big);
            snprintf(at, sizeof at, " at %s", big);
        }
        snprintf(head, sizeof head, "  %-*s %*s GB/s busbw%s", c->nccl_label, label, c->nccl_range,
                 bw, at);
        if (isfinite(ls_json_num(e, "small_time_us", NAN)) &&
            isfinite(ls_json_num(e, "small_bytes", NAN))) {
            ls_fmt_num(ls_json_num(e, "small_time_us", NAN), small_us, sizeof small_us);
            ls_fmt_bytes(ls_json_num(e, "small_bytes", NAN), small, sizeof small);
            snprintf(time, sizeof time, "; %s us at %s", small_us, small);
        }
        char share[48] = "; peak unknown";
        double th = peak_of(plan, e);
        if (th > 0) /* the links' busbw ceiling */
            snprintf(share, sizeof share, "; %.0f%% of %s", 100 * ls_json_num(e, "value", NAN) / th,
                     ls_fmt_num_s(th).s);
        const char *p[] = {time, share};
        pieces(b, head, p, 2);
    }
}

/* How many figures ended in each status, when any is not plain ok. */
static void status_line(ls_buf_t *b, const json_t *doc, const json_t *plan)
{
    static const char *words[] = {"ok", "noisy", "wrong", "failed", "timeout", "skipped"};
    int count[6] = {0}, other = 0;
    LS_DOC_FOREACH(ent, doc, NULL)
    {
        const json_t *e = ent.json;
        const char *w = ls_status_word(plan, e);
        size_t k = 0;
        while (k < 6 && strcmp(words[k], w))
            k++;
        if (k < 6)
            count[k]++;
        else
            other++;
    }
    if (count[0] == (int)json_array_size(json_object_get(doc, "measurements")))
        return;
    ls_buf_puts(b, "  Statuses of the figures:");
    for (size_t k = 0; k < 6; k++)
        if (count[k])
            ls_buf_printf(b, " %d %s,", count[k], words[k]);
    if (other)
        ls_buf_printf(b, " %d other,", other);
    b->len--; /* the last comma */
    ls_buf_puts(b, " (the findings say which and why)\n");
}

enum { NLINES = sizeof lines / sizeof lines[0] };

/* The column widths of the headline at this terminal width (rows: the lines' rows, has:
   which lines have one). */
static cols_t columns(const json_t *doc, const row_t *rows, const int *has)
{
    cols_t c = {44, 14, 1, 44, 14};
    if (ls_term_width() >= 100)
        return c;
    c = (cols_t){0, 0, 0, 0, 0};
    for (size_t i = 0; i < NLINES; i++) {
        if (!has[i])
            continue;
        c.label = ls_text_width(rows[i].label) > c.label ? ls_text_width(rows[i].label) : c.label;
        c.range = ls_text_width(rows[i].range) > c.range ? ls_text_width(rows[i].range) : c.range;
    }
    LS_DOC_FOREACH(ent, doc, &ls_fam_nccl)
    {
        const json_t *e = ent.json;
        char label[160], bw[24];
        if (!is_collective(e))
            continue;
        collective_label(e, label, sizeof label);
        ls_fmt_num(ls_json_num(e, "value", NAN), bw, sizeof bw);
        c.nccl_label = ls_text_width(label) > c.nccl_label ? ls_text_width(label) : c.nccl_label;
        c.nccl_range = ls_text_width(bw) > c.nccl_range ? ls_text_width(bw) : c.nccl_range;
    }
    return c;
}

char *ls_render_headline(const json_t *doc, const json_t *plan)
{
    ls_buf_t b = {0};
    row_t rows[NLINES];
    int has[NLINES];
    for (size_t i = 0; i < NLINES; i++) /* each line's row once: a walk of its family */
        has[i] = measured_row(doc, plan, &lines[i], &rows[i]);
    cols_t c = columns(doc, rows, has);
    ls_buf_puts(&b, c.counts ? "Headline figures (medians; range over GPUs or pairs; % of the "
                               "hardware peak; [figures])\n"
                             : "Headline figures (medians; range over GPUs or pairs; % of the "
                               "hardware peak)\n");
    size_t head = b.len;
    for (size_t i = 0; i < NLINES; i++)
        if (has[i])
            measured_line(&b, &rows[i], &c);
    collective_lines(&b, doc, plan, &c);
    status_line(&b, doc, plan);
    if (b.len ==
        head) /* never a heading over nothing (a paste of the topology or GPU facts only) */
        ls_buf_puts(&b, "  (no figure in the document: it holds the topology or GPU facts only)\n");
    return ls_buf_take(&b);
}

static void collective_rows(ls_table_t *t, const json_t *doc, const json_t *plan)
{
    LS_DOC_FOREACH(ent, doc, &ls_fam_nccl)
    {
        const json_t *e = ent.json;
        if (!is_collective(e))
            continue;
        char label[160], who[96], bw[24], big[24], us[24], small[24];
        collective_label(e, who, sizeof who);
        ls_fmt_num(ls_json_num(e, "value", NAN), bw, sizeof bw);
        ls_fmt_bytes(ls_json_num(e, "bytes", NAN), big, sizeof big);
        if (isfinite(ls_json_num(e, "bytes", NAN)))
            snprintf(label, sizeof label, "%s busbw at %s", who, big);
        else
            snprintf(label, sizeof label, "%s busbw", who);
        char peak[24] = "unknown", share[16] = "-";
        double th = peak_of(plan, e);
        if (th > 0) {
            ls_fmt_num(th, peak, sizeof peak);
            snprintf(share, sizeof share, "%.0f%%", 100 * ls_json_num(e, "value", NAN) / th);
        }
        const char *r1[] = {label, bw, "GB/s", peak, share, "1"};
        ls_table_row(t, r1);
        if (!isfinite(ls_json_num(e, "small_time_us", NAN)) ||
            !isfinite(ls_json_num(e, "small_bytes", NAN)))
            continue;
        ls_fmt_num(ls_json_num(e, "small_time_us", NAN), us, sizeof us);
        ls_fmt_bytes(ls_json_num(e, "small_bytes", NAN), small, sizeof small);
        snprintf(label, sizeof label, "%s time at %s", who, small);
        const char *r2[] = {label, us, "us", "-", "-", "1"};
        ls_table_row(t, r2);
    }
}

ls_table_t *ls_table_headline(const json_t *doc, const json_t *plan)
{
    static const char *header[] = {"figure", "median", "unit", "peak", "% of peak", "figures"};
    ls_table_t *t = ls_table_new("Headline figures (median of each figure's samples; range over "
                                 "GPUs or pairs)",
                                 6, header);
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        row_t r;
        if (!measured_row(doc, plan, &lines[i], &r))
            continue;
        char n[16];
        snprintf(n, sizeof n, "%d", r.n);
        const char *cells[] =
            {r.label, r.range, r.unit, r.peak[0] ? r.peak : "-", r.share[0] ? r.share : "-", n};
        ls_table_row(t, cells);
        if (!r.worst[0])
            continue;
        const char *worst[] = {r.worst_who, r.worst_value, r.unit, r.peak, r.share, "1"};
        ls_table_row(t, worst);
    }
    collective_rows(t, doc, plan);
    return t;
}

json_t *ls_headline_json(const json_t *doc, const json_t *plan)
{
    json_t *out = json_array();
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        double lo, hi, peak;
        int n;
        worst_t w;
        if (!range(doc, plan, &lines[i], &lo, &hi, &peak, &n, &w))
            continue;
        json_t *h = json_pack("{s:s, s:f, s:f, s:s, s:i}", "figure", lines[i].label, "min", lo,
                              "max", hi, "unit", lines[i].unit, "figures", n);
        if (w.e) { /* the worst figure against its own ceiling */
            json_object_set_new(h, "theoretical", json_real(w.peak));
            json_object_set_new(h, "share_of_theoretical", json_real(w.share));
            json_object_set_new(h, "worst_entry", json_string(ls_json_str(w.e, "id", "")));
        }
        json_array_append_new(out, h);
    }
    LS_DOC_FOREACH(ent, doc, &ls_fam_nccl)
    {
        const json_t *e = ent.json;
        if (!is_collective(e))
            continue;
        char label[96];
        collective_label(e, label, sizeof label);
        json_t *h = json_pack("{s:s, s:s, s:O, s:s}", "figure", label, "entry",
                              ls_json_str(e, "id", ""), "busbw", json_object_get(e, "value"),
                              "unit", "GB/s");
        const char *keys[] = {"bytes", "small_time_us", "small_bytes", "theoretical"};
        for (int j = 0; j < 4; j++)
            if (json_is_number(json_object_get(e, keys[j])))
                json_object_set(h, keys[j], json_object_get(e, keys[j]));
        json_array_append_new(out, h);
    }
    return out;
}
