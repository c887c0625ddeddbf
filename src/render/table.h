/* Tables and matrices drawn from a run document: the one model every report format
   prints (terminal, Markdown, HTML, CSV), so the formats never disagree. */
#ifndef LS_RENDER_TABLE_H
#define LS_RENDER_TABLE_H

#include <jansson.h>

#include "model/topo.h"
#include "strbuf.h"

typedef struct {
    char *title;  /* says the unit and what was counted */
    int ncols, nrows;
    char **cells; /* (nrows + 1) x ncols, row 0 is the header */
} ls_table_t;

ls_table_t *ls_table_new(const char *title, int ncols, const char *const *header);
/* Appends a row of ncols strings (copied; NULL is written as ""). */
void ls_table_row(ls_table_t *t, const char *const *cells);
const char *ls_table_cell(const ls_table_t *t, int row, int col); /* row 0 = header */
void ls_table_free(ls_table_t *t);

/* One GPU x GPU matrix of a measurement kind (family, direction, method, source). */
typedef struct {
    char title[320];
    char unit[16];
    int higher_better;
    int n;
    double v[LS_MAX_GPUS][LS_MAX_GPUS]; /* NaN where nothing was measured */
    unsigned char direct[LS_MAX_GPUS][LS_MAX_GPUS]; /* set by a figure of its own */
} ls_matrix_t;

/* Every matrix the document holds, in the order their first entries were taken.
   Returns the count; *out is an array the caller frees. */
int ls_doc_matrices(const json_t *doc, ls_matrix_t **out);
ls_table_t *ls_matrix_table(const ls_matrix_t *m);

/* Number of GPUs (highest index + 1). */
int ls_doc_ngpus(const json_t *doc);

/* Tables of the report, each built from the document (or the analysis). */
ls_table_t *ls_table_host_summary(const json_t *doc);
ls_table_t *ls_table_inventory(const json_t *doc);   /* boards and clocks */
ls_table_t *ls_table_topology(const json_t *doc);    /* link words, GPU(row) -> GPU(column) */
ls_table_t *ls_table_p2p_paths(const json_t *doc);   /* one row per ordered pair */
ls_table_t *ls_table_hbm(const json_t *doc);
ls_table_t *ls_table_host_copies(const json_t *doc); /* NULL when none */
ls_table_t *ls_table_collectives(const json_t *doc); /* one row per size of each entry */
ls_table_t *ls_table_findings(const json_t *findings);
ls_table_t *ls_table_islands(const json_t *plan);
ls_table_t *ls_table_groups(const json_t *plan);
ls_table_t *ls_table_measured_groups(const json_t *plan);
ls_table_t *ls_table_pairs(const json_t *plan);
ls_table_t *ls_table_best_hbm(const json_t *plan);
ls_table_t *ls_table_keep_out(const json_t *plan);

/* "0,1,2" for a JSON array of GPU indices. */
void ls_buf_gpus(ls_buf_t *b, const json_t *gpus);

#endif
