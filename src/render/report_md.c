/* The Markdown report: GitHub-flavoured tables under one heading per section. */
#include "render.h"
#include "table.h"
#include "model/doc.h"

#include <stdlib.h>
#include <string.h>

static void md_table(ls_buf_t *b, ls_table_t *t)
{
    if (!t)
        return;
    ls_buf_puts(b, "**");
    ls_buf_md(b, t->title);
    ls_buf_puts(b, "**\n\n");
    if (!t->nrows) {
        ls_buf_puts(b, "(none)\n\n");
        ls_table_free(t);
        return;
    }
    for (int r = 0; r <= t->nrows; r++) {
        ls_buf_puts(b, "|");
        for (int c = 0; c < t->ncols; c++) {
            ls_buf_puts(b, " ");
            ls_buf_md(b, ls_table_cell(t, r, c));
            ls_buf_puts(b, " |");
        }
        ls_buf_puts(b, "\n");
        if (r == 0) {
            ls_buf_puts(b, "|");
            for (int c = 0; c < t->ncols; c++)
                ls_buf_puts(b, " --- |");
            ls_buf_puts(b, "\n");
        }
    }
    ls_buf_puts(b, "\n");
    ls_table_free(t);
}

char *ls_report_md(const json_t *doc, const json_t *findings, const json_t *plan)
{
    ls_buf_t b = {0};
    ls_buf_puts(&b, "# linkscope report: ");
    ls_buf_md(&b, ls_json_str(json_object_get(doc, "host"), "hostname", "?"));
    ls_buf_puts(&b, ", ");
    ls_buf_md(&b, ls_json_str(doc, "created", "?"));
    ls_buf_puts(&b, "\n\n");
    md_table(&b, ls_table_host_summary(doc));
    ls_buf_puts(&b, "## Findings\n\n");
    md_table(&b, ls_table_findings(findings));
    ls_buf_puts(&b, "## Plan\n\n");
    size_t i;
    const json_t *s;
    json_array_foreach(json_object_get(plan, "summary"), i, s)
    {
        ls_buf_puts(&b, "- ");
        ls_buf_md(&b, json_string_value(s));
        ls_buf_puts(&b, "\n");
    }
    ls_buf_puts(&b, "\n");
    md_table(&b, ls_table_islands(plan));
    md_table(&b, ls_table_groups(plan));
    md_table(&b, ls_table_measured_groups(plan));
    md_table(&b, ls_table_pairs(plan));
    md_table(&b, ls_table_best_hbm(plan));
    md_table(&b, ls_table_keep_out(plan));
    ls_buf_puts(&b, "## Topology\n\n");
    md_table(&b, ls_table_topology(doc));
    ls_buf_puts(&b, "## Matrices\n\n");
    ls_matrix_t *mats;
    int n = ls_doc_matrices(doc, &mats);
    for (int k = 0; k < n; k++)
        md_table(&b, ls_matrix_table(&mats[k]));
    free(mats);
    ls_buf_puts(&b, "## Memory and host copies\n\n");
    md_table(&b, ls_table_hbm(doc));
    md_table(&b, ls_table_host_copies(doc));
    ls_buf_puts(&b, "## Collectives\n\n");
    md_table(&b, ls_table_collectives(doc));
    ls_buf_puts(&b, "## Inventory\n\n");
    md_table(&b, ls_table_inventory(doc));
    return ls_buf_take(&b);
}
