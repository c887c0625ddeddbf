/* linkscope tp: tensor-parallel communication estimate (docs/tp.md). */
#include "analyze/tp.h"
#include "analyze/tp_sources.h"
#include "commands.h"
#include "options.h"
#include "model/doc.h"
#include "model/entry.h"
#include "nccl/sweep.h"
#include "render/tp_report.h"
#include "util/log.h"
#include "util/parse.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char usage_tp[] =
    "usage: linkscope tp (--model NAME | --hidden H --layers L) [--bytes B] --tp N\n"
    "                    --prompt T[,T...] [--output N] [--batch B[,B...]]\n"
    "                    [--run RUN.json [--gpus LIST] [--variant V] [--name N]]...\n"
    "                    [--link [name=NAME,]bw=GB/s,(lat=us|rtt=us)]...\n"
    "                    [--measure --gpus LIST]\n"
    "                    [--compute-ms MS] [--prefill-compute-ms MS[,MS...]]\n"
    "                    [--json] [-o NEW.json | --into RUN.json]\n"
    "\n"
    "Estimates the tensor-parallel communication of a transformer: Megatron-style tensor\n"
    "parallelism issues two all-reduces per layer (after attention, after the MLP), each of\n"
    "tokens x hidden x bytes. A prefill of T tokens moves batch x T tokens at once, a decode\n"
    "step batch tokens. Each source of all-reduce time is one column:\n"
    "  --run FILE      the nccl all_reduce curve of a run document (time against size):\n"
    "                  interpolated in log size and log time between measured sizes, an\n"
    "                  alpha-beta fit t = alpha + S/bw outside them (shown with its fit).\n"
    "                  --gpus and --variant after --run pick the entry (default variant\n"
    "                  \"default\"); its rank count must equal --tp.\n"
    "  --link SPEC     a link described by bandwidth (GB/s = 1e9 B/s, one direction) and\n"
    "                  latency: ring all-reduce over N ranks, t = 2(N-1) lat + 2(N-1)/N S/bw;\n"
    "                  lat = us per step (one transfer to the next rank); rtt = a measured\n"
    "                  round trip, used as lat = rtt/2.\n"
    "  --measure       runs all_reduce at exactly the sizes needed on --gpus (count = --tp)\n"
    "                  and shows the measured times beside the other sources (needs NCCL and\n"
    "                  GPUs; exit 3 when it cannot run).\n"
    "--name N after a source names its column (default: the file name[:variant], the\n"
    "link's name=, \"measured\"). Two or more sources are compared with the first:\n"
    "difference (first - other) and ratio (first / other).\n"
    "\n"
    "options:\n"
    "  --model NAME           a preset (see below); --hidden/--layers override it\n"
    "  --bytes B              bytes per activation element: 2 (bf16/fp16, default), 1, 4\n"
    "  --prompt LIST          prompt lengths in tokens, e.g. 3200,12900,51400\n"
    "  --output N             output tokens per request (default 256): the prefill yields\n"
    "                         the first, then N-1 decode steps\n"
    "  --batch LIST           requests processed together (default 1)\n"
    "  --compute-ms MS[,MS..] compute time of one decode step without communication (ms):\n"
    "                         one value for every prompt, or one per --prompt\n"
    "  --prefill-compute-ms L compute time of each prefill (one per --prompt, batch 1, ms;\n"
    "                         scaled by the batch); with these, totals and shares are shown\n"
    "  --json                 the estimate as JSON on stdout instead of the report\n"
    "  -o FILE                write a new run document holding the tp entry (and the\n"
    "                         measured nccl entry with --measure)\n"
    "  --into FILE            append those entries to an existing run document\n"
    "\n"
    "presets: llama3-8b, llama3-70b (= llama3.1-70b), llama3.3-70b, llama3.1-405b, qwen3-8b,\n"
    "         qwen3-32b, qwen3-30b-a3b (MoE), mixtral-8x7b (MoE); MoE experts are taken as\n"
    "         sharded by tensor parallelism: expert-parallel all-to-all is not modelled.\n"
    "\n"
    "example (seed 001: V100 pair over PCIe Gen3 x8 against NVLink):\n"
    "  linkscope tp --model llama3.3-70b --tp 2 --prompt 3200,12900,51400 --output 256 \\\n"
    "      --link name=PCIe,bw=5.2,lat=22.1 --link name=NVLink,bw=122.7,lat=17.5\n";

#define MAX_SOURCES 8
#define MAX_LIST 32
#define MAX_GPUS LS_TP_MAX_GPUS

typedef ls_tp_run_t run_arg_t;

typedef struct {
    const ls_tp_preset_t *preset;
    long hidden, layers, bytes, tp, output;
    uint64_t prompts[MAX_LIST], batches[MAX_LIST];
    int nprompts, nbatches;
    double decode_compute_ms[MAX_LIST];
    int ndecode_compute;
    double prefill_compute_ms[MAX_LIST];
    int nprefill_compute;
    run_arg_t runs[MAX_SOURCES];
    int nruns;
    const char *links[MAX_SOURCES], *link_names[MAX_SOURCES];
    int nlinks;
    int last_source; /* 'r' --run, 'l' --link, 'm' --measure, 0 none yet */
    const char *measure_name;
    int measure, measure_gpus[MAX_GPUS], nmeasure_gpus;
    int json;
    const char *out_path, *into_path;
} tp_args_t;

/* ---- Parsing ------------------------------------------------------------------------ */

static int parse_u64_list(const char *text, uint64_t *out, int max)
{
    int n = 0;
    const char *p = text;
    while (p && *p) {
        char item[32];
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        long v;
        if (len == 0 || len >= sizeof item || n >= max)
            return -1;
        memcpy(item, p, len);
        item[len] = '\0';
        if (ls_parse_long(item, 1, 100000000, &v) != 0)
            return -1;
        out[n++] = (uint64_t)v;
        p = comma ? comma + 1 : NULL;
        if (comma && !*p)
            return -1;
    }
    return n;
}

static int parse_double_list(const char *text, double *out, int max)
{
    int n = 0;
    const char *p = text;
    while (p && *p) {
        char item[64];
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0 || len >= sizeof item || n >= max)
            return -1;
        memcpy(item, p, len);
        item[len] = '\0';
        if (ls_parse_double(item, &out[n]) != 0 || out[n] < 0)
            return -1;
        n++;
        p = comma ? comma + 1 : NULL;
        if (comma && !*p)
            return -1;
    }
    return n;
}

/* --gpus and --variant belong to the --run or --measure given last before them. */
static int attach_gpus(tp_args_t *a, const char *text, int last_is_run)
{
    int *dst = last_is_run ? a->runs[a->nruns - 1].gpus : a->measure_gpus;
    int n;
    if (ls_opt_gpus("tp", text, dst, MAX_GPUS, &n))
        return LS_EXIT_USAGE;
    if (last_is_run)
        a->runs[a->nruns - 1].ngpus = n;
    else
        a->nmeasure_gpus = n;
    return 0;
}

static int name_last_source(tp_args_t *a, const char *name)
{
    if (!*name || strlen(name) > 40)
        return ls_usage_error("tp", "--name: expected 1 to 40 characters, got '%s'", name);
    if (a->last_source == 'r')
        a->runs[a->nruns - 1].name = name;
    else if (a->last_source == 'l')
        a->link_names[a->nlinks - 1] = name;
    else if (a->last_source == 'm')
        a->measure_name = name;
    else
        return ls_usage_error("tp", "--name: give it after --run, --link or --measure");
    return 0;
}

static int parse_number_opt(const char *opt, const char *text, long min, long max, long *v)
{
    if (ls_parse_long(text, min, max, v) != 0)
        return ls_usage_error("tp", "%s: expected a whole number from %ld to %ld, got '%s'", opt,
                              min, max, text);
    return 0;
}

/* Options taking a value; returns 0, or the exit code. */
static int parse_valued(tp_args_t *a, const char *opt, const char *val, int *last_is_run)
{
    if (strcmp(opt, "--model") == 0) {
        a->preset = ls_tp_preset_find(val);
        return a->preset ? 0 : ls_usage_error("tp", "--model: unknown model '%s'", val);
    }
    if (strcmp(opt, "--hidden") == 0)
        return parse_number_opt(opt, val, 1, 1 << 20, &a->hidden);
    if (strcmp(opt, "--layers") == 0)
        return parse_number_opt(opt, val, 1, 10000, &a->layers);
    if (strcmp(opt, "--bytes") == 0) {
        if (parse_number_opt(opt, val, 1, 8, &a->bytes))
            return LS_EXIT_USAGE;
        return (a->bytes == 1 || a->bytes == 2 || a->bytes == 4)
                   ? 0 : ls_usage_error("tp", "--bytes: expected 1, 2 or 4, got '%s'", val);
    }
    if (strcmp(opt, "--tp") == 0)
        return parse_number_opt(opt, val, 2, 1024, &a->tp);
    if (strcmp(opt, "--output") == 0)
        return parse_number_opt(opt, val, 1, 100000000, &a->output);
    if (strcmp(opt, "--prompt") == 0) {
        a->nprompts = parse_u64_list(val, a->prompts, MAX_LIST);
        return a->nprompts > 0 ? 0
               : ls_usage_error("tp", "--prompt: expected token counts like 3200,12900, got '%s'", val);
    }
    if (strcmp(opt, "--batch") == 0) {
        a->nbatches = parse_u64_list(val, a->batches, MAX_LIST);
        return a->nbatches > 0 ? 0
               : ls_usage_error("tp", "--batch: expected batch sizes like 1,8, got '%s'", val);
    }
    if (strcmp(opt, "--compute-ms") == 0) {
        a->ndecode_compute = parse_double_list(val, a->decode_compute_ms, MAX_LIST);
        return a->ndecode_compute > 0 ? 0
               : ls_usage_error("tp", "--compute-ms: expected milliseconds like 34.2 or 34.2,46.7, got '%s'", val);
    }
    if (strcmp(opt, "--prefill-compute-ms") == 0) {
        a->nprefill_compute = parse_double_list(val, a->prefill_compute_ms, MAX_LIST);
        return a->nprefill_compute > 0 ? 0
               : ls_usage_error("tp", "--prefill-compute-ms: expected milliseconds like 3900,22700, got '%s'", val);
    }
    if (strcmp(opt, "--run") == 0) {
        if (a->nruns + a->nlinks + a->measure >= MAX_SOURCES)
            return ls_usage_error("tp", "at most %d sources (--run, --link, --measure)", MAX_SOURCES);
        a->runs[a->nruns++] = (run_arg_t){.path = val};
        *last_is_run = 1;
        a->last_source = 'r';
        return 0;
    }
    if (strcmp(opt, "--link") == 0) {
        if (a->nruns + a->nlinks + a->measure >= MAX_SOURCES)
            return ls_usage_error("tp", "at most %d sources (--run, --link, --measure)", MAX_SOURCES);
        a->links[a->nlinks++] = val;
        a->last_source = 'l';
        return 0;
    }
    if (strcmp(opt, "--name") == 0)
        return name_last_source(a, val);
    if (strcmp(opt, "--gpus") == 0) {
        if (*last_is_run < 0)
            return ls_usage_error("tp", "--gpus: give it after --run FILE or --measure");
        return attach_gpus(a, val, *last_is_run);
    }
    if (strcmp(opt, "--variant") == 0) {
        if (*last_is_run < 0)
            return ls_usage_error("tp", "--variant: give it after --run FILE or --measure");
        if (!*last_is_run) /* it was accepted and silently ignored: the sweep runs as set */
            return ls_usage_error("tp", "--variant after --measure: the measurement runs with this "
                                        "process's NCCL settings; set the variable instead, e.g. "
                                        "NCCL_P2P_DISABLE=1 linkscope tp ... --measure");
        a->runs[a->nruns - 1].variant = val;
        return 0;
    }
    if (strcmp(opt, "-o") == 0 || strcmp(opt, "--output-file") == 0) {
        a->out_path = val;
        return 0;
    }
    if (strcmp(opt, "--into") == 0) {
        a->into_path = val;
        return 0;
    }
    return ls_usage_error("tp", "unknown option '%s'", opt);
}

static int parse_args(int argc, char **argv, tp_args_t *a)
{
    static const char *const valued[] = {"model", "hidden", "layers", "bytes", "tp", "output", "prompt",
        "batch", "compute-ms", "prefill-compute-ms", "run", "link", "gpus", "variant", "into", "name",
        "output-file"};
    enum { NV = sizeof valued / sizeof valued[0] };
    static struct option opts[NV + 3];
    for (int k = 0; k < NV && !opts[NV - 1].name; k++)
        opts[k] = (struct option){valued[k], required_argument, 0, 'v'};
    opts[NV] = (struct option){"json", no_argument, 0, 'j'};
    opts[NV + 1] = (struct option){"measure", no_argument, 0, 'm'};
    int last_is_run = -1; /* -1 none yet, 1 --run, 0 --measure */
    int c, index = -1;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:", opts, &index)) != -1) {
        if (c == ':')
            return ls_opt_missing("tp", argv);
        if (c == '?')
            return ls_opt_unknown("tp", argv);
        char opt[64];
        snprintf(opt, sizeof opt, "%s%s", c == 'o' ? "-o" : "--", c == 'o' ? "" : opts[index].name);
        index = -1;
        if (c == 'j') {
            a->json = 1;
        } else if (c == 'm') {
            if (a->nruns + a->nlinks + a->measure >= MAX_SOURCES)
                return ls_usage_error("tp", "at most %d sources (--run, --link, --measure)", MAX_SOURCES);
            a->measure = 1;
            last_is_run = 0;
            a->last_source = 'm';
        } else {
            int rc = parse_valued(a, opt, optarg, &last_is_run);
            if (rc)
                return rc;
        }
    }
    if (optind < argc)
        return ls_usage_error("tp", "unknown option '%s'", argv[optind]);
    return 0;
}

static int check_args(tp_args_t *a)
{
    if (a->preset) {
        a->hidden = a->hidden ? a->hidden : a->preset->hidden;
        a->layers = a->layers ? a->layers : a->preset->layers;
    }
    if (!a->hidden || !a->layers)
        return ls_usage_error("tp", "give --model NAME, or --hidden H and --layers L");
    if (!a->tp)
        return ls_usage_error("tp", "--tp N (tensor-parallel degree, at least 2) is required");
    if (!a->nprompts)
        return ls_usage_error("tp", "--prompt LIST (prompt lengths in tokens) is required");
    if (a->nruns + a->nlinks + a->measure == 0)
        return ls_usage_error("tp", "give at least one source: --run FILE, --link SPEC or --measure");
    if (a->ndecode_compute == 1)
        for (int p = 1; p < a->nprompts; p++)
            a->decode_compute_ms[p] = a->decode_compute_ms[0];
    else if (a->ndecode_compute && a->ndecode_compute != a->nprompts)
        return ls_usage_error("tp", "--compute-ms: expected 1 or %d values (one per --prompt), got %d",
                              a->nprompts, a->ndecode_compute);
    if (a->nprefill_compute && a->nprefill_compute != a->nprompts)
        return ls_usage_error("tp", "--prefill-compute-ms: expected %d values (one per --prompt), got %d",
                              a->nprompts, a->nprefill_compute);
    if (a->measure && a->nmeasure_gpus != a->tp)
        return ls_usage_error("tp", "--measure needs --gpus with %ld GPUs (= --tp)", a->tp);
    if (a->out_path && a->into_path)
        return ls_usage_error("tp", "give -o or --into, not both");
    /* before any work: --measure runs NCCL */
    if (ls_check_writable("tp", a->into_path ? "--into" : "-o", a->into_path ? a->into_path : a->out_path, 0))
        return LS_EXIT_USAGE;
    for (int p = 0; p < a->nprompts; p++)
        for (int b = 0; b < a->nbatches; b++)
            if ((double)a->prompts[p] * (double)a->batches[b] * (double)a->hidden * (double)a->bytes >
                0x1p50) /* in double: the product of the limits overflows 64 bits */
                return ls_usage_error("tp", "--prompt x --batch: an all-reduce of more than 1 PiB");
    return 0;
}

/* ---- Sources ------------------------------------------------------------------------ */

/* A --run source: the document read, its entry chosen (analyze/tp_sources.c). */
static int load_run(const run_arg_t *r, long tp, ls_tp_source_t *src)
{
    json_t *doc = ls_read_document(r->path);
    if (!doc)
        return LS_EXIT_USAGE;
    char err[700];
    int skipped = 0, rc = ls_tp_source_from_run(doc, r, tp, src, &skipped, err, sizeof err);
    json_decref(doc);
    if (rc) {
        ls_error("%s", err);
        return LS_EXIT_USAGE;
    }
    if (skipped)
        ls_warn("%s: %d all_reduce rows left out (#wrong > 0 or no time)", r->path, skipped);
    return 0;
}

static const char *dtype_for(long bytes)
{
    return bytes == 1 ? "int8" : bytes == 4 ? "float" : "bfloat16";
}

/* Runs all_reduce at exactly the sizes the estimate needs; *entry_out keeps the nccl
   entry for -o/--into. */
static int measure_source(const tp_args_t *a, const ls_tp_request_t *req, ls_tp_source_t *src,
                          json_t **entry_out)
{
    uint64_t sizes[512];
    int n = ls_tp_request_sizes(req, sizes, 512);
    ls_nccl_sweep_opts_t opts = {.collective = "all_reduce", .gpus = a->measure_gpus,
                                 .ngpus = a->nmeasure_gpus, .sizes = sizes, .nsizes = n,
                                 .min_bytes = sizes[0], .max_bytes = sizes[n - 1], .iters = 20,
                                 .warmup = 5, .check = 1, .dtype = dtype_for(a->bytes),
                                 .redop = "sum", .root = 0, .in_place = 0, .timeout_s = 120};
    char err[512] = "";
    json_t *entry = ls_nccl_sweep(&opts, err, sizeof err);
    if (!entry) {
        ls_error("--measure: %s", err[0] ? err : "all_reduce could not run");
        return LS_EXIT_NOGPU;
    }
    int skipped = 0;
    if (strcmp(ls_json_str(entry, "status", "failed"), "ok") != 0) {
        ls_error("--measure: all_reduce %s: %s", ls_json_str(entry, "status", "failed"),
                 ls_json_str(entry, "error", "no reason given"));
    } else if (ls_tp_curve_from_entry(&src->curve, entry, &skipped, err, sizeof err) != 0) {
        ls_error("--measure: %s", err);
    } else if (skipped) {
        ls_error("--measure: all_reduce gave wrong results or no time at %d of %d sizes", skipped, n);
    } else {
        char gpus[128];
        ls_tp_format_gpus(a->measure_gpus, a->nmeasure_gpus, gpus, sizeof gpus);
        src->kind = LS_TP_SRC_CURVE;
        src->measured = 1;
        snprintf(src->name, sizeof src->name, "measured");
        snprintf(src->origin, sizeof src->origin,
                 "--measure: all_reduce (%s, sum) at the %d sizes below on GPUs %s, %d iterations, "
                 "data checked", opts.dtype, n, gpus, opts.iters);
        *entry_out = entry;
        return 0;
    }
    json_decref(entry);
    return LS_EXIT_NOGPU;
}

static int build_sources(const tp_args_t *a, const ls_tp_request_t *req, ls_tp_source_t *srcs,
                         int *nsrcs, json_t **measured)
{
    for (int i = 0; i < a->nruns; i++) {
        int rc = load_run(&a->runs[i], a->tp, &srcs[*nsrcs]);
        if (rc)
            return rc;
        (*nsrcs)++;
    }
    for (int i = 0; i < a->nlinks; i++) {
        char err[512];
        if (ls_tp_source_from_link(a->links[i], i + 1, &srcs[*nsrcs], err, sizeof err))
            return ls_usage_error("tp", "%s", err);
        if (a->link_names[i])
            snprintf(srcs[*nsrcs].name, sizeof srcs[*nsrcs].name, "%s", a->link_names[i]);
        (*nsrcs)++;
    }
    if (a->measure) {
        int rc = measure_source(a, req, &srcs[*nsrcs], measured);
        if (rc)
            return rc;
        if (a->measure_name)
            snprintf(srcs[*nsrcs].name, sizeof srcs[*nsrcs].name, "%s", a->measure_name);
        (*nsrcs)++;
    }
    return 0;
}

/* ---- Output -------------------------------------------------------------------------- */

static int write_entries(const tp_args_t *a, json_t *estimate, json_t *measured)
{
    const char *path = a->into_path ? a->into_path : a->out_path;
    char err[600];
    json_t *doc = a->into_path ? ls_doc_read(path, err, sizeof err) : ls_doc_new();
    if (!doc) {
        ls_error("%s", err);
        return LS_EXIT_USAGE;
    }
    if (measured)
        ls_doc_add_measurement(doc, json_incref(measured));
    ls_doc_add_measurement(doc, ls_tp_doc_entry(estimate, a->preset ? a->preset->name : NULL, a->tp,
                                                 a->measure_gpus, a->measure ? a->nmeasure_gpus : 0));
    int rc = ls_doc_write(doc, path, err, sizeof err);
    json_decref(doc);
    if (rc) {
        ls_error("%s", err);
        return LS_EXIT_USAGE;
    }
    ls_info("wrote the tp estimate into %s", path);
    return 0;
}

static int emit(const tp_args_t *a, json_t *estimate, json_t *measured)
{
    if (a->json) {
        char *text = json_dumps(estimate, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
        if (text) {
            puts(text);
            free(text);
        }
    } else {
        ls_tp_render_text(stdout, estimate);
    }
    if (a->out_path || a->into_path)
        return write_entries(a, estimate, measured);
    return LS_EXIT_OK;
}

int cmd_tp(int argc, char **argv)
{
    tp_args_t a = {.bytes = 2, .output = 256};
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc;
    if (!a.nbatches)
        a.batches[a.nbatches++] = 1;
    if ((rc = check_args(&a)))
        return rc;
    ls_tp_request_t req = {
        .shape = {(int)a.hidden, (int)a.layers, (int)a.bytes},
        .model_name = (a.preset && a.hidden == a.preset->hidden && a.layers == a.preset->layers)
                          ? a.preset->name : NULL,
        .tp = (int)a.tp,
        .prompts = a.prompts, .nprompts = a.nprompts, .batches = a.batches, .nbatches = a.nbatches,
        .output = (uint64_t)a.output, .decode_compute_ms = a.ndecode_compute ? a.decode_compute_ms : NULL,
        .prefill_compute_ms = a.nprefill_compute ? a.prefill_compute_ms : NULL};
    ls_tp_source_t srcs[MAX_SOURCES];
    memset(srcs, 0, sizeof srcs);
    int nsrcs = 0;
    json_t *measured = NULL;
    rc = build_sources(&a, &req, srcs, &nsrcs, &measured);
    if (!rc) {
        json_t *estimate = ls_tp_estimate(&req, srcs, nsrcs);
        if (a.preset && a.preset->note[0])
            json_object_set_new(json_object_get(estimate, "model"), "note", json_string(a.preset->note));
        rc = emit(&a, estimate, measured);
        json_decref(estimate);
    }
    for (int i = 0; i < MAX_SOURCES; i++)
        ls_tp_curve_free(&srcs[i].curve);
    json_decref(measured);
    return rc;
}
