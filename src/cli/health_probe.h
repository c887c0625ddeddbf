/* linkscope health's short probe on the live node (docs/health.md, "The probe"): whether
   it runs after the state checks, the probe itself on a thread held to the budget
   (pipeline/probe.h), its findings (health/probe.c) and its lines of text. */
#ifndef LS_CLI_HEALTH_PROBE_H
#define LS_CLI_HEALTH_PROBE_H

#include <jansson.h>

typedef struct {
    int off;         /* --no-probe */
    int recorded;    /* --from: a recorded state, no GPU here */
    int gpus;        /* GPUs the state checks saw (NVML) */
    double deadline; /* ls_probe_now() seconds the whole check must end by */
} ls_health_probe_opts_t;

/* The probe's record for the JSON output: {status: "ran"|"off"|"not run", why?, gpus?,
   steps?, figures?, running?, seconds?}; its findings appended to findings. *abandoned
   set to 1 when the budget cut it off with its thread still inside the driver (the
   caller then leaves by _exit, not through the CUDA runtime's teardown). */
json_t *ls_health_probe(const ls_health_probe_opts_t *o, json_t *findings, int *abandoned);

/* One or two lines of what was probed ("  probe: ..."), for the text output. */
void ls_health_probe_print(const json_t *probe);

#endif
