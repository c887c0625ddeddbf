/* The one GPU x GPU matrix of measured paths, built from the run document's entries
   (ls_matrix_put), shown as a command's terminal table with an optional colour
   heatmap, as CSV per matrix, as a report table or an SVG heatmap; and the P2P path
   table (one row per GPU pair, by link type). */
#ifndef LS_RENDER_MATRIX_H
#define LS_RENDER_MATRIX_H

#include <jansson.h>
#include <stdio.h>

#include "model/families.h"
#include "model/topo.h"
#include "table.h"

enum { LS_CELL_EMPTY = 0, LS_CELL_VALUE, LS_CELL_FAILED };

typedef struct {
    int n;
    int index[LS_MAX_GPUS]; /* GPU index of row/column i */
    int fixed; /* rows are GPUs 0..n-1 (ls_matrix_init): an entry outside is left out */
    double v[LS_MAX_GPUS][LS_MAX_GPUS];             /* median; NaN where nothing was measured */
    double cv[LS_MAX_GPUS][LS_MAX_GPUS];            /* coefficient of variation */
    unsigned char cell[LS_MAX_GPUS][LS_MAX_GPUS];   /* LS_CELL_* */
    unsigned char no_p2p[LS_MAX_GPUS][LS_MAX_GPUS]; /* the pair has no peer access (flag no_p2p) */
    unsigned char direct[LS_MAX_GPUS][LS_MAX_GPUS]; /* by GPU index: set by an entry of its own */
    char title[256];                                /* what was measured and how it was counted */
    char corner[40];                                /* "GPU(row) -> GPU(column)" */
    char unit[16];
    char name[64]; /* file name stem for CSV: "p2p-ce-uni" */
    int lower_is_better;
    int samples; /* samples per cell (largest seen) */
    /* A heatmap's colour scale: NAN = the matrix's own range; set to the whole family's
       range so that every heatmap of one kind shares one scale (ls_matrix_family_scale). */
    double scale_lo, scale_hi;
    /* The figure's ceiling (the link class's peak), said in the heatmap's legend; NAN:
       none known. Hook: analyze's ceilings (issue 11) set it where the report has them. */
    double ceiling;
} ls_matrix_t;

/* An empty matrix: every value NaN; n_fixed > 0 gives rows and columns for GPUs
   0..n_fixed-1 (else rows are added as entries name GPUs, sorted). */
void ls_matrix_init(ls_matrix_t *m, int n_fixed);
/* The row of GPU gpu, added when the matrix is not fixed; -1 when there is none. Add
   every GPU before the first ls_matrix_put: adding one moves the rows after it. */
int ls_matrix_slot(ls_matrix_t *m, int gpu);
/* Writes entry e into the cell (src, dst), and into (dst, src) as well when both and no
   entry of its own fills that cell (p2pBandwidthLatencyTest prints both cells of a
   bidirectional pair, two timings): the median, its spread, ok or failed, the no_p2p
   flag, the sample count. */
void ls_matrix_put(ls_matrix_t *m, const json_t *e, int both);

/* Selects entries of a pair family (model/families.h): method; direction ("uni",
   "bidir") for a family with directions (p2p), NULL for one without (latency);
   through_host then selects entries with or without the "through_host" flag. Bidirectional entries
   fill both (a,b) and (b,a). Entries to or from the host are left out. Returns the number of cells
   filled (0: nothing to show). */
int ls_matrix_from_doc(const json_t *doc, const ls_fam_t *fam, const char *method,
                       const char *direction, int through_host, ls_matrix_t *m);

/* Every matrix of the report: one per (family, direction, method, read or write,
   source, through host, and the tool's own matrix title for an import) of the
   document's ok entries of every family shown as matrices (LS_SHOW_MATRIX: p2p,
   latency), in the order their first entries were taken, over GPUs 0..ngpus-1. Returns the count;
   *out is an array the caller frees. */
int ls_doc_matrices(const json_t *doc, ls_matrix_t **out);

/* The matrix as a command's terminal table (fixed columns); color = 1 for a heatmap (ANSI
   256-colour backgrounds). A value of a pair without peer access is marked '*' and
   explained under the matrix. Caller frees. */
char *ls_matrix_text(const ls_matrix_t *m, int color);

/* CSV: first row "GPU(row) -> GPU(column)",<column GPUs>; one row per source GPU;
   empty cells for no value, "failed" for a failed entry. Caller frees. */
char *ls_matrix_csv(const ls_matrix_t *m);
/* Writes DIR/NAME.csv atomically. 0, or -1 with err. */
int ls_matrix_write_csv(const ls_matrix_t *m, const char *dir, char *err, size_t errlen);

/* The report's table of a matrix: "row->col", then GPU<i> per column; "-" for nothing. */
ls_table_t *ls_matrix_table(const ls_matrix_t *m);

/* Whether two matrices show the same kind of figure (their titles' words before
   "GPU(row) -> GPU(column)"): one pair table, one colour scale. */
int ls_matrix_same_kind(const ls_matrix_t *a, const ls_matrix_t *b);
/* Gives every matrix of mats the colour range of all matrices of its kind. */
void ls_matrix_family_scale(ls_matrix_t *mats, int n);

/* Up to this many GPUs a report shows pair tables, not a matrix per method. */
enum { LS_PAIR_TABLE_MAX_GPUS = 4 };
/* One table per kind of matrix (P2P one direction, both directions, latency...): a row
   per GPU pair, a column per method (pair_tables.c). Writes up to max tables into out,
   returns how many; the caller frees each. */
int ls_pair_tables(const ls_matrix_t *mats, int n, ls_table_t **out, int max);

/* ANSI background colour escape for a cell whose goodness is frac in [0,1]
   (1 = best in the matrix): red through yellow to green. */
const char *ls_heat_escape(double frac);

/* Whether to colour stdout: a terminal and NO_COLOR unset. */
int ls_use_color(FILE *f);

/* The P2P path table: pair, link type (document links[] when present), one
   direction each way, both directions, latency by both definitions, ratio of the
   pair's one-direction bandwidth to the fastest link class's. Nothing printed (0)
   when the document has no P2P entries; else the number of rows. */
int ls_p2p_path_table(FILE *f, const json_t *doc);

#endif
