/* linkscope run: the full characterization of this machine in one command. */
#include "commands.h"
#include "term_colour.h"
#include "options.h"
#include "run_dry.h"
#include "run_outputs.h"
#include "analyze/analyze.h"
#include "measure/gpu.h"
#include "model/doc.h"
#include "pipeline/pipeline.h"
#include "render/render.h"
#include "render/spec_render.h"
#include "render/strbuf.h"
#include "util/log.h"
#include "util/parse.h"
#include "util/pathpat.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char usage_run[] =
    "usage: linkscope run [--level quick|thorough] [--budget SECONDS] [--gpus LIST]\n"
    "                     [-o FILE] [--no-nccl] [--no-report] [--fail-on LEVEL]\n"
    "                     [--quiet] [--progress auto|always|never]\n"
    "       linkscope run --dry-run [--from FILE] [--level L] [--budget SECONDS]\n"
    "                     [--gpus LIST] [--no-nccl]\n"
    "\n"
    "Characterizes this machine end to end, in the order the figures answer: inventory\n"
    "and topology, copy-engine P2P for every GPU pair (disjoint pairs at once), the four\n"
    "main NCCL collectives on all GPUs, HBM and host copies, SM-kernel and staged P2P,\n"
    "latency, (thorough) the fabric stress step, all_reduce on each group the plan\n"
    "proposes, (thorough) 60 s of sustained load (linkscope burn); each GPU against its\n"
    "datasheet (as check --spec); then the findings and the plan. Writes the run\n"
    "document (default linkscope-HOST-DATE.json) and the HTML report beside it (same\n"
    "name, .html), and prints findings, plan and the tensor-parallel verdict.\n"
    "\n"
    "  --level L      quick (default): all_reduce to 8 GiB, the other collectives to\n"
    "                 512 MiB (x4 steps from 8 B), 10 samples per figure; thorough: every\n"
    "                 collective to 8 GiB in factor-2 steps, 20 samples per figure\n"
    "  --budget S     wall-time budget in seconds (default 120 quick, 600 thorough), a\n"
    "                 hard cap: steps are cut down from the last back (half the samples,\n"
    "                 the collectives to 1 GiB, burn to 30 s), never dropped, until the\n"
    "                 projection fits; each cut is recorded. Where even cut down it does\n"
    "                 not fit, one line says so and the run stops before measuring (exit 4)\n"
    "  --gpus LIST    GPUs to use, e.g. 0,1 or 0-3 (default all)\n"
    "  -o FILE        the run document's path (the HTML report goes to FILE minus .json\n"
    "                 plus .html); %N in FILE is this node's short host name\n"
    "  --no-nccl      skip the collectives\n"
    "  --no-report    do not write the HTML report\n"
    "  --dry-run      measure nothing: print the steps in the order they run, the pair\n"
    "                 rounds, the projected seconds of each step and what the budget\n"
    "                 would cut; the last line is 'projected: N s, rounds R, cut: ...'\n"
    "                 (exit 4 as the run would when even cut down it does not fit)\n"
    "  --from FILE    with --dry-run: plan the machine of FILE (saved `nvidia-smi topo -m`\n"
    "                 text or a run document) instead of this one; no GPU needed\n"
    LS_FAIL_ON_USAGE
    LS_QUIET_USAGE
    "                    (and no progress unless --progress is given)\n"
    LS_PROGRESS_USAGE
    "\n"
    "The full report of the document: linkscope report FILE (or the HTML beside it).\n"
    "exit: 0 done, 1 a finding at or above --fail-on, 2 usage, 3 no usable GPU or driver,\n"
    "      4 the budget cannot hold the run even cut down (nothing measured)\n";

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

static int parse_args(int argc, char **argv, run_args_t *a)
{
    static const struct option opts[] = {{"level", required_argument, 0, 'l'},
                                         {"budget", required_argument, 0, 'b'},
                                         {"gpus", required_argument, 0, 'g'},
                                         {"no-nccl", no_argument, 0, 'N'},
                                         {"no-report", no_argument, 0, 'R'},
                                         {"fail-on", required_argument, 0, 'F'},
                                         {"dry-run", no_argument, 0, 'D'},
                                         {"from", required_argument, 0, 'f'},
                                         {"quiet", no_argument, 0, 'q'},
                                         {"progress", required_argument, 0, 'P'},
                                         {0, 0, 0, 0}};
    memset(a, 0, sizeof *a);
    a->budget_s = -1;
    a->fail_on = LS_FAIL_ON_DEFAULT;
    ls_opt_begin();
    int c;
    while ((c = getopt_long(argc, argv, ":o:", opts, NULL)) != -1) {
        switch (c) {
        case 'l':
            if (strcmp(optarg, "quick") && strcmp(optarg, "thorough"))
                return ls_usage_error("run", "--level: expected quick or thorough, got '%s'", optarg);
            a->thorough = strcmp(optarg, "thorough") == 0;
            break;
        case 'b':
            if (ls_parse_double(optarg, &a->budget_s) || a->budget_s <= 0)
                return ls_usage_error("run", "--budget: expected a positive number of seconds, got '%s'", optarg);
            break;
        case 'g':
            if (ls_opt_gpus("run", optarg, a->gpus, LS_MAX_GPUS, &a->ngpus))
                return LS_EXIT_USAGE;
            break;
        case 'o': { /* "%N": this node's short name, one file per node under srun */
            static char path[4096];
            if (ls_expand_node(optarg, NULL, path, sizeof path) != 0)
                return ls_usage_error("run", "-o: path too long '%s'", optarg);
            a->out = path;
            break;
        }
        case 'N': a->no_nccl = 1; break;
        case 'R': a->no_report = 1; break;
        case 'F':
            if (ls_opt_fail_on("run", optarg, &a->fail_on))
                return LS_EXIT_USAGE;
            break;
        case 'D': a->dry_run = 1; break;
        case 'f': a->from = optarg; break;
        case 'q': a->quiet = 1; break;
        case 'P':
            if (ls_opt_progress("run", optarg))
                return LS_EXIT_USAGE;
            a->progress_set = 1;
            break;
        case ':': return ls_usage_error("run", "option '%s' needs a value", argv[optind - 1]);
        default: return ls_usage_error("run", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return ls_usage_error("run", "unexpected argument '%s'", argv[optind]);
    if (a->budget_s < 0)
        a->budget_s = a->thorough ? 600 : 120;
    if (a->quiet && !a->progress_set)
        ls_progress_set_mode(LS_PROGRESS_NEVER);
    if (a->from && !a->dry_run)
        return ls_usage_error("run", "--from plans another machine: it needs --dry-run");
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
    ls_spec_tp_text(&b, tp, (int)json_array_size(json_object_get(doc, "gpus")), 0);
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
    ls_dry_opts_t dry = {.from = a.from, .thorough = a.thorough, .budget_s = a.budget_s,
                         .gpus = a.gpus, .ngpus = a.ngpus, .no_nccl = a.no_nccl};
    if (a.dry_run && a.from)
        return ls_run_dry(&dry);
    if (!a.dry_run && ls_check_writable("run", "-o", a.out ? a.out : "./linkscope-run.json", 0))
        return LS_EXIT_USAGE;
    char err[512];
    int count = ls_gpu_count(err, sizeof err);
    if (count <= 0) {
        ls_error("%s", err);
        return LS_EXIT_NOGPU;
    }
    if (a.dry_run) /* this machine: its discovered topology */
        return ls_run_dry(&dry);
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
    printf("\nEvery figure: linkscope report %s (terminal, --format md|html|csv|json|prom)\n", path);
done:
    if (rc == 0 && ls_fail_on_count(findings, a.fail_on) > 0)
        rc = LS_EXIT_CHECK;
    json_decref(doc);
    return rc;
}
