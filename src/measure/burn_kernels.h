/* Kernels of the sustained-load family, exposed to C (see burn.h). */
#ifndef LS_MEASURE_BURN_KERNELS_H
#define LS_MEASURE_BURN_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fills n bf16 values with pseudo-random numbers in [-1, 1) from seed: GEMM inputs that
   are neither zero nor denormal, so the tensor cores draw the power real data draws. */
cudaError_t ls_k_fill_bf16(void *buf, size_t n, unsigned seed, int grid, cudaStream_t stream);

/* FP32 FMA chains (LS_FMA_CHAINS independent chains per thread, iters steps each) on a
   grid of blocks; out[thread] keeps the result so the work cannot be optimized away.
   FLOPs = grid * block * LS_FMA_CHAINS * iters * 2. */
#define LS_FMA_CHAINS 8
cudaError_t ls_k_fma(float *out, int iters, int grid, int block, cudaStream_t stream);

/* Counts the 32-bit words where a and b differ into *wrong (zeroed by the caller):
   the burn repeats one product on the same inputs, so any difference is a fault. */
cudaError_t ls_k_compare(const void *a, const void *b, size_t bytes, unsigned long long *wrong,
                         int grid, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
