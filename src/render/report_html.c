/* The HTML report: one self-contained file (inline CSS and SVG, no script, no external
   reference), readable offline and printable. */
#include "render.h"
#include "svg.h"
#include "burn_render.h"
#include "table.h"
#include "model/doc.h"

#include <stdlib.h>
#include <string.h>

const char *const ls_html_sections[] = {"summary", "findings", "plan", "topology", "matrices",
                                        "memory", "collectives", "inventory", NULL};

static const char css[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0;color:#1b1b1b;background:#ffffff}"
    "header{background:#12406e;color:#ffffff;padding:14px 24px}header h1{margin:0;font-size:20px}"
    "header p{margin:4px 0 0;font-size:13px;opacity:.85}"
    "nav{padding:8px 24px;background:#eef4fb;font-size:13px}nav a{margin-right:14px;color:#12406e}"
    "main{padding:0 24px 32px}section{margin-top:22px}h2{font-size:17px;border-bottom:2px solid #12406e;padding-bottom:3px}"
    "table{border-collapse:collapse;margin:2px 0 18px;font-size:12px}p.tt{font-weight:600;font-size:13px;margin:14px 0 4px}"
    "th,td{border:1px solid #d0d7de;padding:3px 7px;vertical-align:top}th{background:#f3f6f9}"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}"
    "tr.error td:first-child{background:#fdecea;color:#b71c1c;font-weight:600}"
    "tr.warning td:first-child{background:#fff4e5;color:#8a4b00;font-weight:600}"
    "tr.info td:first-child{background:#e8f1fb;color:#12406e}"
    "ul.summary li{margin:3px 0}figure{margin:10px 0 20px}figcaption{font-size:12px;color:#444;max-width:760px}"
    "svg{font-family:system-ui,sans-serif;display:block}.figs{display:flex;flex-wrap:wrap;gap:18px}"
    "p.none{color:#555;font-style:italic}";

static int numeric(const char *s)
{
    if (!strcmp(s, "-"))
        return 1;
    char *end;
    strtod(s, &end);
    return end != s && *end == '\0';
}

static void html_table(ls_buf_t *b, ls_table_t *t, int severity_rows)
{
    if (!t)
        return;
    int right[128];
    for (int c = 0; c < t->ncols && c < 128; c++) {
        right[c] = t->nrows > 0;
        for (int r = 1; r <= t->nrows; r++)
            right[c] &= numeric(ls_table_cell(t, r, c)); /* a column of numbers is right-aligned */
    }
    ls_buf_puts(b, "<p class=\"tt\">");
    ls_buf_html(b, t->title);
    ls_buf_puts(b, "</p>\n<table>\n<tr>");
    for (int c = 0; c < t->ncols; c++) {
        ls_buf_puts(b, "<th>");
        ls_buf_html(b, ls_table_cell(t, 0, c));
        ls_buf_puts(b, "</th>");
    }
    ls_buf_puts(b, "</tr>\n");
    for (int r = 1; r <= t->nrows; r++) {
        if (severity_rows) {
            ls_buf_puts(b, "<tr class=\"");
            ls_buf_html(b, ls_table_cell(t, r, 0));
            ls_buf_puts(b, "\">");
        } else {
            ls_buf_puts(b, "<tr>");
        }
        for (int c = 0; c < t->ncols; c++) {
            const char *cell = ls_table_cell(t, r, c);
            ls_buf_puts(b, c < 128 && right[c] ? "<td class=\"n\">" : "<td>");
            ls_buf_html(b, cell);
            ls_buf_puts(b, "</td>");
        }
        ls_buf_puts(b, "</tr>\n");
    }
    if (!t->nrows)
        ls_buf_printf(b, "<tr><td colspan=\"%d\">none</td></tr>\n", t->ncols);
    ls_buf_puts(b, "</table>\n");
    ls_table_free(t);
}

static void section_open(ls_buf_t *b, const char *id, const char *title)
{
    ls_buf_printf(b, "<section id=\"%s\">\n<h2>", id);
    ls_buf_html(b, title);
    ls_buf_puts(b, "</h2>\n");
}

static void figure_caption(ls_buf_t *b, const char *text)
{
    ls_buf_puts(b, "<figcaption>");
    ls_buf_html(b, text);
    ls_buf_puts(b, "</figcaption></figure>\n");
}

static int plan_section(ls_buf_t *b, const json_t *findings, const json_t *plan)
{
    section_open(b, "findings", "Findings");
    if (!json_array_size(findings))
        ls_buf_puts(b, "<p class=\"none\">No finding: every rule passed.</p>\n");
    else
        html_table(b, ls_table_findings(findings), 1);
    ls_buf_puts(b, "</section>\n");
    section_open(b, "plan", "Plan");
    ls_buf_puts(b, "<ul class=\"summary\">\n");
    size_t i;
    const json_t *s;
    json_array_foreach(json_object_get(plan, "summary"), i, s)
    {
        ls_buf_puts(b, "<li>");
        ls_buf_html(b, json_string_value(s));
        ls_buf_puts(b, "</li>\n");
    }
    ls_buf_puts(b, "</ul>\n");
    html_table(b, ls_table_islands(plan), 0);
    html_table(b, ls_table_groups(plan), 0);
    html_table(b, ls_table_measured_groups(plan), 0);
    html_table(b, ls_table_pairs(plan), 0);
    html_table(b, ls_table_best_hbm(plan), 0);
    html_table(b, ls_table_keep_out(plan), 0);
    ls_buf_puts(b, "</section>\n");
    return 0;
}

static int topology_section(ls_buf_t *b, const json_t *doc, const json_t *findings)
{
    int svgs = 0;
    section_open(b, "topology", "Topology");
    ls_buf_puts(b, "<div class=\"figs\">\n<figure>");
    if (ls_svg_topology(b, doc, findings)) {
        svgs++;
        figure_caption(b, "GPUs as nodes, filled by NUMA node; lines coloured by link class (thicker: more NVLinks; "
                          "dashed: across the SMP interconnect; red: a pair far below its class).");
    } else {
        ls_buf_puts(b, "<p class=\"none\">No GPUs in the document.</p></figure>\n");
    }
    ls_buf_puts(b, "<figure>");
    if (ls_svg_link_matrix(b, doc)) {
        svgs++;
        figure_caption(b, "Link types as nvidia-smi topo -m prints them, GPU(row) -> GPU(column).");
    } else {
        ls_buf_puts(b, "<p class=\"none\">No link types recorded.</p></figure>\n");
    }
    ls_buf_puts(b, "</div>\n");
    html_table(b, ls_table_topology(doc), 0);
    ls_buf_puts(b, "</section>\n");
    return svgs;
}

static int matrices_section(ls_buf_t *b, const json_t *doc)
{
    section_open(b, "matrices", "P2P and latency matrices");
    ls_matrix_t *mats;
    int n = ls_doc_matrices(doc, &mats);
    if (!n)
        ls_buf_puts(b, "<p class=\"none\">No P2P or latency measurements.</p>\n");
    ls_buf_puts(b, "<div class=\"figs\">\n");
    for (int k = 0; k < n; k++) {
        ls_buf_puts(b, "<figure>");
        ls_svg_heatmap(b, &mats[k]);
        figure_caption(b, mats[k].title);
    }
    ls_buf_puts(b, "</div>\n</section>\n");
    free(mats);
    return n;
}

static int collectives_section(ls_buf_t *b, const json_t *doc)
{
    section_open(b, "collectives", "Collectives");
    ls_buf_puts(b, "<div class=\"figs\">\n");
    int n = ls_svg_collective_charts(b, doc);
    ls_buf_puts(b, "</div>\n");
    if (!n)
        ls_buf_puts(b, "<p class=\"none\">No collective measurements.</p>\n");
    else
        html_table(b, ls_table_collectives(doc), 0);
    ls_buf_puts(b, "</section>\n");
    return n;
}

char *ls_report_html(const json_t *doc, const json_t *findings, const json_t *plan)
{
    ls_buf_t body = {0};
    int svgs = 0;
    const char *host = ls_json_str(json_object_get(doc, "host"), "hostname", "?");
    const char *created = ls_json_str(doc, "created", "?");
    section_open(&body, "summary", "Run");
    html_table(&body, ls_table_host_summary(doc), 0);
    ls_buf_puts(&body, "</section>\n");
    svgs += plan_section(&body, findings, plan);
    svgs += topology_section(&body, doc, findings);
    svgs += matrices_section(&body, doc);
    section_open(&body, "memory", "Memory and host copies");
    html_table(&body, ls_table_hbm(doc), 0);
    html_table(&body, ls_table_host_copies(doc), 0);
    ls_buf_puts(&body, "</section>\n");
    svgs += collectives_section(&body, doc);
    svgs += ls_html_burn_section(&body, doc);
    section_open(&body, "inventory", "Inventory");
    html_table(&body, ls_table_inventory(doc), 0);
    ls_buf_puts(&body, "</section>\n");

    ls_buf_t b = {0};
    ls_buf_puts(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    ls_buf_printf(&b, "<meta name=\"linkscope-svg-count\" content=\"%d\">\n<title>linkscope report: ", svgs);
    ls_buf_html(&b, host);
    ls_buf_puts(&b, ", ");
    ls_buf_html(&b, created);
    ls_buf_printf(&b, "</title>\n<style>%s</style>\n</head>\n<body>\n<header><h1>linkscope report: ", css);
    ls_buf_html(&b, host);
    ls_buf_puts(&b, "</h1><p>");
    ls_buf_html(&b, created);
    ls_buf_printf(&b, " &middot; %d GPUs &middot; %zu measurements &middot; %zu findings</p></header>\n<nav>",
                  ls_doc_ngpus(doc), json_array_size(json_object_get(doc, "measurements")), json_array_size(findings));
    for (int i = 0; ls_html_sections[i]; i++)
        ls_buf_printf(&b, "<a href=\"#%s\">%s</a>", ls_html_sections[i], ls_html_sections[i]);
    ls_buf_puts(&b, "</nav>\n<main>\n");
    char *text = ls_buf_take(&body);
    ls_buf_puts(&b, text);
    free(text);
    ls_buf_puts(&b, "</main>\n</body>\n</html>\n");
    return ls_buf_take(&b);
}
