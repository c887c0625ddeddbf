/* The headline figures of a run: one line per kind of figure, the range over GPUs or
   pairs, with unit, method and the theoretical peak where the document has one. What
   `linkscope run` prints before the findings; every figure is an entry's median. */
#include "render.h"
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

/* min..max of the matching entries' values and of their theoretical peaks. */
static int range(const json_t *doc, const headline_t *h, double *lo, double *hi, double *peak, int *n)
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
        *peak = fmax(*peak, ls_json_num(e, "theoretical", 0));
    }
    return *n > 0;
}

static void measured_line(ls_buf_t *b, const json_t *doc, const headline_t *h)
{
    double lo, hi, peak;
    int n;
    if (!range(doc, h, &lo, &hi, &peak, &n))
        return;
    char a[24], z[24];
    ls_fmt_num(lo, a, sizeof a);
    ls_fmt_num(hi, z, sizeof z);
    ls_buf_printf(b, "  %-50s %9s", h->label, a);
    if (hi > lo)
        ls_buf_printf(b, " .. %s", z);
    ls_buf_printf(b, " %s", h->unit);
    if (peak > 0) {
        char p[24];
        ls_fmt_num(peak, p, sizeof p);
        ls_buf_printf(b, "  (theoretical %s, %.0f%%)", p, 100.0 * hi / peak);
    }
    ls_buf_printf(b, "  [%d %s]\n", n, n == 1 ? "figure" : "figures");
}

/* Each collective's bus bandwidth at its largest size and time at its smallest. */
static void collective_lines(ls_buf_t *b, const json_t *doc)
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
        snprintf(label, sizeof label, "NCCL %s busbw, %s, %s", ls_json_str(e, "collective", "?"), who,
                 ls_json_str(e, "variant", "default"));
        ls_fmt_num(ls_json_num(e, "value", NAN), bw, sizeof bw);
        ls_fmt_bytes(ls_json_num(e, "bytes", NAN), big, sizeof big);
        ls_fmt_num(ls_json_num(e, "small_time_us", NAN), small_us, sizeof small_us);
        ls_fmt_bytes(ls_json_num(e, "small_bytes", NAN), small, sizeof small);
        ls_buf_printf(b, "  %-50s %9s GB/s at %s; %s us at %s\n", label, bw, big, small_us, small);
    }
}

char *ls_render_headline(const json_t *doc)
{
    ls_buf_t b = {0};
    ls_buf_puts(&b, "Headline figures (median of each figure's samples; range over GPUs or pairs)\n");
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        measured_line(&b, doc, &lines[i]);
    collective_lines(&b, doc);
    return ls_buf_take(&b);
}
