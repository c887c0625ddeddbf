#include "series.h"
#include "telemetry.h"
#include "discover/nvml.h"
#include "model/topo.h"

#include <cuda_runtime_api.h>

ls_series_t *ls_series_for(const int *devices, int n, int period_ms)
{
    int nvml[LS_MAX_GPUS];
    n = ls_nvml_indices_for(devices, n, nvml);
    return ls_series_start(nvml, n, period_ms);
}
