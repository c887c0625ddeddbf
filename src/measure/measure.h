/* The measuring commands' engine: each function measures one family on the chosen
   GPUs and appends its entries to the run document (docs/schema.md, docs/methods.md).
   A figure that fails is recorded as a failed entry; the function goes on with the
   next one. Built without CUDA, every function says so and returns LS_EXIT_NOGPU. */
#ifndef LS_MEASURE_MEASURE_H
#define LS_MEASURE_MEASURE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "model/topo.h"

#define LS_DEFAULT_SAMPLES 20
#define LS_P2P_DEFAULT_SIZE (2ull << 30)    /* 2 GiB: a copy lasts ~5.4 ms on NVLink 4, so the
                                               copy engine's ~4 us start per copy is < 0.1% */
#define LS_HBM_DEFAULT_SIZE (1ull << 30)    /* 1 GiB: 17x the H200's 60 MB L2 */
#define LS_HOST_DEFAULT_SIZE (512ull << 20)
/* The same defaults as the usage texts write them (keep each beside its number). */
#define LS_P2P_DEFAULT_SIZE_TEXT "2G"
#define LS_HBM_DEFAULT_SIZE_TEXT "1G"
#define LS_HOST_DEFAULT_SIZE_TEXT "512M"
#define LS_LATENCY_ROUND_TRIPS 2000         /* per ping-pong sample */
#define LS_LATENCY_CHASE_STEPS 10000        /* per pointer-chase sample */
#define LS_LATENCY_COPIES 100               /* per gpu_copy sample, as p2pBandwidthLatencyTest */

typedef struct {
    int gpus[LS_MAX_GPUS]; /* CUDA ordinals (= PCI bus order = document index) */
    int ngpus;
    int samples;           /* timed samples per figure (warm-up not counted) */
    uint64_t size;         /* buffer bytes; 0 = the family's default */
    const json_t *doc;     /* read for gpus[].hbm_theoretical_gbps and links[] */
} ls_measure_opts_t;

typedef void (*ls_measure_progress_fn)(const char *what);

int ls_measure_p2p(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen);
int ls_measure_latency(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen);
int ls_measure_hbm(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen);
int ls_measure_host(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen);

#endif
