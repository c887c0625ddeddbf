/* A pipeline step's collective sweep (sweep_step.h). */
#include "sweep_step.h"
#include "model/doc.h"
#include "nccl/annotate.h"
#include "nccl/sweep.h"

#include <stdio.h>
#include <string.h>

int ls_sweep_step(json_t *doc, const ls_sweep_step_t *s, char *why, size_t len)
{
    ls_nccl_sweep_opts_t o = {.collective = s->collective,
                              .gpus = s->gpus,
                              .ngpus = s->ngpus,
                              .min_bytes = s->min_bytes,
                              .max_bytes = s->max_bytes,
                              .step_factor = s->step_factor,
                              .iters = 20,
                              .warmup = 5,
                              .check = 1,
                              .dtype = "float",
                              .redop = "sum",
                              .in_place = 2,
                              .timeout_s = s->timeout_s,
                              .variant = "default",
                              .threads = 1};
    json_t *entry = ls_nccl_sweep(&o, why, len);
    if (!entry)
        return -1;
    int ok = strcmp(ls_json_str(entry, "status", "failed"), "ok") == 0;
    if (!ok)
        snprintf(why, len, "%s", ls_json_str(entry, "error", "failed"));
    if (s->annotate)
        ls_nccl_annotate_entry(doc, entry);
    ls_nccl_add_entry(doc, entry);
    return ok ? 0 : -1;
}
