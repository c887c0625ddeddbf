/* The sustained-load family (linkscope burn, run --level thorough): tensor-core GEMM
   through cuBLAS (loaded at run time; an FMA kernel where it is absent) on every chosen
   GPU, HBM copies and NVLink copies to the next GPU at the same time, for a few
   minutes, while NVML is sampled every LS_BURN_PERIOD_MS. One entry per GPU, family
   "burn" (docs/schema.md). Clocks and power limits are never changed. */
#ifndef LS_MEASURE_BURN_H
#define LS_MEASURE_BURN_H

#include <jansson.h>
#include <stddef.h>

#include "model/topo.h"

#define LS_BURN_DEFAULT_SECONDS 180.0 /* long enough for a heatsink to reach its plateau */
#define LS_BURN_THOROUGH_SECONDS 60.0 /* the run's thorough step */
#define LS_BURN_PERIOD_MS 100
#define LS_BURN_FIRST_S 5.0 /* "first seconds" throughput: windows ending before */

typedef struct {
    int gpus[LS_MAX_GPUS];
    int ngpus;
    double seconds;
    int period_ms;
    int no_cublas;  /* the FMA kernel even where cuBLAS is there */
    int no_traffic; /* compute only: no HBM or NVLink copies beside it */
} ls_burn_opts_t;

/* Measures into doc (one "burn" entry per GPU). 0, or an exit code with err. */
int ls_measure_burn(json_t *doc, const ls_burn_opts_t *o, char *err, size_t errlen);

/* Fills entry.burn's summary from its series and windows (no GPU needed): first and
   sustained throughput, their ratio, the temperature and power reached, the loaded SM
   clock, and throttle_events [{reason, first_s, last_s, samples}]. entry.value is the
   sustained throughput. */
void ls_burn_summarize(json_t *entry);

#endif
