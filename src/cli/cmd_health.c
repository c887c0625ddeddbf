#define _GNU_SOURCE /* pthread_timedjoin_np */
/* linkscope health: the node state a scheduler acts on, each finding with its action
   (docs/health.md). */
#include "commands.h"
#include "health_dry.h"
#include "health_probe.h"
#include "health_slurm.h"
#include "options.h"

#include "health/health.h"
#include "util/log.h"

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    const char *from, *format, *node;
    int slurm, drain, quiet, dry_run, no_probe;
    int fail_on; /* a severity, or LS_FAIL_NEVER (options.h) */
    double window_s, budget_s;
} opts_t;

static const char *const *format_words(void)
{
    static const char *const words[] = {"text", "json", "labels", NULL};
    return words;
}

static int opt_format(const char *cmd, const char *v, void *args)
{
    for (const char *const *w = format_words(); *w; w++)
        if (!strcmp(v, *w)) {
            ((opts_t *)args)->format = *w;
            return 0;
        }
    return ls_usage_error(cmd, "--format takes text, json or labels, not '%s'", v);
}

static int opt_seconds(const char *cmd, const char *opt, const char *v, double lo, double hi,
                       double *out)
{
    char *end;
    *out = strtod(v, &end);
    if (end == v || *end || *out < lo || *out > hi)
        return ls_usage_error(cmd, "%s takes %g to %g seconds, not '%s'", opt, lo, hi, v);
    return 0;
}

static int opt_window(const char *cmd, const char *v, void *args)
{
    return opt_seconds(cmd, "--window", v, 0, 30, &((opts_t *)args)->window_s);
}

static int opt_budget(const char *cmd, const char *v, void *args)
{
    return opt_seconds(cmd, "--budget", v, 1, 300, &((opts_t *)args)->budget_s);
}

#define FLAG(n, field, text) LS_OPT_FLAG_ROW(opts_t, n, field, text)

static const ls_opt_t options[] = {
    {.name = "from",
     .kind = LS_OPT_STRING,
     .arg = "DIR",
     .off = offsetof(opts_t, from),
     .help = "recorded node state (nvml.json, kernel.log, sys/...) instead\n"
             "of this node; also $LINKSCOPE_HEALTH_FROM"},
    {.name = "format",
     .kind = LS_OPT_CALL,
     .arg = "F",
     .call = opt_format,
     .words = format_words,
     .help = "text (default), json, or labels (Kubernetes node labels,\nkey=value)"},
    FLAG("slurm", slurm, "print only the reason Slurm shows (\"linkscope: ...\n(isolate)\")"),
    FLAG("drain", drain,
         "with --slurm: drain this node with that reason through\n"
         "scontrol when it fails; resume it when it passes and\n"
         "linkscope had drained it"),
    {.name = "node",
     .kind = LS_OPT_STRING,
     .arg = "NAME",
     .off = offsetof(opts_t, node),
     .help = "the Slurm node name (default $SLURMD_NODENAME, else the host\nname)"},
    {.name = "fail-on",
     .kind = LS_OPT_FAIL_ON,
     .arg = "LEVEL",
     .off = offsetof(opts_t, fail_on),
     .help = "exit 1 on a finding at LEVEL or above: error (default:\n"
             "isolate, reboot, reset), warning (also watch), info (also\n"
             "none) or never"},
    {.name = "quiet",
     .short_name = 'q',
     .kind = LS_OPT_FLAG,
     .off = offsetof(opts_t, quiet),
     .help = "print only the verdict line and what failed (at --fail-on)"},
    {.name = "window",
     .kind = LS_OPT_CALL,
     .arg = "S",
     .call = opt_window,
     .help = "seconds between the two NVLink error counter readings\n(default 2)"},
    {.name = "budget",
     .kind = LS_OPT_CALL,
     .arg = "S",
     .call = opt_budget,
     .help = "the live checks' hard cap (default 10): a driver that gives\n"
             "no answer within it is a finding (reboot), not a hung check;\n"
             "a probe step that would not fit in what is left is skipped\n"
             "and said so"},
    FLAG("no-probe", no_probe, "the state checks only, no measuring (--from never probes)"),
    FLAG("dry-run", dry_run,
         "check nothing: the steps and their projected seconds by the\n"
         "cost table of run --dry-run, for this machine, a recorded\n"
         "state (--from DIR) or a topology (--from FILE: topo -m text\n"
         "or a run document)"),
    {.kind = LS_OPT_END},
};

const ls_cmd_opts_t opts_health = {
    .head = "usage: linkscope health [--from DIR] [--format text|json|labels]\n"
            "                        [--slurm [--drain] [--node NAME]]\n"
            "                        [--fail-on LEVEL] [--quiet] [--window SECONDS]\n"
            "                        [--budget SECONDS] [--no-probe]\n"
            "       linkscope health --dry-run [--from DIR|FILE] [--window SECONDS]\n"
            "                        [--no-probe]\n"
            "\n"
            "Checks this node's state: the driver answers, GPU count, NVLinks up against the\n"
            "part, PCIe width against the maximum, ECC, row remapping and page retirement,\n"
            "XID events in the kernel log, NVLink error counters over a window, PCIe AER and\n"
            "replays, InfiniBand and RoCE ports, the NVSwitch fabric (Fabric Manager running\n"
            "beside the NVSwitches, SXid events), other processes on the GPUs. Each finding\n"
            "carries an action: isolate, reboot, reset, watch or none (docs/health.md).\n"
            "Then, within what is left of the budget, a short probe: copy-engine copies\n"
            "between every GPU pair, one all_reduce size, one HBM copy, each verified and\n"
            "held against its hardware ceiling; not where the driver is gone, a reboot is\n"
            "due or another process holds a GPU.\n"
            "\n",
    .opts = options,
    .tail = "\n"
            "Exit: 0 healthy, 1 a finding at --fail-on or above, 2 bad usage or unreadable\n"
            "--from.\n",
    .column = 20,
    .args_size = sizeof(opts_t),
};

static int parse(int argc, char **argv, opts_t *o)
{
    *o = (opts_t){.format = "text",
                  .fail_on = LS_FAIL_ON_DEFAULT,
                  .window_s = 2.0,
                  .budget_s = 10.0};
    o->from = getenv("LINKSCOPE_HEALTH_FROM");
    if (ls_opt_parse("health", &opts_health, argc, argv, o, NULL, NULL))
        return LS_EXIT_USAGE;
    if (o->window_s >= o->budget_s)
        return ls_usage_error("health", "--window %g does not fit in --budget %g", o->window_s,
                              o->budget_s);
    if (o->drain && !o->slurm)
        return ls_usage_error("health", "--drain needs --slurm");
    if (o->dry_run && o->slurm)
        return ls_usage_error("health", "--dry-run checks nothing: not with --slurm");
    return -1;
}

/* The action's severity, what --fail-on judges: isolate, reboot, reset are errors,
   watch a warning, none information. */
static enum ls_severity severity_of(enum ls_action a)
{
    return a >= LS_ACT_RESET ? LS_SEV_ERROR : a == LS_ACT_WATCH ? LS_SEV_WARNING : LS_SEV_INFO;
}

static enum ls_action action_of(const json_t *f)
{
    int a = ls_action_parse(json_string_value(json_object_get(f, "action")));
    return a < 0 ? LS_ACT_NONE : (enum ls_action)a;
}

/* The findings that fail at fail_on, strongest action first (stable within one). */
static json_t *failing(const json_t *findings, int fail_on)
{
    json_t *out = json_array();
    for (int a = LS_ACT_ISOLATE; a >= LS_ACT_NONE; a--) {
        size_t i;
        json_t *f;
        json_array_foreach(findings, i, f)
            if ((int)action_of(f) == a && ls_fail_on_trips(fail_on, severity_of(action_of(f))))
                json_array_append(out, f);
    }
    return out;
}

static void print_text(const json_t *findings, const json_t *fails, const json_t *probe,
                       const opts_t *o, double secs)
{
    enum ls_action worst = ls_health_worst(fails);
    if (json_array_size(fails))
        printf("linkscope health: FAIL (%s), %zu finding%s fail\n", ls_action_name(worst),
               json_array_size(fails), json_array_size(fails) == 1 ? "" : "s");
    else if (o->fail_on == LS_FAIL_NEVER && json_array_size(findings))
        printf("linkscope health: not judged (--fail-on never), worst action %s\n",
               ls_action_name(ls_health_worst(findings)));
    else
        printf("linkscope health: OK\n");
    const json_t *list = o->quiet ? fails : findings;
    size_t i;
    json_t *f;
    json_array_foreach(list, i, f)
        printf("  %-8s %s\n", json_string_value(json_object_get(f, "action")),
               json_string_value(json_object_get(f, "message")));
    if (o->quiet)
        return;
    ls_health_probe_print(probe);
    printf("  checked in %.1f s%s\n", secs, o->from ? " (recorded state)" : "");
}

/* Kubernetes node labels: values of [A-Za-z0-9._-], at most 63 characters. */
static void print_labels(const json_t *fails)
{
    enum ls_action worst = ls_health_worst(fails);
    printf("linkscope.dev/health=%s\n", json_array_size(fails) ? "fail" : "ok");
    printf("linkscope.dev/health-action=%s\n", ls_action_name(worst));
    char rules[64] = "";
    size_t i;
    json_t *f;
    json_array_foreach(fails, i, f) {
        const char *r = json_string_value(json_object_get(f, "rule"));
        if (!strstr(rules, r) && strlen(rules) + strlen(r) + 2 < sizeof rules)
            snprintf(rules + strlen(rules), sizeof rules - strlen(rules), "%s%s", *rules ? "." : "",
                     r);
    }
    for (char *p = rules; *p; p++)
        if (*p == '_')
            *p = '-';
    printf("linkscope.dev/health-failed=%s\n", *rules ? rules : "none");
}

static void print_json(json_t *findings, const json_t *fails, json_t *probe, double secs)
{
    json_t *o = json_pack("{s:s, s:s, s:O, s:O, s:f}", "verdict",
                          json_array_size(fails) ? "fail" : "ok", "action",
                          ls_action_name(ls_health_worst(fails)), "findings", findings, "probe",
                          probe, "seconds", secs);
    char *text = json_dumps(o, JSON_INDENT(2));
    printf("%s\n", text);
    free(text);
    json_decref(o);
}

static void add_severity(json_t *findings)
{
    size_t i;
    json_t *f;
    json_array_foreach(findings, i, f)
        json_object_set_new(f, "severity",
                            json_string(ls_severity_name(severity_of(action_of(f)))));
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

typedef struct {
    double window_s;
    json_t *state;
} collect_t;

static void *collect(void *arg)
{
    collect_t *c = arg;
    c->state = ls_health_live(c->window_s);
    return NULL;
}

/* The live state, or, when NVML has not answered within the budget (a wedged driver
   blocks its calls), a state whose driver did not answer: the check still ends in time
   with a verdict, and the hung thread is left behind. */
static json_t *live_within(double window_s, double budget_s)
{
    collect_t *c = calloc(1, sizeof *c);
    c->window_s = window_s;
    pthread_t t;
    if (pthread_create(&t, NULL, collect, c) != 0) {
        collect(c);
        json_t *s = c->state;
        free(c);
        return s;
    }
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += (time_t)budget_s;
    if (pthread_timedjoin_np(t, NULL, &until) == 0) {
        json_t *s = c->state;
        free(c);
        return s;
    }
    pthread_detach(t); /* c stays with the thread, which may still write to it */
    char why[128];
    snprintf(why, sizeof why, "NVML gave no answer within %g s", budget_s);
    json_t *s = json_pack("{s:{s:b, s:s}, s:[]}", "driver", "ok", 0, "error", why, "gpus");
    ls_health_add_host(s, "", NULL);
    return s;
}

static int report(json_t *findings, json_t *probe, const opts_t *o, double secs)
{
    json_t *fails = failing(findings, o->fail_on);
    int failed = json_array_size(fails) > 0, rc = failed ? LS_EXIT_CHECK : LS_EXIT_OK;
    if (o->slurm) {
        char reason[1024], node[256];
        ls_slurm_reason(fails, reason, sizeof reason);
        printf("%s\n", reason);
        if (o->node)
            snprintf(node, sizeof node, "%s", o->node);
        else
            ls_slurm_node_name(node, sizeof node);
        if (o->drain && ls_slurm_drain(node, failed, reason) != 0)
            rc = LS_EXIT_CHECK;
    } else if (!strcmp(o->format, "labels"))
        print_labels(fails);
    else if (!strcmp(o->format, "json"))
        print_json(findings, fails, probe, secs);
    else
        print_text(findings, fails, probe, o, secs);
    json_decref(fails);
    return rc;
}

int cmd_health(int argc, char **argv)
{
    opts_t o;
    int prc = parse(argc, argv, &o);
    if (prc >= 0)
        return prc;
    if (o.dry_run)
        return ls_health_dry(o.from && *o.from ? o.from : NULL, o.window_s, o.budget_s, o.no_probe);
    if (!getenv("LINKSCOPE_PROGRESS")) /* the verdict is the output: no measuring progress */
        ls_progress_set_mode(LS_PROGRESS_NEVER);
    double t0 = now_s();
    char err[512];
    json_t *state = o.from && *o.from ? ls_health_load(o.from, err, sizeof err)
                                      : live_within(o.window_s, o.budget_s);
    if (!state) {
        fprintf(stderr, "linkscope health: %s\n", err);
        return LS_EXIT_USAGE;
    }
    json_t *findings = ls_health_rules(state);
    int ngpus = (int)json_array_size(json_object_get(state, "gpus"));
    json_decref(state);
    /* the probe's clock is the state checks' (both CLOCK_MONOTONIC): one budget for both */
    ls_health_probe_opts_t po = {.off = o.no_probe,
                                 .recorded = o.from && *o.from,
                                 .gpus = ngpus,
                                 .deadline = t0 + o.budget_s};
    int abandoned;
    json_t *probe = ls_health_probe(&po, findings, &abandoned);
    add_severity(findings);
    int rc = report(findings, probe, &o, now_s() - t0);
    json_decref(findings);
    json_decref(probe);
    if (abandoned) { /* a thread is still inside the driver: no CUDA teardown behind it */
        fflush(stdout);
        fflush(stderr);
        _exit(rc);
    }
    return rc;
}
