/* Telemetry: a thread that samples NVML every period while one measurement runs and
   writes what it saw into the entry's "telemetry" object, flagging the entry
   "throttled" or "below_app_clocks" (docs/schema.md). Degrades to
   {"samples": 0, "available": false, "error": ...} when NVML is not there. */
#ifndef LS_SAMPLE_TELEMETRY_H
#define LS_SAMPLE_TELEMETRY_H

#include <jansson.h>

#define LS_TELEMETRY_PERIOD_MS 50

/* What a window reads beside clocks, power, temperature, reasons and NVLink counters. */
enum {
    /* NVML's PCIe throughput in every reading: the driver samples it for 20 ms per
       direction before it answers (40 ms a GPU, 20 times the rest of a reading on an
       H200: 43.6 ms against 2.15 ms, docs/schedule.md), so only the host copies' windows
       (one GPU each) ask for it. */
    LS_TELEMETRY_PCIE = 1u << 0,
};

typedef struct ls_telemetry ls_telemetry_t;

/* Starts sampling the GPUs gpus[0..n) (document indices); nvml[i] is the NVML index of
   gpus[i], or -1 when unknown. Never returns NULL except when out of memory. */
ls_telemetry_t *ls_telemetry_start(const int *gpus, const int *nvml, int n, int period_ms,
                                   unsigned what);

/* Stops the thread, sets entry.telemetry and the flags, frees t. */
void ls_telemetry_stop(ls_telemetry_t *t, json_t *entry);

/* Telemetry over CUDA devices (built with CUDA only): maps each to its NVML index by PCI
   bus id, then ls_telemetry_start with LS_TELEMETRY_PERIOD_MS. what: LS_TELEMETRY_* bits. */
ls_telemetry_t *ls_telemetry_for(const int *devices, int n, unsigned what);
/* nvml[i]: the NVML index of CUDA device devices[i] (-1 when NVML has none), for the
   first n devices but at most LS_MAX_GPUS; returns how many. Shared by the telemetry
   window and the burn series (CUDA build). */
int ls_nvml_indices_for(const int *devices, int n, int *nvml);

/* Whether NVML could be opened (cached after the first call); why not in err. */
int ls_telemetry_available(char *err, size_t errlen);

#endif
