/* The headline figures of a run: one line per kind of figure, the range over GPUs or
   pairs, with unit, method and the theoretical peak where the document has one. What
   `linkscope run` prints before the findings; every figure is an entry's median. */
#include "render.h"
#include "status.h"
#include "table.h"
#include "strbuf.h"
#include "model/doc.h"
#include "model/entry.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *label;  /* what the line says */
    const char *family, *method, *direction, *unit;
    int through_host;   /* 1: only through-host figures, 0: only direct ones */
} headline_t;

static const headline_t lines[] = {
    {"P2P one direction (copy engine)", "p2p", "ce", "uni", "GB/s", 0},
    {"P2P both directions, summed (copy engine)", "p2p", "ce", "bidir", "GB/s", 0},
    {"P2P one direction, SM kernel reading peer", "p2p", "sm_read", "uni", "GB/s", 0},
    {"P2P one direction via host memory (P2P off)", "p2p", "staged", "uni", "GB/s", 1},
    {"GPU-GPU latency, one-way store (ping-pong)", "latency", "gpu_pingpong", NULL, "us", 0},
    {"GPU-GPU latency, pointer chase (read)", "latency", "pointer_chase", NULL, "us", 0},
    {"GPU-GPU latency, GPU-timed copy", "latency", "gpu_copy", NULL, "us", 0},
    {"HBM traffic (read + write), read kernel", "hbm", "read", NULL, "GB/s", 0},
    {"HBM traffic (read + write), copy engine", "hbm", "copy_ce", NULL, "GB/s", 0},
    {"host to GPU, pinned", "host", "h2d", NULL, "GB/s", 0},
    {"GPU to host, pinned", "host", "d2h", NULL, "GB/s", 0},
};

static int matches(const json_t *e, const headline_t *h)
{
    if (strcmp(ls_json_str(e, "family", ""), h->family) || strcmp(ls_json_str(e, "status", ""), "ok") ||
        strcmp(ls_json_str(e, "method", ""), h->method) || ls_entry_has_flag(e, "through_host") != h->through_host)
        return 0;
    if (h->direction && strcmp(ls_json_str(e, "direction", "uni"), h->direction))
        return 0;
    if (!strcmp(h->family, "host") &&
        (strcmp(ls_json_str(e, "memory", ""), "pinned") || json_is_false(json_object_get(e, "local"))))
        return 0;
    return json_is_number(json_object_get(e, "value"));
}

/* An entry's peak: the hardware ceiling the analysis derived (plan.ceilings, issue 11),
   else the theoretical figure recorded with it; 0 unknown. */
static double peak_of(const json_t *plan, const json_t *e)
{
    if (json_is_object(json_object_get(plan, "ceilings")))
        return ls_json_num(json_object_get(json_object_get(plan, "ceilings"), ls_json_str(e, "id", "")), "ceiling_gbps",
                           0);
    return ls_json_num(e, "theoretical", 0);
}

/* min..max of the matching entries' values and of their peaks. */
static int range(const json_t *doc, const json_t *plan, const headline_t *h, double *lo, double *hi, double *peak,
                 int *n)
{
    *lo = INFINITY, *hi = -INFINITY, *peak = 0, *n = 0;
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e)
    {
        if (!matches(e, h))
            continue;
        double v = ls_json_num(e, "value", NAN);
        *lo = fmin(*lo, v), *hi = fmax(*hi, v), (*n)++;
        *peak = fmax(*peak, peak_of(plan, e));
    }
    return *n > 0;
}

/* One headline row: a kind of figure, its range, unit and peak. The peak is the
   hardware ceiling of analyze (plan.ceilings), "unknown" for a bandwidth without one. */
typedef struct {
    char label[96], range[64], unit[8], peak[24], share[16];
    int n;
} row_t;

static int measured_row(const json_t *doc, const json_t *plan, const headline_t *h, row_t *r)
{
    double lo, hi, peak;
    if (!range(doc, plan, h, &lo, &hi, &peak, &r->n))
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
    r->peak[0] = r->share[0] = '\0';
    if (peak > 0) {
        ls_fmt_num(peak, r->peak, sizeof r->peak);
        snprintf(r->share, sizeof r->share, "%.0f%%", 100.0 * hi / peak);
    } else if (!strcmp(h->unit, "GB/s")) {
        snprintf(r->peak, sizeof r->peak, "unknown"); /* never a guessed class */
    }
    return 1;
}

static void measured_line(ls_buf_t *b, const row_t *r)
{
    ls_buf_printf(b, "  %-44s %14s %-4s", r->label, r->range, r->unit);
    if (r->share[0])
        ls_buf_printf(b, "  %s of %s", r->share, r->peak);
    else if (r->peak[0])
        ls_buf_puts(b, "  peak unknown");
    ls_buf_printf(b, "  [%d]\n", r->n);
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
    return !strcmp(ls_json_str(e, "family", ""), "nccl") && !strcmp(ls_json_str(e, "status", ""), "ok") &&
           json_object_get(e, "value"); /* an imported paste cut before its first row */
}

static void collective_label(const json_t *e, char *label, size_t len)
{
    char who[48];
    /* over several nodes GPU indices repeat: count ranks, not distinct indices */
    long long nodes = ls_json_int(e, "nodes", 1);
    if (nodes > 1)
        snprintf(who, sizeof who, "%lldx%lld", nodes, ls_json_int(e, "nranks", 0) / (nodes ? nodes : 1));
    else
        snprintf(who, sizeof who, "%zu GPUs", json_array_size(json_object_get(e, "gpus")));
    snprintf(label, len, "NCCL %s, %s, %s", ls_json_str(e, "collective", "?"), who,
             ls_json_str(e, "variant", "default"));
}

/* Each collective's bus bandwidth at its largest size and time at its smallest. */
static void collective_lines(ls_buf_t *b, const json_t *doc, const json_t *plan)
{
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e)
    {
        if (!is_collective(e))
            continue;
        char label[96], bw[24], big[24], small_us[24], small[24];
        collective_label(e, label, sizeof label);
        ls_fmt_num(ls_json_num(e, "value", NAN), bw, sizeof bw);
        ls_buf_t line = {0};
        ls_buf_printf(&line, "  %-44s %14s GB/s busbw", label, bw);
        /* an import may know the figure but not the sizes: nothing said of them then */
        if (isfinite(ls_json_num(e, "bytes", NAN))) {
            ls_fmt_bytes(ls_json_num(e, "bytes", NAN), big, sizeof big);
            ls_buf_printf(&line, " at %s", big);
        }
        if (isfinite(ls_json_num(e, "small_time_us", NAN)) && isfinite(ls_json_num(e, "small_bytes", NAN))) {
            ls_fmt_num(ls_json_num(e, "small_time_us", NAN), small_us, sizeof small_us);
            ls_fmt_bytes(ls_json_num(e, "small_bytes", NAN), small, sizeof small);
            ls_buf_printf(&line, "; %s us at %s", small_us, small);
        }
        char *text = ls_buf_take(&line), share[48] = "; peak unknown";
        double th = peak_of(plan, e);
        if (th > 0) /* the links' busbw ceiling; said where the line has room */
            snprintf(share, sizeof share, "; %.0f%% of %s", 100 * ls_json_num(e, "value", NAN) / th,
                     ls_fmt_num_s(th).s);
        ls_buf_puts(b, text);
        if (strlen(text) + strlen(share) <= 100)
            ls_buf_puts(b, share);
        free(text);
        ls_buf_puts(b, "\n");
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
    ls_buf_puts(&b, "Headline figures (medians; range over GPUs or pairs; % of the hardware peak; [figures])\n");
    size_t head = b.len;
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        row_t r;
        if (measured_row(doc, plan, &lines[i], &r))
            measured_line(&b, &r);
    }
    collective_lines(&b, doc, plan);
    status_line(&b, doc, plan);
    if (b.len == head) /* never a heading over nothing (a paste of the topology or GPU facts only) */
        ls_buf_puts(&b, "  (no figure in the document: it holds the topology or GPU facts only)\n");
    return ls_buf_take(&b);
}

static void collective_rows(ls_table_t *t, const json_t *doc, const json_t *plan)
{
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e)
    {
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
        if (!isfinite(ls_json_num(e, "small_time_us", NAN)) || !isfinite(ls_json_num(e, "small_bytes", NAN)))
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
    ls_table_t *t = ls_table_new("Headline figures (median of each figure's samples; range over GPUs or pairs)",
                                 6, header);
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        row_t r;
        if (!measured_row(doc, plan, &lines[i], &r))
            continue;
        char n[16];
        snprintf(n, sizeof n, "%d", r.n);
        const char *cells[] = {r.label, r.range, r.unit, r.peak[0] ? r.peak : "-", r.share[0] ? r.share : "-", n};
        ls_table_row(t, cells);
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
        if (!range(doc, plan, &lines[i], &lo, &hi, &peak, &n))
            continue;
        json_t *h = json_pack("{s:s, s:f, s:f, s:s, s:i}", "figure", lines[i].label, "min", lo, "max", hi, "unit",
                              lines[i].unit, "figures", n);
        if (peak > 0) {
            json_object_set_new(h, "theoretical", json_real(peak));
            json_object_set_new(h, "share_of_theoretical", json_real(hi / peak));
        }
        json_array_append_new(out, h);
    }
    size_t k;
    const json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), k, e)
    {
        if (!is_collective(e))
            continue;
        char label[96];
        collective_label(e, label, sizeof label);
        json_t *h = json_pack("{s:s, s:s, s:O, s:s}", "figure", label, "entry", ls_json_str(e, "id", ""), "busbw",
                              json_object_get(e, "value"), "unit", "GB/s");
        const char *keys[] = {"bytes", "small_time_us", "small_bytes", "theoretical"};
        for (int j = 0; j < 4; j++)
            if (json_is_number(json_object_get(e, keys[j])))
                json_object_set(h, keys[j], json_object_get(e, keys[j]));
        json_array_append_new(out, h);
    }
    return out;
}
