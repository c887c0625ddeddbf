/* The estimate of `linkscope tp` as one JSON object (docs/tp.md, "JSON output"). */
#include "tp.h"
#include "../model/doc.h"

#include <math.h>
#include <stdlib.h>

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int add_size(uint64_t *sizes, int n, int max, uint64_t size)
{
    for (int i = 0; i < n; i++)
        if (sizes[i] == size)
            return n;
    if (n < max)
        sizes[n++] = size;
    return n;
}

int ls_tp_request_sizes(const ls_tp_request_t *req, uint64_t *sizes, int max)
{
    int n = 0;
    for (int b = 0; b < req->nbatches; b++) {
        n = add_size(sizes, n, max, ls_tp_allreduce_bytes(&req->shape, req->batches[b]));
        for (int p = 0; p < req->nprompts; p++)
            n = add_size(sizes, n, max,
                         ls_tp_allreduce_bytes(&req->shape, req->batches[b] * req->prompts[p]));
    }
    qsort(sizes, (size_t)n, sizeof *sizes, cmp_u64);
    return n;
}

/* A byte count as an integer where it has one; 1e300 (a hand-edited document) stays a
   real: converting it to an integer would be undefined behaviour. */
static json_t *bytes_json(double bytes)
{
    if (fabs(bytes) < 9.2e18 && bytes == floor(bytes))
        return json_integer((json_int_t)bytes);
    return json_real(bytes);
}

static json_t *source_json(const ls_tp_source_t *s)
{
    json_t *o = json_pack("{s:s, s:s, s:s, s:b}", "name", s->name, "kind",
                          s->kind == LS_TP_SRC_LINK ? "link" : "curve", "origin", s->origin,
                          "measured_here", s->measured);
    if (s->kind == LS_TP_SRC_LINK) {
        json_object_set_new(o, "bw_gbps", json_real(s->bw_gbps));
        json_object_set_new(o, "lat_us", json_real(s->lat_us));
        return o;
    }
    const ls_tp_curve_t *c = &s->curve;
    json_object_set_new(o, "points", json_integer((json_int_t)c->n));
    json_object_set_new(o, "min_bytes", bytes_json(c->bytes[0]));
    json_object_set_new(o, "max_bytes", bytes_json(c->bytes[c->n - 1]));
    if (c->have_fit)
        json_object_set_new(o, "fit",
                            json_pack("{s:f, s:f, s:f, s:f}", "alpha_us", c->alpha_us, "bw_gbps",
                                      c->bw_gbps, "max_rel_residual", c->fit_max_rel,
                                      "rms_rel_residual", c->fit_rms_rel));
    if (c->have_low_fit)
        json_object_set_new(o, "fit_below",
                            json_pack("{s:f, s:f, s:f}", "alpha_us", c->low_alpha_us, "bw_gbps",
                                      c->low_bw_gbps, "span", LS_TP_END_SPAN));
    if (c->have_high_fit)
        json_object_set_new(o, "fit_above",
                            json_pack("{s:f, s:f, s:f}", "alpha_us", c->high_alpha_us, "bw_gbps",
                                      c->high_bw_gbps, "span", LS_TP_END_SPAN));
    return o;
}

/* One source's figures for a phase of `count` all-reduces of `bytes` each. */
static json_t *phase_source_json(const ls_tp_source_t *s, int nranks, uint64_t bytes, int count,
                                 double compute_ms)
{
    enum ls_tp_how how;
    double per = ls_tp_source_time_us(s, nranks, (double)bytes, &how);
    double comm_ms = per * count / 1e3;
    json_t *o = json_pack("{s:s, s:f, s:s, s:f}", "name", s->name, "per_allreduce_us", per, "how",
                          ls_tp_how_name(how), "comm_ms", comm_ms);
    if (compute_ms >= 0) {
        json_object_set_new(o, "total_ms", json_real(compute_ms + comm_ms));
        json_object_set_new(o, "comm_share", json_real(comm_ms / (compute_ms + comm_ms)));
    }
    return o;
}

static json_t *phase_json(const ls_tp_request_t *req, const ls_tp_source_t *sources, int nsources,
                          uint64_t tokens, double compute_ms)
{
    int count = ls_tp_allreduces_per_pass(&req->shape);
    uint64_t bytes = ls_tp_allreduce_bytes(&req->shape, tokens);
    json_t *o = json_pack("{s:I, s:i, s:I}", "tokens", (json_int_t)tokens, "allreduces", count,
                          "bytes_each", (json_int_t)bytes);
    if (compute_ms >= 0)
        json_object_set_new(o, "compute_ms", json_real(compute_ms));
    json_t *list = json_array();
    for (int i = 0; i < nsources; i++)
        json_array_append_new(list,
                              phase_source_json(&sources[i], req->tp, bytes, count, compute_ms));
    json_object_set_new(o, "sources", list);
    return o;
}

/* Whole request: the prefill (which yields the first output token) and output-1 decode
   steps. */
static json_t *request_json(const ls_tp_request_t *req, const json_t *prefill, const json_t *decode,
                            int nsources)
{
    uint64_t steps = req->output - 1;
    json_t *o = json_pack("{s:I}", "decode_steps", (json_int_t)steps);
    double pc = ls_json_num(prefill, "compute_ms", -1), dc = ls_json_num(decode, "compute_ms", -1);
    int have_compute = pc >= 0 && dc >= 0;
    if (have_compute)
        json_object_set_new(o, "compute_ms", json_real(pc + (double)steps * dc));
    json_t *list = json_array();
    for (int i = 0; i < nsources; i++) {
        const json_t *p = json_array_get(json_object_get(prefill, "sources"), (size_t)i);
        const json_t *d = json_array_get(json_object_get(decode, "sources"), (size_t)i);
        double comm = ls_json_num(p, "comm_ms", 0) + (double)steps * ls_json_num(d, "comm_ms", 0);
        json_t *s = json_pack("{s:s, s:f}", "name", ls_json_str(p, "name", "?"), "comm_ms", comm);
        if (have_compute) {
            double total = pc + (double)steps * dc + comm;
            json_object_set_new(s, "total_ms", json_real(total));
            json_object_set_new(s, "comm_share", json_real(comm / total));
        }
        json_array_append_new(list, s);
    }
    json_object_set_new(o, "sources", list);
    return o;
}

static json_t *sizes_json(const ls_tp_request_t *req, const ls_tp_source_t *sources, int nsources)
{
    uint64_t sizes[512];
    int n = ls_tp_request_sizes(req, sizes, 512);
    json_t *list = json_array();
    for (int k = 0; k < n; k++) {
        json_t *times = json_array(), *hows = json_array();
        for (int i = 0; i < nsources; i++) {
            enum ls_tp_how how;
            double t = ls_tp_source_time_us(&sources[i], req->tp, (double)sizes[k], &how);
            json_array_append_new(times, json_real(t));
            json_array_append_new(hows, json_string(ls_tp_how_name(how)));
        }
        json_array_append_new(list, json_pack("{s:I, s:o, s:o}", "bytes", (json_int_t)sizes[k],
                                              "time_us", times, "how", hows));
    }
    return list;
}

static json_t *scenario_json(const ls_tp_request_t *req, const ls_tp_source_t *sources,
                             int nsources, int p, int b)
{
    uint64_t batch = req->batches[b];
    double pc = req->prefill_compute_ms ? req->prefill_compute_ms[p] * (double)batch : -1;
    json_t *prefill = phase_json(req, sources, nsources, batch * req->prompts[p], pc);
    double dc = req->decode_compute_ms ? req->decode_compute_ms[p] : -1;
    json_t *decode = phase_json(req, sources, nsources, batch, dc);
    json_t *request = request_json(req, prefill, decode, nsources);
    return json_pack("{s:I, s:I, s:o, s:o, s:o}", "prompt", (json_int_t)req->prompts[p], "batch",
                     (json_int_t)batch, "prefill", prefill, "decode_step", decode, "request",
                     request);
}

json_t *ls_tp_estimate(const ls_tp_request_t *req, const ls_tp_source_t *sources, int nsources)
{
    json_t *model = json_pack("{s:i, s:i, s:i}", "hidden", req->shape.hidden, "layers",
                              req->shape.layers, "bytes", req->shape.bytes);
    if (req->model_name)
        json_object_set_new(model, "name", json_string(req->model_name));
    json_t *srcs = json_array(), *scen = json_array();
    for (int i = 0; i < nsources; i++)
        json_array_append_new(srcs, source_json(&sources[i]));
    for (int b = 0; b < req->nbatches; b++)
        for (int p = 0; p < req->nprompts; p++)
            json_array_append_new(scen, scenario_json(req, sources, nsources, p, b));
    return json_pack("{s:o, s:i, s:i, s:I, s:o, s:o, s:o}", "model", model, "tp", req->tp,
                     "allreduces_per_pass", ls_tp_allreduces_per_pass(&req->shape), "output_tokens",
                     (json_int_t)req->output, "sources", srcs, "allreduce_sizes",
                     sizes_json(req, sources, nsources), "scenarios", scen);
}
