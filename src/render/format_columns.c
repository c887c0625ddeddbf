/* The fixed-columns format, as nvidia-smi prints its tables: the title line, then the
   header and every row with each cell padded (or cut) to its column's width and the
   columns joined by one space. A table without fixed columns (ls_table_columns) is
   written at its widest cell, left-aligned. LS_TABLE_NO_HEADER leaves the header row
   out. Tables only: a command's own output. */
#include "format.h"

#include <stdlib.h>
#include <string.h>

void ls_columns_print(FILE *f, ls_table_t *t, const ls_column_t *cols, int flags)
{
    ls_buf_t b = {0};
    ls_columns_put(&b, t, cols, flags);
    char *text = ls_buf_take(&b);
    fputs(text, f);
    free(text);
}

void ls_columns_put(ls_buf_t *b, ls_table_t *t, const ls_column_t *cols, int flags)
{
    ls_table_columns(t, cols);
    ls_format_table_to(b, &ls_format_columns, t, flags);
    ls_table_free(t);
}

static void table(ls_out_t *o, const ls_table_t *t, int flags)
{
    if (t->title[0])
        ls_buf_printf(&o->b, "%s\n", t->title);
    for (int r = (flags & LS_TABLE_NO_HEADER) != 0; r <= t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            const char *cell = ls_table_cell(t, r, c);
            ls_column_t col = t->cols ? t->cols[c] : (ls_column_t){(int)strlen(cell), 1, 0, 0};
            int cut = col.cut ? col.width : (int)strlen(cell);
            ls_buf_printf(&o->b, col.left ? "%*s%-*.*s" : "%*s%*.*s", (c > 0) + col.pad, "",
                          col.width, cut, cell);
        }
        ls_buf_puts(&o->b, "\n");
    }
}

const ls_format_t ls_format_columns = {
    .name = "columns",
    .table = table,
};
