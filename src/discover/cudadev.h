/* CUDA backend: what the CUDA runtime says about each device and each pair.
   cuda_cuda.c (CUDA half of the build, lsgpu) or cuda_nocuda.c (builds without CUDA).
   discover.c reaches these through weak references so that the host half (lscore)
   links alone in the host tests; the commands keep a strong reference (see
   ls_cudadev_anchor) so the CUDA half is linked into linkscope. */
#ifndef LS_DISCOVER_CUDADEV_H
#define LS_DISCOVER_CUDADEV_H

#include <stddef.h>

typedef struct {
    int ordinal; /* CUDA device number (PCI bus order under CUDA_DEVICE_ORDER=PCI_BUS_ID) */
    char name[256];
    char pci_bus_id[32]; /* stored form "00000000:3b:00.0" */
    int cc_major, cc_minor;
    int sms;
    long long l2_bytes;
    long long memory_bytes;
    int mem_bus_width_bits;
    int mem_clock_khz; /* peak memory clock, 0 if unknown */
    int sm_clock_khz;  /* peak SM clock, 0 if unknown */
    /* cudaDevAttrAsyncEngineCount, -1 if unknown: 2 or more lets a host->GPU and a
       GPU->host copy run at once; 1 (or 0) runs one direction at a time (deviceQuery's
       "Concurrent copy and kernel execution: Yes with 1 copy engine(s)") */
    int async_engines;
} ls_cudadev_t;

typedef struct {
    int can_access;                  /* cudaDeviceCanAccessPeer */
    int performance_rank;            /* cudaDevP2PAttrPerformanceRank */
    int access_supported;            /* cudaDevP2PAttrAccessSupported */
    int native_atomic_supported;     /* cudaDevP2PAttrNativeAtomicSupported */
    int cuda_array_access_supported; /* cudaDevP2PAttrCudaArrayAccessSupported */
} ls_cudapeer_t;

/* Devices the runtime sees. Returns the count (>= 0), or -1 with err saying why. */
int ls_cudadev_list(ls_cudadev_t *out, int max, char *err, size_t errlen);

/* Peer facts from CUDA ordinal a to b. 0, or -1. */
int ls_cudadev_peer(int a, int b, ls_cudapeer_t *out);

/* "13.0" style versions of the driver's CUDA and of the runtime linked in. 0 or -1. */
int ls_cudadev_versions(char *driver, size_t driverlen, char *runtime, size_t runtimelen);

/* Referenced by the commands so the linker keeps this backend in the binary. */
extern const int ls_cudadev_anchor;

#endif
