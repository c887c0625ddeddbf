/* linkscope check: a run document against a baseline, or against the datasheet of its
   GPUs (--spec). */
#include "check_spec.h"
#include "commands.h"
#include "analyze/spec_tp.h"
#include "analyze/baseline.h"
#include "model/doc.h"
#include "util/log.h"

#include <stdio.h>
#include <string.h>

const char usage_check[] =
    "usage: linkscope check RUN.json --baseline FILE [--quiet]\n"
    "       linkscope check --spec RUN.json [--fail-on LEVEL] [--model NAME] [--quiet]\n"
    "\n"
    "Checks every expectation of the baseline (made by 'linkscope baseline' or written\n"
    "by hand, docs/compare-check.md) against the run's figures. Each violation is one\n"
    "line on stdout: a figure below its minimum or above its maximum after the\n"
    "tolerance, or an expectation that no figure matches (a missing measurement).\n"
    "\n"
    "Options:\n"
    "  --baseline FILE   the baseline (schema linkscope.baseline/1)\n"
    "  --quiet           print the violations only, no summary line\n"
    "\n"
    "With --spec, each GPU is identified in linkscope's datasheet (data/gpu-datasheet.tsv,\n"
    "built in) by its NVML name and held against it: NVLinks, memory, PCIe link, power\n"
    "limit, SM count, measured HBM bandwidth (docs/acceptance.md). Then what the GPUs'\n"
    "interconnect means for a tensor-parallel prefill of 32k tokens at TP=2, 4 and 8,\n"
    "here against the part's NVLink.\n"
    "  --spec            check against the datasheet (works on any document: a run,\n"
    "                    an import of nvidia-smi -q)\n"
    "  --fail-on L       with --spec: exit 1 at a finding at or above info, warning or\n"
    "                    error (default error)\n"
    "  --model NAME      with --spec: the model preset of the TP lines (default "
    LS_SPEC_TP_MODEL ")\n"
    "\n"
    "Exit codes: 0 all expectations met (--spec: no finding at --fail-on); 1 at least one\n"
    "violation (--spec: a finding at or above --fail-on); 2 unreadable or malformed run\n"
    "or baseline.\n";

int cmd_check(int argc, char **argv)
{
    const char *run = NULL, *baseline_path = NULL, *model = LS_SPEC_TP_MODEL;
    int quiet = 0, spec = 0;
    enum ls_severity fail_on = LS_SEV_ERROR;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--baseline") == 0 || strcmp(arg, "-b") == 0) {
            if (i + 1 >= argc)
                return ls_usage_error("check", "%s needs a value", arg);
            baseline_path = argv[++i];
        } else if (strcmp(arg, "--spec") == 0) {
            spec = 1;
        } else if (strcmp(arg, "--fail-on") == 0 || strcmp(arg, "--model") == 0) {
            if (i + 1 >= argc)
                return ls_usage_error("check", "%s needs a value", arg);
            if (strcmp(arg, "--model") == 0)
                model = argv[++i];
            else if (ls_severity_parse(argv[++i], &fail_on))
                return ls_usage_error("check", "--fail-on: expected info, warning or error, got '%s'", argv[i]);
        } else if (strcmp(arg, "--quiet") == 0 || strcmp(arg, "-q") == 0) {
            quiet = 1;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return ls_usage_error("check", "unknown option '%s'", arg);
        } else if (run) {
            return ls_usage_error("check", "one RUN.json only ('%s')", arg);
        } else {
            run = arg;
        }
    }
    if (spec && baseline_path)
        return ls_usage_error("check", "--spec and --baseline are two checks: one at a time");
    if (!run || (!baseline_path && !spec))
        return ls_usage_error("check", "needs RUN.json and --baseline FILE or --spec");
    char err[512];
    json_t *doc = ls_doc_read(run, err, sizeof err);
    if (!doc) {
        ls_error("%s", err);
        return LS_EXIT_USAGE;
    }
    if (spec) {
        int over = ls_check_spec(run, doc, model, fail_on, quiet);
        json_decref(doc);
        return over < 0 ? LS_EXIT_USAGE : over > 0 ? LS_EXIT_CHECK : LS_EXIT_OK;
    }
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
    return nviol ? LS_EXIT_CHECK : LS_EXIT_OK;
}
