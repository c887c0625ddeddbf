/* linkscope burn: sustained load on every GPU, with clocks, power, temperature and
   throttle reasons sampled all along (measure/burn.h). */
#include "commands.h"
#include "options.h"
#include "analyze/analyze.h"
#include "analyze/burn_rules.h"
#include "measure/burn.h"
#include "model/doc.h"
#include "render/burn_render.h"
#include "util/log.h"
#include "util/parse.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    ls_burn_opts_t o;
    const char *out, *into;
    int fail_on; /* LS_FAIL_NEVER unless --fail-on (a measuring command) */
} burn_args_t;

static int parse_num_opt(const char *opt, const char *text, double lo, double hi, double *v)
{
    if (ls_parse_double(text, v) || *v < lo || *v > hi)
        return ls_usage_error("burn", "%s: expected a number from %g to %g, got '%s'", opt, lo, hi,
                              text);
    return 0;
}

static int opt_seconds(const char *cmd, const char *v, void *args)
{
    (void)cmd;
    return parse_num_opt("--seconds", v, 1, 86400, &((burn_args_t *)args)->o.seconds);
}

static int opt_period(const char *cmd, const char *v, void *args)
{
    (void)cmd;
    double ms;
    int rc = parse_num_opt("--period-ms", v, 10, 10000, &ms);
    if (!rc)
        ((burn_args_t *)args)->o.period_ms = (int)ms;
    return rc;
}

static int opt_gpus(const char *cmd, const char *v, void *args)
{
    burn_args_t *a = args;
    return ls_opt_gpus(cmd, v, a->o.gpus, LS_MAX_GPUS, &a->o.ngpus);
}

static const ls_opt_t options[] = {
    {.name = "seconds",
     .kind = LS_OPT_CALL,
     .arg = "N",
     .call = opt_seconds,
     .help = "how long to hold the load (default 180)"},
    {.name = "gpus",
     .kind = LS_OPT_CALL,
     .arg = "LIST",
     .call = opt_gpus,
     .help = "GPUs to load, e.g. 0,1 or 0-3 (default all)"},
    LS_OPT_DOC_ROW(burn_args_t, out, NULL, "write a new run document (discovery first)"),
    LS_OPT_INTO_ROW(burn_args_t, into, "add the entries to an existing run document"),
    {.name = "period-ms",
     .kind = LS_OPT_CALL,
     .arg = "MS",
     .call = opt_period,
     .help = "NVML sampling period (default 100)"},
    {.name = "no-cublas",
     .kind = LS_OPT_FLAG,
     .off = offsetof(burn_args_t, o.no_cublas),
     .help = "the FMA kernel even where cuBLAS is there"},
    {.name = "no-traffic",
     .kind = LS_OPT_FLAG,
     .off = offsetof(burn_args_t, o.no_traffic),
     .help = "compute only, no HBM or GPU-to-GPU copies beside it"},
    {.name = "fail-on",
     .kind = LS_OPT_FAIL_ON,
     .arg = "L",
     .off = offsetof(burn_args_t, fail_on),
     .help = "exit 1 when a finding at or above L exists: info, warning,\n"
             "error or never (the default: burn measures; give a level to\n"
             "judge)"},
    LS_OPT_PROGRESS_ROW,
    {.kind = LS_OPT_END},
};

const ls_cmd_opts_t opts_burn = {
    .head = "usage: linkscope burn [--seconds N] [--gpus LIST] [-o FILE | --into FILE]\n"
            "                      [--period-ms MS] [--no-cublas] [--no-traffic]\n"
            "                      [--fail-on LEVEL] [--progress auto|always|never]\n"
            "\n"
            "Holds every chosen GPU under sustained load: bf16 tensor-core GEMMs (8192^3,\n"
            "through cuBLAS, loaded at run time; set LINKSCOPE_CUBLAS to its file; an FP32\n"
            "FMA kernel where it is absent), with device-local copies and copies to the next\n"
            "GPU (NVLink or PCIe) beside them, while NVML is read every 100 ms: SM and memory\n"
            "clocks, board power, temperature, throttle reasons, NVLink throughput. Reports\n"
            "throughput in the first seconds against the sustained throughput, the\n"
            "temperature and power reached, the throttle reasons and when they began, and\n"
            "findings (thermal or hardware slowdown, power below DCGM's targeted-power\n"
            "criterion, a GPU behind its peers, a fault in the repeated product). Never\n"
            "changes clocks or power limits.\n"
            "\n",
    .opts = options,
    .tail = "\n"
            "Exit codes: 0 ok, 1 a finding at or above --fail-on or every GPU failed, 2\n"
            "usage, 3 no usable GPU or built without CUDA.\n",
    .column = 17,
    .args_size = sizeof(burn_args_t),
};

static int parse_args(int argc, char **argv, burn_args_t *a)
{
    memset(a, 0, sizeof *a);
    a->fail_on = LS_FAIL_NEVER;
    a->o.seconds = LS_BURN_DEFAULT_SECONDS;
    a->o.period_ms = LS_BURN_PERIOD_MS;
    if (ls_opt_parse("burn", &opts_burn, argc, argv, a, NULL, NULL))
        return LS_EXIT_USAGE;
    return 0;
}

static int choose_gpus(burn_args_t *a, int count)
{
    if (ls_opt_gpus_exist("burn", a->o.gpus, a->o.ngpus, count))
        return LS_EXIT_USAGE;
    if (!a->o.ngpus) {
        a->o.ngpus = count > LS_MAX_GPUS ? LS_MAX_GPUS : count;
        for (int i = 0; i < a->o.ngpus; i++)
            a->o.gpus[i] = i;
    }
    return 0;
}

/* Prints the table and the burn findings; returns how many reach --fail-on. */
static int report(const burn_args_t *a, const json_t *doc)
{
    ls_burn_table(stdout, doc);
    json_t *found = json_array();
    ls_rules_burn(doc, found);
    size_t i;
    const json_t *f;
    json_array_foreach(found, i, f)
        printf("%s %s: %s\n", ls_json_str(f, "severity", "?"), ls_json_str(f, "rule", "?"),
               ls_json_str(f, "message", ""));
    int over = ls_fail_on_count(found, a->fail_on);
    json_decref(found);
    return over;
}

/* The prologue (prologue.c) has checked -o, --into and the GPU by now. */
int cmd_burn(int argc, char **argv)
{
    burn_args_t a;
    int rc = parse_args(argc, argv, &a);
    if (rc || (rc = choose_gpus(&a, ls_gpus_seen())) != 0)
        return rc;
    json_t *doc = ls_doc_target_open("burn", a.into, ls_doc_new_discovered);
    if (!doc)
        return LS_EXIT_USAGE;
    char err[512] = "";
    ls_progress("burn: %d GPU%s for %.0f s ...", a.o.ngpus, a.o.ngpus == 1 ? "" : "s", a.o.seconds);
    rc = ls_measure_burn(doc, &a.o, err, sizeof err);
    ls_progress_done();
    if (rc)
        ls_error("%s", err);
    int over = report(&a, doc);
    int wrc = ls_doc_target_write(doc, a.out, a.into, NULL);
    json_decref(doc);
    if (wrc || rc == LS_EXIT_NOGPU)
        return wrc ? wrc : rc;
    return rc || over ? LS_EXIT_CHECK : LS_EXIT_OK;
}
