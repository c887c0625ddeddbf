/* linkscope fleet's reports (docs/fleet.md). The tables go through the format interface
   (format.h): the terminal and HTML backends draw them, so they look like every other
   table of linkscope. Prometheus text follows the exposition format: metric names in
   base units (bytes per second, seconds), label values escaped. */
#include "fleet_report.h"
#include "format.h"
#include "model/doc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void cell_num(double v, char *buf, size_t len)
{
    ls_fmt_num(v, buf, len);
}

static ls_table_t *models_table(const json_t *result)
{
    /* the count first: the model, a long text on mixed nodes, wraps as the last column */
    static const char *const head[] = {"nodes", "model"};
    ls_table_t *t = ls_table_new("Models (nodes grouped by their GPUs)", 2, head);
    size_t i;
    const json_t *m;
    json_array_foreach(json_object_get(result, "models"), i, m) {
        char n[16];
        snprintf(n, sizeof n, "%lld", ls_json_int(m, "nodes", 0));
        ls_table_row(t, (const char *const[]){n, ls_json_str(m, "model", "")});
    }
    return t;
}

/* "outlier" (a figure beyond the limits), else the worst of its own findings ("error",
   "warning"), else "ok". */
static const char *node_status(const json_t *n)
{
    return ls_json_int(n, "outliers", 0)   ? "outlier"
           : ls_json_int(n, "errors", 0)   ? "error"
           : ls_json_int(n, "warnings", 0) ? "warning"
                                           : "ok";
}

/* Column 0 is the status: the HTML backend styles the row by it. */
static ls_table_t *nodes_table(const json_t *result)
{
    static const char *const head[] = {"status",   "node",     "model", "outliers",
                                       "subjects", "findings", "file"};
    ls_table_t *t = ls_table_new("Nodes (one row each; outlier: a figure beyond the limits; "
                                 "findings: the "
                                 "node's own, errors and warnings)",
                                 7, head);
    size_t i, j;
    const json_t *n, *s;
    json_array_foreach(json_object_get(result, "nodes"), i, n) {
        char c[16], found[48], subjects[512] = "";
        snprintf(c, sizeof c, "%lld", ls_json_int(n, "outliers", 0));
        snprintf(found, sizeof found, "%lld / %lld", ls_json_int(n, "errors", 0),
                 ls_json_int(n, "warnings", 0));
        json_array_foreach(json_object_get(n, "subjects"), j, s) {
            size_t used = strlen(subjects);
            snprintf(subjects + used, sizeof subjects - used, "%s%s", j ? ", " : "",
                     json_string_value(s));
        }
        ls_table_row(t, (const char *const[]){node_status(n), ls_json_str(n, "node", ""),
                                              ls_json_str(n, "model", ""), c, subjects, found,
                                              ls_json_str(n, "file", "")});
    }
    return t;
}

static int same_finding(const json_t *a, const json_t *b)
{
    return !strcmp(ls_json_str(a, "severity", ""), ls_json_str(b, "severity", "")) &&
           !strcmp(ls_json_str(a, "rule", ""), ls_json_str(b, "rule", "")) &&
           !strcmp(ls_json_str(a, "subject", ""), ls_json_str(b, "subject", ""));
}

/* How often finding j of the list repeats (rule and subject: several methods of one
   path); 0 when an earlier one of the list already stands for it. */
static int repeats(const json_t *list, size_t j)
{
    int n = 1;
    for (size_t k = 0; k < json_array_size(list); k++)
        if (k != j && same_finding(json_array_get(list, k), json_array_get(list, j))) {
            if (k < j)
                return 0;
            n++;
        }
    return n;
}

/* Every node's findings at warning and error, one row per rule and subject, errors of
   all nodes first. */
static ls_table_t *findings_table(const json_t *result)
{
    static const char *const head[] = {"severity", "node", "rule", "subject", "times"};
    ls_table_t *t = ls_table_new("Findings on the nodes (each node's document judged by "
                                 "linkscope's rules; "
                                 "`linkscope report DOC` says why)",
                                 5, head);
    static const char *const order[] = {"error", "warning"};
    for (int k = 0; k < 2; k++) {
        size_t i, j;
        const json_t *n, *f;
        json_array_foreach(json_object_get(result, "nodes"), i, n) {
            const json_t *list = json_object_get(n, "findings");
            json_array_foreach(list, j, f) {
                int times = repeats(list, j);
                if (times == 0 || strcmp(ls_json_str(f, "severity", ""), order[k]) != 0)
                    continue;
                char c[16];
                snprintf(c, sizeof c, "%d", times);
                ls_table_row(t, (const char *const[]){order[k], ls_json_str(n, "node", ""),
                                                      ls_json_str(f, "rule", ""),
                                                      ls_json_str(f, "subject", ""), c});
            }
        }
    }
    return t;
}

static ls_table_t *outliers_table(const json_t *result)
{
    static const char *const head[] = {"node",         "subject", "figure",  "value",
                                       "fleet median", "unit",    "worse %", "score"};
    ls_table_t *t = ls_table_new("Outliers (score: 0.6745 x (median - value) / MAD)", 8, head);
    size_t i;
    const json_t *o;
    json_array_foreach(json_object_get(result, "outliers"), i, o) {
        char v[32], med[32], worse[32], score[32];
        cell_num(ls_json_num(o, "value", NAN), v, sizeof v);
        cell_num(ls_json_num(o, "median", NAN), med, sizeof med);
        cell_num(ls_json_num(o, "worse_pct", NAN), worse, sizeof worse);
        double z = ls_json_num(o, "score", NAN);
        if (z >= 1e9) /* every other node identical (MAD 0) */
            snprintf(score, sizeof score, "inf");
        else
            cell_num(z, score, sizeof score);
        ls_table_row(t, (const char *const[]){ls_json_str(o, "node", ""),
                                              ls_json_str(o, "subject", ""),
                                              ls_json_str(o, "label", ""), v, med,
                                              ls_json_str(o, "unit", ""), worse, score});
    }
    return t;
}

static void headline(ls_buf_t *b, const json_t *result, double score, double min_change_pct)
{
    size_t nodes = json_array_size(json_object_get(result, "nodes"));
    size_t models = json_array_size(json_object_get(result, "models"));
    ls_buf_printf(b,
                  "%zu node%s, %zu model%s, %lld with outliers, %lld with an error finding, %lld "
                  "with a "
                  "warning\n(an outlier: a figure with score >= %g and >= %g %% worse than the "
                  "fleet "
                  "median of its model)\n",
                  nodes, nodes == 1 ? "" : "s", models, models == 1 ? "" : "s",
                  ls_json_int(result, "outlier_nodes", 0), ls_json_int(result, "error_nodes", 0),
                  ls_json_int(result, "warning_nodes", 0), score, min_change_pct);
}

static void tables(const ls_format_t *fmt, ls_out_t *o, const json_t *result)
{
    ls_table_t *t[4] = {models_table(result), nodes_table(result), outliers_table(result),
                        findings_table(result)};
    for (int i = 0; i < 4; i++) {
        if (i < 3 || t[i]->nrows > 0) /* the findings table only when there are some */
            fmt->table(o, t[i], i == 1 || i == 3 ? LS_TABLE_SEVERITY_ROWS : 0);
        ls_table_free(t[i]);
    }
}

char *ls_fleet_term(const json_t *result, double score, double min_change_pct)
{
    ls_out_t o = {&ls_format_term, {0}, NULL, NULL, NULL, 0};
    ls_buf_puts(&o.b, "linkscope fleet: ");
    headline(&o.b, result, score, min_change_pct);
    ls_buf_puts(&o.b, "\n");
    tables(&ls_format_term, &o, result);
    return ls_buf_take(&o.b);
}

static const char css[] =
    "body{font-family:system-ui,sans-serif;margin:0 24px 32px;color:#1b1b1b}"
    "h1{font-size:20px}table{border-collapse:collapse;margin:2px 0 18px;font-size:12px}"
    "p.tt{font-weight:600;font-size:13px;margin:14px 0 4px}"
    "th,td{border:1px solid #d0d7de;padding:3px 7px}th{background:#f3f6f9}"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}"
    "tr.outlier td,tr.error td{background:#fdecea}"
    "tr.outlier td:first-child,tr.error td:first-child{color:#b71c1c;font-weight:600}"
    "tr.warning td{background:#fff8e1}tr.warning td:first-child{color:#8a6d00;font-weight:600}"
    "header{background:#12406e;color:#ffffff;padding:14px 24px;margin:0 -24px 12px}header "
    "h1{margin:0}"
    "div.tw{overflow-x:auto;max-width:100%}svg{max-width:100%;height:auto;display:block}"
    "figure{margin:10px 0 20px}figcaption{font-size:12px;color:#444;max-width:760px}"
    "@media (max-width:640px){body{margin:0 10px 24px}header{margin:0 -10px 12px;padding:12px "
    "10px}}";

/* Where a value sits on a strip: its ratio to the median between lo and hi. */
static double strip_x(double ratio, double lo, double hi, int x0, int w)
{
    ratio = fmin(fmax(ratio, lo), hi);
    return x0 + w * (ratio - lo) / (hi - lo);
}

/* The ends of the strips: at least 50% .. 150% of the median, wider when a value is,
   at most 0 .. 300%. */
static void strip_range(const json_t *result, const char *model, double *lo, double *hi)
{
    *lo = 0.5, *hi = 1.5;
    size_t i, k;
    const json_t *f, *v;
    json_array_foreach(json_object_get(result, "figures"), i, f) {
        double m = ls_json_num(f, "median", 0);
        if (strcmp(ls_json_str(f, "model", ""), model) || m == 0)
            continue;
        json_array_foreach(json_object_get(f, "values"), k, v) {
            double r = ls_json_num(v, "value", 0) / m;
            *lo = fmax(0, fmin(*lo, r)), *hi = fmin(3, fmax(*hi, r));
        }
    }
}

/* One model's figures as strips: every node a dot at its value / the figure's median,
   outliers red and larger (their node in the dot's title). */
static void model_strips(ls_buf_t *b, const json_t *result, const char *model)
{
    enum { LABEL_W = 330, STRIP_W = 380, ROW_H = 16, TOP = 24 };
    double lo, hi;
    strip_range(result, model, &lo, &hi);
    int rows = 0;
    size_t i, k;
    const json_t *f, *v;
    json_array_foreach(json_object_get(result, "figures"), i, f)
        rows += !strcmp(ls_json_str(f, "model", ""), model);
    int w = LABEL_W + STRIP_W + 20, h = TOP + rows * ROW_H + 30;
    ls_buf_printf(b,
                  "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" class=\"strips\" "
                  "width=\"%d\" "
                  "height=\"%d\" viewBox=\"0 0 %d %d\"><title>Each figure on each node of ",
                  w, h, w, h);
    ls_buf_html(b, model);
    ls_buf_puts(b, ", as a share of the figure's median</title>");
    double x1 = strip_x(1, lo, hi, LABEL_W, STRIP_W);
    ls_buf_printf(b,
                  "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#999999\" "
                  "stroke-dasharray=\"3 3\"/>",
                  x1, TOP - 6, x1, TOP + rows * ROW_H);
    for (double t = 0; t <= 3.001; t += 0.25) {
        if (t < lo - 1e-9 || t > hi + 1e-9)
            continue;
        double x = strip_x(t, lo, hi, LABEL_W, STRIP_W);
        ls_buf_printf(b,
                      "<text x=\"%.1f\" y=\"%d\" font-size=\"9\" "
                      "text-anchor=\"middle\">%.0f%%</text>",
                      x, TOP - 10, 100 * t);
    }
    int row = 0;
    json_array_foreach(json_object_get(result, "figures"), i, f) {
        if (strcmp(ls_json_str(f, "model", ""), model))
            continue;
        int y = TOP + row++ * ROW_H + ROW_H / 2;
        double m = ls_json_num(f, "median", 0);
        ls_buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"end\">",
                      LABEL_W - 8, y + 3);
        ls_buf_html(b, ls_json_str(f, "label", ""));
        ls_buf_puts(b, "</text>");
        ls_buf_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#e0e0e0\"/>",
                      LABEL_W, y, LABEL_W + STRIP_W, y);
        json_array_foreach(json_object_get(f, "values"), k, v) {
            int out = json_is_true(json_object_get(v, "outlier"));
            double x = m != 0 ? strip_x(ls_json_num(v, "value", 0) / m, lo, hi, LABEL_W, STRIP_W)
                              : x1;
            ls_buf_printf(b,
                          "<circle cx=\"%.1f\" cy=\"%d\" r=\"%d\" fill=\"%s\" "
                          "fill-opacity=\"%s\"><title>",
                          x, y, out ? 5 : 3, out ? "#d50000" : "#2c7fb8", out ? "1" : "0.6");
            ls_buf_html(b, ls_json_str(v, "node", ""));
            char num[32];
            ls_fmt_num(ls_json_num(v, "value", 0), num, sizeof num);
            ls_buf_printf(b, ": %s %s%s</title></circle>", num, ls_json_str(f, "unit", ""),
                          out ? " (outlier)" : "");
        }
    }
    ls_buf_printf(b,
                  "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"#2c7fb8\"/><text x=\"%d\" y=\"%d\" "
                  "font-size=\"10\">a "
                  "node</text><circle cx=\"%d\" cy=\"%d\" r=\"5\" fill=\"#d50000\"/><text x=\"%d\" "
                  "y=\"%d\" "
                  "font-size=\"10\">an outlier</text>",
                  LABEL_W, h - 12, LABEL_W + 8, h - 9, LABEL_W + 70, h - 12, LABEL_W + 80, h - 9);
    ls_buf_puts(b, "</svg><figcaption>");
    ls_buf_html(b, model);
    ls_buf_puts(b, ": each figure on each node, as a share of the figure's median over the model's "
                   "nodes "
                   "(dashed: the median); red: an outlier (hover a dot for its node and "
                   "value)</figcaption></figure>\n");
}

static void distributions(ls_buf_t *b, const json_t *result)
{
    size_t i;
    const json_t *m;
    ls_buf_puts(b, "<h2>Distributions</h2>\n");
    json_array_foreach(json_object_get(result, "models"), i, m)
        model_strips(b, result, ls_json_str(m, "model", ""));
}

char *ls_fleet_html(const json_t *result, double score, double min_change_pct)
{
    ls_out_t o = {&ls_format_html, {0}, NULL, NULL, NULL, 0};
    ls_buf_printf(&o.b,
                  "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                  "<title>linkscope fleet</title>\n<style>%s</style>\n</head>\n<body>\n"
                  "<header><h1>linkscope fleet</h1></header>\n<p>",
                  css);
    ls_buf_t line = {0};
    headline(&line, result, score, min_change_pct);
    char *text = ls_buf_take(&line);
    ls_buf_html(&o.b, text);
    free(text);
    ls_buf_puts(&o.b, "</p>\n");
    tables(&ls_format_html, &o, result);
    distributions(&o.b, result);
    ls_buf_puts(&o.b, "</body>\n</html>\n");
    return ls_buf_take(&o.b);
}

/* Unit of a figure as a Prometheus base unit: suffix and factor; NULL when none fits. */
static const char *prom_unit(const char *unit, double *factor)
{
    if (strcmp(unit, "GB/s") == 0)
        return *factor = 1e9, "bytes_per_second";
    if (strcmp(unit, "us") == 0)
        return *factor = 1e-6, "seconds";
    return NULL;
}

static void prom_nodes(ls_buf_t *b, const json_t *result)
{
    ls_buf_puts(b, "# HELP linkscope_fleet_node_outliers Figures of the node beyond the fleet "
                   "limits (robust score and minimum change).\n"
                   "# TYPE linkscope_fleet_node_outliers gauge\n");
    size_t i;
    const json_t *n;
    json_array_foreach(json_object_get(result, "nodes"), i, n) {
        ls_buf_puts(b, "linkscope_fleet_node_outliers{node=\"");
        ls_buf_prom_label(b, ls_json_str(n, "node", ""));
        ls_buf_puts(b, "\",model=\"");
        ls_buf_prom_label(b, ls_json_str(n, "model", ""));
        ls_buf_printf(b, "\"} %lld\n", ls_json_int(n, "outliers", 0));
    }
    ls_buf_printf(b,
                  "# HELP linkscope_fleet_outlier_nodes Nodes with at least one outlier.\n"
                  "# TYPE linkscope_fleet_outlier_nodes gauge\n"
                  "linkscope_fleet_outlier_nodes %lld\n",
                  ls_json_int(result, "outlier_nodes", 0));
    ls_buf_puts(b, "# HELP linkscope_fleet_node_findings Findings of the node's own document, by "
                   "severity.\n# TYPE linkscope_fleet_node_findings gauge\n");
    json_array_foreach(json_object_get(result, "nodes"), i, n) {
        static const char *const sev[][2] = {{"error", "errors"}, {"warning", "warnings"}};
        for (int k = 0; k < 2; k++) {
            ls_buf_puts(b, "linkscope_fleet_node_findings{node=\"");
            ls_buf_prom_label(b, ls_json_str(n, "node", ""));
            ls_buf_printf(b, "\",severity=\"%s\"} %lld\n", sev[k][0], ls_json_int(n, sev[k][1], 0));
        }
    }
}

static void prom_medians(ls_buf_t *b, const json_t *result, const char *suffix)
{
    int first = 1;
    size_t i;
    const json_t *f;
    json_array_foreach(json_object_get(result, "figures"), i, f) {
        double factor;
        const char *s = prom_unit(ls_json_str(f, "unit", ""), &factor);
        if (!s || strcmp(s, suffix) != 0)
            continue;
        if (first)
            ls_buf_printf(b,
                          "# HELP linkscope_fleet_figure_median_%s Median of a figure over the "
                          "nodes of one model.\n# TYPE linkscope_fleet_figure_median_%s gauge\n",
                          suffix, suffix);
        first = 0;
        ls_buf_printf(b, "linkscope_fleet_figure_median_%s{model=\"", suffix);
        ls_buf_prom_label(b, ls_json_str(f, "model", ""));
        ls_buf_puts(b, "\",figure=\"");
        ls_buf_prom_label(b, ls_json_str(f, "label", ""));
        ls_buf_printf(b, "\"} %.6g\n", ls_json_num(f, "median", NAN) * factor);
    }
}

char *ls_fleet_prom(const json_t *result)
{
    ls_buf_t b = {0};
    prom_nodes(&b, result);
    prom_medians(&b, result, "bytes_per_second");
    prom_medians(&b, result, "seconds");
    return ls_buf_take(&b);
}
