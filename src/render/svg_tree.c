/* The topology as the machine is built, for GPUs joined through PCIe: NUMA nodes (host
   bridges, CPU sockets) at the top, the PCIe switches under them, the GPUs and NICs under
   their switch, NVLink bridges as arcs under the GPUs, the SMP interconnect (SYS) as a
   dashed line between NUMA nodes. Groups come from the link words themselves (PIX/PXB:
   one switch tree; nvidia-smi topo -m's meaning), NUMA nodes from the GPU entries. */
#include "svg.h"
#include "matrix.h"
#include "model/doc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SLOT = 74, GAP = 22, LEFT = 40, Y_NUMA = 34, Y_SWITCH = 104, Y_LEAF = 180, R = 21 };

typedef struct {
    int n, ngroups;
    int group[LS_MAX_GPUS]; /* switch group of each GPU */
    int numa[LS_MAX_GPUS];
    double x[LS_MAX_GPUS], y[LS_MAX_GPUS];
    int order[LS_MAX_GPUS];  /* GPUs left to right */
    int shared[LS_MAX_GPUS]; /* the group's GPUs share a switch (PIX) or a switch tree (PXB): 1, 2
                              */
} tree_t;

static int find(int *parent, int a)
{
    while (parent[a] != a)
        a = parent[a] = parent[parent[a]];
    return a;
}

static int switch_class(const json_t *l)
{
    const char *c = ls_json_str(l, "class", "");
    return !strcmp(c, "PIX") ? 1 : !strcmp(c, "PXB") ? 2 : 0;
}

static int gpu_numa_node(const json_t *doc, int g)
{
    return ls_svg_gpu_numa(doc, g);
}

/* Groups, NUMA nodes and the left-to-right order (by NUMA node, then first GPU). */
static void build(tree_t *t, const json_t *doc)
{
    int parent[LS_MAX_GPUS];
    for (int g = 0; g < t->n; g++)
        parent[g] = g, t->numa[g] = gpu_numa_node(doc, g), t->shared[g] = 0;
    for (int a = 0; a < t->n; a++)
        for (int c = a + 1; c < t->n; c++) {
            int k = switch_class(ls_doc_link(doc, a, c));
            if (k) {
                int ra = find(parent, a), rc = find(parent, c);
                parent[rc] = ra;
                t->shared[ra] = t->shared[ra] > k ? t->shared[ra] : k;
                t->shared[ra] = t->shared[rc] > t->shared[ra] ? t->shared[rc] : t->shared[ra];
            }
        }
    for (int g = 0; g < t->n; g++)
        t->group[g] = find(parent, g), t->order[g] = g;
    /* insertion sort: NUMA node, then group (its first GPU), then GPU */
    for (int i = 1; i < t->n; i++)
        for (int j = i; j > 0; j--) {
            int a = t->order[j - 1], c = t->order[j];
            long ka = (long)t->numa[a] * 10000 + t->group[a] * 100 + a,
                 kc = (long)t->numa[c] * 10000 + t->group[c] * 100 + c;
            if (ka <= kc)
                break;
            t->order[j - 1] = c, t->order[j] = a;
        }
    double x = LEFT;
    for (int i = 0; i < t->n; i++) {
        int g = t->order[i];
        if (i > 0 && t->group[g] != t->group[t->order[i - 1]])
            x += GAP;
        t->x[g] = x + R, t->y[g] = Y_LEAF;
        x += SLOT;
    }
}

/* Leftmost and rightmost GPU x of the GPUs for which pick(t, g, key) holds. */
static int span(const tree_t *t, int by_group, int key, double *lo, double *hi)
{
    *lo = INFINITY, *hi = -INFINITY;
    for (int g = 0; g < t->n; g++)
        if ((by_group ? t->group[g] : t->numa[g]) == key)
            *lo = fmin(*lo, t->x[g]), *hi = fmax(*hi, t->x[g]);
    return isfinite(*lo);
}

static void numa_boxes(ls_buf_t *b, const tree_t *t, double *cx, int *numas, int *nn)
{
    *nn = 0;
    for (int i = 0; i < t->n; i++) {
        int node = t->numa[t->order[i]], seen = 0;
        for (int k = 0; k < *nn; k++)
            seen |= numas[k] == node;
        if (seen)
            continue;
        double lo, hi;
        span(t, 0, node, &lo, &hi);
        cx[*nn] = (lo + hi) / 2;
        numas[(*nn)++] = node;
        ls_buf_printf(b,
                      "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"30\" rx=\"5\" "
                      "fill=\"#eceff1\" stroke=\"#546e7a\"/>",
                      lo - R - 6, Y_NUMA - 15, hi - lo + 2 * R + 12);
        int wide = hi - lo + 2 * R + 12 >= 220; /* room for the long label */
        ls_buf_printf(b,
                      "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\" "
                      "font-weight=\"bold\">",
                      cx[*nn - 1], Y_NUMA + 4);
        if (node >= 0)
            ls_buf_printf(b, wide ? "NUMA node %d (CPU, host bridge)</text>" : "NUMA %d</text>",
                          node);
        else
            ls_buf_puts(b, wide ? "host (NUMA node unknown)</text>" : "host</text>");
    }
}

static void switches(ls_buf_t *b, const tree_t *t)
{
    for (int i = 0; i < t->n; i++) {
        int g = t->order[i], grp = t->group[g];
        if (i > 0 && t->group[t->order[i - 1]] == grp)
            continue;
        double lo, hi;
        span(t, 1, grp, &lo, &hi);
        int single = lo == hi;
        double top = Y_NUMA + 15;
        if (single) { /* straight to the host bridge */
            ls_buf_printf(b,
                          "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
                          "stroke-width=\"2\"/>",
                          lo, top, lo, Y_LEAF - R, ls_svg_class_colour("PHB"));
            continue;
        }
        const char *cls = t->shared[grp] == 1 ? "PIX" : "PXB";
        ls_buf_printf(b,
                      "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
                      "stroke-width=\"2\"/>",
                      (lo + hi) / 2, top, (lo + hi) / 2, Y_SWITCH - 12, ls_svg_class_colour("PHB"));
        for (int h = 0; h < t->n; h++)
            if (t->group[h] == grp)
                ls_buf_printf(b,
                              "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
                              "stroke-width=\"2.5\"/>",
                              (lo + hi) / 2, Y_SWITCH + 12, t->x[h], Y_LEAF - R,
                              ls_svg_class_colour(cls));
        ls_buf_printf(b,
                      "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"24\" rx=\"4\" "
                      "fill=\"#e3f2fd\" stroke=\"%s\"/>",
                      lo - R, Y_SWITCH - 12, hi - lo + 2 * R, ls_svg_class_colour(cls));
        ls_buf_printf(b,
                      "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%s "
                      "(%s)</text>",
                      (lo + hi) / 2, Y_SWITCH + 4,
                      t->shared[grp] == 1 ? "PCIe switch" : "PCIe switches", cls);
    }
}

/* NVLink bridges: arcs under the GPU row, deeper for GPUs further apart. Returns the depth. */
static double nvlink_arcs(ls_buf_t *b, const json_t *doc, const tree_t *t)
{
    double deepest = 0;
    int count = 0;
    for (int a = 0; a < t->n; a++)
        for (int c = a + 1; c < t->n; c++)
            count += !strcmp(ls_json_str(ls_doc_link(doc, a, c), "class", ""), "NV");
    for (int a = 0; a < t->n; a++)
        for (int c = a + 1; c < t->n; c++) {
            const json_t *l = ls_doc_link(doc, a, c);
            if (strcmp(ls_json_str(l, "class", ""), "NV"))
                continue;
            double depth = 26 + 0.3 * fabs(t->x[c] - t->x[a]), mid = (t->x[a] + t->x[c]) / 2,
                   y0 = Y_LEAF + R;
            deepest = fmax(deepest, depth);
            ls_buf_printf(b,
                          "<path d=\"M%.1f,%.1f Q%.1f,%.1f %.1f,%.1f\" fill=\"none\" stroke=\"%s\" "
                          "stroke-width=\"%.1f\"/>",
                          t->x[a], y0, mid, y0 + 2 * depth, t->x[c], y0, ls_svg_class_colour("NV"),
                          2 + ls_json_num(l, "nvlinks", 0) / 6);
            if (count <= 16) {
                ls_buf_printf(b,
                              "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"middle\" "
                              "stroke=\"#ffffff\" "
                              "stroke-width=\"3\" paint-order=\"stroke\">",
                              mid, y0 + depth + 4);
                ls_buf_html(b, ls_json_str(l, "type", "NV"));
                ls_buf_puts(b, "</text>");
            }
        }
    return deepest;
}

static void smp_line(ls_buf_t *b, const double *cx, int nn)
{
    for (int k = 1; k < nn; k++) {
        ls_buf_printf(b,
                      "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
                      "stroke-width=\"2\" "
                      "stroke-dasharray=\"5 4\"/>",
                      cx[k - 1], Y_NUMA - 20, cx[k], Y_NUMA - 20, ls_svg_class_colour("SYS"));
        ls_buf_printf(b,
                      "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\" "
                      "fill=\"%s\">SYS: SMP interconnect"
                      "</text>",
                      (cx[k - 1] + cx[k]) / 2, Y_NUMA - 24, ls_svg_class_colour("SYS"));
    }
}

int ls_svg_topology_tree(ls_buf_t *b, const json_t *doc, int n, double *x, double *y)
{
    tree_t t = {.n = n};
    build(&t, doc);
    ls_buf_t body = {0};
    double cx[LS_MAX_GPUS];
    int numas[LS_MAX_GPUS], nn;
    numa_boxes(&body, &t, cx, numas, &nn);
    smp_line(&body, cx, nn);
    switches(&body, &t);
    double depth = nvlink_arcs(&body, doc, &t);
    for (int g = 0; g < n; g++) {
        ls_buf_printf(&body,
                      "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"#ffffff\" "
                      "stroke=\"#333333\" stroke-width=\"1.5\"/>",
                      t.x[g], t.y[g], R);
        ls_buf_printf(&body,
                      "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\" "
                      "font-weight=\"bold\">GPU%d</text>",
                      t.x[g], t.y[g] + 4, g);
        x[g] = t.x[g], y[g] = t.y[g];
    }
    char *s = ls_buf_take(&body);
    double right = 0;
    for (int g = 0; g < n; g++)
        right = fmax(right, t.x[g]);
    int w = (int)right + R + LEFT, h = Y_LEAF + R + (int)depth + 40;
    ls_buf_printf(b,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" class=\"topology\" "
                  "width=\"%d\" height=\"%d\" "
                  "viewBox=\"0 -14 %d %d\">",
                  w, h + 14, w, h + 14);
    ls_buf_puts(b,
                "<title>Topology: NUMA nodes, PCIe switches, GPUs; NVLink bridges as arcs</title>");
    ls_buf_puts(b, s);
    free(s);
    return h;
}
