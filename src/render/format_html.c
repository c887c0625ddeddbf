/* The HTML format: one self-contained file (inline CSS and SVG, no script, no external
   reference), readable offline and printable. */
#include "format.h"
#include "model/doc.h"

#include <stdlib.h>
#include <string.h>

static const char css[] =
    "body{font-family:system-ui,-apple-system,'Segoe "
    "UI',Roboto,sans-serif;margin:0;color:#1b1b1b;background:#ffffff}"
    "header{background:#12406e;color:#ffffff;padding:14px 24px}header h1{margin:0;font-size:20px}"
    "header p{margin:4px 0 0;font-size:13px;opacity:.85}"
    "nav{padding:8px 24px;background:#eef4fb;font-size:13px;display:flex;flex-wrap:wrap;gap:4px "
    "14px}"
    "nav a{color:#12406e}"
    "main{padding:0 24px 32px}section{margin-top:22px}h2{font-size:17px;border-bottom:2px solid "
    "#12406e;padding-bottom:3px}"
    "table{border-collapse:collapse;margin:2px 0 "
    "18px;font-size:12px}p.tt{font-weight:600;font-size:13px;margin:14px 0 4px}"
    "th,td{border:1px solid #d0d7de;padding:3px 7px;vertical-align:top}th{background:#f3f6f9}"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}"
    "tr.error td:first-child{background:#fdecea;color:#b71c1c;font-weight:600}"
    "tr.warning td:first-child{background:#fff4e5;color:#8a4b00;font-weight:600}"
    "tr.info td:first-child{background:#e8f1fb;color:#12406e}"
    "ul.summary li{margin:3px 0}figure{margin:10px 0 "
    "20px}figcaption{font-size:12px;color:#444;max-width:760px}"
    "svg{font-family:system-ui,sans-serif;display:block;max-width:100%;height:auto}"
    ".figs{display:flex;flex-wrap:wrap;gap:18px}.figs>*{max-width:100%}"
    "p.none{color:#555;font-style:italic}"
    "p.verdict{font-size:17px;font-weight:700;padding:10px 14px;margin:16px 0 8px;border-left:6px "
    "solid}"
    "p.verdict.ok{background:#e9f7ef;border-color:#1e7e34;color:#14532d}"
    "p.verdict.warning{background:#fff4e5;border-color:#d97706;color:#8a4b00}"
    "p.verdict.error{background:#fdecea;border-color:#b71c1c;color:#b71c1c}"
    "td{white-space:nowrap}table.sev td:nth-child(4){white-space:normal;min-width:260px}"
    "details summary{cursor:pointer;color:#12406e}"
    /* a phone (390 px): tables scroll in their own box, never the page; text wraps, the
       findings stack as blocks, the margins shrink */
    "div.tw{overflow-x:auto;max-width:100%}pre{white-space:pre-wrap;overflow-wrap:anywhere}"
    "p,li,figcaption{overflow-wrap:anywhere}td{overflow-wrap:break-word}"
    "@media (max-width:640px){header,nav{padding-left:10px;padding-right:10px}main{padding:0 10px "
    "24px}"
    "td{white-space:normal}td.n{white-space:nowrap}th,td{padding:3px "
    "4px}td:first-child{overflow-wrap:anywhere}"
    "table.sev,table.sev tbody,table.sev tr,table.sev td{display:block;border:0}"
    "table.sev tr:first-child{display:none}table.sev tr{border:1px solid #d0d7de;margin:0 0 "
    "8px;padding:4px}"
    "table.sev td:nth-child(4){min-width:0}}";

/* Every id, collapsed behind a count when there are more than a few. */
static void evidence(ls_buf_t *b, const char *ids)
{
    int n = 0;
    for (const char *p = ids; *p; p++)
        n += *p != ' ' && (p == ids || p[-1] == ' ');
    if (n <= 3) {
        ls_buf_html(b, ids);
        return;
    }
    ls_buf_printf(b, "<details><summary>%d entries</summary>", n);
    ls_buf_html(b, ids);
    ls_buf_puts(b, "</details>");
}

static void table(ls_out_t *o, const ls_table_t *t, int flags)
{
    ls_buf_t *b = &o->b;
    int right[128];
    for (int c = 0; c < t->ncols && c < 128; c++) {
        right[c] = t->nrows > 0;
        for (int r = 1; r <= t->nrows; r++)
            right[c] &= ls_cell_numeric(
                ls_table_cell(t, r, c)); /* a column of numbers is right-aligned */
    }
    ls_buf_puts(b, "<p class=\"tt\">");
    ls_buf_html(b, t->title);
    ls_buf_puts(b, flags & LS_TABLE_SEVERITY_ROWS
                       ? "</p>\n<div class=\"tw\"><table class=\"sev\">\n<tr>"
                       : "</p>\n<div class=\"tw\"><table>\n<tr>");
    for (int c = 0; c < t->ncols; c++) {
        ls_buf_puts(b, "<th>");
        ls_buf_html(b, ls_table_cell(t, 0, c));
        ls_buf_puts(b, "</th>");
    }
    ls_buf_puts(b, "</tr>\n");
    for (int r = 1; r <= t->nrows; r++) {
        if (flags & LS_TABLE_SEVERITY_ROWS) {
            ls_buf_puts(b, "<tr class=\"");
            ls_buf_html(b, ls_table_cell(t, r, 0));
            ls_buf_puts(b, "\">");
        } else {
            ls_buf_puts(b, "<tr>");
        }
        for (int c = 0; c < t->ncols; c++) {
            ls_buf_puts(b, c < 128 && right[c] ? "<td class=\"n\">" : "<td>");
            if (c == t->ncols - 1 && (flags & LS_TABLE_EVIDENCE_LAST))
                evidence(b, ls_table_cell(t, r, c));
            else
                ls_buf_html(b, ls_table_cell(t, r, c));
            ls_buf_puts(b, "</td>");
        }
        ls_buf_puts(b, "</tr>\n");
    }
    if (!t->nrows)
        ls_buf_printf(b, "<tr><td colspan=\"%d\">none</td></tr>\n", t->ncols);
    ls_buf_puts(b, "</table></div>\n");
}

static void heading(ls_out_t *o, const ls_section_t *s)
{
    ls_buf_printf(&o->b, "<section id=\"%s\">\n<h2>", s->id);
    ls_buf_html(&o->b, s->title);
    ls_buf_puts(&o->b, "</h2>\n");
}

static void section_end(ls_out_t *o)
{
    ls_buf_puts(&o->b, "</section>\n");
}

static void list(ls_out_t *o, const json_t *strings)
{
    ls_buf_puts(&o->b, "<ul class=\"summary\">\n");
    ls_format_items(&o->b, strings, "<li>", "</li>\n", ls_buf_html);
    ls_buf_puts(&o->b, "</ul>\n");
}

static void verdict(ls_out_t *o, const char *line, int worst)
{
    ls_buf_printf(&o->b, "<p class=\"verdict %s\">",
                  worst == 2   ? "error"
                  : worst == 1 ? "warning"
                               : "ok");
    ls_buf_html(&o->b, line);
    ls_buf_puts(&o->b, "</p>\n");
}

static void note(ls_out_t *o, const char *sentence)
{
    ls_buf_puts(&o->b, "<p class=\"none\">");
    ls_buf_html(&o->b, sentence);
    ls_buf_puts(&o->b, "</p>\n");
}

/* One figure: bare pictures, or <figure> with a caption (or the sentence saying why
   there is no picture). */
static int figure(ls_out_t *o, const ls_figure_t *f)
{
    if (!f->caption)
        return f->draw(&o->b, o, f->arg);
    ls_buf_puts(&o->b, "<figure>");
    int n = f->draw(&o->b, o, f->arg);
    if (n) {
        ls_buf_puts(&o->b, "<figcaption>");
        ls_buf_html(&o->b, f->caption);
        ls_buf_puts(&o->b, "</figcaption>");
    } else {
        ls_buf_puts(&o->b, "<p class=\"none\">");
        ls_buf_html(&o->b, f->none);
        ls_buf_puts(&o->b, "</p>");
    }
    ls_buf_puts(&o->b, "</figure>\n");
    return n;
}

static int figures(ls_out_t *o, const ls_figure_t *f, int n)
{
    int drawn = 0;
    ls_buf_puts(&o->b, "<div class=\"figs\">\n");
    for (int i = 0; i < n; i++)
        drawn += figure(o, &f[i]);
    ls_buf_puts(&o->b, "</div>\n");
    o->figures += drawn;
    return drawn;
}

static void text(ls_out_t *o, const char *s)
{
    ls_buf_puts(&o->b, "<pre>");
    ls_buf_html(&o->b, s);
    ls_buf_puts(&o->b, "</pre>\n");
}

static void head(ls_buf_t *b, const ls_out_t *o)
{
    const char *host = ls_json_str(json_object_get(o->doc, "host"), "hostname", "host unknown");
    const char *created = ls_json_str(o->doc, "created", "unknown");
    ls_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    ls_buf_printf(b,
                  "<meta name=\"linkscope-svg-count\" content=\"%d\">\n<title>linkscope report: ",
                  o->figures);
    ls_buf_html(b, host);
    ls_buf_puts(b, ", ");
    ls_buf_html(b, created);
    ls_buf_printf(b, "</title>\n<style>%s</style>\n</head>\n<body>\n<header><h1>linkscope report: ",
                  css);
    ls_buf_html(b, host);
    ls_buf_puts(b, "</h1><p>");
    ls_buf_html(b, created);
    ls_buf_printf(b,
                  " &middot; %d GPUs &middot; %zu measurements &middot; %zu "
                  "findings</p></header>\n<nav>",
                  ls_doc_ngpus(o->doc), json_array_size(json_object_get(o->doc, "measurements")),
                  json_array_size(o->findings));
    for (const ls_section_t *s = ls_outline; s->id; s++)
        if (ls_section_present(s, o->doc))
            ls_buf_printf(b, "<a href=\"#%s\">%s</a>", s->id, s->id);
    ls_buf_puts(b, "</nav>\n<main>\n");
}

static char *end(ls_out_t *o)
{
    ls_buf_t b = {0};
    head(&b, o);
    char *body = ls_buf_take(&o->b);
    ls_buf_puts(&b, body);
    free(body);
    ls_buf_puts(&b, "</main>\n</body>\n</html>\n");
    return ls_buf_take(&b);
}

/* No begin: the head counts the figures, so end() writes it. */
const ls_format_t ls_format_html = {
    .name = "html",
    .ext = ".html",
    .caps = LS_FMT_FIGURES | LS_FMT_EMPTY_NOTE,
    .heading = heading,
    .section_end = section_end,
    .table = table,
    .list = list,
    .figures = figures,
    .note = note,
    .text = text,
    .end = end,
    .verdict = verdict,
    .help = "one self-contained HTML file: inline CSS and SVG heatmaps of\n"
            "every matrix, topology picture, bus bandwidth against size; no\n"
            "script, no network access needed",
};
