/* The Markdown format: GitHub-flavoured tables under one heading per section. */
#include "format.h"
#include "model/doc.h"

#include <stdlib.h>
#include <string.h>

static void table(ls_out_t *o, const ls_table_t *t, int flags)
{
    ls_buf_t *b = &o->b;
    if (t->title[0]) { /* an untitled table (a command's) shows its header even when empty */
        ls_buf_puts(b, "**");
        ls_buf_md(b, t->title);
        ls_buf_puts(b, "**\n\n");
    }
    if (!t->nrows && t->title[0]) {
        ls_buf_puts(b, "(none)\n\n");
        return;
    }
    for (int r = 0; r <= t->nrows; r++) {
        ls_buf_puts(b, "|");
        for (int c = 0; c < t->ncols; c++) {
            ls_buf_puts(b, " ");
            if (r > 0 && c == t->ncols - 1 && (flags & LS_TABLE_EVIDENCE_LAST)) {
                char *capped = ls_evidence_capped(ls_table_cell(t, r, c), 3);
                ls_buf_md(b, capped);
                free(capped);
            } else {
                ls_buf_md(b, ls_table_cell(t, r, c));
            }
            ls_buf_puts(b, " |");
        }
        ls_buf_puts(b, "\n");
        if (r == 0) {
            ls_buf_puts(b, "|");
            for (int c = 0; c < t->ncols; c++) /* fixed columns say which are right-aligned */
                ls_buf_puts(b, t->cols && !t->cols[c].left ? " ---: |" : " --- |");
            ls_buf_puts(b, "\n");
        }
    }
    ls_buf_puts(b, "\n");
}

static void begin(ls_out_t *o)
{
    ls_buf_puts(&o->b, "# linkscope report: ");
    ls_buf_md(&o->b, ls_json_str(json_object_get(o->doc, "host"), "hostname", "host unknown"));
    ls_buf_puts(&o->b, ", ");
    ls_buf_md(&o->b, ls_json_str(o->doc, "created", "unknown"));
    ls_buf_puts(&o->b, "\n\n");
}

static void heading(ls_out_t *o, const ls_section_t *s)
{
    if (s->flags & LS_SEC_PREAMBLE)
        return;
    ls_buf_puts(&o->b, "## ");
    ls_buf_md(&o->b, ls_section_short_title(o->fmt, s));
    ls_buf_puts(&o->b, "\n\n");
}

static void list(ls_out_t *o, const json_t *strings)
{
    ls_format_items(&o->b, strings, "- ", "\n", ls_buf_md);
    ls_buf_puts(&o->b, "\n");
}

static void verdict(ls_out_t *o, const char *line, int worst)
{
    ls_buf_puts(&o->b, worst == 2   ? "**:x: "
                       : worst == 1 ? "**:warning: "
                                    : "**:white_check_mark: ");
    ls_buf_md(&o->b, line);
    ls_buf_puts(&o->b, "**\n\n");
}

static void text(ls_out_t *o, const char *s)
{
    ls_buf_puts(&o->b, "```\n");
    ls_buf_puts(&o->b, s);
    ls_buf_puts(&o->b, "```\n\n");
}

/* No inline pictures (the tables say it); an empty section stays empty under its heading. */
const ls_format_t ls_format_md = {
    .name = "md",
    .ext = ".md",
    .begin = begin,
    .heading = heading,
    .table = table,
    .list = list,
    .text = text,
    .verdict = verdict,
    .help = "Markdown",
};
