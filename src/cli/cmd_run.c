/* linkscope run: the full characterization of this machine in one command. */
#include "commands.h"
#include "analyze/analyze.h"
#include "analyze/spec_tp.h"
#include "measure/burn.h"
#include "discover/discover.h"
#include "measure/gpu.h"
#include "measure/measure.h"
#include "model/doc.h"
#include "nccl/annotate.h"
#include "nccl/sweep.h"
#include "render/render.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/parse.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char usage_run[] =
    "usage: linkscope run [--level quick|thorough] [--budget SECONDS] [--gpus LIST]\n"
    "                     [-o FILE] [--no-nccl] [--no-report] [--fail-on LEVEL]\n"
    "\n"
    "Characterizes this machine end to end: inventory and topology, P2P bandwidth and\n"
    "latency for every GPU pair, HBM and host copies per GPU, the four main NCCL\n"
    "collectives on all GPUs and all_reduce on each group the plan proposes; each GPU\n"
    "against its datasheet (as check --spec); then the findings and the plan. Writes the\n"
    "run document (default linkscope-HOST-DATE.json) and the HTML report beside it (same\n"
    "name, .html), and prints findings and plan.\n"
    "\n"
    "  --level L      quick (default): all_reduce to 8 GiB, the other collectives to\n"
    "                 1 GiB, 10 samples per figure; thorough: every collective to 8 GiB\n"
    "                 in factor-2 steps, 20 samples per figure, then 60 s of sustained\n"
    "                 load (linkscope burn)\n"
    "  --budget S     wall-time budget in seconds (default 120 quick, 600 thorough):\n"
    "                 steps that would start past it are skipped and recorded as such\n"
    "  --gpus LIST    GPUs to use, e.g. 0,1 or 0-3 (default all)\n"
    "  -o FILE        the run document's path (the HTML report goes to FILE minus .json\n"
    "                 plus .html)\n"
    "  --no-nccl      skip the collectives\n"
    "  --no-report    do not write the HTML report\n"
    "  --fail-on L    exit 1 when a finding at or above info, warning or error exists\n"
    "                 (acceptance tests, fleet gates); without it findings do not\n"
    "                 change the exit code\n"
    "\n"
    "The full report of the document: linkscope report FILE (or the HTML beside it).\n"
    "exit: 0 done, 1 a finding at or above --fail-on, 2 usage, 3 no usable GPU or driver\n";

typedef struct {
    int thorough;
    double budget_s;
    int gpus[LS_MAX_GPUS], ngpus;
    const char *out;
    int no_nccl, no_report;
    int fail_set;
    enum ls_severity fail_on;
} run_args_t;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int parse_args(int argc, char **argv, run_args_t *a)
{
    static const struct option opts[] = {{"level", required_argument, 0, 'l'},
                                         {"budget", required_argument, 0, 'b'},
                                         {"gpus", required_argument, 0, 'g'},
                                         {"no-nccl", no_argument, 0, 'N'},
                                         {"no-report", no_argument, 0, 'R'},
                                         {"fail-on", required_argument, 0, 'F'},
                                         {0, 0, 0, 0}};
    memset(a, 0, sizeof *a);
    a->budget_s = -1;
    optind = 1;
    opterr = 0;
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
            a->ngpus = ls_parse_index_list(optarg, a->gpus, LS_MAX_GPUS);
            if (a->ngpus <= 0)
                return ls_usage_error("run", "--gpus: expected a list like 0,1 or 0-3, got '%s'", optarg);
            break;
        case 'o': a->out = optarg; break;
        case 'N': a->no_nccl = 1; break;
        case 'R': a->no_report = 1; break;
        case 'F':
            if (ls_severity_parse(optarg, &a->fail_on))
                return ls_usage_error("run", "--fail-on: expected info, warning or error, got '%s'", optarg);
            a->fail_set = 1;
            break;
        case ':': return ls_usage_error("run", "option '%s' needs a value", argv[optind - 1]);
        default: return ls_usage_error("run", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return ls_usage_error("run", "unexpected argument '%s'", argv[optind]);
    if (a->budget_s < 0)
        a->budget_s = a->thorough ? 600 : 120;
    return 0;
}

/* One step of the run, with its wall time recorded in the document's "run" object. */
typedef struct {
    json_t *steps;
    double start, budget_s;
} run_log_t;

static int step_allowed(run_log_t *log, const char *name)
{
    if (now_s() - log->start < log->budget_s)
        return 1;
    json_array_append_new(log->steps, json_pack("{s:s, s:s, s:s, s:f}", "step", name, "status",
                                                "skipped", "error", "over the time budget",
                                                "seconds", 0.0));
    ls_warn("%s skipped: the run is over its %.0f s budget", name, log->budget_s);
    return 0;
}

static void step_done(run_log_t *log, const char *name, double t0, int rc, const char *err)
{
    json_t *s = json_pack("{s:s, s:s, s:f}", "step", name, "status", rc == 0 ? "ok" : "failed",
                          "seconds", now_s() - t0);
    if (rc != 0 && err && *err)
        json_object_set_new(s, "error", json_string(err));
    json_array_append_new(log->steps, s);
    if (rc != 0)
        ls_warn("%s: %s", name, err && *err ? err : "failed");
}

typedef int (*family_fn)(json_t *, const ls_measure_opts_t *, char *, size_t);

static void run_family(run_log_t *log, json_t *doc, const char *name, family_fn fn,
                       const ls_measure_opts_t *mo)
{
    if (!step_allowed(log, name))
        return;
    ls_progress("measuring %s ...", name);
    char err[512] = "";
    double t0 = now_s();
    int rc = fn(doc, mo, err, sizeof err);
    ls_progress_done();
    step_done(log, name, t0, rc, err);
}

static void run_sweep(run_log_t *log, json_t *doc, const char *collective, const int *gpus,
                      int ngpus, uint64_t min_b, uint64_t max_b, double factor)
{
    char name[96];
    snprintf(name, sizeof name, "nccl %s on %d GPUs", collective, ngpus);
    if (!step_allowed(log, name))
        return;
    ls_nccl_sweep_opts_t o;
    memset(&o, 0, sizeof o);
    o.collective = collective;
    o.gpus = gpus;
    o.ngpus = ngpus;
    o.min_bytes = min_b;
    o.max_bytes = max_b;
    o.step_factor = factor;
    o.iters = 20;
    o.warmup = 5;
    o.check = 1;
    o.dtype = "float";
    o.redop = "sum";
    o.in_place = 2;
    o.timeout_s = 60;
    o.variant = "default";
    o.threads = 1; /* one launching thread per GPU, as frameworks drive them (docs/nccl.md) */
    ls_progress("%s ...", name);
    char err[512] = "";
    double t0 = now_s();
    json_t *entry = ls_nccl_sweep(&o, err, sizeof err);
    ls_progress_done();
    if (entry) {
        int ok = strcmp(ls_json_str(entry, "status", "failed"), "ok") == 0;
        if (!ok)
            snprintf(err, sizeof err, "%s", ls_json_str(entry, "error", "failed"));
        ls_nccl_annotate_entry(doc, entry);
        ls_nccl_add_entry(doc, entry);
        step_done(log, name, t0, ok ? 0 : -1, err);
    } else {
        step_done(log, name, t0, -1, err);
    }
}

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

static int same_set(const json_t *list, const int *gpus, int n)
{
    if ((int)json_array_size(list) != n)
        return 0;
    for (int i = 0; i < n; i++)
        if (json_integer_value(json_array_get(list, (size_t)i)) != gpus[i])
            return 0;
    return 1;
}

/* all_reduce on every group the plan proposes that is not the whole set measured. */
static void run_plan_groups(run_log_t *log, json_t *doc, const int *gpus, int ngpus, uint64_t max_b)
{
    json_t *plan = ls_plan(doc);
    size_t i;
    json_t *group;
    json_array_foreach(json_object_get(plan, "groups"), i, group)
    {
        const json_t *list = json_object_get(group, "gpus");
        int n = (int)json_array_size(list);
        if (n < 2 || n > LS_MAX_GPUS || same_set(list, gpus, ngpus))
            continue;
        int set[LS_MAX_GPUS];
        for (int k = 0; k < n; k++)
            set[k] = (int)json_integer_value(json_array_get(list, (size_t)k));
        run_sweep(log, doc, "all_reduce", set, n, 1 << 20, max_b, 4);
    }
    json_decref(plan);
}

static void default_path(char *buf, size_t len, const json_t *doc)
{
    char host[128] = "host", date[32];
    gethostname(host, sizeof host - 1);
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(date, sizeof date, "%Y%m%d-%H%M%S", &tm);
    (void)doc;
    snprintf(buf, len, "linkscope-%s-%s.json", host, date);
}

static int write_outputs(json_t *doc, const json_t *findings, const json_t *plan, const char *path,
                         int report)
{
    char err[512];
    if (ls_doc_write(doc, path, err, sizeof err) != 0) {
        ls_error("%s", err);
        return LS_EXIT_USAGE;
    }
    fprintf(stderr, "linkscope: run document written to %s\n", path);
    if (!report)
        return 0;
    size_t n = strlen(path);
    char *html = malloc(n + 6);
    if (!html)
        return LS_EXIT_USAGE;
    if (n > 5 && strcmp(path + n - 5, ".json") == 0)
        n -= 5;
    memcpy(html, path, n);
    memcpy(html + n, ".html", 6);
    char *text = ls_report_html(doc, findings, plan);
    if (!text || ls_write_file_atomic(html, text, strlen(text), err, sizeof err) != 0) {
        ls_error("%s", text ? err : "cannot render the HTML report");
        free(text);
        free(html);
        return LS_EXIT_USAGE;
    }
    free(text);
    fprintf(stderr, "linkscope: HTML report written to %s\n", html);
    free(html);
    return 0;
}

static void measure_all(run_log_t *log, json_t *doc, const run_args_t *a, const int *gpus, int ngpus)
{
    ls_measure_opts_t mo;
    memset(&mo, 0, sizeof mo);
    memcpy(mo.gpus, gpus, sizeof(int) * (size_t)ngpus);
    mo.ngpus = ngpus;
    mo.samples = a->thorough ? 20 : 10;
    mo.doc = doc;
    if (ngpus >= 2) {
        run_family(log, doc, "p2p", ls_measure_p2p, &mo);
        run_family(log, doc, "latency", ls_measure_latency, &mo);
    }
    run_family(log, doc, "hbm", ls_measure_hbm, &mo);
    run_family(log, doc, "host", ls_measure_host, &mo);
    if (a->no_nccl || ngpus < 2)
        return;
    char why[512];
    if (ls_nccl_probe(NULL, 0, why, sizeof why) != 0) { /* once, not once per collective */
        json_array_append_new(log->steps, json_pack("{s:s, s:s, s:s, s:f}", "step", "nccl",
                                                    "status", "skipped", "error", why,
                                                    "seconds", 0.0));
        ls_warn("collectives skipped: %s", why);
        return;
    }
    /* all_reduce to 8 GiB at every level: tensor-parallel prefills of long prompts move
       all-reduces of several GB (linkscope tp reads this curve); sizes that do not fit in
       GPU memory are dropped by the harness with a note. */
    uint64_t max_b = a->thorough ? 8ull << 30 : 1ull << 30;
    run_sweep(log, doc, "all_reduce", gpus, ngpus, 8, 8ull << 30, 2);
    static const char *others[] = {"all_gather", "reduce_scatter", "alltoall"};
    for (int i = 0; i < 3; i++)
        run_sweep(log, doc, others[i], gpus, ngpus, 8, max_b, a->thorough ? 2 : 4);
    run_plan_groups(log, doc, gpus, ngpus, max_b);
    ls_nccl_sweep_finish();
}

/* thorough: the sustained-load family last, so that its heat stays out of the other
   figures. */
static void run_burn(run_log_t *log, json_t *doc, const int *gpus, int ngpus)
{
    if (!step_allowed(log, "burn"))
        return;
    ls_burn_opts_t o;
    memset(&o, 0, sizeof o);
    memcpy(o.gpus, gpus, sizeof(int) * (size_t)ngpus);
    o.ngpus = ngpus;
    o.seconds = LS_BURN_THOROUGH_SECONDS;
    o.period_ms = LS_BURN_PERIOD_MS;
    ls_progress("burn: %.0f s of sustained load ...", o.seconds);
    char err[512] = "";
    double t0 = now_s();
    int rc = ls_measure_burn(doc, &o, err, sizeof err);
    ls_progress_done();
    step_done(log, "burn", t0, rc, err);
}

/* The GPUs against their datasheet (the findings join the run's through doc.spec). */
static void run_spec(run_log_t *log, json_t *doc)
{
    char err[512] = "";
    double t0 = now_s();
    step_done(log, "spec", t0, ls_spec_record(doc, err, sizeof err), err);
}

int cmd_run(int argc, char **argv)
{
    run_args_t a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc;
    if (ls_check_writable("run", "-o", a.out ? a.out : "./linkscope-run.json", 0))
        return LS_EXIT_USAGE;
    char err[512];
    int count = ls_gpu_count(err, sizeof err);
    if (count <= 0) {
        ls_error("%s", err);
        return LS_EXIT_NOGPU;
    }
    for (int i = 0; i < a.ngpus; i++)
        if (a.gpus[i] >= count) {
            ls_error("--gpus: GPU %d does not exist (this machine has %d)", a.gpus[i], count);
            return LS_EXIT_USAGE;
        }
    json_t *doc = ls_doc_new();
    ls_discover_opts_t dopts = {.sysfs_root = "", .use_nvml = 1, .use_cuda = 1};
    run_log_t log = {json_array(), now_s(), a.budget_s};
    ls_progress("discovering ...");
    ls_discover(doc, &dopts);
    ls_progress_done();
    int gpus[LS_MAX_GPUS];
    int ngpus = all_gpus(&a, count, gpus);
    measure_all(&log, doc, &a, gpus, ngpus);
    if (a.thorough)
        run_burn(&log, doc, gpus, ngpus);
    run_spec(&log, doc);
    json_object_set_new(doc, "run", json_pack("{s:s, s:f, s:f, s:o}", "level",
                                              a.thorough ? "thorough" : "quick", "budget_s",
                                              a.budget_s, "elapsed_s", now_s() - log.start,
                                              "steps", log.steps));
    json_t *findings = ls_findings(doc), *plan = ls_plan(doc);
    json_object_set(doc, "findings", findings);
    json_object_set(doc, "plan", plan);
    char path[4096];
    if (a.out)
        snprintf(path, sizeof path, "%s", a.out);
    else
        default_path(path, sizeof path, doc);
    rc = write_outputs(doc, findings, plan, path, !a.no_report);
    char *head = ls_render_headline(doc), *text = ls_render_plan_text(findings, plan);
    printf("%s\n%s", head, text);
    free(head);
    free(text);
    printf("\nEvery figure: linkscope report %s (terminal, --format md|html|csv)\n", path);
    if (rc == 0 && a.fail_set && ls_findings_count_at_least(findings, a.fail_on) > 0)
        rc = LS_EXIT_CHECK;
    json_decref(findings);
    json_decref(plan);
    json_decref(doc);
    return rc;
}
