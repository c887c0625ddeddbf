#include "gpu.h"
#include "util/log.h"

#include <ctype.h>
#include <cuda_runtime_api.h>

int ls_built_with_cuda(void)
{
    return 1;
}

int ls_gpu_count(char *err, size_t errlen)
{
    int count = 0;
    cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc != cudaSuccess) {
        const char *why = rc == cudaErrorNoDevice ? "no CUDA-capable GPU was found"
                          : rc == cudaErrorInsufficientDriver
                              ? "no NVIDIA driver, or one older than this CUDA runtime"
                              : cudaGetErrorString(rc);
        ls_seterr(err, errlen, "no usable GPU: %s", why);
        return 0;
    }
    if (count == 0)
        ls_seterr(err, errlen, "no usable GPU: the driver reports no CUDA device");
    return count;
}

uint64_t ls_gpu_memory_bytes(int dev)
{
    struct cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, dev) != cudaSuccess)
        return 0;
    return (uint64_t)prop.totalGlobalMem;
}

int ls_gpu_bus_id(int dev, char *buf, size_t buflen)
{
    if (cudaDeviceGetPCIBusId(buf, (int)buflen, dev) != cudaSuccess)
        return -1;
    for (char *p = buf; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return 0;
}
