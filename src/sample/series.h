/* A time series of NVML readings per GPU (clocks, power, temperature, throttle reasons,
   NVLink throughput), sampled by a thread every period while a long load runs. Unlike
   telemetry.h, which keeps ranges for one figure, this keeps every reading. */
#ifndef LS_SAMPLE_SERIES_H
#define LS_SAMPLE_SERIES_H

#include <jansson.h>

typedef struct ls_series ls_series_t;

/* Starts sampling nvml[0..n) (NVML indices; -1 = not sampled) every period_ms. NULL when
   out of memory; a series without NVML returns empty arrays and says why. */
ls_series_t *ls_series_start(const int *nvml, int n, int period_ms);

/* The same over CUDA devices (built with CUDA only): each mapped to its NVML index by
   PCI bus id. */
ls_series_t *ls_series_for(const int *devices, int n, int period_ms);

/* Stops the thread; returns the series of GPU i (the i of start) as
   {period_ms, available, error?, t_s[], sm_mhz[], mem_mhz[], power_w[], temp_c[],
    throttle[] (NVML reason bits), nvlink_tx_gbps[], nvlink_rx_gbps[]} per GPU in an array.
   Frees s. */
json_t *ls_series_stop(ls_series_t *s);

/* One event per throttle reason that appeared in a series (its "throttle" bits at its
   "t_s" times): [{reason, first_s, last_s, samples, share}], NVML's names; idle and the
   application-clock setting are states, left out. */
json_t *ls_series_throttle_events(const json_t *series);

#endif
