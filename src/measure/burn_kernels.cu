/* Kernels of the sustained-load family (C-style CUDA). See burn_kernels.h. */
#include "burn_kernels.h"
#include "pattern.h"

#include <cuda_bf16.h>

static __global__ void fill_bf16_kernel(__nv_bfloat16 *buf, size_t n, unsigned seed)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        /* 24 bits of the pattern mapped to [-1, 1) */
        float v = (float)(ls_pattern(seed, i) >> 8) * (2.0f / 16777216.0f) - 1.0f;
        buf[i] = __float2bfloat16(v);
    }
}

cudaError_t ls_k_fill_bf16(void *buf, size_t n, unsigned seed, int grid, cudaStream_t stream)
{
    fill_bf16_kernel<<<grid, 256, 0, stream>>>((__nv_bfloat16 *)buf, n, seed);
    return cudaGetLastError();
}

static __global__ void fma_kernel(float *out, int iters)
{
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    float a[LS_FMA_CHAINS];
    for (int c = 0; c < LS_FMA_CHAINS; c++)
        a[c] = (float)(tid + c) * 1e-7f;
    const float m = 0.9999f, k = 1e-4f; /* a stays bounded: a' = a*m + k tends to 1 */
    for (int i = 0; i < iters; i++)
#pragma unroll
        for (int c = 0; c < LS_FMA_CHAINS; c++)
            a[c] = fmaf(a[c], m, k);
    float s = 0;
    for (int c = 0; c < LS_FMA_CHAINS; c++)
        s += a[c];
    out[tid] = s;
}

cudaError_t ls_k_fma(float *out, int iters, int grid, int block, cudaStream_t stream)
{
    fma_kernel<<<grid, block, 0, stream>>>(out, iters);
    return cudaGetLastError();
}

static __global__ void compare_kernel(const unsigned *a, const unsigned *b, size_t n,
                                      unsigned long long *wrong)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned long long mine = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        mine += a[i] != b[i];
    if (mine)
        atomicAdd(wrong, mine);
}

cudaError_t ls_k_compare(const void *a, const void *b, size_t bytes, unsigned long long *wrong,
                         int grid, cudaStream_t stream)
{
    compare_kernel<<<grid, 256, 0, stream>>>((const unsigned *)a, (const unsigned *)b, bytes / 4,
                                             wrong);
    return cudaGetLastError();
}
