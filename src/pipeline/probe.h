/* linkscope health's short probe (docs/health.md, "The probe"): after the state checks,
   the measuring families at one size each with few samples, exactly the steps that
   health --dry-run prices (analyze/projection.c, ls_project_health):
     1. copy-engine copies of every GPU pair, a->b then b->a, in the scheduler's rounds
        (p2p family, method ce, LS_HEALTH_PROBE_SAMPLES samples, its default size);
     2. one all_reduce size on all GPUs (LS_HEALTH_PROBE_ALL_REDUCE_BYTES, the NCCL harness);
     3. an HBM copy on every GPU at once (hbm family, method copy, its default size).
   A step starts only when its projection ends before the deadline; one that would not
   is skipped and says so. The figures, each beside its hardware ceiling, are what
   health judges (health/probe.c). The probe runs on a thread of health's, which stops
   waiting for it at the budget: everything it shares goes through `lock`. */
#ifndef LS_PIPELINE_PROBE_H
#define LS_PIPELINE_PROBE_H

#include <jansson.h>
#include <pthread.h>

/* A step starts only where this many times its projection fits in what is left: the
   cost table was measured in runs whose CUDA contexts were made already, the probe's
   first step makes them (the GPU test, tests/cli/test_gpu_health.sh, prints each step's
   seconds beside its projection). */
#define LS_PROBE_MARGIN 1.5

typedef struct {
    double deadline; /* CLOCK_MONOTONIC seconds (ls_probe_now): no step ends after it */
    int no_nccl;     /* skip the all_reduce step */
    int expect_gpus; /* the GPUs the driver shows (NVML), 0 unknown: CUDA seeing another
                        number (CUDA_VISIBLE_DEVICES, MIG) measures nothing, as the GPUs'
                        numbers would not be the state checks' */
} ls_probe_opts_t;

typedef struct {
    pthread_mutex_t lock;
    json_t *steps;    /* [{step, status ok|failed|skipped, seconds, projected_s, note?}] */
    json_t *figures;  /* ls_probe_figures of what has been measured so far */
    char running[64]; /* the step under way, "" between steps */
    int ngpus;
    double setup_s; /* discovery and the CUDA driver's start, before the first step */
} ls_probe_t;

double ls_probe_now(void);

void ls_probe_init(ls_probe_t *p);
/* Measures this machine's probe into p (which the caller frees with ls_probe_free, and
   never while the probe runs). */
void ls_probe_run(ls_probe_t *p, const ls_probe_opts_t *o);
void ls_probe_free(ls_probe_t *p);

/* {gpus, setup_s, steps, figures, running?}: a copy of what the probe has so far, taken under
   its lock (safe while it runs). */
json_t *ls_probe_snapshot(ls_probe_t *p);

/* The probe's figures of a run document's measurements (p2p ce one way, hbm copy,
   nccl all_reduce), each with its ceiling (analyze/ceiling.h), in the document's order:
     {kind: "p2p_ce", src, dst, status, gbps?, verified?, error?,
      ceiling_gbps?, path?, basis?}
     {kind: "hbm_copy", gpu, ...the same}
     {kind: "all_reduce", gpus, bytes, status, busbw?, wrong (null: not checked),
      error?, ceiling_gbps?, path?, basis?}
   A ceiling that is unknown is left out, never guessed. */
json_t *ls_probe_figures(const json_t *doc);
/* Their kinds, and the status of a step that measured (health's probe lines match them). */
#define LS_PROBE_P2P_CE "p2p_ce"
#define LS_PROBE_HBM_COPY "hbm_copy"
#define LS_PROBE_ALL_REDUCE "all_reduce"
#define LS_PROBE_STEP_OK "ok"

#endif
