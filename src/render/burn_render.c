/* The sustained-load family in reports: one terminal table, and in HTML one chart per
   GPU of SM clock, board power and temperature over time (three panels sharing the time
   axis, throttle samples marked under them). */
#include "burn_render.h"
#include "model/doc.h"
#include "model/vocab.h"
#include "model/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHART_W 640
#define PANEL_H 90
#define MARGIN_L 64
#define MARGIN_T 22
#define PANEL_GAP 14

int ls_burn_count(const json_t *doc)
{
    int n = 0;
    LS_DOC_FOREACH(e, doc, &ls_fam_burn)
    {
        n++;
    }
    return n;
}

static void fmt_or_dash(char *buf, size_t len, const json_t *o, const char *key, const char *fmt)
{
    const json_t *v = json_object_get(o, key);
    if (json_is_number(v))
        snprintf(buf, len, fmt, json_number_value(v));
    else
        snprintf(buf, len, "-");
}

static void reasons_text(const json_t *b, char *buf, size_t len)
{
    size_t i, used = 0;
    const json_t *ev;
    buf[0] = '\0';
    json_array_foreach(json_object_get(b, "throttle_events"), i, ev) {
        int w = snprintf(buf + used, len - used, "%s%s@%.0fs", used ? " " : "",
                         ls_json_str(ev, "reason", "?"), ls_json_num(ev, "first_s", 0));
        if (w < 0 || (size_t)w >= len - used)
            break;
        used += (size_t)w;
    }
    if (!used)
        snprintf(buf, len, "none");
}

/* Under a GPU's row, its throttle reasons and status, wrapped within the terminal. */
static void reasons_line(FILE *f, const json_t *e)
{
    char reasons[256], line[768];
    reasons_text(json_object_get(e, "burn"), reasons, sizeof reasons);
    int n = snprintf(line, sizeof line, "throttle reasons (first seen): %s", reasons);
    if (strcmp(ls_json_str(e, "status", "ok"), "ok") != 0 && n > 0 && (size_t)n < sizeof line)
        snprintf(line + n, sizeof line - (size_t)n, " [%s: %s]", ls_json_str(e, "status", ""),
                 ls_json_str(e, "error", ""));
    ls_buf_t b = {0};
    ls_buf_puts(&b, "     ");
    ls_buf_wrap(&b, line, 5, 7, ls_term_width());
    char *text = ls_buf_take(&b);
    fputs(text, f);
    free(text);
}

void ls_burn_table(FILE *f, const json_t *doc)
{
    const json_t *any = NULL;
    LS_DOC_FOREACH(ent, doc, &ls_fam_burn)
    {
        any = any ? any : ent.json;
    }
    double first_s = ls_json_num(json_object_get(any, "burn"), "first_s", -1);
    char first[32] = "seconds";
    if (first_s > 0) /* documents before first_s was recorded: the words alone */
        snprintf(first, sizeof first, "%g s", first_s);
    /* 93 columns at 100 and more; narrower, the units on a second header line */
    int narrow = ls_term_width() < 100;
    if (narrow) {
        char title[256];
        snprintf(title, sizeof title,
                 "Sustained load (TFLOP/s = 1e12 FLOP/s; first = median of the windows of the "
                 "first %s, sustained = "
                 "median of the second half; under each GPU its throttle reasons)",
                 first);
        ls_buf_t t = {0};
        ls_buf_wrap(&t, title, 0, 2, ls_term_width());
        char *text = ls_buf_take(&t);
        fputs(text, f);
        free(text);
        fprintf(f, "%-3s %-10s %7s %7s %9s %5s %5s %5s %3s %5s %5s\n", "GPU", "method", "seconds",
                "first", "sustained", "ratio", "SM", "power", "max", "HBM", "peer");
        fprintf(f, "%-3s %-10s %7s %7s %9s %5s %5s %5s %3s %5s %5s\n", "", "", "", "TFLOP/s",
                "TFLOP/s", "", "MHz", "W", "C", "GB/s", "GB/s");
    } else {
        fprintf(f,
                "Sustained load (TFLOP/s = 1e12 FLOP/s; first = median of the windows of the first "
                "%s,\n"
                "  sustained = median of the second half; under each GPU its throttle reasons)\n",
                first);
        fprintf(f, "%-4s %-10s %7s %7s %9s %6s %8s %8s %6s %9s %9s\n", "GPU", "method", "seconds",
                "first", "sustained", "ratio", "SM MHz", "power W", "max C", "HBM GB/s",
                "peer GB/s");
    }
    LS_DOC_FOREACH(ent, doc, &ls_fam_burn)
    {
        const json_t *e = ent.json, *b = json_object_get(e, "burn");
        char c[8][32];
        fmt_or_dash(c[0], 32, b, "seconds", "%.0f");
        fmt_or_dash(c[1], 32, b, "first_tflops", "%.1f");
        fmt_or_dash(c[2], 32, b, "sustained_tflops", "%.1f");
        fmt_or_dash(c[3], 32, b, "sustained_ratio", "%.3f");
        fmt_or_dash(c[4], 32, b, "sm_mhz_sustained", "%.0f");
        fmt_or_dash(c[5], 32, b, "power_sustained_w", "%.0f");
        fmt_or_dash(c[6], 32, b, "temp_max_c", "%.0f");
        fmt_or_dash(c[7], 32, b, "hbm_traffic_gbps", "%.0f");
        char peer[32];
        fmt_or_dash(peer, sizeof peer, b, "peer_gbps", "%.0f");
        fprintf(f,
                narrow ? "%-3lld %-10s %7s %7s %9s %5s %5s %5s %3s %5s %5s\n"
                       : "%-4lld %-10s %7s %7s %9s %6s %8s %8s %6s %9s %9s\n",
                ls_json_int(e, "gpu", -1), ls_json_str(b, "method", "?"), c[0], c[1], c[2], c[3],
                c[4], c[5], c[6], c[7], peer);
        reasons_line(f, e);
    }
}

/* Range of the numbers in arr; 0 when none. */
static int range_of(const json_t *arr, double *lo, double *hi)
{
    size_t i;
    const json_t *v;
    int n = 0;
    json_array_foreach(arr, i, v) {
        if (!json_is_number(v))
            continue;
        double x = json_number_value(v);
        if (!n || x < *lo)
            *lo = x;
        if (!n || x > *hi)
            *hi = x;
        n++;
    }
    if (n && *hi - *lo < 1e-9)
        *lo -= 1, *hi += 1;
    return n;
}

static void panel(ls_buf_t *b, const json_t *t, const json_t *arr, double tmax, int row,
                  const char *label, const char *colour)
{
    double lo = 0, hi = 0;
    int y0 = MARGIN_T + row * (PANEL_H + PANEL_GAP), w = CHART_W - MARGIN_L - 10;
    ls_buf_printf(b,
                  "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                  "stroke=\"#ccc\"/>\n",
                  MARGIN_L, y0, w, PANEL_H);
    ls_buf_printf(b, "<text x=\"4\" y=\"%d\" font-size=\"11\">", y0 + PANEL_H / 2);
    ls_buf_html(b, label);
    ls_buf_puts(b, "</text>\n");
    if (!range_of(arr, &lo, &hi) || tmax <= 0)
        return;
    ls_buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"end\">%.0f</text>\n",
                  MARGIN_L - 3, y0 + 9, hi);
    ls_buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"end\">%.0f</text>\n",
                  MARGIN_L - 3, y0 + PANEL_H, lo);
    ls_buf_printf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.2\" points=\"",
                  colour);
    for (size_t i = 0; i < json_array_size(arr); i++) {
        const json_t *v = json_array_get(arr, i);
        if (!json_is_number(v))
            continue;
        double x = MARGIN_L + w * json_number_value(json_array_get(t, i)) / tmax;
        double y = y0 + PANEL_H - (PANEL_H - 4) * (json_number_value(v) - lo) / (hi - lo) - 2;
        ls_buf_printf(b, "%.1f,%.1f ", x, y);
    }
    ls_buf_puts(b, "\"/>\n");
}

/* A red tick under the panels at each sample with a reason that lowers clocks. */
static void throttle_ticks(ls_buf_t *b, const json_t *t, const json_t *mask, double tmax, int y)
{
    int w = CHART_W - MARGIN_L - 10;
    for (size_t i = 0; i < json_array_size(mask) && tmax > 0; i++) {
        /* NVML reason bits that lower clocks: power cap 0x4, hw slowdown 0x8, sw thermal
           0x20, hw thermal 0x40, power brake 0x80 */
        if (!((unsigned long long)json_integer_value(json_array_get(mask, i)) & 0xECull))
            continue;
        double x = MARGIN_L + w * json_number_value(json_array_get(t, i)) / tmax;
        ls_buf_printf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#c0392b\"/>\n",
                      x, x, y, y + 6);
    }
}

static void chart(ls_buf_t *b, const json_t *e)
{
    const json_t *s = json_object_get(json_object_get(e, "burn"), "series");
    const json_t *t = json_object_get(s, "t_s");
    double tmax = ls_json_num(json_object_get(e, "burn"), "seconds", 0), lo = 0, hi = 0;
    if (range_of(t, &lo, &hi) && hi > tmax)
        tmax = hi;
    int h = MARGIN_T + 3 * (PANEL_H + PANEL_GAP) + 24;
    ls_buf_printf(b,
                  "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                  "viewBox=\"0 0 %d %d\" role=\"img\">\n",
                  CHART_W, h, CHART_W, h);
    ls_buf_printf(b,
                  "<text x=\"%d\" y=\"14\" font-size=\"12\">GPU %lld under sustained load, "
                  "%.0f s</text>\n",
                  MARGIN_L, ls_json_int(e, "gpu", -1), tmax);
    panel(b, t, json_object_get(s, "sm_mhz"), tmax, 0, "SM MHz", "#2c7fb8");
    panel(b, t, json_object_get(s, "power_w"), tmax, 1, "power W", "#d95f0e");
    panel(b, t, json_object_get(s, "temp_c"), tmax, 2, "temp C", "#756bb1");
    int ybase = MARGIN_T + 3 * (PANEL_H + PANEL_GAP) - PANEL_GAP + 2;
    throttle_ticks(b, t, json_object_get(s, "throttle"), tmax, ybase);
    ls_buf_printf(b,
                  "<text x=\"%d\" y=\"%d\" font-size=\"10\">0 s</text>"
                  "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"end\">%.0f s</text>\n",
                  MARGIN_L, h - 4, CHART_W - 10, h - 4, tmax);
    ls_buf_puts(b, "</svg><figcaption>SM clock, board power and GPU temperature sampled every ");
    ls_buf_num(b, ls_json_num(s, "period_ms", 0));
    ls_buf_puts(b, " ms; red ticks: samples with a clock-lowering reason (power cap, thermal, "
                   "hardware slowdown)</figcaption></figure>\n");
}

int ls_svg_burn_charts(ls_buf_t *b, const json_t *doc)
{
    int n = 0;
    LS_DOC_FOREACH(ent, doc, &ls_fam_burn)
    {
        const json_t *e = ent.json;
        if (!json_is_object(json_object_get(json_object_get(e, "burn"), "series")))
            continue;
        chart(b, e);
        n++;
    }
    return n;
}

char *ls_burn_text(const json_t *doc)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        abort(); /* out of memory: a report is never written half-way (strbuf.h) */
    ls_burn_table(mem, doc);
    fclose(mem);
    return text;
}
