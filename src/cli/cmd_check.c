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
    "usage: linkscope check RUN.json... --baseline FILE [--require-all] [--fail-on LEVEL]\n"
    "                      [--quiet] [--junit FILE]\n"
    "       linkscope check --spec RUN.json [--fail-on LEVEL] [--model NAME] [--quiet] [--junit FILE]\n"
    "\n"
    "Checks every expectation of the baseline (made by 'linkscope baseline' or written\n"
    "by hand, docs/compare-check.md) against the run's figures. Each violation is one\n"
    "line on stdout: a figure below its minimum or above its maximum after the\n"
    "tolerance, max(the baseline's percent, 3 x the figure's recorded spread). An\n"
    "expectation that no figure of the run matches is skipped (a SKIP line): the run did\n"
    "not measure it. Several runs (one per node, or runs of one machine): each gets its\n"
    "lines and its verdict line, and the exit code is the worst.\n"
    "\n"
    "Options:\n"
    "  --baseline FILE   the baseline (schema linkscope.baseline/1)\n"
    "  --require-all     a skipped expectation is a violation (a figure the run lacks)\n"
    "  --fail-on LEVEL   a violation counts as an error: exit 1 at info, warning, error\n"
    "                    (default), exit 0 at never; with --spec: a finding at or above\n"
    "                    LEVEL\n"
    LS_QUIET_USAGE
    "  --junit FILE      also write JUnit XML there: one testcase per expectation, a\n"
    "                    failure per violation, skipped where the run has no such figure;\n"
    "                    with --spec one testcase per GPU, a failure per failing finding\n"
    "\n"
    "With --spec, each GPU is identified in linkscope's datasheet (data/gpu-datasheet.tsv,\n"
    "built in) by its NVML name and held against it: NVLinks, memory, PCIe link, power\n"
    "limit, SM count, measured HBM bandwidth (docs/acceptance.md). Then what the GPUs'\n"
    "interconnect means for a tensor-parallel prefill of 32k tokens at TP=2, 4 and 8,\n"
    "here against the part's NVLink.\n"
    "  --spec            check against the datasheet (works on any document: a run,\n"
    "                    an import of nvidia-smi -q)\n"
    "  --model NAME      with --spec: the model preset of the TP lines (default "
    LS_SPEC_TP_MODEL ")\n"
    "\n"
    "Exit codes: 0 all expectations met or skipped (--spec: no finding at --fail-on); 1 at\n"
    "least one violation (--spec: a finding at or above --fail-on); 2 unreadable or\n"
    "malformed run or baseline.\n";

typedef struct {
    const char *run, *baseline, *junit, *model;
    char **runs; /* every RUN.json given; run is the one being checked */
    int nruns, quiet, spec, require_all, fail_on;
} check_args_t;

static int parse_args(int argc, char **argv, check_args_t *a)
{
    static const struct option opts[] = {{"baseline", required_argument, 0, 'b'},
                                         {"quiet", no_argument, 0, 'q'},
                                         {"junit", required_argument, 0, 'j'},
                                         {"spec", no_argument, 0, 's'},
                                         {"fail-on", required_argument, 0, 'F'},
                                         {"model", required_argument, 0, 'm'},
                                         {"require-all", no_argument, 0, 'A'},
                                         {0, 0, 0, 0}};
    *a = (check_args_t){.model = LS_SPEC_TP_MODEL, .fail_on = LS_FAIL_ON_DEFAULT};
    ls_opt_begin();
    int c;
    while ((c = getopt_long(argc, argv, ":b:qj:", opts, NULL)) != -1) {
        if (ls_opt_refused("check", c, argv))
            return LS_EXIT_USAGE;
        if (c == 'b')
            a->baseline = optarg;
        else if (c == 'j')
            a->junit = optarg;
        else if (c == 's')
            a->spec = 1;
        else if (c == 'm')
            a->model = optarg;
        else if (c == 'A')
            a->require_all = 1;
        else if (c == 'F' && ls_opt_fail_on("check", optarg, &a->fail_on))
            return LS_EXIT_USAGE;
        else if (c == 'q')
            a->quiet = 1;
    }
    a->runs = argv + optind;
    a->nruns = argc - optind;
    a->run = optind < argc ? argv[optind] : NULL;
    if (a->nruns > 1 && (a->spec || a->junit))
        return ls_usage_error("check", "one RUN.json only with %s ('%s')",
                              a->spec ? "--spec" : "--junit", argv[optind + 1]);
    if (a->spec && (a->baseline || a->require_all))
        return ls_usage_error("check", "--spec is a check of its own: not with --baseline or --require-all");
    if (!a->run || (!a->baseline && !a->spec))
        return ls_usage_error("check", "needs RUN.json and --baseline FILE or --spec");
    return ls_check_writable("check", "--junit", a->junit, 0);
}

static int check_spec(const check_args_t *a)
{
    json_t *doc = ls_read_document(a->run);
    if (!doc)
        return LS_EXIT_USAGE;
    int over = ls_check_spec(a->run, doc, a->model, a->fail_on, a->quiet, a->junit);
    json_decref(doc);
    return over < 0 ? LS_EXIT_USAGE : over > 0 ? LS_EXIT_CHECK : LS_EXIT_OK;
}

/* The summary (verdict) line. */
static void print_verdict(const check_args_t *a, size_t nexp, size_t nviol, size_t nskip,
                          int checked)
{
    char skips[96] = "";
    if (nskip)
        snprintf(skips, sizeof skips, ", %zu skipped (no such figure in the run)", nskip);
    if (nviol == 0)
        printf("check: %s %zu expectations met%s (%d figure comparisons) in %s\n",
               nskip ? "the other" : "all", nexp - nskip, skips, checked, a->run);
    else
        printf("check: %zu violation%s of %zu expectations%s (%d figure comparisons) in %s\n",
               nviol, nviol == 1 ? "" : "s", nexp, skips, checked, a->run);
}

static void print_lines(const json_t *list)
{
    size_t i;
    const json_t *v;
    json_array_foreach(list, i, v) printf("%s\n", ls_json_str(v, "line", ""));
}

static int write_junit(const check_args_t *a, const json_t *baseline, const json_t *violations,
                       const json_t *skipped)
{
    char err[512];
    char *xml = ls_render_junit(baseline, violations, skipped, a->run);
    int rc = ls_write_file_atomic(a->junit, xml, strlen(xml), err, sizeof err);
    if (rc)
        ls_error("%s", err);
    free(xml);
    return rc;
}

/* One run against the baseline: its lines and verdict line; an exit code. */
static int check_run(const check_args_t *a, const json_t *baseline, const json_t *doc)
{
    int checked = 0;
    json_t *skipped = NULL;
    json_t *violations = ls_baseline_check(baseline, doc, a->require_all, &checked, &skipped);
    size_t nexp = json_array_size(json_object_get(baseline, "expectations"));
    size_t nviol = json_array_size(violations);
    /* a violation is judged at error; a skip is no verdict on the machine */
    int rc = nviol && ls_fail_on_trips(a->fail_on, LS_SEV_ERROR) ? LS_EXIT_CHECK : LS_EXIT_OK;
    if (a->junit && write_junit(a, baseline, violations, skipped) != 0) {
        rc = LS_EXIT_USAGE;
    } else {
        print_lines(violations); /* what failed */
        if (!a->quiet)
            print_lines(skipped);
        print_verdict(a, nexp, nviol, json_array_size(skipped), checked);
    }
    json_decref(skipped);
    json_decref(violations);
    return rc;
}

/* Every run read before any is checked: a bad one refuses the whole call. */
static json_t *read_runs(const check_args_t *a)
{
    json_t *docs = json_array();
    for (int i = 0; i < a->nruns; i++) {
        json_t *doc = ls_read_document(a->runs[i]);
        if (!doc) {
            json_decref(docs);
            return NULL;
        }
        json_array_append_new(docs, doc);
    }
    return docs;
}

int cmd_check(int argc, char **argv)
{
    check_args_t a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc;
    if (a.spec)
        return check_spec(&a);
    char err[512];
    json_t *docs = read_runs(&a);
    if (!docs)
        return LS_EXIT_USAGE;
    json_t *baseline = ls_baseline_read(a.baseline, err, sizeof err);
    if (!baseline) {
        ls_error("%s", err);
        json_decref(docs);
        return LS_EXIT_USAGE;
    }
    for (int i = 0; i < a.nruns && rc != LS_EXIT_USAGE; i++) {
        a.run = a.runs[i];
        int one = check_run(&a, baseline, json_array_get(docs, (size_t)i));
        rc = one > rc ? one : rc;
    }
    json_decref(baseline);
    json_decref(docs);
    return rc;
}
