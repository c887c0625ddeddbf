/* The report's outline: which sections, in which order, and what each holds. Written
   once for every format; a section asks the format's capabilities (format.h) where the
   formats differ in what they show, never in how. */
#include "burn_render.h"
#include "family_report.h"
#include "format.h"
#include "matrix.h"
#include "render.h"
#include "run_tables.h"
#include "spec_render.h"
#include "svg.h"
#include "tools_tables.h"
#include "model/doc.h"
#include "model/view.h"

#include <stdlib.h>
#include <string.h>

/* The format's operations; one it leaves NULL writes nothing. */
static void list(ls_out_t *o, const json_t *strings)
{
    if (o->fmt->list)
        o->fmt->list(o, strings);
}

static int figures(ls_out_t *o, const ls_figure_t *f, int n)
{
    return o->fmt->figures ? o->fmt->figures(o, f, n) : 0;
}

static void note(ls_out_t *o, const char *sentence)
{
    if (o->fmt->note)
        o->fmt->note(o, sentence);
}

static void text(ls_out_t *o, const char *s)
{
    if (o->fmt->text)
        o->fmt->text(o, s);
}

/* Shows a table and frees it; NULL (a table that does not apply) shows nothing. */
static void show(ls_out_t *o, ls_table_t *t, int flags)
{
    if (t && t->nrows > 0) /* no heading over an empty table */
        o->fmt->table(o, t, flags);
    ls_table_free(t);
}

/* Verdict first, then the headline figures; the run's metadata closes the report. */
static void summary(ls_out_t *o)
{
    int e, w, i;
    char *v = ls_render_verdict(o->findings);
    int worst = ls_verdict_counts(o->findings, &e, &w, &i);
    if (o->fmt->verdict)
        o->fmt->verdict(o, v, worst);
    else
        text(o, v);
    free(v);
    if (o->fmt->caps & LS_FMT_PROSE) {
        char *head = ls_render_headline(o->doc, o->plan);
        text(o, head);
        free(head);
    } else {
        show(o, ls_table_headline(o->doc, o->plan), 0);
    }
    show(o, ls_table_run_cuts(o->doc), 0); /* steps the budget cut: they qualify the figures */
}

static void metadata(ls_out_t *o)
{
    show(o, ls_table_host_summary(o->doc), 0);
}

static void findings(ls_out_t *o)
{
    if (o->fmt->caps & LS_FMT_PROSE) { /* findings and plan in one text */
        char *both = ls_render_plan_text(o->findings, o->plan);
        text(o, both);
        free(both);
    } else if ((o->fmt->caps & LS_FMT_EMPTY_NOTE) && !json_array_size(o->findings)) {
        note(o, "No finding: every rule passed.");
    } else {
        show(o, ls_table_findings(o->findings), LS_TABLE_SEVERITY_ROWS | LS_TABLE_EVIDENCE_LAST);
    }
}

static void plan(ls_out_t *o)
{
    list(o, json_object_get(o->plan, "summary"));
    show(o, ls_table_islands(o->plan), 0);
    show(o, ls_table_groups(o->plan), 0);
    show(o, ls_table_measured_groups(o->plan), 0);
    show(o, ls_table_pairs(o->plan), 0);
    show(o, ls_table_best_hbm(o->plan), 0);
    show(o, ls_table_keep_out(o->plan), 0);
}

static int draw_topology(ls_buf_t *b, const ls_out_t *o, const void *arg)
{
    (void)arg;
    return ls_svg_topology(b, o->doc, o->findings);
}

static int draw_links(ls_buf_t *b, const ls_out_t *o, const void *arg)
{
    (void)arg;
    return ls_svg_link_matrix(b, o->doc);
}

static void topology(ls_out_t *o)
{
    static const ls_figure_t figs[] = {
        {draw_topology, NULL,
         "GPUs as nodes (filled by NUMA node where the document knows it, white where not); lines "
         "coloured by link class and labelled with the link word up to 8 GPUs, or one NVSwitch "
         "fabric "
         "where every pair has the same NVLink, each GPU's own NIC (PIX/PXB) beside it; PCIe "
         "machines as "
         "NUMA nodes, PCIe switches and NVLink arcs (thicker: more NVLinks; "
         "dashed: across the SMP interconnect; red: a pair far below its class).",
         "No GPUs in the document."},
        {draw_links, NULL, "Link types as nvidia-smi topo -m prints them, GPU(row) -> GPU(column).",
         "No link types recorded."},
    };
    int drawn = figures(o, figs, 2);
    if (!drawn && !json_array_size(json_object_get(o->doc, "links"))) /* no heading over nothing */
        note(o, "No topology recorded: import `nvidia-smi topo -m` to judge links.");
    show(o, ls_table_topology(o->doc), 0);
    show(o, ls_table_p2p_status(o->doc), 0);
}

static int draw_heatmap(ls_buf_t *b, const ls_out_t *o, const void *arg)
{
    (void)o;
    ls_svg_heatmap(b, arg);
    return 1;
}

static void matrices(ls_out_t *o)
{
    ls_matrix_t *mats;
    int n = ls_doc_matrices(o->doc, &mats);
    if (!n)
        note(o, "No P2P or latency measurements.");
    if (n && ls_doc_ngpus(o->doc) <= LS_PAIR_TABLE_MAX_GPUS) { /* a few GPUs: a table per kind */
        ls_table_t *tables[32];
        int nt = ls_pair_tables(mats, n, tables, 32);
        for (int k = 0; k < nt; k++)
            show(o, tables[k], 0);
    } else if (o->fmt->caps & LS_FMT_FIGURES) {
        ls_matrix_family_scale(mats, n); /* heatmaps of one kind share one colour scale */
        ls_figure_t *figs = calloc((size_t)n + 1, sizeof *figs);
        if (!figs)
            abort();
        for (int k = 0; k < n; k++)
            figs[k] = (ls_figure_t){draw_heatmap, &mats[k], mats[k].title, NULL};
        figures(o, figs, n);
        free(figs);
    } else {
        for (int k = 0; k < n; k++)
            show(o, ls_matrix_table(&mats[k]), 0);
    }
    free(mats);
    show(o, ls_table_fabric(o->doc), 0);
}

static void memory(ls_out_t *o)
{
    if (!ls_doc_has(o->doc, &ls_fam_hbm) && !ls_doc_has(o->doc, &ls_fam_host))
        note(o, "No device memory or host copy measurements.");
    show(o, ls_table_hbm(o->doc, o->plan), 0);
    show(o, ls_table_host_copies(o->doc, o->plan), 0);
}

static int draw_collectives(ls_buf_t *b, const ls_out_t *o, const void *arg)
{
    (void)arg;
    return ls_svg_collective_charts(b, o->doc, o->plan);
}

static void collectives(ls_out_t *o)
{
    static const ls_figure_t charts = {draw_collectives, NULL, NULL, NULL};
    int n = figures(o, &charts, 1);
    if (o->fmt->caps & LS_FMT_FIGURES) /* what was too short to chart */
        show(o, ls_table_unplotted(o->doc, o->plan), 0);
    if (!n && !ls_doc_has(o->doc, &ls_fam_nccl))
        note(o, "No collective measurements.");
    else
        show(o, ls_table_collectives(o->doc, o->plan), 0);
}

/* The acceptance check against the datasheet as the run's spec step stored it: the part
   each GPU was identified as, each check, and the tensor-parallel verdict (wrapped at the
   terminal's width, 100 in the other formats: text is shown as written in every format). */
static void acceptance(ls_out_t *o)
{
    show(o, ls_table_spec_parts(o->doc), 0);
    show(o, ls_table_spec_checks(o->doc), 0);
    ls_buf_t b = {0};
    const json_t *tp = json_object_get(json_object_get(o->doc, "spec"), "tp");
    ls_spec_tp_text(&b, tp, (int)json_array_size(json_object_get(o->doc, "gpus")),
                    o->fmt == &ls_format_term ? ls_term_width() : 100);
    char *t = ls_buf_take(&b);
    text(o, t);
    free(t);
}

static int draw_burn(ls_buf_t *b, const ls_out_t *o, const void *arg)
{
    (void)arg;
    return ls_svg_burn_charts(b, o->doc);
}

/* The sustained-load family: its table, and clock, power and temperature over time. */
static void burn(ls_out_t *o)
{
    static const ls_figure_t charts = {draw_burn, NULL, NULL, NULL};
    char *t = ls_burn_text(o->doc);
    text(o, t);
    free(t);
    figures(o, &charts, 1);
}

/* perftest's, nvloom's and DCGM's imported figures (no linkscope family of their own). */
static void other_tools(ls_out_t *o)
{
    show(o, ls_table_perftest(o->doc), 0);
    show(o, ls_table_nvloom(o->doc), 0);
    show(o, ls_table_dcgm_figures(o->doc), 0);
}

static void inventory(ls_out_t *o)
{
    show(o, ls_table_inventory(o->doc), 0);
    show(o, ls_table_nics(o->doc), 0);
}

const ls_section_t ls_outline[] = {
    {"summary", "Verdict and headline", NULL, NULL, LS_SEC_PREAMBLE, summary, NULL},
    {"findings", "Findings", NULL, "Findings and plan", 0, findings, NULL},
    {"plan", "Plan", NULL, NULL, LS_SEC_IN_PROSE, plan, NULL},
    {"topology", "Topology", NULL, NULL, 0, topology, NULL},
    {"matrices", "P2P and latency matrices", "Matrices", NULL, 0, matrices, NULL},
    {"memory", "Memory and host copies", NULL, NULL, 0, memory, NULL},
    {"collectives", "Collectives", NULL, NULL, 0, collectives, NULL},
    {"acceptance", "Acceptance (against the datasheet)", NULL, NULL, 0, acceptance,
     ls_spec_present},
    {"burn", "Sustained load", NULL, NULL, 0, burn, ls_burn_count},
    {"tools", "Other tools (imported)", NULL, NULL, 0, other_tools, ls_tools_present},
    {"inventory", "Inventory", NULL, NULL, 0, inventory, NULL},
    {"run", "Run", NULL, NULL, 0, metadata, NULL},
    {NULL, NULL, NULL, NULL, 0, NULL, NULL},
};

int ls_section_present(const ls_section_t *s, const json_t *doc)
{
    return !s->present || s->present(doc);
}

const char *ls_section_short_title(const ls_format_t *fmt, const ls_section_t *s)
{
    if ((fmt->caps & LS_FMT_PROSE) && s->prose_title)
        return s->prose_title;
    return s->short_title ? s->short_title : s->title;
}

const ls_format_t *ls_format_find(const char *name)
{
    for (int i = 0; ls_formats[i]; i++)
        if (!strcmp(ls_formats[i]->name, name))
            return ls_formats[i];
    return NULL;
}

const ls_format_t *ls_format_of_path(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (dot && !strcmp(dot, ".htm"))
        dot = ".html";
    for (int i = 0; dot && ls_formats[i]; i++)
        if (ls_formats[i]->ext && !strcmp(ls_formats[i]->ext, dot))
            return ls_formats[i];
    return NULL;
}

/* The section's families that render has no tables of its own for (LS_SHOW_TABLE,
   model/families.c): one table each, after the section's own. */
static void family_tables(ls_out_t *o, const ls_section_t *s)
{
    for (int k = 0; ls_fams[k]; k++)
        if (ls_fams[k]->show == LS_SHOW_TABLE && ls_fams[k]->section &&
            !strcmp(ls_fams[k]->section, s->id))
            show(o, ls_table_family(o->doc, o->plan, ls_fams[k]), 0);
}

char *ls_report(const ls_format_t *fmt, const json_t *doc, const json_t *findings,
                const json_t *plan)
{
    ls_out_t o = {fmt, {0}, doc, findings, plan, 0};
    ls_view_pin(doc); /* the sections walk the entries many times: their views once */
    if (fmt->begin)
        fmt->begin(&o);
    int prose = fmt->caps & LS_FMT_PROSE;
    for (const ls_section_t *s = ls_outline; s->id; s++) {
        if ((prose && (s->flags & LS_SEC_IN_PROSE)) || !ls_section_present(s, doc))
            continue;
        if (fmt->heading)
            fmt->heading(&o, s);
        s->content(&o);
        family_tables(&o, s);
        if (fmt->section_end)
            fmt->section_end(&o);
    }
    char *text = fmt->end ? fmt->end(&o) : ls_buf_take(&o.b);
    ls_view_unpin(doc);
    return text;
}

char *ls_format_table(const ls_format_t *fmt, const ls_table_t *t)
{
    ls_buf_t b = {0};
    ls_format_table_to(&b, fmt, t, 0);
    return ls_buf_take(&b);
}

void ls_format_table_to(ls_buf_t *b, const ls_format_t *fmt, const ls_table_t *t, int flags)
{
    ls_out_t o = {fmt, *b, NULL, NULL, NULL, 0};
    fmt->table(&o, t, flags);
    *b = o.b;
}

char *ls_report_term(const json_t *doc, const json_t *findings, const json_t *plan)
{
    return ls_report(&ls_format_term, doc, findings, plan);
}

char *ls_report_md(const json_t *doc, const json_t *findings, const json_t *plan)
{
    return ls_report(&ls_format_md, doc, findings, plan);
}

char *ls_report_html(const json_t *doc, const json_t *findings, const json_t *plan)
{
    return ls_report(&ls_format_html, doc, findings, plan);
}

int ls_text_width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

int ls_cell_numeric(const char *s)
{
    if (!strcmp(s, "-"))
        return 1;
    char *end;
    strtod(s, &end);
    if (end != s && !strncmp(end, " .. ", 4)) { /* a range "4492 .. 4499" aligns as a number */
        const char *hi = end + 4;
        strtod(hi, &end);
        return end != hi && *end == '\0';
    }
    return end != s && (*end == '\0' || !strcmp(end, "%")); /* "93%" too */
}

void ls_format_items(ls_buf_t *b, const json_t *strings, const char *before, const char *after,
                     void (*esc)(ls_buf_t *, const char *))
{
    size_t i;
    const json_t *s;
    json_array_foreach(strings, i, s) {
        ls_buf_puts(b, before);
        esc(b, json_string_value(s));
        ls_buf_puts(b, after);
    }
}

char *ls_evidence_capped(const char *ids, int shown)
{
    ls_buf_t b = {0};
    int n = 0, total = 0;
    for (const char *p = ids; *p;) {
        size_t len = strcspn(p, " ");
        if (len)
            total++;
        p += len + (p[len] == ' ');
    }
    for (const char *p = ids; *p && total;) {
        size_t len = strcspn(p, " ");
        if (len && n == shown && total > shown + 1) {
            ls_buf_printf(&b, " and %d more", total - n);
            break;
        }
        if (len)
            ls_buf_printf(&b, "%s%.*s", n++ ? " " : "", (int)len, p);
        p += len + (p[len] == ' ');
    }
    return ls_buf_take(&b);
}
