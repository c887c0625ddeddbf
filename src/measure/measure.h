/* The measuring commands' engine: each function measures one family on the chosen
   GPUs and appends its entries to the run document (docs/schema.md, docs/methods.md).
   A figure that fails is recorded as a failed entry; the function goes on with the
   next one. Built without CUDA, every function says so and returns LS_EXIT_NOGPU. */
#ifndef LS_MEASURE_MEASURE_H
#define LS_MEASURE_MEASURE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "model/families.h"
#include "model/topo.h"

#define LS_DEFAULT_SAMPLES 20
#define LS_LATENCY_ROUND_TRIPS 2000  /* per ping-pong sample */
#define LS_LATENCY_CHASE_STEPS 10000 /* per pointer-chase sample */
#define LS_LATENCY_COPIES 100        /* per gpu_copy sample, as p2pBandwidthLatencyTest */

typedef struct {
    int gpus[LS_MAX_GPUS]; /* CUDA ordinals (= PCI bus order = document index) */
    int ngpus;
    int samples;         /* timed samples per figure (warm-up not counted) */
    uint64_t size;       /* buffer bytes (ls_family_resolve fills the default) */
    const json_t *doc;   /* read for gpus[].hbm_theoretical_gbps and links[] */
    const char *methods; /* comma list: only these of the family's methods; NULL or "": all */
    /* Pair rounds (issue 14), given by the pipeline as plain arrays (analyze/schedule.c
       makes them; measure does not use analyze): round r holds pairs round_start[r] ..
       round_start[r + 1] - 1 of pair_a[], pair_b[] (indices into gpus, a < b), measured
       at the same time. nrounds 0: every pair alone, one after another. */
    int nrounds;
    const int *round_start, *pair_a, *pair_b;
    /* 1: samples stop by the median's interval (util/stop.h), samples being the most
       taken; 0: exactly samples. */
    int stop_rule;
    /* p2p: 1 measures a->b then b->a only, not both ways at once (health's probe,
       docs/health.md); 0 all three. */
    int one_way;
    /* The family measured (ls_family_measure sets it, model/families.h): the family and
       method words its entries are written with. */
    const ls_fam_t *fam;
} ls_measure_opts_t;

typedef void (*ls_measure_progress_fn)(const char *what);

/* o's size and samples are resolved (ls_family_resolve); call through ls_family_measure.
   Each is defined in its *_cuda.c file; built without CUDA, the registry names
   ls_measure_without_cuda instead (measure_nocuda.c). */
/* A round of pairs measured at the same time into doc: pa[k], pb[k] (indices into
   o->gpus) for k below npairs; index counts the rounds from 1; ctx is the family's. */
typedef void (*ls_round_fn)(json_t *doc, const ls_measure_opts_t *o, const int *pa, const int *pb,
                            int npairs, int index, void *ctx);
/* Calls round for each of o's rounds in turn; without rounds (nrounds 0), for every pair
   x < y alone, in order, each a round of its own (pair_rounds.c). */
void ls_measure_each_round(json_t *doc, const ls_measure_opts_t *o, ls_round_fn round, void *ctx);

int ls_measure_p2p(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen);
int ls_measure_latency(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen);
int ls_measure_hbm(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen);
int ls_measure_host(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen);
/* The fabric stress step (not a family of the registry: the run's thorough level calls
   it): all_to_all, then one_to_all and all_to_one for each GPU, entries of family
   "fabric" (docs/schema.md). Needs P2P between every two GPUs. */
int ls_measure_fabric(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen);
int ls_measure_without_cuda(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen);

#endif
