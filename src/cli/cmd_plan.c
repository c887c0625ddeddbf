/* linkscope plan RUN.json: findings, islands and the GPU groups to use. */
#include "commands.h"
#include "options.h"
#include "analyze/analyze.h"
#include "model/doc.h"
#include "render/render.h"
#include "util/log.h"

#include <getopt.h>
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
    static const struct option opts[] = {{"json", no_argument, 0, 'j'},
                                         {"fail-on", required_argument, 0, 'F'},
                                         {0, 0, 0, 0}};
    int c;
    ls_opt_begin();
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        if (c == ':' || (c == 'F' && ls_severity_parse(optarg, &fail_on)))
            return ls_usage_error("plan", "--fail-on needs info, warning or error");
        if (c == '?')
            return ls_opt_unknown("plan", argv);
        json_out |= c == 'j';
        fail_set |= c == 'F';
    }
    if (optind + 1 < argc)
        return ls_usage_error("plan", "one run document expected, got '%s' and '%s'", argv[optind],
                              argv[optind + 1]);
    if (optind >= argc)
        return ls_usage_error("plan", "a run document (RUN.json) is required");
    path = argv[optind];
    json_t *doc = ls_read_document(path);
    if (!doc)
        return LS_EXIT_USAGE;
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
