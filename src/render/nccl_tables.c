/* nccl-tests' tables (nccl_tables.h): the comment lines as nccl-tests writes them, the
   rows through the fixed-columns format (ls_format_columns), in nccl-tests' widths. */
#include "nccl_tables.h"
#include "format.h"
#include "model/doc.h"
#include "model/translog.h"

#include <stdlib.h>
#include <string.h>

/* size, count, type, redop, root, then time algbw busbw #wrong out-of-place and in-place */
static const ls_column_t sweep_cols[] = {{12, 0, 0, 0}, {12, 0, 0, 1}, {8, 0, 0, 1}, {6, 0, 0, 1},
                                         {6, 0, 0, 1},  {7, 0, 0, 1},  {6, 0, 0, 0}, {6, 0, 0, 0},
                                         {6, 0, 0, 0},  {7, 0, 0, 1},  {6, 0, 0, 0}, {6, 0, 0, 0},
                                         {6, 0, 0, 0}};

static void format_time(char *buf, size_t len, double us)
{
    snprintf(buf, len, us < 10000.0 ? "%.2f" : us < 100000.0 ? "%.1f" : "%.0f", us);
}

/* time, algbw, busbw, #wrong of one mode; "-" each when the mode was not run. */
static void half_cells(const json_t *c, char cells[4][32])
{
    if (!c) {
        for (int k = 0; k < 4; k++)
            strcpy(cells[k], "-");
        return;
    }
    format_time(cells[0], 32, ls_json_num(c, "time_us", 0));
    snprintf(cells[1], 32, "%.2f", ls_json_num(c, "algbw", 0));
    snprintf(cells[2], 32, "%.2f", ls_json_num(c, "busbw", 0));
    const json_t *w = json_object_get(c, "wrong");
    if (json_is_integer(w))
        snprintf(cells[3], 32, "%lld", (long long)json_integer_value(w));
    else
        snprintf(cells[3], 32, "N/A");
}

double ls_nccl_avg_busbw(const json_t *entry)
{
    double sum = 0;
    int n = 0;
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(entry, "rows"), i, row) {
        const char *modes[] = {"oop", "ip"};
        for (int m = 0; m < 2; m++) {
            const json_t *c = json_object_get(row, modes[m]);
            if (c) {
                sum += ls_json_num(c, "busbw", 0);
                n++;
            }
        }
    }
    return n ? sum / n : 0.0;
}

static void put_lines(ls_buf_t *b, const char *title, const json_t *lines)
{
    size_t i;
    const json_t *l;
    if (json_array_size(lines) == 0)
        return;
    ls_buf_printf(b, "# %s\n", title);
    json_array_foreach(lines, i, l)
        ls_buf_printf(b, "#   %s\n", json_string_value(l));
}

static void put_header(ls_buf_t *b, const json_t *entry)
{
    const json_t *gpus = json_object_get(entry, "gpus");
    ls_buf_printf(b, "# linkscope nccl %s: %lld ranks (%s), GPUs",
                  ls_json_str(entry, "collective", "?"), ls_json_int(entry, "nranks", 0),
                  ls_json_str(entry, "mode", "?"));
    size_t i;
    const json_t *g;
    json_array_foreach(gpus, i, g)
        ls_buf_printf(b, "%s%lld", i ? "," : " ", (long long)json_integer_value(g));
    ls_buf_printf(b, ", NCCL %s, setting %s\n", ls_json_str(entry, "nccl_version", "?"),
                  ls_json_str(entry, "variant", "default"));
    ls_buf_printf(b,
                  "# iters %lld warmup %lld check %d graph %lld blocking %d; time = host timer "
                  "over iters launches / iters; GB/s = 1e9 B/s\n",
                  ls_json_int(entry, "iters", 0), ls_json_int(entry, "warmup", 0),
                  json_is_true(json_object_get(entry, "check")),
                  ls_json_int(entry, "graph_launches", 0),
                  json_is_true(json_object_get(entry, "blocking")));
    ls_buf_printf(b, "#%77s%34s\n", "out-of-place", "in-place");
}

/* The two header lines and one row per size, in fixed columns. */
static void put_rows(ls_buf_t *b, const json_t *entry)
{
    static const char *const names[] = {"size",  "count", "type",  "redop",  "root",
                                        "time",  "algbw", "busbw", "#wrong", "time",
                                        "algbw", "busbw", "#wrong"};
    static const char *const units[] = {"(B)",    "(elements)", "",       "", "",
                                        "(us)",   "(GB/s)",     "(GB/s)", "", "(us)",
                                        "(GB/s)", "(GB/s)",     ""};
    char first[2][16];
    snprintf(first[0], sizeof first[0], "#%11s", names[0]); /* nccl-tests' comment mark */
    snprintf(first[1], sizeof first[1], "#%11s", units[0]);
    const char *header[13], *unit_row[13];
    for (int c = 0; c < 13; c++)
        header[c] = c ? names[c] : first[0], unit_row[c] = c ? units[c] : first[1];
    ls_table_t *t = ls_table_new("", 13, header);
    ls_table_row(t, unit_row);
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(entry, "rows"), i, row) {
        char n[5][32], h[2][4][32];
        snprintf(n[0], 32, "%lld", ls_json_int(row, "bytes", 0));
        snprintf(n[1], 32, "%lld", ls_json_int(row, "count", 0));
        snprintf(n[4], 32, "%lld", ls_json_int(entry, "root", -1));
        half_cells(json_object_get(row, "oop"), h[0]);
        half_cells(json_object_get(row, "ip"), h[1]);
        const char *cells[13] = {n[0],
                                 n[1],
                                 ls_json_str(entry, "dtype", "?"),
                                 ls_json_str(entry, "redop", "none"),
                                 n[4],
                                 h[0][0],
                                 h[0][1],
                                 h[0][2],
                                 h[0][3],
                                 h[1][0],
                                 h[1][1],
                                 h[1][2],
                                 h[1][3]};
        ls_table_row(t, cells);
    }
    ls_columns_put(b, t, sweep_cols, 0);
}

static void put_footer(ls_buf_t *b, const json_t *entry)
{
    put_lines(b, "Notes", json_object_get(entry, "notes"));
    if (strcmp(ls_json_str(entry, "status", "ok"), "ok") != 0)
        ls_buf_printf(b, "# Status: %s: %s\n", ls_json_str(entry, "status", "?"),
                      ls_json_str(entry, "error", ""));
    ls_buf_printf(b, "# Avg bus bandwidth    : %g GB/s (mean over all rows, as nccl-tests)\n",
                  ls_nccl_avg_busbw(entry));
    if (json_is_number(json_object_get(entry, "small_time_us")))
        ls_buf_printf(b, "# Small-message time   : %.2f us at %lld B\n",
                      ls_json_num(entry, "small_time_us", 0), ls_json_int(entry, "small_bytes", 0));
    json_t *lines = json_array();
    const json_t *tr = json_object_get(entry, "transports");
    ls_nccl_transport_summary(tr, lines);
    if (json_array_size(lines) == 0 && !json_is_true(json_object_get(entry, "debug_captured")))
        json_array_append_new(lines, json_string("not captured: NCCL_DEBUG or NCCL_DEBUG_FILE was "
                                                 "set by the user"));
    put_lines(b, "Transports (NCCL's log; sender's channels per GPU pair)", lines);
    json_array_clear(lines);
    ls_nccl_transport_findings(tr, lines);
    put_lines(b, "Findings", lines);
    json_decref(lines);
}

char *ls_nccl_table_text(const json_t *entry)
{
    ls_buf_t b = {0};
    put_header(&b, entry);
    put_rows(&b, entry);
    put_footer(&b, entry);
    return ls_buf_take(&b);
}

static const json_t *row_for(const json_t *entry, long long bytes)
{
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(entry, "rows"), i, row) {
        if (ls_json_int(row, "bytes", -1) == bytes)
            return row;
    }
    return NULL;
}

/* Setting k's busbw at this size, with its ratio to the first setting's (the default). */
static void variant_cell(json_t *const *entries, int k, long long bytes, double base, char *cell,
                         size_t len)
{
    const json_t *r = entries[k] ? row_for(entries[k], bytes) : NULL;
    double v = ls_json_num(json_object_get(r, "oop"), "busbw", 0);
    if (!r)
        snprintf(cell, len, "-");
    else if (k == 0)
        snprintf(cell, len, "%.2f", v);
    else if (base > 0)
        snprintf(cell, len, "%.2f (x%.2f)", v, v / base);
    else /* no default figure to divide by (failed, or 0 on one rank) */
        snprintf(cell, len, "%.2f (x -)", v);
}

/* size (B), then one column per setting: busbw (x ratio). */
static void put_variant_rows(ls_buf_t *b, json_t *const *entries, int n)
{
    const char *header[LS_NCCL_TABLE_SETTINGS + 1];
    ls_column_t cols[LS_NCCL_TABLE_SETTINGS + 1] = {{12, 0, 0, 0}};
    char first[16];
    snprintf(first, sizeof first, "#%11s", "size (B)"); /* nccl-tests' comment mark */
    header[0] = first;
    for (int k = 0; k < n; k++) {
        header[k + 1] = entries[k] ? ls_json_str(entries[k], "variant", "?") : "?";
        cols[k + 1] = (ls_column_t){26, 0, 1, 1};
    }
    ls_table_t *t = ls_table_new("", n + 1, header);
    /* Sizes from the first setting that has rows: a default that failed or was skipped
       must not hide the others' figures (their ratio is then "-"). */
    const json_t *sizes = NULL;
    for (int k = 0; k < n && !sizes; k++)
        if (entries[k] && json_array_size(json_object_get(entries[k], "rows")) > 0)
            sizes = entries[k];
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(sizes, "rows"), i, row) {
        long long bytes = ls_json_int(row, "bytes", 0);
        double base = ls_json_num(json_object_get(row_for(entries[0], bytes), "oop"), "busbw", 0);
        char cells[LS_NCCL_TABLE_SETTINGS + 1][48];
        const char *p[LS_NCCL_TABLE_SETTINGS + 1];
        snprintf(cells[0], sizeof cells[0], "%lld", bytes);
        for (int k = 0; k <= n; k++) {
            if (k < n)
                variant_cell(entries, k, bytes, base, cells[k + 1], sizeof cells[k + 1]);
            p[k] = cells[k];
        }
        ls_table_row(t, p);
    }
    ls_columns_put(b, t, cols, 0);
}

/* Each setting's transports, findings and status, under its name. */
static void put_variant_notes(ls_buf_t *b, const json_t *e)
{
    json_t *lines = json_array();
    ls_nccl_transport_summary(json_object_get(e, "transports"), lines);
    ls_nccl_transport_findings(json_object_get(e, "transports"), lines);
    if (strcmp(ls_json_str(e, "status", "ok"), "ok") != 0) {
        char l[600];
        snprintf(l, sizeof l, "status %s: %s", ls_json_str(e, "status", "?"),
                 ls_json_str(e, "error", ""));
        json_array_append_new(lines, json_string(l));
    }
    char title[200];
    snprintf(title, sizeof title, "%s:", ls_json_str(e, "variant", "?"));
    put_lines(b, title, lines);
    json_decref(lines);
}

char *ls_nccl_variants_text(json_t *const *entries, int n)
{
    ls_buf_t b = {0};
    if (n <= 0 || !entries[0])
        return ls_buf_take(&b);
    if (n > LS_NCCL_TABLE_SETTINGS)
        n = LS_NCCL_TABLE_SETTINGS;
    ls_buf_printf(&b,
                  "# %s: out-of-place busbw (GB/s) per setting, each in its own process; ratio to "
                  "%s\n",
                  ls_json_str(entries[0], "collective", "?"),
                  ls_json_str(entries[0], "variant", "default"));
    put_variant_rows(&b, entries, n);
    for (int k = 0; k < n; k++)
        if (entries[k])
            put_variant_notes(&b, entries[k]);
    return ls_buf_take(&b);
}

static void print_text(FILE *out, char *text)
{
    if (text)
        fputs(text, out);
    free(text);
}

void ls_nccl_print_table(FILE *out, const json_t *entry)
{
    print_text(out, ls_nccl_table_text(entry));
}

void ls_nccl_print_variants(FILE *out, json_t *const *entries, int n)
{
    print_text(out, ls_nccl_variants_text(entries, n));
}
