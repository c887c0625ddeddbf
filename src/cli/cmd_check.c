/* linkscope check: a run document against a baseline. */
#include "commands.h"
#include "options.h"
#include "analyze/baseline.h"
#include "model/doc.h"
#include "render/render.h"
#include "util/fileio.h"
#include "util/log.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char usage_check[] =
    "usage: linkscope check RUN.json --baseline FILE [--quiet] [--junit FILE]\n"
    "\n"
    "Checks every expectation of the baseline (made by 'linkscope baseline' or written\n"
    "by hand, docs/compare-check.md) against the run's figures. Each violation is one\n"
    "line on stdout: a figure below its minimum or above its maximum after the\n"
    "tolerance, or an expectation that no figure matches (a missing measurement).\n"
    "\n"
    "Options:\n"
    "  --baseline FILE   the baseline (schema linkscope.baseline/1)\n"
    "  --quiet           print the violations only, no summary line\n"
    "  --junit FILE      also write JUnit XML there: one testcase per expectation, a\n"
    "                    failure per violation (for CI test reports)\n"
    "\n"
    "Exit codes: 0 all expectations met; 1 at least one violation; 2 unreadable or\n"
    "malformed run or baseline.\n";

int cmd_check(int argc, char **argv)
{
    static const struct option opts[] = {{"baseline", required_argument, 0, 'b'},
                                         {"quiet", no_argument, 0, 'q'},
                                         {"junit", required_argument, 0, 'j'},
                                         {0, 0, 0, 0}};
    const char *run = NULL, *baseline_path = NULL, *junit = NULL;
    int quiet = 0, c;
    ls_opt_begin();
    while ((c = getopt_long(argc, argv, ":b:qj:", opts, NULL)) != -1) {
        if (ls_opt_refused("check", c, argv))
            return LS_EXIT_USAGE;
        if (c == 'b')
            baseline_path = optarg;
        else if (c == 'j')
            junit = optarg;
        else
            quiet = 1;
    }
    if (optind + 1 < argc)
        return ls_usage_error("check", "one RUN.json only ('%s')", argv[optind + 1]);
    run = optind < argc ? argv[optind] : NULL;
    if (!run || !baseline_path)
        return ls_usage_error("check", "needs RUN.json and --baseline FILE");
    if (junit && ls_check_writable("check", "--junit", junit, 0))
        return LS_EXIT_USAGE;
    char err[512];
    json_t *doc = ls_read_document(run);
    if (!doc)
        return LS_EXIT_USAGE;
    json_t *baseline = ls_baseline_read(baseline_path, err, sizeof err);
    if (!baseline) {
        ls_error("%s", err);
        json_decref(doc);
        return LS_EXIT_USAGE;
    }
    int checked = 0;
    json_t *violations = ls_baseline_check(baseline, doc, &checked);
    size_t i;
    const json_t *v;
    json_array_foreach(violations, i, v) printf("%s\n", ls_json_str(v, "line", ""));
    size_t nexp = json_array_size(json_object_get(baseline, "expectations"));
    size_t nviol = json_array_size(violations);
    int rc = nviol ? LS_EXIT_CHECK : LS_EXIT_OK;
    if (junit) {
        char *xml = ls_render_junit(baseline, violations, run);
        if (ls_write_file_atomic(junit, xml, strlen(xml), err, sizeof err)) {
            ls_error("%s", err);
            rc = LS_EXIT_USAGE;
        }
        free(xml);
    }
    if (!quiet) {
        if (nviol == 0)
            printf("check: all %zu expectations met (%d figure comparisons) in %s\n", nexp, checked,
                   run);
        else
            printf("check: %zu violation%s of %zu expectations (%d figure comparisons) in %s\n",
                   nviol, nviol == 1 ? "" : "s", nexp, checked, run);
    }
    json_decref(violations);
    json_decref(baseline);
    json_decref(doc);
    return rc;
}
