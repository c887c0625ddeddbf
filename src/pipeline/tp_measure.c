/* linkscope tp --measure (tp_measure.h): NCCL's all_reduce at the estimate's sizes, as
   a tp source. Here, not in analyze (which may not run NCCL) nor in cli. */
#include "tp_measure.h"
#include "analyze/tp_sources.h"
#include "model/doc.h"
#include "nccl/sweep.h"
#include "util/log.h"

#include <stdio.h>
#include <string.h>

static const char *dtype_for(long bytes)
{
    return bytes == 1 ? "int8" : bytes == 4 ? "float" : "bfloat16";
}

/* Runs all_reduce at exactly the sizes the estimate needs; *entry_out keeps the nccl
   entry for -o/--into. */
int ls_tp_measure_source(const int *gpus, int ngpus, long bytes, const ls_tp_request_t *req,
                         ls_tp_source_t *src, json_t **entry_out)
{
    uint64_t sizes[512];
    int n = ls_tp_request_sizes(req, sizes, 512);
    ls_nccl_sweep_opts_t opts = {.collective = "all_reduce",
                                 .gpus = gpus,
                                 .ngpus = ngpus,
                                 .sizes = sizes,
                                 .nsizes = n,
                                 .min_bytes = sizes[0],
                                 .max_bytes = sizes[n - 1],
                                 .iters = 20,
                                 .warmup = 5,
                                 .check = 1,
                                 .dtype = dtype_for(bytes),
                                 .redop = "sum",
                                 .root = 0,
                                 .in_place = 0,
                                 .timeout_s = 120};
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
        ls_error("--measure: all_reduce gave wrong results or no time at %d of %d sizes", skipped,
                 n);
    } else {
        char list[128];
        ls_tp_format_gpus(gpus, ngpus, list, sizeof list);
        src->kind = LS_TP_SRC_CURVE;
        src->measured = 1;
        snprintf(src->name, sizeof src->name, "measured");
        snprintf(src->origin, sizeof src->origin,
                 "--measure: all_reduce (%s, sum) at the %d sizes below on GPUs %s, %d iterations, "
                 "data checked",
                 opts.dtype, n, list, opts.iters);
        *entry_out = entry;
        return 0;
    }
    json_decref(entry);
    return LS_EXIT_NOGPU;
}
