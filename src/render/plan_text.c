/* Findings and plan as plain text, for `linkscope plan` and the terminal report. */
#include "render.h"
#include "strbuf.h"
#include "model/gpuset.h"
#include "model/doc.h"

#include <stdlib.h>
#include <string.h>

/* Compact GPU set: "0-4,7,9". */
static void gpu_list(ls_buf_t *b, const json_t *gpus)
{
    char set[256];
    ls_format_gpu_mask(ls_gpu_mask_of(gpus), set, sizeof set);
    ls_buf_puts(b, set);
}

/* Evidence ids a text report shows of each finding; the rest are counted ("and N
   more"); HTML and JSON carry them all. */
enum { EVIDENCE_SHOWN = 3 };

/* A heading line, wrapped to the terminal, after a blank line. */
static void heading(ls_buf_t *b, const char *text)
{
    ls_buf_puts(b, "\n");
    ls_buf_wrap(b, text, 0, 2, ls_term_width());
}

/* A row of fixed columns, then free text wrapped under it. */
static void row_tail(ls_buf_t *b, const char *fixed, const char *tail)
{
    ls_buf_puts(b, fixed);
    ls_buf_wrap(b, tail, (int)strlen(fixed), 8, ls_term_width());
}

static void evidence_text(ls_buf_t *b, const json_t *ids)
{
    size_t k, n = json_array_size(ids);
    const json_t *e;
    if (!n)
        return;
    ls_buf_t line = {0};
    ls_buf_puts(&line, "evidence:");
    json_array_foreach(ids, k, e) {
        if (k >= EVIDENCE_SHOWN && n > EVIDENCE_SHOWN + 1) {
            ls_buf_printf(&line, " and %zu more", n - k);
            break;
        }
        ls_buf_printf(&line, " %s", json_string_value(e));
    }
    char *s = ls_buf_take(&line);
    ls_buf_puts(b, "          ");
    ls_buf_wrap(b, s, 10, 20, ls_term_width());
    free(s);
}

static void findings_text(ls_buf_t *b, const json_t *findings)
{
    ls_buf_printf(b, "Findings (%zu)\n", json_array_size(findings));
    if (!json_array_size(findings))
        ls_buf_puts(b, "  none: every rule passed\n");
    size_t i;
    const json_t *f;
    json_array_foreach(findings, i, f) {
        char head[64];
        int col = snprintf(head, sizeof head, "  %-7s %-16s ", ls_json_str(f, "severity", "?"),
                           ls_json_str(f, "rule", "?"));
        ls_buf_puts(b, head);
        ls_buf_wrap(b, ls_json_str(f, "message", ""), col, 10, ls_term_width());
        evidence_text(b, json_object_get(f, "evidence"));
    }
}

static void islands_text(ls_buf_t *b, const json_t *plan)
{
    if (!json_array_size(json_object_get(plan, "islands")))
        return; /* no heading over nothing: the summary says what it would need */
    heading(b, "Islands (groups whose every pair is joined by the class or better)");
    size_t i;
    const json_t *is;
    json_array_foreach(json_object_get(plan, "islands"), i, is) {
        ls_buf_printf(b, "  %-4s %2lld GPUs: ", ls_json_str(is, "link_class", "unknown"),
                      ls_json_int(is, "size", 0));
        gpu_list(b, json_object_get(is, "gpus"));
        size_t unknown = json_array_size(json_object_get(is, "unknown_pairs"));
        if (unknown) { /* a cut paste: links it does not show are not judged, not absent */
            const json_t *p0 = json_array_get(json_object_get(is, "unknown_pairs"), 0);
            ls_buf_printf(b, " (%zu pair%s not shown in the text, e.g. %lld-%lld: not judged)",
                          unknown, unknown == 1 ? "" : "s",
                          (long long)json_integer_value(json_array_get(p0, 0)),
                          (long long)json_integer_value(json_array_get(p0, 1)));
        }
        ls_buf_puts(b, "\n");
    }
}

static void groups_text(ls_buf_t *b, const json_t *plan)
{
    if (!json_array_size(json_object_get(plan, "groups")))
        return;
    heading(b, "Best GPU set per group size (all_reduce busbw, GB/s; expected = slowest link of "
               "the best ring)");
    ls_buf_printf(b, "  %3s  %-24s %9s %9s  %s\n", "k", "GPUs", "expected", "measured", "from");
    size_t i;
    const json_t *g;
    json_array_foreach(json_object_get(plan, "groups"), i, g) {
        ls_buf_t set = {0};
        gpu_list(&set, json_object_get(g, "gpus"));
        char *s = ls_buf_take(&set), exp[32] = "unknown", meas[32] = "-";
        if (json_object_get(g, "expected_busbw_gbps")) /* absent: no link class to expect from */
            ls_fmt_num(ls_json_num(g, "expected_busbw_gbps", 0), exp, sizeof exp);
        if (json_object_get(g, "measured_busbw_gbps"))
            ls_fmt_num(ls_json_num(g, "measured_busbw_gbps", 0), meas, sizeof meas);
        ls_buf_printf(b, "  %3lld  %-24s %9s %9s  %s\n", ls_json_int(g, "k", 0), s, exp, meas,
                      ls_json_str(g, "expected_from", ""));
        free(s);
    }
    const json_t *mg = json_object_get(plan, "measured_groups");
    if (!json_array_size(mg))
        return;
    heading(b, "Measured all_reduce sets (busbw GB/s at the largest size, median over runs)");
    ls_buf_printf(b, "  %-24s %-22s %9s %9s %6s\n", "GPUs", "variant", "measured", "expected",
                  "ratio");
    json_array_foreach(mg, i, g) {
        ls_buf_t set = {0};
        gpu_list(&set, json_object_get(g, "gpus"));
        char *s = ls_buf_take(&set), exp[32] = "unknown", meas[32], ratio[32] = "-";
        if (!strcmp(ls_json_str(g, "expected_from", ""), "p2p_off"))
            snprintf(exp, sizeof exp, "-");
        /* absent for a variant with P2P off: the links predict nothing about it */
        if (json_object_get(g, "expected_busbw_gbps"))
            ls_fmt_num(ls_json_num(g, "expected_busbw_gbps", 0), exp, sizeof exp);
        ls_fmt_num(ls_json_num(g, "measured_busbw_gbps", 0), meas, sizeof meas);
        if (json_object_get(g, "ratio"))
            ls_fmt_num(ls_json_num(g, "ratio", 0), ratio, sizeof ratio);
        ls_buf_printf(b, "  %-24s %-22s %9s %9s %6s\n", s, ls_json_str(g, "variant", ""), meas, exp,
                      ratio);
        free(s);
    }
}

static void pairs_hbm_text(ls_buf_t *b, const json_t *plan)
{
    long long equal = ls_json_int(plan, "equal_best_pairs", 0);
    char title[160], fixed[128];
    snprintf(title, sizeof title,
             "Best pairs for two-GPU model parallelism (both directions, GB/s; %lld pair%s within "
             "5%% of the fastest)",
             equal, equal == 1 ? "" : "s");
    if (json_array_size(json_object_get(plan, "best_pairs")))
        heading(b, title);
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(plan, "best_pairs"), i, p) {
        char v[32];
        ls_fmt_num(ls_json_num(p, "bidir_gbps", 0), v, sizeof v);
        snprintf(fixed, sizeof fixed, "  GPU%lld + GPU%lld  %-5s %9s  ",
                 (long long)json_integer_value(json_array_get(json_object_get(p, "gpus"), 0)),
                 (long long)json_integer_value(json_array_get(json_object_get(p, "gpus"), 1)),
                 ls_json_str(p, "link", "unknown"), v);
        ls_buf_t tail = {0};
        ls_buf_puts(&tail, ls_json_str(p, "from", ""));
        /* imported documents often know no memory size: say nothing rather than "0 GiB" */
        if (ls_json_num(p, "memory_total_bytes", 0) > 0)
            ls_buf_printf(&tail, ", %.0f GiB together",
                          ls_json_num(p, "memory_total_bytes", 0) / (1 << 30));
        char *t = ls_buf_take(&tail);
        row_tail(b, fixed, t);
        free(t);
    }
    snprintf(title, sizeof title,
             "Best single GPUs for memory-bound work (HBM traffic, GB/s; %lld within 5%% of the "
             "fastest)",
             ls_json_int(plan, "equal_best_hbm_gpus", 0));
    if (json_array_size(json_object_get(plan, "best_hbm_gpus")))
        heading(b, title);
    json_array_foreach(json_object_get(plan, "best_hbm_gpus"), i, p) {
        char v[32];
        ls_fmt_num(ls_json_num(p, "gbps", 0), v, sizeof v);
        snprintf(fixed, sizeof fixed, "  GPU%lld  %-24s %9s  ", ls_json_int(p, "gpu", -1),
                 ls_json_str(p, "name", ""), v);
        ls_buf_t tail = {0};
        ls_buf_puts(&tail, ls_json_str(p, "from", ""));
        if (json_object_get(p, "entry")) /* which method gave the figure: read, copy, ... */
            ls_buf_printf(&tail, " (%s)", ls_json_str(p, "entry", ""));
        if (json_object_get(p, "efficiency"))
            ls_buf_printf(&tail, ", %.0f%% of theoretical", 100 * ls_json_num(p, "efficiency", 0));
        char *t = ls_buf_take(&tail);
        row_tail(b, fixed, t);
        free(t);
    }
}

static void keep_out_text(ls_buf_t *b, const json_t *plan)
{
    const json_t *ko = json_object_get(plan, "keep_out");
    ls_buf_puts(b, "\nKeep out of synchronous groups\n");
    if (!json_array_size(ko))
        ls_buf_puts(b, "  none\n");
    size_t i;
    const json_t *k;
    json_array_foreach(ko, i, k) {
        const char *name = ls_json_str(k, "name", ""); /* a name not known is left out */
        ls_buf_printf(b, "  GPU%lld%s%s:\n", ls_json_int(k, "gpu", -1), *name ? " " : "", name);
        size_t j;
        const json_t *r;
        json_array_foreach(json_object_get(k, "reasons"), j, r) {
            ls_buf_puts(b, "    - ");
            ls_buf_wrap(b, json_string_value(r), 6, 6, ls_term_width());
        }
    }
}

static void summary_text(ls_buf_t *b, const json_t *plan)
{
    ls_buf_puts(b, "\nPlan\n");
    size_t i;
    const json_t *s;
    json_array_foreach(json_object_get(plan, "summary"), i, s) {
        ls_buf_puts(b, "  * ");
        ls_buf_wrap(b, json_string_value(s), 4, 4, ls_term_width());
    }
}

char *ls_render_plan_text(const json_t *findings, const json_t *plan)
{
    ls_buf_t b = {0};
    findings_text(&b, findings);
    summary_text(&b, plan);
    islands_text(&b, plan);
    groups_text(&b, plan);
    pairs_hbm_text(&b, plan);
    keep_out_text(&b, plan);
    return ls_buf_take(&b);
}
