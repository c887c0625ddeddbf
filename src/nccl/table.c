#include "table.h"
#include "model/translog.h"
#include "model/doc.h"

#include <string.h>

static void format_time(char *buf, size_t len, double us)
{
    snprintf(buf, len, us < 10000.0 ? "%7.2f" : us < 100000.0 ? "%7.1f" : "%7.0f", us);
}

static void print_half(FILE *out, const json_t *c)
{
    if (!c) {
        fprintf(out, "  %7s %6s %6s %6s", "-", "-", "-", "-");
        return;
    }
    char t[32];
    format_time(t, sizeof t, ls_json_num(c, "time_us", 0));
    const json_t *w = json_object_get(c, "wrong");
    char wrong[24];
    if (json_is_integer(w))
        snprintf(wrong, sizeof wrong, "%lld", (long long)json_integer_value(w));
    else
        snprintf(wrong, sizeof wrong, "N/A");
    fprintf(out, "  %7s %6.2f %6.2f %6s", t, ls_json_num(c, "algbw", 0), ls_json_num(c, "busbw", 0),
            wrong);
}

double ls_nccl_avg_busbw(const json_t *entry)
{
    double sum = 0;
    int n = 0;
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(entry, "rows"), i, row)
    {
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

int ls_nccl_rows_verified(const json_t *rows)
{
    int checked = 0;
    size_t i;
    const json_t *row;
    json_array_foreach(rows, i, row)
    {
        const char *modes[] = {"oop", "ip"};
        for (int m = 0; m < 2; m++) {
            const json_t *w = json_object_get(json_object_get(row, modes[m]), "wrong");
            if (!json_is_integer(w))
                continue;
            if (json_integer_value(w) != 0)
                return 0;
            checked++;
        }
    }
    return checked > 0;
}

static void print_lines(FILE *out, const char *title, const json_t *lines)
{
    size_t i;
    const json_t *l;
    if (json_array_size(lines) == 0)
        return;
    fprintf(out, "# %s\n", title);
    json_array_foreach(lines, i, l) fprintf(out, "#   %s\n", json_string_value(l));
}

static void print_header(FILE *out, const json_t *entry)
{
    const json_t *gpus = json_object_get(entry, "gpus");
    fprintf(out, "# linkscope nccl %s: %lld ranks (%s), GPUs", ls_json_str(entry, "collective", "?"),
            ls_json_int(entry, "nranks", 0), ls_json_str(entry, "mode", "?"));
    size_t i;
    const json_t *g;
    json_array_foreach(gpus, i, g) fprintf(out, "%s%lld", i ? "," : " ", (long long)json_integer_value(g));
    fprintf(out, ", NCCL %s, setting %s\n", ls_json_str(entry, "nccl_version", "?"),
            ls_json_str(entry, "variant", "default"));
    fprintf(out, "# iters %lld warmup %lld check %d graph %lld blocking %d; time = host timer "
                 "over iters launches / iters; GB/s = 1e9 B/s\n",
            ls_json_int(entry, "iters", 0), ls_json_int(entry, "warmup", 0),
            json_is_true(json_object_get(entry, "check")), ls_json_int(entry, "graph_launches", 0),
            json_is_true(json_object_get(entry, "blocking")));
    fprintf(out, "#%77s%34s\n", "out-of-place", "in-place");
    fprintf(out, "#%11s  %12s  %8s  %6s  %6s  %7s %6s %6s %6s  %7s %6s %6s %6s\n", "size", "count",
            "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw",
            "#wrong");
    fprintf(out, "#%11s  %12s  %8s  %6s  %6s  %7s %6s %6s %6s  %7s %6s %6s %6s\n", "(B)",
            "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "");
}

void ls_nccl_print_table(FILE *out, const json_t *entry)
{
    print_header(out, entry);
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(entry, "rows"), i, row)
    {
        fprintf(out, "%12lld  %12lld  %8s  %6s  %6lld", ls_json_int(row, "bytes", 0),
                ls_json_int(row, "count", 0), ls_json_str(entry, "dtype", "?"),
                ls_json_str(entry, "redop", "none"), ls_json_int(entry, "root", -1));
        print_half(out, json_object_get(row, "oop"));
        print_half(out, json_object_get(row, "ip"));
        fputc('\n', out);
    }
    const json_t *notes = json_object_get(entry, "notes");
    print_lines(out, "Notes", notes);
    if (strcmp(ls_json_str(entry, "status", "ok"), "ok") != 0)
        fprintf(out, "# Status: %s: %s\n", ls_json_str(entry, "status", "?"),
                ls_json_str(entry, "error", ""));
    fprintf(out, "# Avg bus bandwidth    : %g GB/s (mean over all rows, as nccl-tests)\n",
            ls_nccl_avg_busbw(entry));
    if (json_is_number(json_object_get(entry, "small_time_us")))
        fprintf(out, "# Small-message time   : %.2f us at %lld B\n", ls_json_num(entry, "small_time_us", 0),
                ls_json_int(entry, "small_bytes", 0));
    json_t *lines = json_array();
    const json_t *tr = json_object_get(entry, "transports");
    ls_nccl_transport_summary(tr, lines);
    if (json_array_size(lines) == 0 && !json_is_true(json_object_get(entry, "debug_captured")))
        json_array_append_new(lines, json_string("not captured: NCCL_DEBUG or NCCL_DEBUG_FILE was set by the user"));
    print_lines(out, "Transports (NCCL's log; sender's channels per GPU pair)", lines);
    json_array_clear(lines);
    ls_nccl_transport_findings(tr, lines);
    print_lines(out, "Findings", lines);
    json_decref(lines);
}

static const json_t *row_for(const json_t *entry, long long bytes)
{
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(entry, "rows"), i, row)
    {
        if (ls_json_int(row, "bytes", -1) == bytes)
            return row;
    }
    return NULL;
}

void ls_nccl_print_variants(FILE *out, json_t *const *entries, int n)
{
    if (n <= 0 || !entries[0])
        return;
    fprintf(out, "# %s: out-of-place busbw (GB/s) per setting, each in its own process; ratio "
                 "to %s\n", ls_json_str(entries[0], "collective", "?"),
            ls_json_str(entries[0], "variant", "default"));
    fprintf(out, "#%11s", "size (B)");
    for (int k = 0; k < n; k++)
        fprintf(out, "  %26.26s", entries[k] ? ls_json_str(entries[k], "variant", "?") : "?");
    fputc('\n', out);
    /* Sizes from the first setting that has rows: a default that failed or was skipped
       must not hide the others' figures (their ratio is then "-"). */
    const json_t *sizes = NULL;
    for (int k = 0; k < n && !sizes; k++)
        if (entries[k] && json_array_size(json_object_get(entries[k], "rows")) > 0)
            sizes = entries[k];
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(sizes, "rows"), i, row)
    {
        long long bytes = ls_json_int(row, "bytes", 0);
        const json_t *base_row = row_for(entries[0], bytes);
        double base = ls_json_num(json_object_get(base_row, "oop"), "busbw", 0);
        fprintf(out, "%12lld", bytes);
        for (int k = 0; k < n; k++) {
            const json_t *r = entries[k] ? row_for(entries[k], bytes) : NULL;
            if (!r) {
                fprintf(out, "  %26s", "-");
                continue;
            }
            double v = ls_json_num(json_object_get(r, "oop"), "busbw", 0);
            char cell[48];
            if (k == 0)
                snprintf(cell, sizeof cell, "%.2f", v);
            else if (base > 0)
                snprintf(cell, sizeof cell, "%.2f (x%.2f)", v, v / base);
            else /* no default figure to divide by (failed, or 0 on one rank) */
                snprintf(cell, sizeof cell, "%.2f (x -)", v);
            fprintf(out, "  %26s", cell);
        }
        fputc('\n', out);
    }
    for (int k = 0; k < n; k++) {
        if (!entries[k])
            continue;
        json_t *lines = json_array();
        ls_nccl_transport_summary(json_object_get(entries[k], "transports"), lines);
        ls_nccl_transport_findings(json_object_get(entries[k], "transports"), lines);
        if (strcmp(ls_json_str(entries[k], "status", "ok"), "ok") != 0) {
            char l[600];
            snprintf(l, sizeof l, "status %s: %s", ls_json_str(entries[k], "status", "?"),
                     ls_json_str(entries[k], "error", ""));
            json_array_append_new(lines, json_string(l));
        }
        char title[200];
        snprintf(title, sizeof title, "%s:", ls_json_str(entries[k], "variant", "?"));
        print_lines(out, title, lines);
        json_decref(lines);
    }
}
