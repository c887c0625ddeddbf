/* CUDA backend through the CUDA runtime. */
#include "cudadev.h"
#include "model/busid.h"
#include "util/log.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

const int ls_cudadev_anchor = 1;

static int attr(int dev, enum cudaDeviceAttr which)
{
    int v = 0;
    if (cudaDeviceGetAttribute(&v, which, dev) != cudaSuccess)
        return 0;
    return v;
}

static void describe(int dev, ls_cudadev_t *d)
{
    memset(d, 0, sizeof *d);
    d->ordinal = dev;
    struct cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, dev) == cudaSuccess) {
        snprintf(d->name, sizeof d->name, "%.255s", prop.name);
        d->memory_bytes = (long long)prop.totalGlobalMem;
    }
    char bus[32];
    if (cudaDeviceGetPCIBusId(bus, (int)sizeof bus, dev) == cudaSuccess)
        ls_busid_normalize(bus, d->pci_bus_id, sizeof d->pci_bus_id);
    d->cc_major = attr(dev, cudaDevAttrComputeCapabilityMajor);
    d->cc_minor = attr(dev, cudaDevAttrComputeCapabilityMinor);
    d->sms = attr(dev, cudaDevAttrMultiProcessorCount);
    d->l2_bytes = attr(dev, cudaDevAttrL2CacheSize);
    d->mem_bus_width_bits = attr(dev, cudaDevAttrGlobalMemoryBusWidth);
    d->mem_clock_khz = attr(dev, cudaDevAttrMemoryClockRate);
    d->sm_clock_khz = attr(dev, cudaDevAttrClockRate);
    d->async_engines = -1;
    int engines = 0;
    if (cudaDeviceGetAttribute(&engines, cudaDevAttrAsyncEngineCount, dev) == cudaSuccess)
        d->async_engines = engines;
}

int ls_cudadev_list(ls_cudadev_t *out, int max, char *err, size_t errlen)
{
    int count = 0;
    cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc == cudaErrorNoDevice)
        return 0;
    if (rc != cudaSuccess)
        return ls_seterr(err, errlen, "CUDA: %s", cudaGetErrorString(rc));
    if (count > max)
        count = max;
    for (int i = 0; i < count; i++)
        describe(i, &out[i]);
    return count;
}

int ls_cudadev_peer(int a, int b, ls_cudapeer_t *out)
{
    memset(out, 0, sizeof *out);
    if (cudaDeviceCanAccessPeer(&out->can_access, a, b) != cudaSuccess)
        return -1;
    cudaDeviceGetP2PAttribute(&out->performance_rank, cudaDevP2PAttrPerformanceRank, a, b);
    cudaDeviceGetP2PAttribute(&out->access_supported, cudaDevP2PAttrAccessSupported, a, b);
    cudaDeviceGetP2PAttribute(&out->native_atomic_supported, cudaDevP2PAttrNativeAtomicSupported, a,
                              b);
    cudaDeviceGetP2PAttribute(&out->cuda_array_access_supported,
                              cudaDevP2PAttrCudaArrayAccessSupported, a, b);
    return 0;
}

static void version_text(int v, char *buf, size_t len)
{
    /* 13000 -> "13.0", 12040 -> "12.4" */
    snprintf(buf, len, "%d.%d", v / 1000, (v % 1000) / 10);
}

int ls_cudadev_versions(char *driver, size_t driverlen, char *runtime, size_t runtimelen)
{
    int d = 0, r = 0;
    if (cudaRuntimeGetVersion(&r) != cudaSuccess)
        return -1;
    version_text(r, runtime, runtimelen);
    if (cudaDriverGetVersion(&d) != cudaSuccess || d == 0)
        driver[0] = '\0';
    else
        version_text(d, driver, driverlen);
    return 0;
}
