/* A run document through everything that reads one after the reader (issue 25): the
   acceptance check, findings, the plan, every report format and the CSV exports, the
   plan text and verdict, compare with itself (terminal and Markdown), a baseline made
   from it and checked against it (and its JUnit), and a fleet of two copies (terminal,
   HTML, Prometheus). */
#include "fuzz.h"
#include "analyze/analyze.h"
#include "analyze/baseline.h"
#include "analyze/compare.h"
#include "analyze/fleet.h"
#include "analyze/spec_tp.h"
#include "model/doc.h"
#include "render/compare_text.h"
#include "render/fleet_report.h"
#include "render/render.h"

/* From render/format.h, whose ls_figure_t (a drawn figure) clashes with compare.h's (a
   measured figure) in one translation unit. */
typedef struct ls_format ls_format_t;
const ls_format_t *ls_format_find(const char *name);
char *ls_report(const ls_format_t *fmt, const json_t *doc, const json_t *findings, const json_t *plan);
static const char *const formats[] = {"term", "md", "html", "csv", "json", "prom"};

static void reports(const json_t *doc)
{
    json_t *findings = ls_findings(doc), *plan = ls_plan_with(doc, findings);
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
        if (ls_format_find(formats[i]))
            free(ls_report(ls_format_find(formats[i]), doc, findings, plan));
    for (int i = 0; i < 3; i++)
        free(ls_report_csv(doc, plan, ls_csv_names[i]));
    free(ls_render_plan_text(findings, plan));
    free(ls_render_verdict(findings));
    json_decref(plan);
    json_decref(findings);
}

static void compare_self(const json_t *doc)
{
    char err[512];
    ls_compare_opts_t opts = {.threshold_pct = 5, .latency_threshold_pct = 0};
    json_t *result = ls_compare_docs(doc, doc, &opts, err, sizeof err);
    if (!result)
        return;
    for (int md = 0; md < 2; md++) {
        ls_compare_view_t view = {.a = "a.json", .b = "b.json", .threshold_pct = 5, .markdown = md};
        free(ls_compare_text(result, &view));
    }
    json_decref(result);
}

static void baseline_self(const json_t *doc)
{
    json_t *base = ls_baseline_from_doc(doc, "fuzz.json", 5, 10);
    if (!base)
        return;
    for (int require_all = 0; require_all < 2; require_all++) {
        int checked = 0;
        json_t *skipped = NULL, *violations = ls_baseline_check(base, doc, require_all, &checked, &skipped);
        free(ls_render_junit(base, violations, skipped, "fuzz.json"));
        json_decref(violations);
        json_decref(skipped);
    }
    json_decref(base);
}

static void fleet_of_two(const json_t *doc)
{
    ls_fleet_t *fleet = ls_fleet_new();
    ls_fleet_opts_t opts;
    ls_fleet_opts_default(&opts);
    if (fleet && !ls_fleet_add(fleet, doc, "a.json") && !ls_fleet_add(fleet, doc, "b.json")) {
        json_t *result = ls_fleet_analyze(fleet, &opts);
        if (result) {
            free(ls_fleet_term(result, opts.score, opts.min_change_pct));
            free(ls_fleet_html(result, opts.score, opts.min_change_pct));
            free(ls_fleet_prom(result));
        }
        json_decref(result);
    }
    ls_fleet_free(fleet);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = ls_fuzz_text(data, size);
    if (!text)
        return 0;
    char err[512];
    json_t *doc = ls_doc_parse(text, "fuzz", err, sizeof err);
    if (doc) {
        if (json_object_get(doc, "spec"))
            ls_spec_record(doc, err, sizeof err); /* as report does */
        reports(doc);
        compare_self(doc);
        baseline_self(doc);
        fleet_of_two(doc);
        json_decref(doc);
    }
    free(text);
    return 0;
}
