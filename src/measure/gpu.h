/* Whether this build and this machine can run GPU work. */
#ifndef LS_MEASURE_GPU_H
#define LS_MEASURE_GPU_H

#include <stddef.h>

/* Number of usable CUDA devices (> 0), or 0 with err saying why not in one line
   (built without CUDA, no driver, no GPU). */
int ls_gpu_count(char *err, size_t errlen);

/* 1 when this binary was built with CUDA. */
int ls_built_with_cuda(void);

#endif
