#include "spec_tp.h"
#include "tp.h"
#include "model/doc.h"
#include "model/theory.h"
#include "util/log.h"
#include "model/vocab.h"

#include <stdio.h>
#include <string.h>

/* GPU-to-GPU bandwidth of one direction here: the best measured copy-engine P2P copy,
   else the active NVLinks' theoretical rate, else the PCIe link's, when the document
   shows that the GPUs have no NVLink (or the part has none). basis says which; when it
   returns 0, why it is unknown (or "" when the document has no link at all). */
static double here_gbps(const json_t *doc, int part_has_nvlink, char *basis, size_t len)
{
    double best = 0;
    size_t i;
    const json_t *e, *gpu;
    json_array_foreach(json_object_get(doc, "measurements"), i, e)
        if (strcmp(ls_json_str(e, "family", ""), LS_FAMILY_P2P) == 0 &&
            strcmp(ls_json_str(e, "method", ""), LS_P2P_CE) == 0 &&
            strcmp(ls_json_str(e, "direction", ""), LS_DIR_UNI) == 0 &&
            strcmp(ls_json_str(e, "status", ""), "ok") == 0 && ls_json_num(e, "value", 0) > best)
            best = ls_json_num(e, "value", 0);
    if (best > 0)
        return snprintf(basis, len, "measured P2P copy"), best;
    gpu = json_array_get(json_object_get(doc, "gpus"), 0);
    double nvl = ls_json_num(gpu, "nvlink_theoretical_gbps", 0);
    if (nvl > 0)
        return snprintf(basis, len, "theoretical NVLink of the active links"), nvl;
    if (ls_spec_active_nvlinks(doc, gpu) < 0 && part_has_nvlink)
        return snprintf(basis, len,
                        "the document does not record the GPUs' NVLinks; import nvidia-smi "
                        "nvlink -s or topo -m"),
               0; /* PCIe would be a guess */
    const json_t *pcie = json_object_get(gpu, "pcie");
    /* The link at its maximum generation (an idle GPU lowers it: Gen1 at P8) and the
       width it trained at (a link trained narrower stays narrower under load). */
    long long gen = ls_json_int(pcie, "gen_max", 0), width = ls_json_int(pcie, "width_max", 0);
    long long trained = ls_json_int(pcie, "width_current", 0);
    if (trained > 0 && (width <= 0 || trained < width))
        width = trained;
    double p = ls_pcie_theoretical_gbps((int)gen, (int)width);
    if (p > 0)
        snprintf(basis, len, "theoretical PCIe Gen%lld x%lld", gen, width);
    else if ((p = ls_json_num(pcie, "theoretical_gbps", 0)) > 0)
        snprintf(basis, len, "theoretical PCIe link");
    return p;
}

static double prefill_s(const ls_tp_shape_t *shape, uint64_t tokens, int tp, double gbps)
{
    double bytes = (double)ls_tp_allreduce_bytes(shape, tokens);
    return ls_tp_allreduces_per_pass(shape) * ls_tp_ring_allreduce_us(gbps, 0, tp, bytes) * 1e-6;
}

/* The part's NVLink, one direction: its sold link count at the rate NVML reports for
   each of this GPU's links (H200: 18 x 26.562 = 478.1 GB/s, the headline's ceiling),
   else the datasheet's both-directions figure halved (900 / 2; the rate rounded). */
static double part_nvlink_gbps(const json_t *gpu, const ls_spec_row_t *part)
{
    size_t i;
    const json_t *l;
    json_array_foreach(json_object_get(gpu, "nvlinks"), i, l) {
        if (json_is_true(json_object_get(l, "active")) && ls_json_num(l, "gbps", 0) > 0 &&
            part->nvlinks > 0)
            return part->nvlinks * ls_json_num(l, "gbps", 0);
    }
    return part->nvlink_gbps / 2;
}

static json_t *degree(const ls_tp_shape_t *shape, const char *model, uint64_t tokens, int tp,
                      double here, const char *basis, const ls_spec_row_t *part, double part_gbps)
{
    double t_here = prefill_s(shape, tokens, tp, here);
    json_t *d = json_pack("{s:i, s:f}", "tp", tp, "here_s", t_here);
    char line[320];
    int n = snprintf(line, sizeof line,
                     "TP=%d prefill of %lluk tokens (%s): %.2f s of all-reduce "
                     "here (%s, %.0f GB/s)",
                     tp, (unsigned long long)(tokens / 1024), model, t_here, basis, here);
    if (part && part_gbps > 0 && n > 0 && (size_t)n < sizeof line) {
        double t_part = prefill_s(shape, tokens, tp, part_gbps);
        json_object_set_new(d, "part_s", json_real(t_part));
        snprintf(line + n, sizeof line - (size_t)n, " vs %.2f s on the %s's NVLink (%.4g GB/s)",
                 t_part, part->key, part_gbps);
    }
    json_object_set_new(d, "line", json_string(line));
    return d;
}

json_t *ls_spec_tp_verdict(const json_t *doc, const ls_datasheet_t *ds, const char *model,
                           uint64_t tokens, char *err, size_t errlen)
{
    const ls_tp_preset_t *p = ls_tp_preset_find(model);
    if (!p)
        return ls_seterr(err, errlen, "unknown model preset '%s' (linkscope tp --help lists them)",
                         model),
               NULL;
    size_t ngpus = json_array_size(json_object_get(doc, "gpus"));
    if (ngpus < 2) /* only the TP sizes the machine has: none, which is known, not unknown */
        return json_pack("{s:s, s:I, s:s}", "model", p->name, "tokens", (json_int_t)tokens, "none",
                         ngpus ? "one GPU here: tensor parallelism needs two or more"
                               : "no GPU in the document");
    const json_t *gpu = json_array_get(json_object_get(doc, "gpus"), 0);
    const ls_spec_row_t *part = ls_datasheet_find(ds, ls_json_str(gpu, "name", ""));
    char basis[160] = "";
    double here = here_gbps(doc, !part || part->nvlinks > 0, basis, sizeof basis);
    if (here <= 0)
        return ls_seterr(err, errlen, "%s",
                         basis[0] ? basis
                                  : "the document gives no GPU-to-GPU bandwidth (no P2P figure, "
                                    "NVLink or PCIe link)"),
               NULL;
    ls_tp_shape_t shape = {p->hidden, p->layers, 2}; /* bf16 activations */
    json_t *out = json_pack("{s:s, s:I, s:{s:f, s:s}}", "model", p->name, "tokens",
                            (json_int_t)tokens, "here", "gbps", here, "basis", basis);
    double part_gbps = part && part->nvlink_gbps > 0 ? part_nvlink_gbps(gpu, part) : 0;
    if (part_gbps > 0)
        json_object_set_new(out, "part",
                            json_pack("{s:s, s:f}", "name", part->key, "gbps", part_gbps));
    json_t *degrees = json_array();
    for (int tp = 2; tp <= 8 && (size_t)tp <= ngpus; tp *= 2) /* the TP sizes the machine has */
        json_array_append_new(degrees,
                              degree(&shape, p->name, tokens, tp, here, basis, part, part_gbps));
    json_object_set_new(out, "degrees", degrees);
    return out;
}

int ls_spec_record(json_t *doc, char *err, size_t errlen)
{
    ls_datasheet_t ds;
    if (ls_datasheet_builtin(&ds, err, errlen) != 0)
        return -1;
    json_t *ignored = json_array(), *spec = ls_spec_check(doc, &ds, ignored);
    char why[256];
    json_t *tp = ls_spec_tp_verdict(doc, &ds, LS_SPEC_TP_MODEL, LS_SPEC_TP_TOKENS, why, sizeof why);
    json_object_set_new(spec, "tp", tp ? tp : json_pack("{s:s}", "error", why));
    json_object_set_new(doc, "spec", spec);
    json_decref(ignored);
    ls_datasheet_free(&ds);
    return 0;
}
