/* What a finding is about, as data: its GPUs, a pair, a port, anything else it names,
   and what the plan does with it (docs/analysis.md "What a finding names"). A rule fills
   one; the finding's subject text is rendered from it and never read back: the planner
   and the driver's folds read the data fields of the finding. */
#ifndef LS_ANALYZE_ABOUT_H
#define LS_ANALYZE_ABOUT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t gpus; /* the GPUs it names (0: none, or none this document knows) */
    int pair;      /* 1: a pair of GPUs, from -> to */
    int from, to;
    int both;         /* with pair: both directions (GPUa<->GPUb) */
    int all;          /* gpus is every GPU of the machine (a folded finding) */
    const char *what; /* what else it names: a collective ("all_reduce", then
                         "all_reduce on GPUs 0-3" with gpus), an input file, a process */
    const char *port; /* an HCA port ("mlx5_0:1") */
} ls_about_t;

/* What the plan does with a finding's GPUs (the finding's "action"). */
enum ls_finding_action {
    LS_FA_NONE,  /* nothing: the plan may still propose them */
    LS_FA_AVOID, /* never proposed as best pair, best group or cleanest island */
};

/* The bit of GPU g (0 when g is not 0..63). */
uint64_t ls_gpu_bit(long long g);

#define LS_ABOUT_GPU(g) ((ls_about_t){.gpus = ls_gpu_bit(g)})
#define LS_ABOUT_GPUS(mask) ((ls_about_t){.gpus = (mask)})
#define LS_ABOUT_PAIR(a, b)                                                                        \
    ((ls_about_t){.gpus = ls_gpu_bit(a) | ls_gpu_bit(b),                                           \
                  .pair = 1,                                                                       \
                  .from = (int)(a),                                                                \
                  .to = (int)(b)})
#define LS_ABOUT_BOTH(a, b)                                                                        \
    ((ls_about_t){.gpus = ls_gpu_bit(a) | ls_gpu_bit(b),                                           \
                  .pair = 1,                                                                       \
                  .both = 1,                                                                       \
                  .from = (int)(a),                                                                \
                  .to = (int)(b)})
#define LS_ABOUT_WHAT(text) ((ls_about_t){.what = (text)})
#define LS_ABOUT_ON(text, mask) ((ls_about_t){.what = (text), .gpus = (mask)})
#define LS_ABOUT_PORT(p) ((ls_about_t){.port = (p)})

/* The subject text of a: "GPU3", "GPU0->GPU4", "GPU0<->GPU4", "GPUs 0-3", "GPUs 0-7
   (all)", "all_reduce on GPUs 0,1", "mlx5_0:1", or what alone. */
void ls_about_text(const ls_about_t *a, char *buf, size_t len);

/* Writes a into finding f: "subject" (rendered), "gpus" and "pairs" (when it names
   any), "port" (when it names one). */
void ls_about_set(json_t *f, const ls_about_t *a);

/* The GPUs a finding names (its "gpus"). */
uint64_t ls_finding_gpus(const json_t *finding);
/* The plan's action of a finding (its "action"; none when absent). */
enum ls_finding_action ls_finding_action(const json_t *finding);
/* "none", "avoid". */
const char *ls_finding_action_name(enum ls_finding_action a);

#endif
