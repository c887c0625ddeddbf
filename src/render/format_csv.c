/* The CSV format: a table as RFC 4180 rows (one header row, LF line ends; "-", not
   measured, is an empty field). A report in CSV is three exports, each one table:
   boards and clocks, P2P paths, collective results. */
#include "format.h"
#include "render.h"

#include <string.h>

const char *const ls_csv_names[LS_CSV_COUNT] = {"boards_clocks", "p2p_paths",   "collectives",
                                                "hbm",           "host_copies", "latency"};

static void table(ls_out_t *o, const ls_table_t *t, int flags)
{
    (void)flags;
    for (int r = 0; r <= t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            if (c)
                ls_buf_puts(&o->b, ",");
            const char *cell = ls_table_cell(t, r, c);
            ls_buf_csv(&o->b, strcmp(cell, "-") ? cell : ""); /* not measured: empty field */
        }
        ls_buf_puts(&o->b, "\n");
    }
}

/* Rows only: a CSV file has no place for headings, lists, pictures or prose. */
const ls_format_t ls_format_csv = {
    .name = "csv",
    .ext = ".csv",
    .table = table,
    .help = "boards_clocks.csv, p2p_paths.csv, collectives.csv, hbm.csv,\n"
            "host_copies.csv, latency.csv into DIR (created if missing),\n"
            "or all six to stdout or to one\n"
            "FILE.csv, each after a '# NAME.csv' line",
};
