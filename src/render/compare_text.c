/* linkscope compare's text (compare_text.h): two tables, the context and the figures, each
   through the terminal's fixed columns (ls_format_columns) or Markdown (ls_format_md). */
#include "compare_text.h"
#include "format.h"
#include "util/sanitize.h"
#include "model/doc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* what, A, B: indented two blanks under "context:" */
static const ls_column_t context_cols[] = {{13, 1, 0, 2}, {32, 1, 0, 0}, {0, 1, 0, 0}};
/* figure, unit, A, B, B/A, change, verdict (two blanks before it) */
static const ls_column_t figure_cols[] = {{52, 1, 0, 0}, {5, 1, 0, 0}, {11, 0, 0, 0}, {11, 0, 0, 0},
                                          {7, 0, 0, 0},  {8, 0, 0, 0}, {0, 1, 0, 1}};

static void put_table(ls_out_t *o, ls_table_t *t, const ls_column_t *cols, int flags)
{
    ls_table_columns(t, cols);
    ls_format_table_to(&o->b, o->fmt, t, flags);
    ls_table_free(t);
}

static void context(ls_out_t *o, const json_t *ctx, int md)
{
    if (json_array_size(ctx) == 0)
        return;
    static const char *const header[] = {"context", "A", "B"};
    ls_table_t *t = ls_table_new(md ? "" : "context:", 3, header);
    size_t i;
    const json_t *c;
    json_array_foreach(ctx, i, c) {
        char b[512];
        snprintf(b, sizeof b, "%s%s", ls_json_str(c, "b", ""),
                 !json_is_true(json_object_get(c, "differs")) ? ""
                 : md                                         ? " (differs)"
                                                              : "   (differs)");
        const char *row[] = {ls_json_str(c, "what", ""), ls_json_str(c, "a", ""), b};
        ls_table_row(t, row);
    }
    put_table(o, t, context_cols, md ? 0 : LS_TABLE_NO_HEADER);
    if (!md) /* Markdown's table ends in a blank line of its own */
        ls_buf_puts(&o->b, "\n");
}

static void fmt_value(double v, char *buf, size_t len)
{
    snprintf(buf, len, v != 0 && v < 10 && v > -10 ? "%.3f" : "%.2f", v);
}

/* B/A and the change, "-" where the row has no ratio. */
static void ratio_cells(const json_t *row, char *ratio, char *change, size_t len)
{
    if (!json_object_get(row, "ratio"))
        return;
    snprintf(ratio, len, "%.3f", ls_json_num(row, "ratio", 0));
    double pct = ls_json_num(row, "change_pct", 0), lim = ls_json_num(row, "limit_pct", 0);
    char a1[32], b1[32];
    snprintf(a1, sizeof a1, "%.1f", fabs(pct));
    snprintf(b1, sizeof b1, "%.1f", lim);
    /* +5.02% (a gain beyond 5%) and +4.97% (same) both read "+5.0%": two decimals */
    snprintf(change, len, strcmp(a1, b1) ? "%+.1f%%" : "%+.2f%%", pct);
}

static int is_flagged(const json_t *row)
{
    const char *verdict = ls_json_str(row, "verdict", "");
    return strcmp(verdict, "regression") == 0 || strcmp(verdict, "gain") == 0;
}

static void figure_row(ls_table_t *t, const json_t *row, int md)
{
    const char *verdict = ls_json_str(row, "verdict", "");
    int flagged = is_flagged(row);
    char va[32], vb[32], ratio[32] = "-", change[32] = "-", why[64] = "", v[128];
    fmt_value(ls_json_num(row, "a", 0), va, sizeof va);
    fmt_value(ls_json_num(row, "b", 0), vb, sizeof vb);
    ratio_cells(row, ratio, change, sizeof ratio);
    if (flagged)
        snprintf(why, sizeof why, " (beyond %.1f%%)", ls_json_num(row, "limit_pct", 0));
    else if (json_is_true(
                 json_object_get(row, "within_noise"))) /* past the threshold, not the noise */
        snprintf(why, sizeof why, ", within noise (%.1f%%)", ls_json_num(row, "limit_pct", 0));
    const char *bold = flagged && md ? "**" : "";
    snprintf(v, sizeof v, "%s%s%s%s", bold, verdict, bold, why);
    const char *cells[] =
        {ls_json_str(row, "label", ""), ls_json_str(row, "unit", ""), va, vb, ratio, change, v};
    ls_table_row(t, cells);
}

static void figures(ls_out_t *o, const json_t *block, const ls_compare_view_t *v, const char *an,
                    const char *bn)
{
    int md = v->markdown;
    const char *header[] = {"figure", "unit",   md ? an : "A", md ? bn : "B",
                            "B/A",    "change", "verdict"};
    ls_table_t *t = ls_table_new("", 7, header);
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(block, "rows"), i, row) {
        if (!v->changes_only || is_flagged(row))
            figure_row(t, row, md);
    }
    put_table(o, t, figure_cols, 0);
    long long total = (long long)json_array_size(json_object_get(block, "rows"));
    long long reg = ls_json_int(block, "regressions", 0), gain = ls_json_int(block, "gains", 0);
    ls_buf_printf(&o->b,
                  "%lld figure%s in common: %lld regression%s, %lld gain%s, %lld within noise or "
                  "threshold; only in A: %lld, only in B: %lld\n",
                  total, total == 1 ? "" : "s", reg, reg == 1 ? "" : "s", gain,
                  gain == 1 ? "" : "s", total - reg - gain, ls_json_int(block, "only_a", 0),
                  ls_json_int(block, "only_b", 0));
}

/* s as it goes into a Markdown heading (HTML-escaped), or as it is on a terminal. */
static const char *md_text(const ls_compare_view_t *v, const char *s, char *buf, size_t len)
{
    return v->markdown ? ls_md_escape(s, buf, len) : s;
}

char *ls_compare_text(const json_t *result, const ls_compare_view_t *v)
{
    ls_out_t o = {v->markdown ? &ls_format_md : &ls_format_columns, {0}, NULL, NULL, NULL, 0};
    const char *h = v->markdown ? "## " : "";
    if (!v->b) {
        size_t i;
        const json_t *block;
        json_array_foreach(json_object_get(result, "variants"), i, block) {
            const char *name = ls_json_str(block, "variant", "");
            char ea[512], eb[256], en[256]; /* a heading is Markdown too: names escaped */
            ls_buf_printf(&o.b,
                          "%sNCCL variants in %s: A = %s, B = %s (threshold %.1f%%, %.1f%% for "
                          "us)\n\n",
                          h, md_text(v, v->a, ea, sizeof ea), md_text(v, v->base, eb, sizeof eb),
                          md_text(v, name, en, sizeof en), v->threshold_pct,
                          v->latency_threshold_pct);
            figures(&o, block, v, v->base, name);
            ls_buf_puts(&o.b, "\n");
        }
        return ls_buf_take(&o.b);
    }
    char ea[512], eb[512];
    ls_buf_printf(&o.b, "%slinkscope compare: A = %s, B = %s (threshold %.1f%%, %.1f%% for us)\n\n",
                  h, md_text(v, v->a, ea, sizeof ea), md_text(v, v->b, eb, sizeof eb),
                  v->threshold_pct, v->latency_threshold_pct);
    context(&o, json_object_get(result, "context"), v->markdown);
    figures(&o, result, v, "A", "B");
    return ls_buf_take(&o.b);
}
