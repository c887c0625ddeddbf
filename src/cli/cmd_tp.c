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
        int rc = ls_tp_measure_source(a->measure_gpus, a->nmeasure_gpus, a->bytes, req,
                                      &srcs[*nsrcs], measured);
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
    json_t *doc = ls_doc_target_open("tp", a->into_path, NULL);
    if (!doc)
        return LS_EXIT_USAGE;
    if (measured)
        ls_doc_add_measurement(doc, json_incref(measured));
    ls_doc_add_measurement(doc,
                           ls_tp_doc_entry(estimate, a->preset ? a->preset->name : NULL, a->tp,
                                           a->measure_gpus, a->measure ? a->nmeasure_gpus : 0));
    int rc = ls_doc_target_write(doc, a->out_path, a->into_path, NULL);
    json_decref(doc);
    if (rc)
        return rc;
    ls_info("wrote the tp estimate into %s", path);
    return 0;
}

static int emit(const tp_args_t *a, json_t *estimate, json_t *measured)
{
    if (a->json) {
        char *text = json_dumps(estimate,
                                JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
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
    tp_args_t a = {0};
    int rc = ls_tp_parse_args(argc, argv, &a);
    if (rc)
        return rc;
    ls_tp_request_t req = {.shape = {(int)a.hidden, (int)a.layers, (int)a.bytes},
                           .model_name = (a.preset && a.hidden == a.preset->hidden &&
                                          a.layers == a.preset->layers)
                                             ? a.preset->name
                                             : NULL,
                           .tp = (int)a.tp,
                           .prompts = a.prompts,
                           .nprompts = a.nprompts,
                           .batches = a.batches,
                           .nbatches = a.nbatches,
                           .output = (uint64_t)a.output,
                           .decode_compute_ms = a.ndecode_compute ? a.decode_compute_ms : NULL,
                           .prefill_compute_ms = a.nprefill_compute ? a.prefill_compute_ms : NULL};
    ls_tp_source_t srcs[MAX_SOURCES];
    memset(srcs, 0, sizeof srcs);
    int nsrcs = 0;
    json_t *measured = NULL;
    rc = build_sources(&a, &req, srcs, &nsrcs, &measured);
    if (!rc) {
        json_t *estimate = ls_tp_estimate(&req, srcs, nsrcs);
        if (a.preset && a.preset->note[0])
            json_object_set_new(json_object_get(estimate, "model"), "note",
                                json_string(a.preset->note));
        rc = emit(&a, estimate, measured);
        json_decref(estimate);
    }
    for (int i = 0; i < MAX_SOURCES; i++)
        ls_tp_curve_free(&srcs[i].curve);
    json_decref(measured);
    return rc;
}
