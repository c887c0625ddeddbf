/* linkscope check: a run document against a baseline, or against the datasheet of its
   GPUs (--spec). */
#include "check_spec.h"
#include "commands.h"
#include "options.h"
#include "analyze/spec_tp.h"
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
    "usage: linkscope check RUN.json --baseline FILE [--fail-on LEVEL] [--quiet]\n"
    "                       [--junit FILE]\n"
    "       linkscope check --spec RUN.json [--fail-on LEVEL] [--model NAME]\n"
    "                       [--quiet]\n"
    "\n"
    "Checks every expectation of the baseline (made by 'linkscope baseline' or\n"
    "written by hand, docs/compare-check.md) against the run's figures. Each\n"
    "violation is one line on stdout: a figure below its minimum or above its maximum\n"
    "after the tolerance, or an expectation that no figure matches (a missing\n"
    "measurement).\n"
    "\n"
    "Options:\n"
    "  --baseline FILE   the baseline (schema linkscope.baseline/1)\n"
    "  --fail-on LEVEL   a violation counts as an error: exit 1 at info, warning,\n"
    "                    error (default), exit 0 at never; with --spec: a finding at\n"
    "                    or above LEVEL\n"
    LS_QUIET_USAGE
    "  --junit FILE      also write JUnit XML there: one testcase per expectation, a\n"
    "                    failure per violation (for CI test reports)\n"
    "\n"
    "With --spec, each GPU is identified in linkscope's datasheet\n"
    "(data/gpu-datasheet.tsv, built in) by its NVML name and held against it:\n"
    "NVLinks, memory, PCIe link, power limit, SM count, measured HBM bandwidth\n"
    "(docs/acceptance.md). Then what the GPUs' interconnect means for a\n"
    "tensor-parallel prefill of 32k tokens at TP=2, 4 and 8, here against the part's\n"
    "NVLink.\n"
    "  --spec            check against the datasheet (works on any document: a run,\n"
    "                    an import of nvidia-smi -q)\n"
    "  --model NAME      with --spec: the model preset of the TP lines\n"
    "                    (default " LS_SPEC_TP_MODEL ")\n"
    "\n"
    "Exit codes: 0 all expectations met (--spec: no finding at --fail-on); 1 at least\n"
    "one violation (--spec: a finding at or above --fail-on); 2 unreadable or\n"
    "malformed run or baseline.\n";

int cmd_check(int argc, char **argv)
{
    static const struct option opts[] = {{"baseline", required_argument, 0, 'b'},
                                         {"quiet", no_argument, 0, 'q'},
                                         {"junit", required_argument, 0, 'j'},
                                         {"spec", no_argument, 0, 's'},
                                         {"fail-on", required_argument, 0, 'F'},
                                         {"model", required_argument, 0, 'm'},
                                         {0, 0, 0, 0}};
    const char *run = NULL, *baseline_path = NULL, *junit = NULL, *model = LS_SPEC_TP_MODEL;
    int quiet = 0, spec = 0, c;
    int fail_on = LS_FAIL_ON_DEFAULT;
    ls_opt_begin();
    while ((c = getopt_long(argc, argv, ":b:qj:", opts, NULL)) != -1) {
        if (ls_opt_refused("check", c, argv))
            return LS_EXIT_USAGE;
        if (c == 'b')
            baseline_path = optarg;
        else if (c == 'j')
            junit = optarg;
        else if (c == 's')
            spec = 1;
        else if (c == 'm')
            model = optarg;
        else if (c == 'F' && ls_opt_fail_on("check", optarg, &fail_on))
            return LS_EXIT_USAGE;
        else if (c == 'q')
            quiet = 1;
    }
    if (optind + 1 < argc)
        return ls_usage_error("check", "one RUN.json only ('%s')", argv[optind + 1]);
    run = optind < argc ? argv[optind] : NULL;
    if (spec && (baseline_path || junit))
        return ls_usage_error("check", "--spec is a check of its own: not with --baseline or --junit");
    if (!run || (!baseline_path && !spec))
        return ls_usage_error("check", "needs RUN.json and --baseline FILE or --spec");
    if (spec) {
        json_t *doc = ls_read_document(run);
        if (!doc)
            return LS_EXIT_USAGE;
        int over = ls_check_spec(run, doc, model, fail_on, quiet);
        json_decref(doc);
        return over < 0 ? LS_EXIT_USAGE : over > 0 ? LS_EXIT_CHECK : LS_EXIT_OK;
    }
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
    /* a violation is judged at error */
    int rc = nviol && ls_fail_on_trips(fail_on, LS_SEV_ERROR) ? LS_EXIT_CHECK : LS_EXIT_OK;
    if (junit) {
        char *xml = ls_render_junit(baseline, violations, run);
        if (ls_write_file_atomic(junit, xml, strlen(xml), err, sizeof err)) {
            ls_error("%s", err);
            rc = LS_EXIT_USAGE;
        }
        free(xml);
    }
    (void)quiet; /* the violations and the verdict line are all check prints */
    {
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
