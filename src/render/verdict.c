/* The verdict: the one line every report opens with. Healthy when no finding is an
   error or a warning; otherwise how many of each, and the worst one named (findings
   come ordered errors first, analyze/findings.c, so the worst is the first of the
   highest severity present). The rules and their severities are analyze's; this file
   only counts what the findings list says. */
#include "render.h"
#include "strbuf.h"
#include "model/doc.h"
#include "model/xid.h"

#include <string.h>

static int severity_rank(const json_t *f)
{
    const char *s = ls_json_str(f, "severity", "info");
    return !strcmp(s, "error") ? 2 : !strcmp(s, "warning") ? 1 : 0;
}

int ls_verdict_counts(const json_t *findings, int *errors, int *warnings, int *infos)
{
    int n[3] = {0, 0, 0};
    size_t i;
    const json_t *f;
    json_array_foreach(findings, i, f)
        n[severity_rank(f)]++;
    *errors = n[2], *warnings = n[1], *infos = n[0];
    return n[2] ? 2 : n[1] ? 1 : 0;
}

const json_t *ls_verdict_worst(const json_t *findings)
{
    const json_t *worst = NULL, *f;
    size_t i;
    json_array_foreach(findings, i, f) {
        if (!worst || severity_rank(f) > severity_rank(worst))
            worst = f;
    }
    return worst && severity_rank(worst) > 0 ? worst : NULL;
}

static void count(ls_buf_t *b, int n, const char *one, const char *many, int *first)
{
    if (!n)
        return;
    ls_buf_printf(b, "%s%d %s", *first ? "" : ", ", n, n == 1 ? one : many);
    *first = 0;
}

/* What the first cut input lacked (analyze's cut_paste finding, its "missing"), and how
   many inputs were cut; NULL when the whole input was given. */
static const char *cut_input(const json_t *findings, int *cut)
{
    const char *missing = NULL;
    size_t i;
    const json_t *f;
    *cut = 0;
    json_array_foreach(findings, i, f) {
        if (strcmp(ls_json_str(f, "rule", ""), "cut_paste"))
            continue;
        if (!missing)
            missing = ls_json_str(f, "missing", "what is missing not recorded");
        (*cut)++;
    }
    return missing;
}

static void cut_note(ls_buf_t *b, const char *missing, int cut)
{
    ls_buf_printf(b, "from a cut paste: %s", missing);
    if (cut > 1)
        ls_buf_printf(b, " (and %d more cut input%s)", cut - 1, cut == 2 ? "" : "s");
}

/* The strongest "node_action" of the findings that carry one (an imported kernel log's,
   docs/analysis.md), what a scheduler does with the node; NULL when none carries one. */
const char *ls_verdict_node_action(const json_t *findings)
{
    int worst = -1;
    size_t i;
    const json_t *f;
    json_array_foreach(findings, i, f) {
        const char *a = ls_json_str(f, "node_action", NULL);
        int v = a ? ls_action_parse(a) : -1;
        if (v > worst)
            worst = v;
    }
    return worst >= 0 ? ls_action_name((enum ls_action)worst) : NULL;
}

/* "; node action: reboot" */
static void node_action(ls_buf_t *b, const json_t *findings)
{
    const char *a = ls_verdict_node_action(findings);
    if (a)
        ls_buf_printf(b, "; node action: %s", a);
}

char *ls_render_verdict(const json_t *findings)
{
    int e, w, in, first = 1, cut;
    ls_buf_t b = {0};
    ls_verdict_counts(findings, &e, &w, &in);
    const json_t *worst = ls_verdict_worst(findings);
    const char *missing = cut_input(findings, &cut);
    if (!worst) {
        /* a cut paste is not called healthy: only the part given was judged */
        ls_buf_puts(&b, missing ? "Verdict: no error or warning in the part given ("
                                : "Verdict: healthy (no error or warning");
        if (missing)
            cut_note(&b, missing, cut);
        if (in)
            ls_buf_printf(&b, "; %d info finding%s", in, in == 1 ? "" : "s");
        node_action(&b, findings);
        ls_buf_puts(&b, ")");
        return ls_buf_take(&b);
    }
    ls_buf_puts(&b, "Verdict: ");
    count(&b, e, "error", "errors", &first);
    count(&b, w, "warning", "warnings", &first);
    ls_buf_printf(&b, "; worst: %s (%s)", ls_json_str(worst, "rule", "?"),
                  ls_json_str(worst, "subject", ""));
    node_action(&b, findings);
    if (missing) {
        ls_buf_puts(&b, "; ");
        cut_note(&b, missing, cut);
    }
    return ls_buf_take(&b);
}
