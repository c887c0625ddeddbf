/* linkscope burn: sustained load on every GPU, with clocks, power, temperature and
   throttle reasons sampled all along (measure/burn.h). */
#include "commands.h"
#include "options.h"
#include "analyze/analyze.h"
#include "analyze/burn_rules.h"
#include "discover/discover.h"
#include "measure/burn.h"
#include "measure/gpu.h"
#include "model/doc.h"
#include "render/burn_render.h"
#include "util/log.h"
#include "util/parse.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

const char usage_burn[] =
    "usage: linkscope burn [--seconds N] [--gpus LIST] [-o FILE | --into FILE]\n"
    "                      [--period-ms MS] [--no-cublas] [--no-traffic] [--fail-on LEVEL]\n"
    "                      [--progress auto|always|never]\n"
    "\n"
    "Holds every chosen GPU under sustained load: bf16 tensor-core GEMMs (8192^3, through\n"
    "cuBLAS, loaded at run time; set LINKSCOPE_CUBLAS to its file; an FP32 FMA kernel where\n"
    "it is absent), with device-local copies and copies to the next GPU (NVLink or PCIe)\n"
    "beside them, while NVML is read every 100 ms: SM and memory clocks, board power,\n"
    "temperature, throttle reasons, NVLink throughput. Reports throughput in the first\n"
    "seconds against the sustained throughput, the temperature and power reached, the\n"
    "throttle reasons and when they began, and findings (thermal or hardware slowdown,\n"
    "power below DCGM's targeted-power criterion, a GPU behind its peers, a fault in the\n"
    "repeated product). Never changes clocks or power limits.\n"
    "\n"
    "  --seconds N    how long to hold the load (default 180)\n"
    "  --gpus LIST    GPUs to load, e.g. 0,1 or 0-3 (default all)\n"
    "  -o FILE        write a new run document (discovery first)\n"
    "  --into FILE    add the entries to an existing run document\n"
    "  --period-ms MS NVML sampling period (default 100)\n"
    "  --no-cublas    the FMA kernel even where cuBLAS is there\n"
    "  --no-traffic   compute only, no HBM or GPU-to-GPU copies beside it\n"
    "  --fail-on L    exit 1 when a finding at or above L exists: info, warning, error or\n"
    "                 never (the default: burn measures; give a level to judge)\n"
    LS_PROGRESS_USAGE
    "\n"
    "Exit codes: 0 ok, 1 a finding at or above --fail-on or every GPU failed, 2 usage,\n"
    "3 no usable GPU or built without CUDA.\n";

typedef struct {
    ls_burn_opts_t o;
    const char *out, *into;
    int fail_on; /* LS_FAIL_NEVER unless --fail-on (a measuring command) */
} burn_args_t;

static int parse_num_opt(const char *opt, const char *text, double lo, double hi, double *v)
{
    if (ls_parse_double(text, v) || *v < lo || *v > hi)
        return ls_usage_error("burn", "%s: expected a number from %g to %g, got '%s'", opt, lo, hi, text);
    return 0;
}

static int parse_args(int argc, char **argv, burn_args_t *a)
{
    static const struct option opts[] = {
        {"seconds", required_argument, 0, 's'}, {"gpus", required_argument, 0, 'g'},
        {"into", required_argument, 0, 'i'},    {"period-ms", required_argument, 0, 'p'},
        {"no-cublas", no_argument, 0, 'C'},     {"no-traffic", no_argument, 0, 'T'},
        {"fail-on", required_argument, 0, 'F'}, {"progress", required_argument, 0, 'P'},
        {0, 0, 0, 0}};
    memset(a, 0, sizeof *a);
    a->fail_on = LS_FAIL_NEVER;
    a->o.seconds = LS_BURN_DEFAULT_SECONDS;
    a->o.period_ms = LS_BURN_PERIOD_MS;
    ls_opt_begin();
    int c, rc = 0;
    double v;
    while (!rc && (c = getopt_long(argc, argv, ":o:", opts, NULL)) != -1) {
        if (ls_opt_refused("burn", c, argv))
            return LS_EXIT_USAGE;
        switch (c) {
        case 's': rc = parse_num_opt("--seconds", optarg, 1, 86400, &a->o.seconds); break;
        case 'p':
            if (!(rc = parse_num_opt("--period-ms", optarg, 10, 10000, &v)))
                a->o.period_ms = (int)v;
            break;
        case 'g': rc = ls_opt_gpus("burn", optarg, a->o.gpus, LS_MAX_GPUS, &a->o.ngpus); break;
        case 'o': a->out = optarg; break;
        case 'i': a->into = optarg; break;
        case 'C': a->o.no_cublas = 1; break;
        case 'T': a->o.no_traffic = 1; break;
        case 'P': rc = ls_opt_progress("burn", optarg) ? LS_EXIT_USAGE : 0; break;
        case 'F': rc = ls_opt_fail_on("burn", optarg, &a->fail_on) ? LS_EXIT_USAGE : 0; break;
        }
    }
    if (!rc && optind < argc)
        rc = ls_usage_error("burn", "unexpected argument '%s'", argv[optind]);
    if (!rc && a->out && a->into)
        rc = ls_usage_error("burn", "-o and --into exclude each other");
    return rc;
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

static json_t *open_doc(const burn_args_t *a)
{
    if (a->into)
        return ls_read_document_into(a->into);
    json_t *doc = ls_doc_new();
    ls_discover_opts_t d = {NULL, 1, 1};
    ls_discover(doc, &d);
    return doc;
}

/* Prints the table and the burn findings; returns how many reach --fail-on. */
static int report(const burn_args_t *a, const json_t *doc)
{
    ls_burn_table(stdout, doc);
    json_t *found = json_array();
    ls_rules_burn(doc, found);
    size_t i;
    const json_t *f;
    json_array_foreach(found, i, f) printf("%s %s: %s\n", ls_json_str(f, "severity", "?"),
                                           ls_json_str(f, "rule", "?"), ls_json_str(f, "message", ""));
    int over = ls_fail_on_count(found, a->fail_on);
    json_decref(found);
    return over;
}

int cmd_burn(int argc, char **argv)
{
    burn_args_t a;
    int rc = parse_args(argc, argv, &a);
    if (!rc)
        rc = ls_check_writable("burn", a.out ? "-o" : "--into", a.out ? a.out : a.into, 0);
    if (rc)
        return rc;
    char err[512] = "";
    json_t *doc = a.into ? open_doc(&a) : NULL;
    if (a.into && !doc)
        return LS_EXIT_USAGE;
    int count = ls_gpu_count(err, sizeof err);
    if (count <= 0) {
        ls_error("%s", err);
        json_decref(doc);
        return LS_EXIT_NOGPU;
    }
    if ((rc = choose_gpus(&a, count)) != 0) {
        json_decref(doc);
        return rc;
    }
    if (!doc)
        doc = open_doc(&a);
    ls_progress("burn: %d GPU%s for %.0f s ...", a.o.ngpus, a.o.ngpus == 1 ? "" : "s", a.o.seconds);
    rc = ls_measure_burn(doc, &a.o, err, sizeof err);
    ls_progress_done();
    if (rc)
        ls_error("%s", err);
    int over = report(&a, doc);
    const char *path = a.out ? a.out : a.into;
    if (path && ls_doc_into_write(doc, path, err, sizeof err) != 0) {
        ls_error("%s", err);
        json_decref(doc);
        return LS_EXIT_USAGE;
    }
    json_decref(doc);
    if (rc == LS_EXIT_NOGPU)
        return rc;
    return rc || over ? LS_EXIT_CHECK : LS_EXIT_OK;
}
