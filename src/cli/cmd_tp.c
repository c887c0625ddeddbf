/* linkscope tp: tensor-parallel communication estimate (docs/tp.md). */
#include "analyze/tp.h"
#include "commands.h"
#include "pipeline/tp_measure.h"
#include "tp_args.h"
#include "options.h"
#include "model/doc.h"
#include "render/tp_report.h"
#include "util/log.h"

#include <stdio.h>
#include <string.h>

const char usage_tp[] =
    "usage: linkscope tp (--model NAME | --hidden H --layers L) [--bytes B] --tp N\n"
    "                    --prompt T[,T...] [--output N] [--batch B[,B...]]\n"
    "                    [--run RUN.json [--gpus LIST] [--variant V] [--name N]]...\n"
    "                    [--link [name=NAME,]bw=GB/s,(lat=us|rtt=us)]...\n"
    "                    [--measure --gpus LIST]\n"
    "                    [--compute-ms MS] [--prefill-compute-ms MS[,MS...]]\n"
    "                    [--json] [-o NEW.json | --into RUN.json]\n"
    "       linkscope tp --verdict RUN.json [--model NAME]\n"
    "\n"
    "Estimates the tensor-parallel communication of a transformer: Megatron-style\n"
    "tensor parallelism issues two all-reduces per layer (after attention, after the\n"
    "MLP), each of tokens x hidden x bytes. A prefill of T tokens moves batch x T\n"
    "tokens at once, a decode step batch tokens. Each source of all-reduce time is\n"
    "one column:\n"
    "  --run FILE      the nccl all_reduce curve of a run document (time against\n"
    "                  size): interpolated in log size and log time between measured\n"
    "                  sizes, an alpha-beta fit t = alpha + S/bw outside them (shown\n"
    "                  with its fit).\n"
    "                  --gpus and --variant after --run pick the entry (default\n"
    "                  variant \"default\"); its rank count must equal --tp.\n"
    "  --link SPEC     a link described by bandwidth (GB/s = 1e9 B/s, one direction)\n"
    "                  and latency: ring all-reduce over N ranks, t = 2(N-1) lat +\n"
    "                  2(N-1)/N S/bw; lat = us per step (one transfer to the next\n"
    "                  rank); rtt = a measured round trip, used as lat = rtt/2.\n"
    "  --measure       runs all_reduce at exactly the sizes needed on --gpus (count =\n"
    "                  --tp) and shows the measured times beside the other sources\n"
    "                  (needs NCCL and GPUs; exit 3 when it cannot run).\n"
    "--name N after a source names its column (default: the file name[:variant], the\n"
    "link's name=, \"measured\"). Two or more sources are compared with the first:\n"
    "difference (first - other) and ratio (first / other).\n"
    "--verdict RUN.json prints the document's tensor-parallel verdict (a 32k-token\n"
    "prefill at each TP size the machine has, default model llama3.3-70b), the lines\n"
    "run, report and check --spec print.\n"
    "\n"
    "options:\n"
    "  --model NAME           a preset (see below); --hidden/--layers override it\n"
    "  --bytes B              bytes per activation element: 2 (bf16/fp16, default),\n"
    "                         1, 4\n"
    "  --prompt LIST          prompt lengths in tokens, e.g. 3200,12900,51400\n"
    "  --output N             output tokens per request (default 256): the prefill\n"
    "                         yields the first, then N-1 decode steps\n"
    "  --batch LIST           requests processed together (default 1)\n"
    "  --compute-ms MS[,MS..] compute time of one decode step without communication\n"
    "                         (ms): one value for every prompt, or one per --prompt\n"
    "  --prefill-compute-ms L compute time of each prefill (one per --prompt, batch\n"
    "                         1, ms; scaled by the batch); with these, totals and\n"
    "                         shares are shown\n"
    "  --json                 the estimate as JSON on stdout instead of the report\n"
    "  -o FILE                write a new run document holding the tp entry (and the\n"
    "                         measured nccl entry with --measure)\n"
    "  --into FILE            append those entries to an existing run document\n"
    "\n"
    "presets: llama3-8b, llama3-70b (= llama3.1-70b), llama3.3-70b, llama3.1-405b,\n"
    "qwen3-8b,\n"
    "         qwen3-32b, qwen3-30b-a3b (MoE), mixtral-8x7b (MoE); MoE experts are\n"
    "         taken as sharded by tensor parallelism: expert-parallel all-to-all is\n"
    "         not modelled.\n"
    "\n"
    "example (seed 001: V100 pair over PCIe Gen3 x8 against NVLink):\n"
    "  linkscope tp --model llama3.3-70b --tp 2 --prompt 3200,12900,51400 \\\n"
    "      --output 256 \\\n"
    "      --link name=PCIe,bw=5.2,lat=22.1 --link name=NVLink,bw=122.7,lat=17.5\n";

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
        int rc = ls_tp_measure_source(a->measure_gpus, a->nmeasure_gpus, a->bytes, req, &srcs[*nsrcs], measured);
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
    json_t *doc = a->into_path ? ls_doc_into_open(path, err, sizeof err) : ls_doc_new();
    if (!doc) {
        ls_error("%s", err);
        return LS_EXIT_USAGE;
    }
    if (measured)
        ls_doc_add_measurement(doc, json_incref(measured));
    ls_doc_add_measurement(doc, ls_tp_doc_entry(estimate, a->preset ? a->preset->name : NULL, a->tp,
                                                 a->measure_gpus, a->measure ? a->nmeasure_gpus : 0));
    int rc = ls_doc_into_write(doc, path, err, sizeof err);
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
    if (argc > 1 && !strcmp(argv[1], "--verdict"))
        return ls_tp_verdict_cmd(argc, argv); /* tp_verdict.c */
    tp_args_t a = {.bytes = 2, .output = 256};
    int rc = ls_tp_parse_args(argc, argv, &a);
    if (rc)
        return rc;
    if (!a.nbatches)
        a.batches[a.nbatches++] = 1;
    if ((rc = ls_tp_check_args(&a)))
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
