/* linkscope run: the full characterization of this machine in one command. */
#include "commands.h"
#include "render/format.h"
#include "term_colour.h"
#include "options.h"
#include "run_dry.h"
#include "run_outputs.h"
#include "analyze/analyze.h"
#include "measure/gpu.h"
#include "model/doc.h"
#include "model/vocab.h"
#include "pipeline/pipeline.h"
#include "render/render.h"
#include "render/spec_render.h"
#include "render/strbuf.h"
#include "util/log.h"
#include "util/parse.h"
#include "util/pathpat.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int thorough;
    double budget_s;
    int gpus[LS_MAX_GPUS], ngpus;
    const char *out;
    int no_nccl, no_report;
    int fail_on;
    int dry_run;
    const char *from;
    int quiet, progress_set;
} run_args_t;

/* --level's words: index 1 is the thorough level. */
static const char *const *level_words(void)
{
    static const char *const words[] = {LS_LEVEL_QUICK, LS_LEVEL_THOROUGH, NULL};
    return words;
}

static int opt_level(const char *cmd, const char *v, void *args)
{
    const char *const *w = level_words();
    if (strcmp(v, w[0]) && strcmp(v, w[1]))
        return ls_usage_error(cmd, "--level: expected %s or %s, got '%s'", w[0], w[1], v);
    ((run_args_t *)args)->thorough = strcmp(v, w[1]) == 0;
    return 0;
}

static int opt_budget(const char *cmd, const char *v, void *args)
{
    double *budget = &((run_args_t *)args)->budget_s;
    if (ls_parse_double(v, budget) || *budget <= 0)
        return ls_usage_error(cmd, "--budget: expected a positive number of seconds, got '%s'", v);
    return 0;
}

static int opt_gpus(const char *cmd, const char *v, void *args)
{
    run_args_t *a = args;
    return ls_opt_gpus(cmd, v, a->gpus, LS_MAX_GPUS, &a->ngpus);
}

/* "%N": this node's short name, one file per node under srun. */
static int opt_output(const char *cmd, const char *v, void *args)
{
    static char path[4096];
    if (ls_expand_node(v, NULL, path, sizeof path) != 0)
        return ls_usage_error(cmd, "-o: path too long '%s'", v);
    ((run_args_t *)args)->out = path;
    return 0;
}

static int opt_progress(const char *cmd, const char *v, void *args)
{
    ((run_args_t *)args)->progress_set = 1;
    return ls_opt_progress(cmd, v) ? LS_EXIT_USAGE : 0;
}

#define FLAG(n, field, text) LS_OPT_FLAG_ROW(run_args_t, n, field, text)

static const ls_opt_t options[] = {
    {.name = "level",
     .kind = LS_OPT_CALL,
     .arg = "L",
     .call = opt_level,
     .words = level_words,
     .help = "quick (default): all_reduce to 8 GiB, the other collectives to\n"
             "512 MiB (x4 steps from 8 B), 10 samples per figure; thorough:\n"
             "every collective to 8 GiB in factor-2 steps, 20 samples per\n"
             "figure"},
    {.name = "budget",
     .kind = LS_OPT_CALL,
     .arg = "S",
     .call = opt_budget,
     .help = "wall-time budget in seconds (default 120 quick, 600 thorough),\n"
             "a hard cap: steps are cut down from the last back (half the\n"
             "samples, the collectives to 1 GiB, burn to 30 s), never\n"
             "dropped, until the projection fits; each cut is recorded.\n"
             "Where even cut down it does not fit, one line says so and the\n"
             "run stops before measuring (exit 4)"},
    {.name = "gpus",
     .kind = LS_OPT_CALL,
     .arg = "LIST",
     .call = opt_gpus,
     .help = "GPUs to use, e.g. 0,1 or 0-3 (default all)"},
    {.short_name = 'o',
     .kind = LS_OPT_CALL,
     .arg = "FILE",
     .call = opt_output,
     .off = offsetof(run_args_t, out), /* where opt_output puts it, for the dispatcher */
     .flags = LS_OPT_DOC,
     .help = "the run document's path (the HTML report goes to FILE minus\n"
             ".json plus .html); %N in FILE is this node's short host name"},
    FLAG("no-nccl", no_nccl, "skip the collectives"),
    FLAG("no-report", no_report, "do not write the HTML report"),
    FLAG("dry-run", dry_run,
         "measure nothing: print the steps in the order they run, the\n"
         "pair rounds, the projected seconds of each step and what the\n"
         "budget would cut; the last line is 'projected: N s, rounds R,\n"
         "cut: ...' (exit 4 as the run would when even cut down it does\n"
         "not fit)"),
    {.name = "from",
     .kind = LS_OPT_STRING,
     .arg = "FILE",
     .off = offsetof(run_args_t, from),
     .help = "with --dry-run: plan the machine of FILE (saved `nvidia-smi\n"
             "topo -m` text or a run document) instead of this one; no GPU\n"
             "needed"},
    LS_OPT_FAIL_ON_ROW(run_args_t),
    {.name = "quiet",
     .kind = LS_OPT_FLAG,
     .off = offsetof(run_args_t, quiet),
     .column = 20,
     .help = "print only the verdict line and what failed (at --fail-on)\n"
             "(and no progress unless --progress is given)"},
    {.name = "progress",
     .kind = LS_OPT_CALL,
     .arg = "M",
     .call = opt_progress,
     .words = ls_progress_words,
     .help = LS_OPT_PROGRESS_HELP}, /* a CALL of its own: --quiet asks whether it was given */
    {.kind = LS_OPT_END},
};

static int check_options(const char *cmd, void *args)
{
    const run_args_t *a = args;
    if (a->from && !a->dry_run)
        return ls_usage_error(cmd, "--from plans another machine: it needs --dry-run");
    return 0;
}

/* Every run measures but the plan of another machine (--dry-run --from): this one's
   plan needs its GPUs' topology. */
static int measures(const void *args)
{
    const run_args_t *a = args;
    return !(a->dry_run && a->from);
}

const ls_cmd_opts_t opts_run = {
    .head = "usage: linkscope run [--level quick|thorough] [--budget SECONDS] [--gpus LIST]\n"
            "                     [-o FILE] [--no-nccl] [--no-report] [--fail-on LEVEL]\n"
            "                     [--quiet] [--progress auto|always|never]\n"
            "       linkscope run --dry-run [--from FILE] [--level L] [--budget SECONDS]\n"
            "                     [--gpus LIST] [--no-nccl]\n"
            "\n"
            "Characterizes this machine end to end, in the order the figures answer:\n"
            "inventory and topology, copy-engine P2P for every GPU pair (disjoint pairs at\n"
            "once), the four main NCCL collectives on all GPUs, HBM and host copies,\n"
            "SM-kernel and staged P2P, latency, (thorough) the fabric stress step, all_reduce\n"
            "on each group the plan proposes, (thorough) 60 s of sustained load (linkscope\n"
            "burn); each GPU against its datasheet (as check --spec); then the findings and\n"
            "the plan. Writes the run document (default linkscope-HOST-DATE.json) and the\n"
            "HTML report beside it (same name, .html), and prints findings, plan and the\n"
            "tensor-parallel verdict.\n"
            "\n",
    .opts = options,
    .tail = "\n"
            "The full report of the document: linkscope report FILE (or the HTML beside it).\n"
            "exit: 0 done, 1 a finding at or above --fail-on, 2 usage, 3 no usable GPU or\n"
            "driver, 4 the budget cannot hold the run even cut down (nothing measured)\n",
    .column = 17,
    .args_size = sizeof(run_args_t),
    .check = check_options,
    .measures = measures,
};

static int parse_args(int argc, char **argv, run_args_t *a)
{
    memset(a, 0, sizeof *a);
    a->budget_s = -1;
    a->fail_on = LS_FAIL_ON_DEFAULT;
    if (ls_opt_parse("run", &opts_run, argc, argv, a, NULL, NULL))
        return LS_EXIT_USAGE;
    if (a->budget_s < 0)
        a->budget_s = a->thorough ? 600 : 120;
    if (a->quiet && !a->progress_set)
        ls_progress_set_mode(LS_PROGRESS_NEVER);
    return 0;
}

/* --gpus, or every GPU of the machine. */
static int all_gpus(const run_args_t *a, int count, int *gpus)
{
    if (a->ngpus == 0) {
        for (int i = 0; i < count && i < LS_MAX_GPUS; i++)
            gpus[i] = i;
        return count < LS_MAX_GPUS ? count : LS_MAX_GPUS;
    }
    for (int i = 0; i < a->ngpus; i++)
        gpus[i] = a->gpus[i];
    return a->ngpus;
}

/* The spec step's verdict in tensor-parallel terms (docs/acceptance.md), as the report
   and check --spec word it. */
static void print_tp_verdict(const json_t *doc)
{
    const json_t *tp = json_object_get(json_object_get(doc, "spec"), "tp");
    if (!tp)
        return;
    ls_buf_t b = {0};
    ls_spec_tp_text(&b, tp, (int)json_array_size(json_object_get(doc, "gpus")), ls_term_width());
    char *text = ls_buf_take(&b);
    printf("\n%s", text ? text : "");
    free(text);
}

int cmd_run(int argc, char **argv)
{
    run_args_t a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc;
    ls_dry_opts_t dry = {.from = a.from,
                         .thorough = a.thorough,
                         .budget_s = a.budget_s,
                         .gpus = a.gpus,
                         .ngpus = a.ngpus,
                         .no_nccl = a.no_nccl};
    if (a.dry_run) /* --from's machine, or this one's discovered topology */
        return ls_run_dry(&dry);
    /* -o was checked by the dispatcher, and the GPU (prologue.c); the default's folder */
    if (!a.out && ls_check_writable("run", "-o", "./linkscope-run.json", 0))
        return LS_EXIT_USAGE;
    int count = ls_gpus_seen();
    if (ls_opt_gpus_exist("run", a.gpus, a.ngpus, count))
        return LS_EXIT_USAGE;
    ls_run_opts_t ro = {.thorough = a.thorough, .budget_s = a.budget_s, .no_nccl = a.no_nccl};
    ro.ngpus = all_gpus(&a, count, ro.gpus);
    int refused;
    json_t *doc = ls_pipeline_run(&ro, &refused);
    if (!doc)
        return refused ? LS_EXIT_BUDGET : LS_EXIT_USAGE;
    const json_t *findings = json_object_get(doc, "findings"), *plan = json_object_get(doc, "plan");
    char path[4096];
    if (a.out)
        snprintf(path, sizeof path, "%s", a.out);
    else
        ls_run_default_path(path, sizeof path);
    rc = ls_run_write_outputs(doc, findings, plan, path, !a.no_report);
    if (a.quiet) { /* the verdict line and what failed */
        ls_run_print_quiet(findings, a.fail_on);
        goto done;
    }
    /* verdict first, as every report (colour on a terminal only, NO_COLOR honoured) */
    char *verdict = ls_render_verdict(findings), *head = ls_render_headline(doc, plan),
         *text = ls_render_plan_text(findings, plan);
    ls_buf_t b = {0};
    ls_buf_printf(&b, "%s\n\n%s\n%s", verdict, head, text);
    char *out = ls_term_colour(ls_buf_take(&b), stdout);
    fputs(out, stdout);
    free(out);
    free(verdict);
    free(head);
    free(text);
    print_tp_verdict(doc);
    printf("\nEvery figure: linkscope report %s (--format %s)\n", path,
           ls_format_names_joined("|", "|"));
done:
    if (rc == 0 && ls_fail_on_count(findings, a.fail_on) > 0)
        rc = LS_EXIT_CHECK;
    json_decref(doc);
    return rc;
}
