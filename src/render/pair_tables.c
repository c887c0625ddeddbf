/* Pair tables: for a machine of a few GPUs, one table per kind of matrix (P2P one
   direction, both directions, latency) with a row per GPU pair and a column per method,
   instead of a small heatmap per method. The matrices come from ls_doc_matrices; their
   titles read "KIND, GPU(row) -> GPU(column): METHOD (SOURCE)", so KIND groups them and
   METHOD (SOURCE) names the column. */
#include "matrix.h"
#include "strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char corner[] = ", GPU(row) -> GPU(column): ";

/* Length of the kind part of a matrix title (before the corner words). */
static size_t kind_len(const ls_matrix_t *m)
{
    const char *c = strstr(m->title, corner);
    return c ? (size_t)(c - m->title) : strlen(m->title);
}

/* "METHOD (SOURCE)" of the title, shortened: linkscope's own figures need no source,
   ", through host memory" reads " via host". */
static void column_name(const ls_matrix_t *m, char *buf, size_t len)
{
    const char *c = strstr(m->title, corner), *name = c ? c + strlen(corner) : m->title;
    snprintf(buf, len, "%.95s", name);
    char *own = strstr(buf, " (linkscope)");
    if (own && !own[12])
        *own = '\0';
    char *host = strstr(buf, ", through host memory");
    if (host)
        memmove(host + 9, host + 21, strlen(host + 21) + 1), memcpy(host, " via host", 9);
}

int ls_matrix_same_kind(const ls_matrix_t *a, const ls_matrix_t *b)
{
    return kind_len(a) == kind_len(b) && !strncmp(a->title, b->title, kind_len(a));
}

void ls_matrix_family_scale(ls_matrix_t *mats, int n)
{
    for (int k = 0; k < n; k++) {
        double lo = INFINITY, hi = -INFINITY;
        for (int j = 0; j < n; j++) {
            if (!ls_matrix_same_kind(&mats[k], &mats[j]))
                continue;
            for (int r = 0; r < mats[j].n; r++)
                for (int c = 0; c < mats[j].n; c++)
                    if (r != c && isfinite(mats[j].v[r][c]))
                        lo = fmin(lo, mats[j].v[r][c]), hi = fmax(hi, mats[j].v[r][c]);
        }
        mats[k].scale_lo = isfinite(lo) ? lo : NAN;
        mats[k].scale_hi = isfinite(hi) ? hi : NAN;
    }
}

static void value(const ls_matrix_t *m, int r, int c, char *buf, size_t len)
{
    if (r >= m->n || c >= m->n || m->cell[r][c] == LS_CELL_EMPTY)
        snprintf(buf, len, "-");
    else if (m->cell[r][c] == LS_CELL_FAILED)
        snprintf(buf, len, "failed");
    else
        ls_fmt_num(m->v[r][c], buf, len);
}

/* The table of the matrices mats[first..] of first's kind; *used says which were taken. */
static ls_table_t *kind_table(const ls_matrix_t *mats, int n, int first, int *used)
{
    int cols[64] = {first}, nc = 0;
    for (int k = first; k < n && nc < 64; k++)
        if (!used[k] && ls_matrix_same_kind(&mats[first], &mats[k]))
            cols[nc++] = k, used[k] = 1;
    const ls_matrix_t *m0 = &mats[cols[0]];
    int bidir = strstr(m0->title, "both directions") != NULL;
    const char *header[65];
    char names[64][96];
    header[0] = bidir ? "GPU pair" : "src -> dst";
    for (int i = 0; i < nc; i++) {
        column_name(&mats[cols[i]], names[i], sizeof names[i]);
        header[i + 1] = names[i];
    }
    char title[256];
    snprintf(title, sizeof title, "%.*s, per GPU pair", (int)kind_len(m0), m0->title);
    ls_table_t *t = ls_table_new(title, nc + 1, header);
    for (int r = 0; r < m0->n; r++)
        for (int c = 0; c < m0->n; c++) {
            if (r == c || (bidir && c < r))
                continue;
            char cells[65][32], pair[48];
            const char *row[65];
            int any = 0;
            snprintf(pair, sizeof pair, bidir ? "GPU%d <-> GPU%d" : "GPU%d -> GPU%d", m0->index[r],
                     m0->index[c]);
            row[0] = pair;
            for (int i = 0; i < nc; i++) {
                value(&mats[cols[i]], r, c, cells[i], sizeof cells[i]);
                any |= strcmp(cells[i], "-") != 0;
                row[i + 1] = cells[i];
            }
            if (any)
                ls_table_row(t, row);
        }
    return t;
}

int ls_pair_tables(const ls_matrix_t *mats, int n, ls_table_t **out, int max)
{
    int *used = calloc((size_t)n + 1, sizeof *used), count = 0;
    if (!used)
        abort();
    for (int k = 0; k < n && count < max; k++)
        if (!used[k])
            out[count++] = kind_table(mats, n, k, used);
    free(used);
    return count;
}
