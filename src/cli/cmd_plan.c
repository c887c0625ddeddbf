/* linkscope plan RUN.json: findings, islands and the GPU groups to use. */
#include "commands.h"
#include "options.h"
#include "analyze/analyze.h"
#include "model/doc.h"
#include "model/view.h"
#include "render/render.h"
#include "util/log.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int json, quiet, fail_on;
} plan_args_t;

static const ls_opt_t options[] = {
    {.name = "json",
     .kind = LS_OPT_FLAG,
     .off = offsetof(plan_args_t, json),
     .help = "print {\"findings\": [...], \"plan\": {...}} instead of text"},
    LS_OPT_FAIL_ON_ROW(plan_args_t),
    LS_OPT_QUIET_ROW(plan_args_t),
    {.kind = LS_OPT_END},
};

const ls_cmd_opts_t opts_plan = {
    .head = "usage: linkscope plan RUN.json [--json] [--fail-on LEVEL] [--quiet]\n"
            "\n"
            "Reads a run document (from 'linkscope run', a measuring command or 'linkscope\n"
            "import') and prints what is wrong or slow (findings, each with the entries it\n"
            "rests on) and how to split work over the GPUs: islands, the best GPU set for\n"
            "each group size with its expected and measured all_reduce bus bandwidth, the\n"
            "best pairs, the best GPUs for memory-bound work and the GPUs to keep out of\n"
            "synchronous groups. Works offline.\n"
            "\n",
    .opts = options,
    .tail = "\n"
            "Exit: 0 ok, 1 a finding at or above --fail-on, 2 bad usage or input.\n"
            "Rules and thresholds: docs/analysis.md.\n",
    .column = 21,
    .args_size = sizeof(plan_args_t),
};

/* plan --json's "verdict": what a scheduler reads without walking the findings: the
   verdict line, the counts per severity and the strongest node action (null: no finding
   names one; docs/schema.md). */
static json_t *verdict_json(const json_t *findings)
{
    int errors, warnings, infos;
    ls_verdict_counts(findings, &errors, &warnings, &infos);
    char *line = ls_render_verdict(findings);
    const char *action = ls_verdict_node_action(findings);
    json_t *v = json_pack("{s:s, s:i, s:i, s:i, s:o}", "text", line ? line : "", "errors", errors,
                          "warnings", warnings, "infos", infos, "node_action",
                          action ? json_string(action) : json_null());
    free(line);
    return v;
}

int cmd_plan(int argc, char **argv)
{
    plan_args_t a = {.fail_on = LS_FAIL_ON_DEFAULT};
    char *pos[argc];
    int npos;
    if (ls_opt_parse("plan", &opts_plan, argc, argv, &a, pos, &npos))
        return LS_EXIT_USAGE;
    int json_out = a.json, quiet = a.quiet, fail_on = a.fail_on;
    if (json_out && quiet)
        return ls_usage_error("plan", "--json and --quiet: choose one");
    if (npos > 1)
        return ls_usage_error("plan", "one run document expected, got '%s' and '%s'", pos[0],
                              pos[1]);
    if (npos < 1)
        return ls_usage_error("plan", "a run document (RUN.json) is required");
    const char *path = pos[0];
    json_t *doc = ls_read_document(path);
    if (!doc)
        return LS_EXIT_USAGE;
    ls_view_pin(doc); /* its entries decoded once for the rules and the plan */
    json_t *findings = ls_findings(doc), *plan = ls_plan_with(doc, findings);
    ls_view_unpin(doc);
    char *text;
    if (quiet) {
        text = ls_render_verdict(findings);
        printf("%s\n", text ? text : "");
        free(text);
        text = NULL;
        ls_print_failed_findings(findings, fail_on);
    } else if (json_out) {
        json_t *both = json_pack("{s:O, s:O, s:o}", "findings", findings, "plan", plan, "verdict",
                                 verdict_json(findings));
        text = ls_doc_dumps(both);
        json_decref(both);
    } else {
        text = ls_render_plan_text(findings, plan);
    }
    fputs(text ? text : "", stdout);
    free(text);
    int failing = ls_fail_on_count(findings, fail_on);
    json_decref(findings);
    json_decref(plan);
    ls_doc_release_at_exit(doc); /* freed by the exit (model/doc.h) */
    return failing ? LS_EXIT_CHECK : LS_EXIT_OK;
}
