/* Tables drawn from a run document: the one model every output format prints
   (terminal, Markdown, HTML, CSV), so the formats never disagree. Matrices: matrix.h. */
#ifndef LS_RENDER_TABLE_H
#define LS_RENDER_TABLE_H

#include <jansson.h>

#include "model/topo.h"
#include "model/families.h"
#include "strbuf.h"

/* A fixed column (nvidia-smi's layout): width in bytes, left or right aligned, longer
   text cut to the width or not, and pad blanks before it beyond the one that separates
   two columns (before the first column, the only ones). */
typedef struct {
    int width, left, cut, pad;
} ls_column_t;

typedef struct {
    char *title; /* says the unit and what was counted */
    int ncols, nrows;
    char **cells;      /* (nrows + 1) x ncols, row 0 is the header */
    ls_column_t *cols; /* fixed columns for ls_format_columns; NULL: none */
    char *drop;        /* headers a narrow terminal leaves out first, ',' between them,
                          least important first; NULL: from the right (ls_table_drop) */
} ls_table_t;

ls_table_t *ls_table_new(const char *title, int ncols, const char *const *header);
/* Appends a row of ncols strings (copied; NULL is written as ""). */
void ls_table_row(ls_table_t *t, const char *const *cells);
const char *ls_table_cell(const ls_table_t *t, int row, int col); /* row 0 = header */
void ls_table_free(ls_table_t *t);
/* The columns a terminal too narrow for the table leaves out first, by header text
   ("bytes,nranks"), least important first; then the others from the right, never the
   first column or "status" (format_term.c). */
void ls_table_drop(ls_table_t *t, const char *headers);
/* Gives the table fixed columns (ncols of them, copied). */
void ls_table_columns(ls_table_t *t, const ls_column_t *cols);

/* Number of GPUs (highest index + 1). */
int ls_doc_ngpus(const json_t *doc);

/* Tables of the report, each built from the document (or the analysis). */
ls_table_t *ls_table_host_summary(const json_t *doc);
ls_table_t *ls_table_inventory(const json_t *doc); /* boards and clocks */
ls_table_t *ls_table_topology(const json_t *doc);  /* link words, GPU(row) -> GPU(column) */
/* The ordered GPU pairs whose P2P read or write is not OK, with both statuses. */
ls_table_t *ls_table_p2p_status(const json_t *doc);
/* The measurement tables end in a status column (ok, failed, timeout, skipped, noisy,
   wrong) and show figures as % of their hardware ceiling, from the plan (status.h). */
ls_table_t *ls_table_p2p_paths(const json_t *doc,
                               const json_t *plan); /* one row per ordered pair */
ls_table_t *ls_table_hbm(const json_t *doc, const json_t *plan);
ls_table_t *ls_table_host_copies(const json_t *doc, const json_t *plan); /* NULL when none */
ls_table_t *ls_table_collectives(const json_t *doc,
                                 const json_t *plan); /* one row per size of each entry */
ls_table_t *ls_table_nics(const json_t *doc);         /* NULL when the document has no NIC */
ls_table_t *ls_table_findings(const json_t *findings);
ls_table_t *ls_table_headline(const json_t *doc,
                              const json_t *plan); /* headline.c: one row per kind of figure */
ls_table_t *ls_table_islands(const json_t *plan);
ls_table_t *ls_table_groups(const json_t *plan);
ls_table_t *ls_table_measured_groups(const json_t *plan);
ls_table_t *ls_table_pairs(const json_t *plan);
ls_table_t *ls_table_best_hbm(const json_t *plan);
ls_table_t *ls_table_keep_out(const json_t *plan);

/* How the P2P paths table writes its cells: a figure (rounded for people, at full
   precision for CSV), a figure as % of its entry's ceiling, a word of the document's
   link a -> b (key "type", "class", "p2p_read" or "p2p_write"; l NULL when none). */
typedef struct {
    void (*figure)(double v, char *buf, size_t len);
    void (*peak)(const json_t *plan, const json_t *entry, double value, char *buf, size_t len);
    const char *(*link_word)(const json_t *l, const char *key);
} ls_path_cells_t;

/* One row per ordered pair of GPUs: link type and class, P2P read and write, the best
   one-direction figure, its % of peak and entry, bidirectional, lowest latency, status;
   the columns of ls_table_p2p_paths and of the CSV export p2p_paths. */
ls_table_t *ls_paths_table(const json_t *doc, const json_t *plan, const char *title,
                           const ls_path_cells_t *how);

/* The link entry of the document from GPU a to GPU b; NULL when none. */
const json_t *ls_doc_link(const json_t *doc, int a, int b);

/* A GPU x GPU table: header "row->col", GPU<index[c]>...; row r starts GPU<index[r]>,
   then cell(r, c) for each column, written into a buffer of len bytes. */
ls_table_t *ls_gpu_grid_table(const char *title, int n, const int *index,
                              void (*cell)(const void *arg, int r, int c, char *buf, size_t len),
                              const void *arg);

/* The best ok figure of family for the ordered pair a -> b (highest bandwidth, lowest
   latency; "bidir" also matches b -> a); its entry id into *label when label. NAN: none. */
double ls_doc_pair_value(const json_t *doc, const ls_fam_t *fam, const char *direction, int a,
                         int b, const char **label);

/* "0,1,2" for a JSON array of GPU indices. */
void ls_buf_gpus(ls_buf_t *b, const json_t *gpus);

#endif
