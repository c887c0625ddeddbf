#include "tp_report.h"
#include "../model/doc.h"
#include "strbuf.h"

#include <math.h>
#include <string.h>

/* Enough significant digits for values from microseconds to minutes. */
static void fmt_num(double v, char *buf, size_t len)
{
    double a = fabs(v);
    const char *f = a >= 1000  ? "%.0f"
                    : a >= 100 ? "%.1f"
                    : a >= 10  ? "%.2f"
                    : a >= 1   ? "%.3f"
                               : "%.4f";
    snprintf(buf, len, f, v);
}

/* Sizes as the report and nccl-tests people write them: binary ("16 MiB", "1.5 KiB"). */
static void fmt_size(double bytes, char *buf, size_t len)
{
    ls_fmt_bytes(bytes, buf, len);
}

static const json_t *nth(const json_t *obj, const char *key, size_t i)
{
    return json_array_get(json_object_get(obj, key), i);
}

static void print_header(FILE *out, const json_t *est)
{
    const json_t *m = json_object_get(est, "model");
    long long out_tokens = ls_json_int(est, "output_tokens", 0);
    fprintf(out,
            "Tensor-parallel communication estimate: %s (hidden %lld, %lld layers, %lld B per "
            "element), tensor parallel %lld\n",
            ls_json_str(m, "name", "custom model"), ls_json_int(m, "hidden", 0),
            ls_json_int(m, "layers", 0), ls_json_int(m, "bytes", 0), ls_json_int(est, "tp", 0));
    fprintf(out,
            "Megatron-style: 2 all-reduces per layer (after attention, after the MLP) = %lld "
            "per forward pass,\neach of tokens x %lld x %lld B; %lld output tokens = the "
            "prefill (first token) + %lld decode steps.\n",
            ls_json_int(est, "allreduces_per_pass", 0), ls_json_int(m, "hidden", 0),
            ls_json_int(m, "bytes", 0), out_tokens, out_tokens - 1);
    if (json_object_get(m, "note"))
        fprintf(out, "Note: %s.\n", ls_json_str(m, "note", ""));
}

/* The fit of the sizes at one end of the measured curve (side "below" the smallest or
   "above" the largest), when the curve has one there. */
static void end_fit(FILE *out, const json_t *fit, const char *side, const char *end)
{
    if (fit)
        fprintf(out,
                "    %s them, the fit of the sizes within x%.0f of the %s: t = %.2f us + S / "
                "%.1f GB/s\n",
                side, ls_json_num(fit, "span", 0), end, ls_json_num(fit, "alpha_us", 0),
                ls_json_num(fit, "bw_gbps", 0));
}

static void print_source(FILE *out, const json_t *s, long long nranks)
{
    const char *name = ls_json_str(s, "name", "?");
    fprintf(out, "  %s: %s\n", name, ls_json_str(s, "origin", ""));
    if (strcmp(ls_json_str(s, "kind", ""), "link") == 0) {
        double bw = ls_json_num(s, "bw_gbps", 0), lat = ls_json_num(s, "lat_us", 0);
        double steps = 2.0 * (double)(nranks - 1);
        fprintf(out,
                "    lat %g us per step; over %lld ranks t = 2(n-1) lat + 2(n-1)/n S/bw "
                "= %.2f us + S / %.2f GB/s\n",
                lat, nranks, steps * lat, bw * (double)nranks / steps);
        return;
    }
    char lo[32], hi[32];
    fmt_size(ls_json_num(s, "min_bytes", 0), lo, sizeof lo);
    fmt_size(ls_json_num(s, "max_bytes", 0), hi, sizeof hi);
    const json_t *fit = json_object_get(s, "fit");
    fprintf(out, "    %lld size%s measured, %s .. %s", ls_json_int(s, "points", 0),
            ls_json_int(s, "points", 0) == 1 ? "" : "s", lo, hi);
    const json_t *below = json_object_get(s, "fit_below"), *above = json_object_get(s, "fit_above");
    if (fit)
        fprintf(out,
                "; the fit over all of them t = %.2f us + S / %.1f GB/s\n    (least squares on "
                "relative residuals: max %.1f %%, rms %.1f %%)\n",
                ls_json_num(fit, "alpha_us", 0), ls_json_num(fit, "bw_gbps", 0),
                100 * ls_json_num(fit, "max_rel_residual", 0),
                100 * ls_json_num(fit, "rms_rel_residual", 0));
    end_fit(out, below, "below", "smallest");
    end_fit(out, above, "above", "largest");
    if (!fit)
        fprintf(out, "; no fit (fewer than 2 sizes): outside, the nearest point\n");
}

static char how_mark(const char *how)
{
    if (strcmp(how, "measured") == 0)
        return 'm';
    if (strcmp(how, "interpolated") == 0)
        return 'i';
    if (strncmp(how, "fit", 3) == 0)
        return 'f';
    return ' ';
}

static int size_col_width(const json_t *srcs, size_t i)
{
    int n = (int)strlen(ls_json_str(json_array_get(srcs, i), "name", ""));
    return n > 14 ? n : 14;
}

static void print_sizes(FILE *out, const json_t *est)
{
    const json_t *srcs = json_object_get(est, "sources");
    fprintf(out,
            "\nTime of one all-reduce (us), by size [m measured size, i interpolated, f the fit; "
            "links: formula]\n  %-26s",
            "size (bytes)");
    for (size_t i = 0; i < json_array_size(srcs); i++)
        fprintf(out, " %*s", size_col_width(srcs, i),
                ls_json_str(json_array_get(srcs, i), "name", "?"));
    fputc('\n', out);
    size_t k;
    const json_t *row;
    json_array_foreach(json_object_get(est, "allreduce_sizes"), k, row) {
        char dec[32], cell[64];
        double bytes = ls_json_num(row, "bytes", 0);
        char line[1024];
        size_t used = 0;
        fmt_size(bytes, dec, sizeof dec);
        snprintf(cell, sizeof cell, "%.0f (%s)", bytes, dec);
        used += (size_t)snprintf(line, sizeof line, "  %-26s", cell);
        for (size_t i = 0; i < json_array_size(srcs) && used < sizeof line; i++) {
            char num[32];
            fmt_num(json_number_value(nth(row, "time_us", i)), num, sizeof num);
            used += (size_t)snprintf(line + used, sizeof line - used, " %*s %c",
                                     size_col_width(srcs, i) - 2, num,
                                     how_mark(json_string_value(nth(row, "how", i))));
        }
        used = used < sizeof line ? used : sizeof line - 1;
        while (used > 0 && line[used - 1] == ' ')
            line[--used] = '\0';
        fprintf(out, "%s\n", line);
    }
}

/* The columns of one scenario: comm per phase, and total and share where compute is. */
typedef struct {
    const json_t *phase[3];
    int with_compute[3];
    int label_width; /* first column: source names and "A - B" labels */
} columns_t;

static int label_width(const json_t *srcs)
{
    size_t first = strlen(ls_json_str(json_array_get(srcs, 0), "name", "")), width = 22;
    for (size_t i = 0; i < json_array_size(srcs); i++) {
        size_t n = strlen(ls_json_str(json_array_get(srcs, i), "name", ""));
        width = n > width ? n : width;
        if (i > 0 && first + 3 + n > width)
            width = first + 3 + n;
    }
    return (int)width;
}

static void print_scenario_header(FILE *out, const columns_t *c)
{
    static const char *titles[] = {"prefill", "decode step", "request"};
    fprintf(out, "  %-*s", c->label_width, "time (ms)");
    for (int p = 0; p < 3; p++)
        fprintf(out, " | %-*s", p == 2 ? 0 : c->with_compute[p] ? 33 : 11, titles[p]);
    fprintf(out, "\n  %-*s", c->label_width, "source");
    for (int p = 0; p < 3; p++)
        fprintf(out, c->with_compute[p] ? " | %11s %11s %9s" : " | %11s", "comm", "total",
                "comm %");
    fputc('\n', out);
}

static void print_source_row(FILE *out, const columns_t *c, size_t i, const char *name)
{
    fprintf(out, "  %-*s", c->label_width, name);
    for (int p = 0; p < 3; p++) {
        const json_t *s = nth(c->phase[p], "sources", i);
        char comm[32], total[32];
        fmt_num(ls_json_num(s, "comm_ms", 0), comm, sizeof comm);
        if (!c->with_compute[p]) {
            fprintf(out, " | %11s", comm);
            continue;
        }
        fmt_num(ls_json_num(s, "total_ms", 0), total, sizeof total);
        fprintf(out, " | %11s %11s %8.1f%%", comm, total, 100 * ls_json_num(s, "comm_share", 0));
    }
    fputc('\n', out);
}

/* diff = first - other, ratio = first / other, on comm and (where given) total. */
static void print_compare_rows(FILE *out, const columns_t *c, size_t i, const char *first,
                               const char *other)
{
    char label[160];
    for (int kind = 0; kind < 2; kind++) {
        snprintf(label, sizeof label, "%s %s %s", first, kind ? "/" : "-", other);
        fprintf(out, "  %-*s", c->label_width, label);
        for (int p = 0; p < 3; p++) {
            const json_t *a = nth(c->phase[p], "sources", 0), *b = nth(c->phase[p], "sources", i);
            for (int col = 0; col < (c->with_compute[p] ? 2 : 1); col++) {
                const char *key = col ? "total_ms" : "comm_ms";
                double x = ls_json_num(a, key, 0), y = ls_json_num(b, key, 0);
                char num[32];
                if (kind)
                    snprintf(num, sizeof num, y > 0 ? "%.3fx" : "-", x / y);
                else
                    fmt_num(x - y, num, sizeof num);
                fprintf(out, col ? " %11s" : " | %11s", num);
            }
            if (c->with_compute[p] && p < 2)
                fprintf(out, " %9s", "");
        }
        fputc('\n', out);
    }
}

static void print_scenario(FILE *out, const json_t *sc, const json_t *srcs)
{
    const json_t *pre = json_object_get(sc, "prefill"), *dec = json_object_get(sc, "decode_step");
    const json_t *req = json_object_get(sc, "request");
    columns_t c = {{pre, dec, req},
                   {json_object_get(pre, "compute_ms") != NULL,
                    json_object_get(dec, "compute_ms") != NULL,
                    json_object_get(req, "compute_ms") != NULL},
                   label_width(srcs)};
    char pb[32], db[32];
    fmt_size(ls_json_num(pre, "bytes_each", 0), pb, sizeof pb);
    fmt_size(ls_json_num(dec, "bytes_each", 0), db, sizeof db);
    fprintf(out,
            "\nPrompt %lld tokens, batch %lld: prefill %lld all-reduces of %lld B (%s); decode "
            "step %lld of %lld B (%s);\nrequest = prefill + %lld decode steps\n",
            ls_json_int(sc, "prompt", 0), ls_json_int(sc, "batch", 0),
            ls_json_int(pre, "allreduces", 0), ls_json_int(pre, "bytes_each", 0), pb,
            ls_json_int(dec, "allreduces", 0), ls_json_int(dec, "bytes_each", 0), db,
            ls_json_int(req, "decode_steps", 0));
    for (int p = 0; p < 3; p++)
        if (c.with_compute[p] && p < 2)
            fprintf(out, "  compute given for the %s: %.3f ms\n", p ? "decode step" : "prefill",
                    ls_json_num(c.phase[p], "compute_ms", 0));
    print_scenario_header(out, &c);
    size_t n = json_array_size(srcs);
    for (size_t i = 0; i < n; i++)
        print_source_row(out, &c, i, ls_json_str(json_array_get(srcs, i), "name", "?"));
    for (size_t i = 1; i < n; i++)
        print_compare_rows(out, &c, i, ls_json_str(json_array_get(srcs, 0), "name", "?"),
                           ls_json_str(json_array_get(srcs, i), "name", "?"));
}

/* --measure beside each other source: the ratio estimate / measured per size. */
static void print_agreement(FILE *out, const json_t *est)
{
    const json_t *srcs = json_object_get(est, "sources"),
                 *sizes = json_object_get(est, "allreduce_sizes");
    for (size_t m = 0; m < json_array_size(srcs); m++) {
        if (!json_is_true(json_object_get(json_array_get(srcs, m), "measured_here")))
            continue;
        for (size_t i = 0; i < json_array_size(srcs); i++) {
            if (i == m)
                continue;
            double lo = INFINITY, hi = -INFINITY;
            for (size_t k = 0; k < json_array_size(sizes); k++) {
                const json_t *row = json_array_get(sizes, k);
                double r = json_number_value(nth(row, "time_us", i)) /
                           json_number_value(nth(row, "time_us", m));
                lo = fmin(lo, r), hi = fmax(hi, r);
            }
            double worst = fmax(fabs(lo - 1), fabs(hi - 1));
            fprintf(out,
                    "  %s / %s, time per all-reduce: %.3f .. %.3f over %zu sizes (%s within 10 "
                    "%%)\n",
                    ls_json_str(json_array_get(srcs, i), "name", "?"),
                    ls_json_str(json_array_get(srcs, m), "name", "?"), lo, hi,
                    json_array_size(sizes), worst <= 0.10 ? "all" : "NOT all");
        }
    }
}

void ls_tp_render_text(FILE *out, const json_t *est)
{
    print_header(out, est);
    const json_t *srcs = json_object_get(est, "sources");
    fprintf(out, "\nSources of all-reduce time (GB/s = 1e9 B/s):\n");
    for (size_t i = 0; i < json_array_size(srcs); i++)
        print_source(out, json_array_get(srcs, i), ls_json_int(est, "tp", 2));
    print_sizes(out, est);
    print_agreement(out, est);
    size_t k;
    const json_t *sc;
    json_array_foreach(json_object_get(est, "scenarios"), k, sc)
        print_scenario(out, sc, srcs);
    fprintf(out, "\ncomm = all-reduce time on the critical path (no overlap with compute assumed); "
                 "total = compute given + comm.\n");
}
