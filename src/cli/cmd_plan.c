/* linkscope plan RUN.json: findings, islands and the GPU groups to use. */
#include "commands.h"
#include "analyze/analyze.h"
#include "model/doc.h"
#include "render/render.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char usage_plan[] =
    "usage: linkscope plan RUN.json [--json] [--fail-on info|warning|error]\n"
    "\n"
    "Reads a run document (from 'linkscope run', a measuring command or 'linkscope import')\n"
    "and prints what is wrong or slow (findings, each with the entries it rests on) and how\n"
    "to split work over the GPUs: islands, the best GPU set for each group size with its\n"
    "expected and measured all_reduce bus bandwidth, the best pairs, the best GPUs for\n"
    "memory-bound work and the GPUs to keep out of synchronous groups. Works offline.\n"
    "\n"
    "  --json             print {\"findings\": [...], \"plan\": {...}} instead of text\n"
    "  --fail-on LEVEL    exit 1 when a finding at or above LEVEL exists (for CI gates)\n"
    "\n"
    "Exit: 0 ok, 1 a finding at or above --fail-on, 2 bad usage or input.\n"
    "Rules and thresholds: docs/analysis.md.\n";

int cmd_plan(int argc, char **argv)
{
    const char *path = NULL;
    int json_out = 0, fail_set = 0;
    enum ls_severity fail_on = LS_SEV_ERROR;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json_out = 1;
        else if (!strcmp(argv[i], "--fail-on")) {
            if (i + 1 >= argc || ls_severity_parse(argv[i + 1], &fail_on))
                return ls_usage_error("plan", "--fail-on needs info, warning or error");
            fail_set = 1, i++;
        } else if (argv[i][0] == '-' && argv[i][1])
            return ls_usage_error("plan", "unknown option '%s'", argv[i]);
        else if (path)
            return ls_usage_error("plan", "one run document expected, got '%s' and '%s'", path, argv[i]);
        else
            path = argv[i];
    }
    if (!path)
        return ls_usage_error("plan", "a run document (RUN.json) is required");
    char err[512];
    json_t *doc = ls_doc_read(path, err, sizeof err);
    if (!doc) {
        ls_error("%s", err);
        return LS_EXIT_USAGE;
    }
    json_t *findings = ls_findings(doc), *plan = ls_plan(doc);
    char *text;
    if (json_out) {
        json_t *both = json_pack("{s:O, s:O}", "findings", findings, "plan", plan);
        text = ls_doc_dumps(both);
        json_decref(both);
    } else {
        text = ls_render_plan_text(findings, plan);
    }
    fputs(text ? text : "", stdout);
    free(text);
    int failing = fail_set ? ls_findings_count_at_least(findings, fail_on) : 0;
    json_decref(findings);
    json_decref(plan);
    json_decref(doc);
    return failing ? LS_EXIT_CHECK : LS_EXIT_OK;
}
