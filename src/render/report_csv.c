/* CSV exports: boards and clocks, P2P paths, collective results (RFC 4180 quoting,
   one header row, LF line ends). */
#include "render.h"
#include "table.h"

#include <string.h>

const char *const ls_csv_names[3] = {"boards_clocks", "p2p_paths", "collectives"};

char *ls_report_csv(const json_t *doc, const char *name)
{
    ls_table_t *t = !strcmp(name, "boards_clocks") ? ls_table_inventory(doc)
                    : !strcmp(name, "p2p_paths")   ? ls_table_p2p_paths(doc)
                    : !strcmp(name, "collectives") ? ls_table_collectives(doc)
                                                   : NULL;
    if (!t)
        return NULL;
    ls_buf_t b = {0};
    for (int r = 0; r <= t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            if (c)
                ls_buf_puts(&b, ",");
            const char *cell = ls_table_cell(t, r, c);
            ls_buf_csv(&b, strcmp(cell, "-") ? cell : ""); /* not measured: empty field */
        }
        ls_buf_puts(&b, "\n");
    }
    ls_table_free(t);
    return ls_buf_take(&b);
}
