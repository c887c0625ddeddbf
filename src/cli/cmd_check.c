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

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *run, *baseline, *junit, *model;
    char **runs; /* every RUN.json given; run is the one being checked */
    int nruns, quiet, spec, require_all, fail_on;
} check_args_t;

static const ls_opt_t options[] = {
    {.kind = LS_OPT_TEXT, .help = "Options:\n"},
    {.name = "baseline",
     .short_name = 'b',
     .kind = LS_OPT_STRING,
     .arg = "FILE",
     .off = offsetof(check_args_t, baseline),
     .help = "the baseline (schema linkscope.baseline/1)"},
    {.name = "require-all",
     .kind = LS_OPT_FLAG,
     .off = offsetof(check_args_t, require_all),
     .help = "a skipped expectation is a violation (a figure the run\nlacks)"},
    {.name = "fail-on",
     .kind = LS_OPT_FAIL_ON,
     .arg = "LEVEL",
     .off = offsetof(check_args_t, fail_on),
     .help = "a violation counts as an error: exit 1 at info, warning,\n"
             "error (default), exit 0 at never; with --spec: a finding at\n"
             "or above LEVEL"},
    {.name = "quiet",
     .short_name = 'q',
     .kind = LS_OPT_FLAG,
     .off = offsetof(check_args_t, quiet),
     .help = "print only the verdict line and what failed (at --fail-on)"},
    {.name = "junit",
     .short_name = 'j',
     .kind = LS_OPT_STRING,
     .arg = "FILE",
     .off = offsetof(check_args_t, junit),
     .flags = LS_OPT_OUTPUT,
     .help = "also write JUnit XML there: one testcase per expectation, a\n"
             "failure per violation, skipped where the run has no such\n"
             "figure; with --spec one testcase per GPU, a failure per\n"
             "failing finding"},
    {.kind = LS_OPT_TEXT,
     .help = "\n"
             "With --spec, each GPU is identified in linkscope's datasheet\n"
             "(data/gpu-datasheet.tsv, built in) by its NVML name and held against it:\n"
             "NVLinks, memory, PCIe link, power limit, SM count, measured HBM bandwidth\n"
             "(docs/acceptance.md). Then what the GPUs' interconnect means for a\n"
             "tensor-parallel prefill of 32k tokens at TP=2, 4 and 8, here against the part's\n"
             "NVLink.\n"},
    {.name = "spec",
     .kind = LS_OPT_FLAG,
     .off = offsetof(check_args_t, spec),
     .help = "check against the datasheet (works on any document: a run,\n"
             "an import of nvidia-smi -q)"},
    {.name = "model",
     .kind = LS_OPT_STRING,
     .arg = "NAME",
     .off = offsetof(check_args_t, model),
     .help = "with --spec: the model preset of the TP lines\n(default " LS_SPEC_TP_MODEL ")"},
    {.kind = LS_OPT_END},
};

const ls_cmd_opts_t opts_check = {
    .head = "usage: linkscope check RUN.json... --baseline FILE [--require-all]\n"
            "                       [--fail-on LEVEL] [--quiet] [--junit FILE]\n"
            "       linkscope check --spec RUN.json [--fail-on LEVEL] [--model NAME]\n"
            "                       [--quiet] [--junit FILE]\n"
            "\n"
            "Checks every expectation of the baseline (made by 'linkscope baseline' or\n"
            "written by hand, docs/compare-check.md) against the run's figures. Each\n"
            "violation is one line on stdout: a figure below its minimum or above its maximum\n"
            "after the tolerance, max(the baseline's percent, 3 x the figure's recorded\n"
            "spread). An expectation that no figure of the run matches is skipped (a SKIP\n"
            "line): the run did not measure it. Several runs (one per node, or runs of one\n"
            "machine): each gets its lines and its verdict line, and the exit code is the\n"
            "worst.\n"
            "\n",
    .opts = options,
    .tail = "\n"
            "Exit codes: 0 all expectations met or skipped (--spec: no finding at\n"
            "--fail-on); 1 at least one violation (--spec: a finding at or above --fail-on);\n"
            "2 unreadable or malformed run or baseline.\n",
    .column = 20,
    .args_size = sizeof(check_args_t),
};

/* pos: room for argc arguments, kept as a->runs. */
static int parse_args(int argc, char **argv, check_args_t *a, char **pos)
{
    *a = (check_args_t){.model = LS_SPEC_TP_MODEL, .fail_on = LS_FAIL_ON_DEFAULT};
    if (ls_opt_parse("check", &opts_check, argc, argv, a, pos, &a->nruns))
        return LS_EXIT_USAGE;
    a->runs = pos;
    a->run = a->nruns ? pos[0] : NULL;
    if (a->nruns > 1 && (a->spec || a->junit))
        return ls_usage_error("check", "one RUN.json only with %s ('%s')",
                              a->spec ? "--spec" : "--junit", pos[1]);
    if (a->spec && (a->baseline || a->require_all))
        return ls_usage_error("check",
                              "--spec is a check of its own: not with --baseline or --require-all");
    if (!a->run || (!a->baseline && !a->spec))
        return ls_usage_error("check", "needs RUN.json and --baseline FILE or --spec");
    return 0;
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
    json_array_foreach(list, i, v)
        printf("%s\n", ls_json_str(v, "line", ""));
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
    char *pos[argc];
    int rc = parse_args(argc, argv, &a, pos);
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
