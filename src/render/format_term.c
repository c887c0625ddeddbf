/* The terminal format: plain text tables, no colour (the same bytes on a terminal, in a
   pipe or in a file). */
#include "format.h"
#include "model/doc.h"

#include <stdlib.h>
#include <string.h>

static void pad(ls_buf_t *b, const char *s, int w, int right)
{
    int n = w - ls_text_width(s);
    if (right)
        for (int i = 0; i < n; i++)
            ls_buf_puts(b, " ");
    ls_buf_puts(b, s);
    if (!right)
        for (int i = 0; i < n; i++)
            ls_buf_puts(b, " ");
}

static void rule(ls_buf_t *b, const int *w, int ncols)
{
    ls_buf_puts(b, " ");
    for (int c = 0; c < ncols; c++) {
        ls_buf_puts(b, " ");
        for (int i = 0; i < w[c]; i++)
            ls_buf_puts(b, "-");
    }
    ls_buf_puts(b, "\n");
}

static void table(ls_out_t *o, const ls_table_t *t, int flags)
{
    (void)flags;
    ls_buf_t *b = &o->b;
    int w[128] = {0}, right[128], ncols = t->ncols < 128 ? t->ncols : 128;
    for (int c = 0; c < ncols; c++)
        right[c] = 1;
    for (int r = 0; r <= t->nrows; r++)
        for (int c = 0; c < ncols; c++) {
            if (ls_text_width(ls_table_cell(t, r, c)) > w[c])
                w[c] = ls_text_width(ls_table_cell(t, r, c));
            if (r > 0 && !ls_cell_numeric(ls_table_cell(t, r, c)))
                right[c] = 0; /* a column of numbers is right-aligned */
        }
    ls_buf_printf(b, "%s\n", t->title);
    if (!t->nrows) {
        ls_buf_puts(b, "  (none)\n\n");
        return;
    }
    for (int r = 0; r <= t->nrows; r++) {
        ls_buf_puts(b, " ");
        for (int c = 0; c < ncols; c++) {
            ls_buf_puts(b, " ");
            const char *cell = ls_table_cell(t, r, c);
            if (c == t->ncols - 1 && !right[c])
                ls_buf_puts(b, cell); /* no trailing blanks */
            else
                pad(b, cell, w[c], r > 0 && right[c]);
        }
        ls_buf_puts(b, "\n");
        if (r == 0)
            rule(b, w, ncols);
    }
    ls_buf_puts(b, "\n");
}

static void begin(ls_out_t *o)
{
    ls_buf_printf(&o->b, "linkscope report: %s, %s\n\n", ls_json_str(json_object_get(o->doc, "host"), "hostname", "?"),
                  ls_json_str(o->doc, "created", "?"));
}

static void heading(ls_out_t *o, const ls_section_t *s)
{
    if (s->flags & LS_SEC_PREAMBLE)
        return;
    const char *text = ls_section_short_title(o->fmt, s);
    ls_buf_printf(&o->b, "== %s ", text);
    for (int i = ls_text_width(text) + 4; i < 88; i++)
        ls_buf_puts(&o->b, "=");
    ls_buf_puts(&o->b, "\n\n");
}

static void list(ls_out_t *o, const json_t *strings)
{
    ls_format_items(&o->b, strings, "  * ", "\n", ls_buf_puts);
    ls_buf_puts(&o->b, "\n");
}

/* "No P2P measurements." reads "  (no P2P measurements)". */
static void note(ls_out_t *o, const char *sentence)
{
    size_t n = strlen(sentence);
    if (!n)
        return;
    if (sentence[n - 1] == '.')
        n--;
    char first = sentence[0] >= 'A' && sentence[0] <= 'Z' ? (char)(sentence[0] - 'A' + 'a') : sentence[0];
    ls_buf_printf(&o->b, "  (%c%.*s)\n\n", first, (int)n - 1, sentence + 1);
}

static void text(ls_out_t *o, const char *s)
{
    ls_buf_puts(&o->b, s);
    ls_buf_puts(&o->b, "\n");
}

/* No pictures in plain text (the tables say it), no section end. */
const ls_format_t ls_format_term = {"term", NULL, LS_FMT_PROSE, begin, heading, NULL, table, list, NULL, note, text, NULL};
