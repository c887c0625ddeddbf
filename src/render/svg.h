/* Inline SVG pictures for the HTML report: heatmaps, the topology, bus bandwidth
   against message size. Pure functions of their input; no scripts, no external
   references (the only URL is the SVG namespace). */
#ifndef LS_RENDER_SVG_H
#define LS_RENDER_SVG_H

#include <jansson.h>

#include "strbuf.h"
#include "matrix.h"
#include "table.h"

/* A numeric GPU x GPU matrix, coloured by value (darker = better). */
void ls_svg_heatmap(ls_buf_t *b, const ls_matrix_t *m);
/* The link-type matrix, coloured by link class. 0 when the document has no links. */
int ls_svg_link_matrix(ls_buf_t *b, const json_t *doc);
/* GPUs as nodes (filled by NUMA node), links as lines coloured by class, pairs of
   degraded_link findings marked in red. 0 when no GPUs. */
int ls_svg_topology(ls_buf_t *b, const json_t *doc, const json_t *findings);
/* The PCIe tree layout (svg_tree.c): opens the <svg>, draws NUMA nodes, switches, GPUs
   and NVLink arcs, writes each GPU's centre into x, y; returns the picture's height. The
   caller adds overlays, the legend and </svg>. */
int ls_svg_topology_tree(ls_buf_t *b, const json_t *doc, int n, double *x, double *y);
/* Per collective and variant, a chart of busbw against size (log x axis, a red dashed
   line at each ceiling the plan knows, with its legend) and one of the small-message
   time, each only with 3 points or more; returns the number of charts drawn. */
int ls_svg_collective_charts(ls_buf_t *b, const json_t *doc, const json_t *plan);
/* The figures of the charts not drawn for having fewer than 3 points: one row each. */
ls_table_t *ls_table_unplotted(const json_t *doc, const json_t *plan);

/* GPU g's NUMA node: its numa_node, else the single node of its NUMA affinity (a pasted
   topo -m); -1 unknown. */
int ls_svg_gpu_numa(const json_t *doc, int g);

/* Colour of a link class ("NV", "PIX", ...), as #rrggbb. */
const char *ls_svg_class_colour(const char *cls);

#endif
