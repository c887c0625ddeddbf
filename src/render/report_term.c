/* The terminal report: plain text tables, no colour (the same bytes on a terminal, in a
   pipe or in a file). */
#include "burn_render.h"
#include "render.h"
#include "table.h"
#include "model/doc.h"

#include <stdlib.h>
#include <string.h>

/* Display width of UTF-8 text (code points). */
static int width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void pad(ls_buf_t *b, const char *s, int w, int right)
{
    int n = w - width(s);
    if (right)
        for (int i = 0; i < n; i++)
            ls_buf_puts(b, " ");
    ls_buf_puts(b, s);
    if (!right)
        for (int i = 0; i < n; i++)
            ls_buf_puts(b, " ");
}

/* Numbers (and "-") are right-aligned. */
static int numeric(const char *s)
{
    if (!strcmp(s, "-"))
        return 1;
    char *end;
    strtod(s, &end);
    return end != s && *end == '\0';
}

static void ls_term_table(ls_buf_t *b, const ls_table_t *t)
{
    int w[128] = {0}, right[128];
    for (int c = 0; c < t->ncols && c < 128; c++)
        right[c] = 1;
    for (int r = 0; r <= t->nrows; r++)
        for (int c = 0; c < t->ncols && c < 128; c++) {
            if (width(ls_table_cell(t, r, c)) > w[c])
                w[c] = width(ls_table_cell(t, r, c));
            if (r > 0 && !numeric(ls_table_cell(t, r, c)))
                right[c] = 0; /* a column of numbers is right-aligned */
        }
    ls_buf_printf(b, "%s\n", t->title);
    if (!t->nrows) {
        ls_buf_puts(b, "  (none)\n\n");
        return;
    }
    for (int r = 0; r <= t->nrows; r++) {
        ls_buf_puts(b, " ");
        for (int c = 0; c < t->ncols && c < 128; c++) {
            ls_buf_puts(b, " ");
            const char *cell = ls_table_cell(t, r, c);
            if (c == t->ncols - 1 && !right[c])
                ls_buf_puts(b, cell); /* no trailing blanks */
            else
                pad(b, cell, w[c], r > 0 && right[c]);
        }
        ls_buf_puts(b, "\n");
        if (r == 0) {
            ls_buf_puts(b, " ");
            for (int c = 0; c < t->ncols && c < 128; c++) {
                ls_buf_puts(b, " ");
                for (int i = 0; i < w[c]; i++)
                    ls_buf_puts(b, "-");
            }
            ls_buf_puts(b, "\n");
        }
    }
    ls_buf_puts(b, "\n");
}

static void emit(ls_buf_t *b, ls_table_t *t)
{
    if (t)
        ls_term_table(b, t);
    ls_table_free(t);
}

static void heading(ls_buf_t *b, const char *text)
{
    ls_buf_printf(b, "== %s ", text);
    for (int i = width(text) + 4; i < 88; i++)
        ls_buf_puts(b, "=");
    ls_buf_puts(b, "\n\n");
}

char *ls_report_term(const json_t *doc, const json_t *findings, const json_t *plan)
{
    ls_buf_t b = {0};
    ls_buf_printf(&b, "linkscope report: %s, %s\n\n", ls_json_str(json_object_get(doc, "host"), "hostname", "?"),
                  ls_json_str(doc, "created", "?"));
    emit(&b, ls_table_host_summary(doc));
    char *head = ls_render_headline(doc);
    ls_buf_puts(&b, head);
    ls_buf_puts(&b, "\n");
    free(head);
    heading(&b, "Findings and plan");
    char *plan_text = ls_render_plan_text(findings, plan);
    ls_buf_puts(&b, plan_text);
    ls_buf_puts(&b, "\n");
    free(plan_text);
    heading(&b, "Topology");
    emit(&b, ls_table_topology(doc));
    heading(&b, "Matrices");
    ls_matrix_t *mats;
    int n = ls_doc_matrices(doc, &mats);
    for (int k = 0; k < n; k++)
        emit(&b, ls_matrix_table(&mats[k]));
    if (!n)
        ls_buf_puts(&b, "  (no P2P or latency measurements)\n\n");
    free(mats);
    heading(&b, "Memory and host copies");
    emit(&b, ls_table_hbm(doc));
    emit(&b, ls_table_host_copies(doc));
    heading(&b, "Collectives");
    emit(&b, ls_table_collectives(doc));
    if (ls_burn_count(doc)) {
        heading(&b, "Sustained load");
        ls_burn_section_text(&b, doc);
    }
    heading(&b, "Inventory");
    emit(&b, ls_table_inventory(doc));
    return ls_buf_take(&b);
}
