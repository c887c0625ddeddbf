/* The headline figures of a run: one line per kind of figure, the range over GPUs or
   pairs, with unit, method and the theoretical peak where the document has one. What
   `linkscope run` prints before the findings; every figure is an entry's median. */
#include "render.h"
#include "status.h"
#include "strbuf.h"
#include "model/doc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const char *label;  /* what the line says */
    const char *family, *method, *direction, *unit;
    int through_host;   /* 1: only through-host figures, 0: only direct ones */
} headline_t;

static const headline_t lines[] = {
    {"P2P one direction (copy engine)", "p2p", "ce", "uni", "GB/s", 0},
    {"P2P both directions, summed (copy engine)", "p2p", "ce", "bidir", "GB/s", 0},
    {"P2P one direction, SM kernel reading the peer", "p2p", "sm_read", "uni", "GB/s", 0},
    {"P2P one direction through host memory (P2P off)", "p2p", "staged", "uni", "GB/s", 1},
    {"GPU-to-GPU latency, one-way store (ping-pong)", "latency", "gpu_pingpong", NULL, "us", 0},
    {"GPU-to-GPU latency, pointer chase (read)", "latency", "pointer_chase", NULL, "us", 0},
    {"GPU-to-GPU latency, GPU-timed copy", "latency", "gpu_copy", NULL, "us", 0},
    {"HBM traffic (read + write), read kernel", "hbm", "read", NULL, "GB/s", 0},
    {"HBM traffic (read + write), copy engine copy", "hbm", "copy_ce", NULL, "GB/s", 0},
    {"host to GPU, pinned", "host", "h2d", NULL, "GB/s", 0},
    {"GPU to host, pinned", "host", "d2h", NULL, "GB/s", 0},
};

static int has_flag(const json_t *e, const char *flag)
{
    size_t i;
    const json_t *f;
    json_array_foreach(json_object_get(e, "flags"), i, f)
    {
        if (json_is_string(f) && !strcmp(json_string_value(f), flag))
            return 1;
    }
    return 0;
}

static int matches(const json_t *e, const headline_t *h)
{
    if (strcmp(ls_json_str(e, "family", ""), h->family) || strcmp(ls_json_str(e, "status", ""), "ok") ||
        strcmp(ls_json_str(e, "method", ""), h->method) || has_flag(e, "through_host") != h->through_host)
        return 0;
    if (h->direction && strcmp(ls_json_str(e, "direction", "uni"), h->direction))
        return 0;
    if (!strcmp(h->family, "host") &&
        (strcmp(ls_json_str(e, "memory", ""), "pinned") || json_is_false(json_object_get(e, "local"))))
        return 0;
    return json_is_number(json_object_get(e, "value"));
}

typedef struct {
    double lo, hi;           /* values */
    double pct_lo, pct_hi;   /* % of each figure's hardware ceiling (plan.ceilings) */
    double peak;             /* the ceiling, when all figures share one; 0 otherwise */
    int n, unknown;          /* figures; figures whose ceiling is unknown */
} span_t;

static double ceiling_of(const json_t *plan, const json_t *e)
{
    return ls_json_num(json_object_get(json_object_get(plan, "ceilings"), ls_json_str(e, "id", "")), "ceiling_gbps", 0);
}

/* min..max of the matching entries' values and of their % of peak. */
static int range(const json_t *doc, const json_t *plan, const headline_t *h, span_t *s)
{
    *s = (span_t){INFINITY, -INFINITY, INFINITY, -INFINITY, -1, 0, 0};
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e)
    {
        if (!matches(e, h))
            continue;
        double v = ls_json_num(e, "value", NAN), c = ceiling_of(plan, e);
        s->lo = fmin(s->lo, v), s->hi = fmax(s->hi, v), s->n++;
        if (c <= 0) {
            s->unknown++;
            continue;
        }
        s->pct_lo = fmin(s->pct_lo, 100 * v / c), s->pct_hi = fmax(s->pct_hi, 100 * v / c);
        s->peak = s->peak < 0 || s->peak == c ? c : 0;
    }
    return s->n > 0;
}

/* "(83% of peak 478.1 GB/s)", "(77-83% of peak)", "(peak unknown)"; nothing for latency. */
static void peak_words(ls_buf_t *b, const headline_t *h, const span_t *s)
{
    if (strcmp(h->unit, "GB/s"))
        return;
    if (s->unknown == s->n) {
        ls_buf_puts(b, "  (peak unknown)");
        return;
    }
    char pct[48], p[24];
    if (s->pct_hi - s->pct_lo >= 0.5)
        snprintf(pct, sizeof pct, "%.0f-%.0f%%", s->pct_lo, s->pct_hi);
    else
        snprintf(pct, sizeof pct, "%.0f%%", s->pct_hi);
    if (s->peak > 0) {
        ls_fmt_num(s->peak, p, sizeof p);
        ls_buf_printf(b, "  (%s of peak %s)", pct, p);
    } else {
        ls_buf_printf(b, "  (%s of peak)", pct);
    }
    if (s->unknown)
        ls_buf_printf(b, " (%d with peak unknown)", s->unknown);
}

static void measured_line(ls_buf_t *b, const json_t *doc, const json_t *plan, const headline_t *h)
{
    span_t s;
    if (!range(doc, plan, h, &s))
        return;
    char a[24], z[24];
    ls_fmt_num(s.lo, a, sizeof a);
    ls_fmt_num(s.hi, z, sizeof z);
    ls_buf_printf(b, "  %-50s %9s", h->label, a);
    if (s.hi > s.lo)
        ls_buf_printf(b, " .. %s", z);
    ls_buf_printf(b, " %s", h->unit);
    peak_words(b, h, &s);
    ls_buf_printf(b, "  [%d %s]\n", s.n, s.n == 1 ? "figure" : "figures");
}

/* Each collective's bus bandwidth at its largest size and time at its smallest. */
static void collective_lines(ls_buf_t *b, const json_t *doc, const json_t *plan)
{
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e)
    {
        if (strcmp(ls_json_str(e, "family", ""), "nccl") || strcmp(ls_json_str(e, "status", ""), "ok") ||
            !json_object_get(e, "value")) /* an imported paste cut before its first row */
            continue;
        char label[96], bw[24], big[24], small_us[24], small[24], who[48];
        /* over several nodes GPU indices repeat: count ranks, not distinct indices */
        long long nodes = ls_json_int(e, "nodes", 1);
        if (nodes > 1)
            snprintf(who, sizeof who, "%lld ranks on %lld nodes", ls_json_int(e, "nranks", 0), nodes);
        else
            snprintf(who, sizeof who, "%zu GPUs", json_array_size(json_object_get(e, "gpus")));
        snprintf(label, sizeof label, "NCCL %s busbw, %s, %s", ls_json_str(e, "collective", "unknown"), who,
                 ls_json_str(e, "variant", "default"));
        ls_fmt_num(ls_json_num(e, "value", NAN), bw, sizeof bw);
        /* sizes a document does not give are left out, never printed as nan */
        snprintf(big, sizeof big, "its largest size");
        if (json_is_number(json_object_get(e, "bytes")))
            ls_fmt_bytes(ls_json_num(e, "bytes", 0), big, sizeof big);
        ls_fmt_num(ls_json_num(e, "small_time_us", NAN), small_us, sizeof small_us);
        snprintf(small, sizeof small, "its smallest size");
        if (json_is_number(json_object_get(e, "small_bytes")))
            ls_fmt_bytes(ls_json_num(e, "small_bytes", 0), small, sizeof small);
        char pct[48] = "; peak unknown";
        double c = ceiling_of(plan, e);
        if (c > 0) {
            char p[24];
            ls_fmt_num(c, p, sizeof p);
            snprintf(pct, sizeof pct, " (%.0f%% of peak %s)", 100 * ls_json_num(e, "value", 0) / c, p);
        }
        ls_buf_printf(b, "  %-50s %9s GB/s at %s%s; %s us at %s\n", label, bw, big, pct, small_us, small);
    }
}

/* How many figures ended in each status, when any is not plain ok. */
static void status_line(ls_buf_t *b, const json_t *doc, const json_t *plan)
{
    static const char *words[] = {"ok", "noisy", "wrong", "failed", "timeout", "skipped"};
    int count[6] = {0}, other = 0;
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e)
    {
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

char *ls_render_headline(const json_t *doc, const json_t *plan)
{
    ls_buf_t b = {0};
    ls_buf_puts(&b, "Headline figures (median of each figure's samples; range over GPUs or pairs; % of peak: "
                    "of the path's hardware ceiling)\n");
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        measured_line(&b, doc, plan, &lines[i]);
    collective_lines(&b, doc, plan);
    status_line(&b, doc, plan);
    return ls_buf_take(&b);
}
