#include "telemetry.h"
#include "discover/nvml.h"
#include "model/topo.h"

#include <cuda_runtime_api.h>

int ls_nvml_indices_for(const int *devices, int n, int *nvml)
{
    if (n > LS_MAX_GPUS)
        n = LS_MAX_GPUS;
    int have = ls_telemetry_available(NULL, 0);
    for (int i = 0; i < n; i++) {
        char bus[32];
        /* NVML matches any case; CUDA writes "0000:3B:00.0" */
        nvml[i] = have && cudaDeviceGetPCIBusId(bus, (int)sizeof bus, devices[i]) == cudaSuccess
                      ? ls_nvml_index_by_bus_id(bus)
                      : -1;
    }
    return n;
}

ls_telemetry_t *ls_telemetry_for(const int *devices, int n, unsigned what)
{
    int nvml[LS_MAX_GPUS];
    n = ls_nvml_indices_for(devices, n, nvml);
    return ls_telemetry_start(devices, nvml, n, LS_TELEMETRY_PERIOD_MS, what);
}
