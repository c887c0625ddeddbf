#include "svg.h"
#include "status.h"
#include "model/doc.h"
#include "model/vocab.h"
#include "model/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SVG_OPEN                                                                                   \
    "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" class=\"%s\" width=\"%d\" "            \
    "height=\"%d\" viewBox=\"0 0 %d %d\">"

static const char *palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};

const char *ls_svg_class_colour(const char *cls)
{
    static const struct {
        const char *cls, *colour;
    } map[] = {{"NV", "#2e7d32"},   {"PIX", "#1565c0"}, {"PXB", "#42a5f5"}, {"PHB", "#f9a825"},
               {"NODE", "#ef6c00"}, {"SYS", "#c62828"}, {"X", "#9e9e9e"}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(cls, map[i].cls))
            return map[i].colour;
    return "#bdbdbd";
}

/* Mixes #eef4fb (t = 0) into #12406e (t = 1). */
static void scale_colour(double t, char *buf, size_t len)
{
    if (t < 0)
        t = 0;
    if (t > 1)
        t = 1;
    int r = (int)lround(0xee + t * (0x12 - 0xee)), g = (int)lround(0xf4 + t * (0x40 - 0xf4)),
        bl = (int)lround(0xfb + t * (0x6e - 0xfb));
    snprintf(buf, len, "#%02x%02x%02x", r, g, bl);
}

static int cell_size(int n)
{
    int c = n > 0 ? 560 / n : 48;
    return c > 48 ? 48 : c < 16 ? 16 : c;
}

static void axis_labels(ls_buf_t *b, int n, int cell, int left, int top)
{
    int fs = cell >= 30 ? 11 : 8;
    for (int i = 0; i < n; i++) {
        ls_buf_printf(b,
                      "<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"end\">GPU%d</text>",
                      left - 4, top + i * cell + cell / 2 + fs / 3, fs, i);
        ls_buf_printf(b,
                      "<text x=\"%d\" y=\"%d\" font-size=\"%d\" "
                      "text-anchor=\"middle\">GPU%d</text>",
                      left + i * cell + cell / 2, top - 6, fs, i);
    }
}

void ls_svg_heatmap(ls_buf_t *b, const ls_matrix_t *m)
{
    int n = m->n, cell = cell_size(n), left = 48, top = 24;
    int w = left + n * cell + 8, h = top + n * cell + (isfinite(m->ceiling) ? 42 : 30);
    if (w < 340)
        w = 340; /* room for the legend */
    double lo = INFINITY, hi = -INFINITY;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            if (r != c && isfinite(m->v[r][c]))
                lo = fmin(lo, m->v[r][c]), hi = fmax(hi, m->v[r][c]);
    if (isfinite(m->scale_lo) && isfinite(m->scale_hi)) /* one scale for the whole family */
        lo = m->scale_lo, hi = m->scale_hi;
    /* figures spanning more than 4x (NVLink beside PCIe) are coloured on a log scale, so
       that the slower classes still show their differences */
    int logscale = lo > 0 && hi / lo > 4;
    /* otherwise the scale runs from half the best figure (light) to the best (dark), so
       that noise between equal links does not look like a difference */
    if (!logscale && isfinite(lo) && !m->lower_is_better)
        lo = fmin(lo, hi / 2);
    else if (!logscale && isfinite(lo))
        hi = fmax(hi, 2 * lo);
    ls_buf_printf(b, SVG_OPEN, "heatmap", w, h, w, h);
    ls_buf_puts(b, "<title>");
    ls_buf_html(b, m->title);
    ls_buf_puts(b, "</title>");
    axis_labels(b, n, cell, left, top);
    int fs = cell >= 40 ? 10 : cell >= 28 ? 8 : 6;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            double v = m->v[r][c];
            char fill[16] = "#f5f5f5", text[24] = "";
            double t = 0;
            if (isfinite(v)) {
                t = hi > lo ? (logscale ? log(v / lo) / log(hi / lo) : (v - lo) / (hi - lo)) : 1;
                t = t < 0 ? 0 : t > 1 ? 1 : t;
                if (m->lower_is_better)
                    t = 1 - t;
                scale_colour(0.15 + 0.85 * t, fill, sizeof fill);
                ls_fmt_num(v, text, sizeof text);
            }
            ls_buf_printf(b,
                          "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" "
                          "stroke=\"#ffffff\"/>",
                          left + c * cell, top + r * cell, cell, cell,
                          r == c && !isfinite(v) ? "#e0e0e0" : fill);
            if (text[0] && cell >= 22)
                ls_buf_printf(b,
                              "<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"middle\" "
                              "fill=\"%s\">%s</text>",
                              left + c * cell + cell / 2, top + r * cell + cell / 2 + fs / 3, fs,
                              0.15 + 0.85 * t > 0.55 ? "#ffffff" : "#111111", text);
        }
    char slo[24], shi[24];
    ls_fmt_num(lo, slo, sizeof slo);
    ls_fmt_num(hi, shi, sizeof shi);
    ls_buf_printf(b,
                  "<text x=\"%d\" y=\"%d\" font-size=\"10\">%s %s (light) to %s %s "
                  "(dark)%s%s</text>",
                  left, top + n * cell + 18, !m->lower_is_better ? "low" : "high",
                  !m->lower_is_better ? slo : shi, !m->lower_is_better ? shi : slo, m->unit,
                  !m->lower_is_better ? "" : ", lower is darker",
                  logscale ? ", log colour scale" : "");
    if (isfinite(m->ceiling)) {
        char sc[24];
        ls_fmt_num(m->ceiling, sc, sizeof sc);
        ls_buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"10\">ceiling %s %s</text>", left,
                      top + n * cell + 30, sc, m->unit);
    }
    ls_buf_puts(b, "</svg>\n");
}

static const char *classes[] = {"NV", "PIX", "PXB", "PHB", "NODE", "SYS"};

/* The link classes present, left to right from x; returns where the next item goes. */
static int class_legend(ls_buf_t *b, const json_t *doc, int x, int y)
{
    for (size_t k = 0; k < sizeof classes / sizeof classes[0]; k++) {
        int present = 0;
        size_t i;
        const json_t *l;
        json_array_foreach(json_object_get(doc, "links"), i, l) {
            present |= !strcmp(ls_json_str(l, "class", ""), classes[k]);
        }
        if (!present)
            continue;
        ls_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"10\" fill=\"%s\"/>", x,
                      y - 9, ls_svg_class_colour(classes[k]));
        ls_buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>", x + 18, y,
                      classes[k]);
        x += 70;
    }
    return x;
}

/* The legend of the red dashed line, after the classes, when a pair was drawn so. */
static void degraded_legend(ls_buf_t *b, int drawn, int x, int y)
{
    if (!drawn)
        return;
    ls_buf_printf(b,
                  "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#d50000\" "
                  "stroke-width=\"4\" "
                  "stroke-dasharray=\"8 5\"/>",
                  x, y - 4, x + 24, y - 4);
    ls_buf_printf(b,
                  "<text x=\"%d\" y=\"%d\" font-size=\"11\">degraded: a pair far below its class "
                  "(degraded_link)</text>",
                  x + 30, y);
}

int ls_svg_link_matrix(ls_buf_t *b, const json_t *doc)
{
    int n = ls_doc_ngpus(doc);
    if (!n || !json_array_size(json_object_get(doc, "links")))
        return 0;
    int cell = cell_size(n), left = 48, top = 24, w = left + n * cell + 8, h = top + n * cell + 30;
    if (w < 440)
        w = 440;
    ls_buf_printf(b, SVG_OPEN, "heatmap links", w, h, w, h);
    ls_buf_puts(b, "<title>Link types, GPU(row) -> GPU(column)</title>");
    axis_labels(b, n, cell, left, top);
    int fs = cell >= 40 ? 10 : cell >= 28 ? 8 : 6;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            const json_t *l = ls_doc_link(doc, r, c);
            const char *cls = r == c ? "X" : ls_json_str(l, "class", "?");
            ls_buf_printf(b,
                          "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" "
                          "stroke=\"#ffffff\"/>",
                          left + c * cell, top + r * cell, cell, cell, ls_svg_class_colour(cls));
            if (cell >= 22) {
                ls_buf_printf(b,
                              "<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"middle\" "
                              "fill=\"#ffffff\">",
                              left + c * cell + cell / 2, top + r * cell + cell / 2 + fs / 3, fs);
                ls_buf_html(b, r == c ? "X" : ls_json_str(l, "type", "?"));
                ls_buf_puts(b, "</text>");
            }
        }
    class_legend(b, doc, left, top + n * cell + 20);
    ls_buf_puts(b, "</svg>\n");
    return 1;
}

int ls_svg_gpu_numa(const json_t *doc, int g)
{
    const json_t *gpu = ls_doc_gpu(doc, g);
    long long node = ls_json_int(gpu, "numa_node", -1);
    if (node >= 0)
        return (int)node;
    /* a pasted `nvidia-smi topo -m` gives the NUMA Affinity column only: "0" is node 0,
       "0-1" or "N/A" says no single node */
    const char *aff = ls_json_str(gpu, "numa_affinity", "");
    char *end = NULL;
    long v = *aff ? strtol(aff, &end, 10) : -1;
    return end && *end == '\0' && v >= 0 && v < 1024 ? (int)v : -1;
}

static int gpu_numa(const json_t *doc, int g)
{
    return ls_svg_gpu_numa(doc, g);
}

/* Pairs named by degraded_link findings (their "pairs": the first one), drawn over the
   links; the word "degraded" a third of the way from the first GPU, clear of a fabric
   box in the middle. Returns how many pairs were drawn. */
static int degraded_overlay(ls_buf_t *b, const json_t *findings, const double *x, const double *y,
                            int n)
{
    int drawn = 0;
    size_t i;
    const json_t *f;
    json_array_foreach(findings, i, f) {
        const json_t *pair = json_array_get(json_object_get(f, "pairs"), 0);
        const json_t *ja = json_array_get(pair, 0), *jc = json_array_get(pair, 1);
        long long a = json_is_integer(ja) ? json_integer_value(ja) : -1;
        long long c = json_is_integer(jc) ? json_integer_value(jc) : -1;
        if (strcmp(ls_json_str(f, "rule", ""), "degraded_link") || a < 0 || c < 0 || a >= n ||
            c >= n)
            continue;
        ls_buf_printf(b,
                      "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d50000\" "
                      "stroke-width=\"5\" "
                      "stroke-dasharray=\"8 5\"/>",
                      x[a], y[a], x[c], y[c]);
        ls_buf_printf(b,
                      "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"#d50000\" "
                      "text-anchor=\"middle\" stroke=\"#ffffff\" stroke-width=\"3\" "
                      "paint-order=\"stroke\" "
                      "font-weight=\"bold\">degraded</text>",
                      x[a] + (x[c] - x[a]) / 3, y[a] + (y[c] - y[a]) / 3 - 6);
        drawn++;
    }
    return drawn;
}

/* The link word (NV18, PIX, SYS...) at the middle of each line, where there is room. */
static void link_labels(ls_buf_t *b, const json_t *doc, const double *x, const double *y, int n)
{
    if (n > 8)
        return; /* 55 or more lines: the words would cover each other */
    for (int a = 0; a < n; a++)
        for (int c = a + 1; c < n; c++) {
            const json_t *l = ls_doc_link(doc, a, c);
            if (!l)
                continue;
            ls_buf_printf(b,
                          "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"middle\" "
                          "fill=\"#333333\" "
                          "stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\">",
                          x[a] + (x[c] - x[a]) * (n <= 2 ? 0.5 : 0.3),
                          y[a] + (y[c] - y[a]) * (n <= 2 ? 0.5 : 0.3) - 3);
            ls_buf_html(b, ls_json_str(l, "type", "?"));
            ls_buf_puts(b, "</text>");
        }
}

/* The link word every GPU pair shares when all are NVLink of one kind: an NVSwitch
   fabric (HGX boards, NVL72 racks), drawn as one switch with a spoke per GPU rather
   than n(n-1)/2 lines. NULL when the pairs differ. */
static const char *switched_word(const json_t *doc, int n)
{
    const char *word = NULL;
    if (n < 3)
        return NULL; /* two GPUs: one line says it */
    for (int a = 0; a < n; a++)
        for (int c = a + 1; c < n; c++) {
            const json_t *l = ls_doc_link(doc, a, c);
            if (!l || strcmp(ls_json_str(l, "class", ""), "NV"))
                return NULL;
            if (word && strcmp(word, ls_json_str(l, "type", "")))
                return NULL;
            word = ls_json_str(l, "type", "");
        }
    return word;
}

static void pair_lines(ls_buf_t *b, const json_t *doc, const double *x, const double *y, int n)
{
    /* slowest classes first, so that fast links are drawn on top */
    for (int k = (int)(sizeof classes / sizeof classes[0]) - 1; k >= 0; k--)
        for (int a = 0; a < n; a++)
            for (int c = a + 1; c < n; c++) {
                const json_t *l = ls_doc_link(doc, a, c);
                if (!l || strcmp(ls_json_str(l, "class", ""), classes[k]))
                    continue;
                double sw = k == 0 ? 3 + ls_json_num(l, "nvlinks", 0) / 6 : k <= 2 ? 2.5 : 1.2;
                ls_buf_printf(b,
                              "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                              "stroke-width=\"%.1f\"%s/>",
                              x[a], y[a], x[c], y[c], ls_svg_class_colour(classes[k]), sw,
                              k == 5   ? " stroke-dasharray=\"4 4\" stroke-opacity=\"0.45\""
                              : k >= 3 ? " stroke-opacity=\"0.7\""
                                       : "");
            }
}

static void switch_spokes(ls_buf_t *b, const double *x, const double *y, int n, int cx, int cy)
{
    for (int g = 0; g < n; g++)
        ls_buf_printf(b,
                      "<line x1=\"%d\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                      "stroke-width=\"%d\"/>",
                      cx, cy, x[g], y[g], ls_svg_class_colour("NV"), n > 16 ? 2 : 4);
}

/* The fabric's box, drawn over the spokes and a degraded pair's line through it. */
static void switch_box(ls_buf_t *b, const char *word, int cx, int cy)
{
    ls_buf_printf(b,
                  "<rect x=\"%d\" y=\"%d\" width=\"150\" height=\"44\" rx=\"6\" fill=\"#1b5e20\"/>",
                  cx - 75, cy - 22);
    ls_buf_printf(b,
                  "<text x=\"%d\" y=\"%d\" font-size=\"12\" fill=\"#ffffff\" "
                  "text-anchor=\"middle\" font-weight=\"bold\">"
                  "NVSwitch fabric</text>",
                  cx, cy - 4);
    ls_buf_printf(b,
                  "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#ffffff\" "
                  "text-anchor=\"middle\">every pair ",
                  cx, cy + 12);
    ls_buf_html(b, word);
    ls_buf_puts(b, "</text>");
}

/* The NIC whose link to GPU g is PIX or PXB (behind the same PCIe switch: the NIC NCCL
   and GPUDirect RDMA use for that GPU); its label into buf; 0 when none. */
static int nic_of_gpu(const json_t *doc, int g, char *buf, size_t len)
{
    size_t i;
    const json_t *l;
    json_array_foreach(json_object_get(doc, "gpu_nic_links"), i, l) {
        const char *cls = ls_json_str(l, "class", "");
        if (ls_json_int(l, "gpu", -1) != g || (strcmp(cls, "PIX") && strcmp(cls, "PXB")))
            continue;
        long long k = ls_json_int(l, "nic", -1);
        const json_t *nic = json_array_get(json_object_get(doc, "nics"), (size_t)(k < 0 ? 0 : k));
        snprintf(buf, len, "%s", ls_json_str(nic, "name", ls_json_str(nic, "label", "NIC")));
        return 1;
    }
    return 0;
}

/* Each GPU's own NIC as a small box outside its node, joined by a PCIe line. */
static void star_nics(ls_buf_t *b, const json_t *doc, const double *x, const double *y, int n,
                      int cx, int cy, int r)
{
    if (n > 16)
        return; /* no room at rack scale */
    for (int g = 0; g < n; g++) {
        char name[64];
        if (!nic_of_gpu(doc, g, name, sizeof name))
            continue;
        double dx = x[g] - cx, dy = y[g] - cy, d = sqrt(dx * dx + dy * dy);
        if (d <= 0)
            continue;
        double nx = x[g] + dx / d * (r + 34), ny = y[g] + dy / d * (r + 34);
        ls_buf_printf(b,
                      "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                      "stroke-width=\"2\"/>",
                      x[g] + dx / d * r, y[g] + dy / d * r, nx, ny, ls_svg_class_colour("PIX"));
        ls_buf_printf(b,
                      "<rect x=\"%.1f\" y=\"%.1f\" width=\"50\" height=\"16\" rx=\"3\" "
                      "fill=\"#fff8e1\" stroke=\"#8d6e63\"/>",
                      nx - 25, ny - 8);
        ls_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" text-anchor=\"middle\">", nx,
                      ny + 3);
        ls_buf_html(b, name);
        ls_buf_puts(b, "</text>");
    }
}

int ls_svg_topology(ls_buf_t *b, const json_t *doc, const json_t *findings)
{
    static const char *numa_fill[] = {"#e3f2fd", "#fff3e0", "#f3e5f5", "#e8f5e9"};
    int n = ls_doc_ngpus(doc);
    if (!n)
        return 0;
    /* nodes on a circle whose circumference leaves room for every node (72 GPUs too) */
    int r = n > 16 ? 13 : 22;
    double radius = n <= 2 ? 150 : fmax(175, n * (2 * r + 8) / (2 * M_PI));
    int w = n <= 2 ? 560 : (int)(2 * radius + 220), cx = w / 2, cy = n <= 2 ? 60 : (int)radius + 80;
    int h = n <= 2 ? 150 : (int)(2 * radius + 180);
    double x[LS_MAX_GPUS], y[LS_MAX_GPUS];
    const char *fabric = switched_word(doc, n);
    if (n > 2 && !fabric) { /* joined through PCIe and bridges: drawn as the tree it is */
        int th = ls_svg_topology_tree(b, doc, n, x, y);
        int bad = degraded_overlay(b, findings, x, y, n);
        degraded_legend(b, bad, class_legend(b, doc, 20, th - 8), th - 8);
        ls_buf_puts(b, "</svg>\n");
        return 1;
    }
    for (int g = 0; g < n; g++) {
        double angle = n <= 2 ? M_PI * g : -M_PI / 2 + 2 * M_PI * g / n;
        x[g] = cx + radius * (n <= 2 ? -cos(angle) : cos(angle));
        y[g] = cy + (n <= 2 ? 0 : radius * sin(angle));
    }
    ls_buf_printf(b, SVG_OPEN, "topology", w, h, w, h);
    ls_buf_puts(b, "<title>Topology: GPUs as nodes (filled by NUMA node), links coloured by "
                   "class</title>");
    int bad;
    if (fabric) {
        switch_spokes(b, x, y, n, cx, cy);
        star_nics(b, doc, x, y, n, cx, cy, r);
        bad = degraded_overlay(b, findings, x, y, n);
        switch_box(b, fabric, cx, cy);
    } else {
        pair_lines(b, doc, x, y, n);
        link_labels(b, doc, x, y, n);
        bad = degraded_overlay(b, findings, x, y, n);
    }
    for (int g = 0; g < n; g++) {
        int node = gpu_numa(doc, g);
        ls_buf_printf(b,
                      "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"%s\" stroke=\"#333333\" "
                      "stroke-width=\"1.5\"/>",
                      x[g], y[g], r, node >= 0 ? numa_fill[node % 4] : "#ffffff");
        ls_buf_printf(b,
                      "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"middle\" "
                      "font-weight=\"bold\">%s%d</text>",
                      x[g], y[g] + 4, n > 16 ? 9 : 11, n > 16 ? "" : "GPU", g);
        if (node >= 0 && n <= 16)
            ls_buf_printf(b,
                          "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" text-anchor=\"middle\" "
                          "stroke=\"#ffffff\" "
                          "stroke-width=\"3\" paint-order=\"stroke\">NUMA %d</text>",
                          x[g],
                          /* on the inner side of the lower nodes: their NIC sits outside */
                          n > 2 && y[g] > cy + 1 ? y[g] - r - 5 : y[g] + r + 12, node);
    }
    degraded_legend(b, bad, class_legend(b, doc, 20, h - 14), h - 14);
    ls_buf_puts(b, "</svg>\n");
    return 1;
}

/* A round number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten), at least x:
   the axis ends close above the highest figure. */
static double nice_ceil(double x)
{
    static const double steps[] = {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8};
    if (x <= 0)
        return 1;
    double p = pow(10, floor(log10(x)));
    for (int i = 0; i < 10; i++) {
        double f = steps[i] * p;
        if (f >= x)
            return f;
    }
    return 10 * p;
}

static void series_label(const json_t *e, char *buf, size_t len)
{
    ls_buf_t b = {0};
    ls_buf_puts(&b, "GPUs ");
    ls_buf_gpus(&b, json_object_get(e, "gpus"));
    char *g = ls_buf_take(&b);
    snprintf(buf, len, "%s (%s)", g, ls_json_str(e, "id", ""));
    free(g);
}

/* What a chart plots: bus bandwidth over every size, or the time per call of the small
   messages, where launch and latency costs dominate (up to SMALL_MAX bytes). */
enum chart_mode { CHART_BUSBW, CHART_SMALL_TIME };
static const double SMALL_MAX = 1 << 20;

static int same_series(const json_t *e, const char *collective, const char *variant)
{
    return !strcmp(ls_json_str(e, "family", ""), LS_FAMILY_NCCL) &&
           !strcmp(ls_json_str(e, "collective", ""), collective) &&
           !strcmp(ls_json_str(e, "variant", "default"), variant);
}

/* The y figure of a row in this mode; NAN where the row is not plotted. */
static double row_y(const json_t *r, enum chart_mode mode)
{
    double bytes = ls_json_num(r, "bytes", 0);
    if (bytes <= 0 || (mode == CHART_SMALL_TIME && bytes > SMALL_MAX))
        return NAN;
    return ls_json_num(json_object_get(r, "oop"), mode == CHART_BUSBW ? "busbw" : "time_us", NAN);
}

/* Lines need 3 points to show a shape: a series with fewer is a row of
   ls_table_unplotted, not a line. */
enum { CHART_MIN_POINTS = 3 };

/* How many points one series (an nccl entry) has in this mode. */
static int series_points(const json_t *e, enum chart_mode mode)
{
    int n = 0;
    size_t k;
    const json_t *r;
    json_array_foreach(json_object_get(e, "rows"), k, r)
        n += !isnan(row_y(r, mode));
    return n;
}

/* A series drawn in the chart of collective, variant in this mode. */
static int plotted(const json_t *e, const char *collective, const char *variant,
                   enum chart_mode mode)
{
    return same_series(e, collective, variant) && series_points(e, mode) >= CHART_MIN_POINTS;
}

/* How many series a chart of this mode would draw. */
static int chart_series(const json_t *doc, const char *collective, const char *variant,
                        enum chart_mode mode)
{
    int n = 0;
    LS_DOC_FOREACH(e, doc, &ls_fam_nccl)
    {
        n += plotted(e.json, collective, variant, mode);
    }
    return n;
}

/* An entry's busbw ceiling: the plan's (analyze's ceilings, issue 11), else the figure
   recorded with it; 0 unknown. */
static double entry_ceiling(const json_t *plan, const json_t *e)
{
    double c = ls_plan_ceiling(plan, e);
    return c > 0 ? c : ls_json_num(e, "theoretical", 0);
}

/* The distinct ceilings of a chart's series (within 0.5%), at most max; their count. */
static int series_ceilings(const json_t *doc, const json_t *plan, const char *collective,
                           const char *variant, enum chart_mode mode, double *out, int max)
{
    int n = 0;
    LS_DOC_FOREACH(ent, doc, &ls_fam_nccl)
    {
        const json_t *e = ent.json;
        double c = plotted(e, collective, variant, mode) ? entry_ceiling(plan, e) : 0;
        int k = 0;
        while (k < n && fabs(out[k] - c) > 0.005 * c)
            k++;
        if (c > 0 && k == n && n < max)
            out[n++] = c;
    }
    return n;
}

/* A red dashed line across the chart at each ceiling, its figure at the right end. */
static void ceiling_lines(ls_buf_t *b, const double *ceiling, int n, double ymax, int left, int top,
                          int pw, int ph)
{
    for (int k = 0; k < n; k++) {
        double yy = top + ph - ph * ceiling[k] / ymax;
        char v[24];
        ls_fmt_num(ceiling[k], v, sizeof v);
        ls_buf_printf(b,
                      "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#b71c1c\" "
                      "stroke-width=\"1.5\" "
                      "stroke-dasharray=\"6 4\"/>",
                      left, yy, left + pw, yy);
        ls_buf_printf(b,
                      "<text x=\"%d\" y=\"%.1f\" font-size=\"10\" fill=\"#b71c1c\" "
                      "text-anchor=\"end\">%s GB/s</text>",
                      left + pw - 4, yy - 4, v);
    }
}

static void chart(ls_buf_t *b, const json_t *doc, const json_t *plan, const char *collective,
                  const char *variant, enum chart_mode mode)
{
    double xmin = INFINITY, xmax = -INFINITY, ymax = 0;
    int nseries = 0;
    LS_DOC_FOREACH(ent, doc, &ls_fam_nccl)
    {
        const json_t *e = ent.json;
        if (!plotted(e, collective, variant, mode))
            continue;
        nseries++;
        size_t k;
        const json_t *r;
        json_array_foreach(json_object_get(e, "rows"), k, r) {
            double bytes = ls_json_num(r, "bytes", 0), y = row_y(r, mode);
            if (isnan(y))
                continue;
            xmin = fmin(xmin, log2(bytes)), xmax = fmax(xmax, log2(bytes));
            ymax = fmax(ymax, y);
        }
    }
    if (!isfinite(xmin))
        xmin = 0, xmax = 1;
    if (xmax - xmin < 2)
        xmin -= 1, xmax += 1;
    double ceiling[8];
    int nceil = mode == CHART_BUSBW
                    ? series_ceilings(doc, plan, collective, variant, mode, ceiling, 8)
                    : 0;
    for (int k = 0; k < nceil; k++)
        ymax = fmax(ymax, ceiling[k]);
    ymax = nice_ceil(ymax * 1.05);
    /* the legend: one line per series, and one for the ceiling lines */
    int left = 64, top = 30, pw = 500, ph = 240, w = left + pw + 24,
        h = top + ph + 56 + 16 * (nseries + (nceil > 0));
    ls_buf_printf(b, SVG_OPEN, "chart", w, h, w, h);
    ls_buf_puts(b, "<title>"); /* the variant is the user's --variant text: escaped */
    ls_buf_html(b, collective);
    ls_buf_puts(b, ", ");
    ls_buf_html(b, variant);
    ls_buf_puts(b, mode == CHART_BUSBW
                       ? ": busbw (GB/s, out-of-place) against message size</title>"
                       : ": time per call (us, out-of-place) of messages up to 1 MiB</title>");
    ls_buf_printf(b, "<text x=\"%d\" y=\"16\" font-size=\"13\" font-weight=\"bold\">", left);
    ls_buf_html(b, collective);
    ls_buf_puts(b, ", ");
    ls_buf_html(b, variant);
    ls_buf_puts(b, mode == CHART_BUSBW ? ": bus bandwidth</text>" : ": small-message time</text>");
    ls_buf_printf(b,
                  "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" "
                  "stroke=\"#999999\"/>",
                  left, top, pw, ph);
    for (int t = 0; t <= 5; t++) {
        double v = ymax * t / 5, yy = top + ph - ph * t / 5.0, step = ymax / 5;
        char s[24];
        snprintf(s, sizeof s, "%.*f", step >= 1 ? 0 : step >= 0.1 ? 1 : 2, v);
        ls_buf_printf(b, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>",
                      left, yy, left + pw, yy);
        ls_buf_printf(b, "<text x=\"%d\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%s</text>",
                      left - 4, yy + 3, s);
    }
    int step = (int)ceil((xmax - xmin) / 8);
    for (int p = (int)ceil(xmin); p <= (int)floor(xmax); p++) {
        if ((p - (int)ceil(xmin)) % (step < 1 ? 1 : step))
            continue;
        double xx = left + pw * (p - xmin) / (xmax - xmin);
        char s[32];
        ls_fmt_bytes(ldexp(1, p), s, sizeof s);
        ls_buf_printf(b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e0e0e0\"/>",
                      xx, top, xx, top + ph);
        ls_buf_printf(b,
                      "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%s</text>",
                      xx, top + ph + 14, s);
    }
    ls_buf_printf(b,
                  "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">message size "
                  "(log scale)</text>",
                  left + pw / 2, top + ph + 32);
    ls_buf_printf(b,
                  "<text x=\"14\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\" "
                  "transform=\"rotate(-90 14 %d)\">%s</text>",
                  top + ph / 2, top + ph / 2,
                  mode == CHART_BUSBW ? "busbw GB/s" : "time per call, us");
    ceiling_lines(b, ceiling, nceil, ymax, left, top, pw, ph);
    int s = 0;
    LS_DOC_FOREACH(ent, doc, &ls_fam_nccl)
    {
        const json_t *e = ent.json;
        if (!plotted(e, collective, variant, mode))
            continue;
        const char *colour = palette[s % 10];
        ls_buf_printf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" points=\"",
                      colour);
        size_t k;
        const json_t *r;
        json_array_foreach(json_object_get(e, "rows"), k, r) {
            double bytes = ls_json_num(r, "bytes", 0), bw = row_y(r, mode);
            if (!isnan(bw))
                ls_buf_printf(b, "%.1f,%.1f ", left + pw * (log2(bytes) - xmin) / (xmax - xmin),
                              top + ph - ph * bw / ymax);
        }
        ls_buf_puts(b, "\"/>");
        json_array_foreach(json_object_get(e, "rows"), k, r) {
            double bytes = ls_json_num(r, "bytes", 0), bw = row_y(r, mode);
            if (!isnan(bw))
                ls_buf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>",
                              left + pw * (log2(bytes) - xmin) / (xmax - xmin),
                              top + ph - ph * bw / ymax, colour);
        }
        char label[160];
        series_label(e, label, sizeof label);
        int ly = top + ph + 50 + 16 * s;
        ls_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"4\" fill=\"%s\"/>", left,
                      ly - 5, colour);
        ls_buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"11\">", left + 20, ly);
        ls_buf_html(b, label);
        ls_buf_puts(b, "</text>");
        s++;
    }
    if (nceil) { /* what the red dashed lines are */
        int ly = top + ph + 50 + 16 * s;
        ls_buf_printf(b,
                      "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#b71c1c\" "
                      "stroke-width=\"1.5\" "
                      "stroke-dasharray=\"6 4\"/>",
                      left, ly - 3, left + 14, ly - 3);
        ls_buf_printf(b,
                      "<text x=\"%d\" y=\"%d\" font-size=\"11\">the ceiling of the links (GB/s "
                      "busbw, the "
                      "slowest GPU's share of the fabric)</text>",
                      left + 20, ly);
    }
    ls_buf_puts(b, "</svg>\n");
}

int ls_svg_collective_charts(ls_buf_t *b, const json_t *doc, const json_t *plan)
{
    /* (collective, variant) pairs in the order they first appear */
    const char *seen[128][2];
    int n = 0, drawn = 0;
    LS_DOC_FOREACH(ent, doc, &ls_fam_nccl)
    {
        const json_t *e = ent.json;
        if (!json_array_size(json_object_get(e, "rows")))
            continue;
        const char *c = ls_json_str(e, "collective", "?"),
                   *v = ls_json_str(e, "variant", "default");
        int k = 0;
        while (k < n && (strcmp(seen[k][0], c) || strcmp(seen[k][1], v)))
            k++;
        if (k < n || n == 128)
            continue;
        seen[n][0] = c, seen[n][1] = v;
        n++;
        for (enum chart_mode m = CHART_BUSBW; m <= CHART_SMALL_TIME; m++)
            if (chart_series(doc, c, v, m)) {
                chart(b, doc, plan, c, v, m);
                drawn++;
            }
    }
    return drawn;
}

ls_table_t *ls_table_unplotted(const json_t *doc, const json_t *plan)
{
    static const char *const head[] = {"collective", "variant", "GPUs",   "figure",
                                       "size",       "value",   "ceiling"};
    ls_table_t *t = ls_table_new("Collective figures too few to chart (a GPU set with under 3 "
                                 "sizes): out-of-place, "
                                 "per size",
                                 7, head);
    size_t k;
    const json_t *r;
    LS_DOC_FOREACH(ent, doc, &ls_fam_nccl)
    {
        const json_t *e = ent.json;
        const char *c = ls_json_str(e, "collective", "?"),
                   *v = ls_json_str(e, "variant", "default");
        for (enum chart_mode m = CHART_BUSBW; m <= CHART_SMALL_TIME; m++) {
            if (series_points(e, m) >= CHART_MIN_POINTS)
                continue;
            json_array_foreach(json_object_get(e, "rows"), k, r) {
                double y = row_y(r, m), ceil = m == CHART_BUSBW ? entry_ceiling(plan, e) : 0;
                if (isnan(y))
                    continue;
                char gpus[160], size[32], val[48], cv[32] = "-";
                series_label(e, gpus, sizeof gpus);
                ls_fmt_bytes(ls_json_num(r, "bytes", 0), size, sizeof size);
                ls_fmt_num(y, val, sizeof val);
                snprintf(val + strlen(val), sizeof val - strlen(val),
                         m == CHART_BUSBW ? " GB/s" : " us");
                if (ceil > 0)
                    ls_fmt_num(ceil, cv, sizeof cv);
                const char *row[] = {c,    v,   gpus, m == CHART_BUSBW ? "busbw" : "time per call",
                                     size, val, cv};
                ls_table_row(t, row);
            }
        }
    }
    return t;
}
