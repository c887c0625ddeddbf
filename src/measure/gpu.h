/* Whether this build and this machine can run GPU work, and the few device facts the
   commands check options against. */
#ifndef LS_MEASURE_GPU_H
#define LS_MEASURE_GPU_H

#include <stddef.h>
#include <stdint.h>

/* Number of usable CUDA devices (> 0), or 0 with err saying why not in one line
   (built without CUDA, no driver, no GPU). */
int ls_gpu_count(char *err, size_t errlen);

/* 1 when this binary was built with CUDA. */
int ls_built_with_cuda(void);

/* Total device memory in bytes of CUDA device dev, 0 when unknown. */
uint64_t ls_gpu_memory_bytes(int dev);

/* PCI bus id of CUDA device dev, lower case ("00000000:00:06.0"). 0, or -1. */
int ls_gpu_bus_id(int dev, char *buf, size_t buflen);

#endif
