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
    "usage: linkscope plan RUN.json [--json] [--fail-on LEVEL] [--quiet]\n"
    "\n"
    "Reads a run document (from 'linkscope run', a measuring command or 'linkscope\n"
    "import') and prints what is wrong or slow (findings, each with the entries it\n"
    "rests on) and how to split work over the GPUs: islands, the best GPU set for\n"
    "each group size with its expected and measured all_reduce bus bandwidth, the\n"
    "best pairs, the best GPUs for memory-bound work and the GPUs to keep out of\n"
    "synchronous groups. Works offline.\n"
    "\n"
    "  --json             print {\"findings\": [...], \"plan\": {...}} instead of text\n"
    LS_FAIL_ON_USAGE LS_QUIET_USAGE
    "\n"
    "Exit: 0 ok, 1 a finding at or above --fail-on, 2 bad usage or input.\n"
    "Rules and thresholds: docs/analysis.md.\n";

int cmd_plan(int argc, char **argv)
{
    const char *path = NULL;
    int json_out = 0, quiet = 0, fail_on = LS_FAIL_ON_DEFAULT;
    static const struct option opts[] = {{"json", no_argument, 0, 'j'},
                                         {"fail-on", required_argument, 0, 'F'},
                                         {"quiet", no_argument, 0, 'q'},
                                         {0, 0, 0, 0}};
    int c;
    ls_opt_begin();
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        if (ls_opt_refused("plan", c, argv) || (c == 'F' && ls_opt_fail_on("plan", optarg, &fail_on)))
            return LS_EXIT_USAGE;
        json_out |= c == 'j';
        quiet |= c == 'q';
    }
    if (json_out && quiet)
        return ls_usage_error("plan", "--json and --quiet: choose one");
    if (optind + 1 < argc)
        return ls_usage_error("plan", "one run document expected, got '%s' and '%s'", argv[optind],
                              argv[optind + 1]);
    if (optind >= argc)
        return ls_usage_error("plan", "a run document (RUN.json) is required");
    path = argv[optind];
    json_t *doc = ls_read_document(path);
    if (!doc)
        return LS_EXIT_USAGE;
    json_t *findings = ls_findings(doc), *plan = ls_plan_with(doc, findings);
    char *text;
    if (quiet) {
        text = ls_render_verdict(findings);
        printf("%s\n", text ? text : "");
        free(text);
        text = NULL;
        ls_print_failed_findings(findings, fail_on);
    } else if (json_out) {
        json_t *both = json_pack("{s:O, s:O}", "findings", findings, "plan", plan);
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
    json_decref(doc);
    return failing ? LS_EXIT_CHECK : LS_EXIT_OK;
}
