/* Kernels of the measuring half (C-style CUDA). See kernels.h. */
#include "kernels.h"
#include "pattern.h"

static __device__ __forceinline__ unsigned long long global_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

static __global__ void gate_kernel(volatile int *ctl, unsigned long long timeout_ns)
{
    unsigned long long start = global_ns();
    while (ctl[0] == 0) {
        if (global_ns() - start > timeout_ns) {
            ctl[1] = 1;
            break;
        }
    }
}

cudaError_t ls_k_gate(volatile int *ctl, unsigned timeout_ms, cudaStream_t stream)
{
    gate_kernel<<<1, 1, 0, stream>>>(ctl, (unsigned long long)timeout_ms * 1000000ull);
    return cudaGetLastError();
}

static __global__ void fill_kernel(uint4 *buf, size_t n, unsigned seed)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        unsigned long long w = (unsigned long long)i * 4;
        buf[i] = make_uint4(ls_pattern(seed, w), ls_pattern(seed, w + 1), ls_pattern(seed, w + 2),
                            ls_pattern(seed, w + 3));
    }
}

cudaError_t ls_k_fill(void *buf, size_t bytes, unsigned seed, int grid, cudaStream_t stream)
{
    fill_kernel<<<grid, 512, 0, stream>>>((uint4 *)buf, bytes / 16, seed);
    return cudaGetLastError();
}

static __global__ void verify_kernel(const uint4 *buf, size_t n, unsigned seed,
                                     unsigned long long *wrong, unsigned *xor_out)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned bad = 0, acc = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        uint4 v = buf[i];
        unsigned long long w = (unsigned long long)i * 4;
        bad += (v.x != ls_pattern(seed, w)) + (v.y != ls_pattern(seed, w + 1)) +
               (v.z != ls_pattern(seed, w + 2)) + (v.w != ls_pattern(seed, w + 3));
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (bad)
        atomicAdd(wrong, (unsigned long long)bad);
    atomicXor(xor_out, acc);
}

cudaError_t ls_k_verify(const void *buf, size_t bytes, unsigned seed, unsigned long long *wrong,
                        unsigned *xor_out, int grid, cudaStream_t stream)
{
    verify_kernel<<<grid, 512, 0, stream>>>((const uint4 *)buf, bytes / 16, seed, wrong, xor_out);
    return cudaGetLastError();
}

/* Four independent 16-byte loads in flight per thread before the first store: enough
   bytes in flight to cover NVLink and HBM latency with a grid of a few blocks per SM. */
static __global__ void copy_kernel(uint4 *__restrict__ dst, const uint4 *__restrict__ src, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        uint4 a = __ldcs(src + i);
        uint4 b = __ldcs(src + i + stride);
        uint4 c = __ldcs(src + i + 2 * stride);
        uint4 d = __ldcs(src + i + 3 * stride);
        __stcs(dst + i, a);
        __stcs(dst + i + stride, b);
        __stcs(dst + i + 2 * stride, c);
        __stcs(dst + i + 3 * stride, d);
    }
    for (; i < n; i += stride)
        __stcs(dst + i, __ldcs(src + i));
}

cudaError_t ls_k_copy(void *dst, const void *src, size_t bytes, int grid, int block,
                      cudaStream_t stream)
{
    copy_kernel<<<grid, block, 0, stream>>>((uint4 *)dst, (const uint4 *)src, bytes / 16);
    return cudaGetLastError();
}

static __global__ void read_kernel(const uint4 *__restrict__ src, size_t n, unsigned *xor_out)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned acc = 0;
    for (; i + 3 * stride < n; i += 4 * stride) {
        uint4 a = __ldcs(src + i);
        uint4 b = __ldcs(src + i + stride);
        uint4 c = __ldcs(src + i + 2 * stride);
        uint4 d = __ldcs(src + i + 3 * stride);
        acc ^= a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w;
        acc ^= c.x ^ c.y ^ c.z ^ c.w ^ d.x ^ d.y ^ d.z ^ d.w;
    }
    for (; i < n; i += stride) {
        uint4 a = __ldcs(src + i);
        acc ^= a.x ^ a.y ^ a.z ^ a.w;
    }
    atomicXor(xor_out, acc);
}

cudaError_t ls_k_read(const void *src, size_t bytes, unsigned *xor_out, int grid, int block,
                      cudaStream_t stream)
{
    read_kernel<<<grid, block, 0, stream>>>((const uint4 *)src, bytes / 16, xor_out);
    return cudaGetLastError();
}

static __global__ void write_kernel(uint4 *__restrict__ dst, size_t n, unsigned seed)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        unsigned long long w = (unsigned long long)i * 4;
        __stcs(dst + i, make_uint4(ls_pattern(seed, w), ls_pattern(seed, w + 1),
                                   ls_pattern(seed, w + 2), ls_pattern(seed, w + 3)));
    }
}

cudaError_t ls_k_write(void *dst, size_t bytes, unsigned seed, int grid, int block,
                       cudaStream_t stream)
{
    write_kernel<<<grid, block, 0, stream>>>((uint4 *)dst, bytes / 16, seed);
    return cudaGetLastError();
}

/* Spins until *flag == want; 0, or 1 when it gave up. */
static __device__ int wait_for(volatile int *flag, int want, unsigned long long deadline)
{
    while (*flag != want)
        if (global_ns() > deadline)
            return 1;
    return 0;
}

static __global__ void pingpong_kernel(volatile int *mine, volatile int *peer, int iters,
                                       int initiator, unsigned long long *result,
                                       unsigned long long timeout_ns)
{
    unsigned long long deadline = global_ns() + timeout_ns;
    int late = 0;
    if (initiator) {
        late = wait_for(mine, -1, deadline);
        unsigned long long t0 = global_ns();
        for (int i = 1; i <= iters && !late; i++) {
            *peer = i; /* one trip: a store into the other side's memory ... */
            late = wait_for(mine, i, deadline); /* ... and its answer back */
        }
        result[0] = global_ns() - t0;
        result[1] = late;
    } else {
        *peer = -1;
        for (int i = 1; i <= iters && !late; i++) {
            late = wait_for(mine, i, deadline);
            *peer = i;
        }
        if (late)
            *peer = iters; /* let the initiator finish if we gave up */
    }
}

cudaError_t ls_k_pingpong(volatile int *mine, volatile int *peer, int iters, int initiator,
                          unsigned long long *result, unsigned timeout_ms, cudaStream_t stream)
{
    pingpong_kernel<<<1, 1, 0, stream>>>(mine, peer, iters, initiator, result,
                                         (unsigned long long)timeout_ms * 1000000ull);
    return cudaGetLastError();
}

static __global__ void chase_kernel(const unsigned long long *chain, int steps,
                                    unsigned long long *result)
{
    /* Volatile loads (ld.volatile) are not cached in L1: each step waits for the full
       trip to the memory that holds the chain. */
    const volatile unsigned long long *c = chain;
    unsigned long long idx = 0;
    for (int i = 0; i < 64; i++) /* warm the TLB */
        idx = c[idx];
    unsigned long long t0 = global_ns();
    for (int i = 0; i < steps; i++)
        idx = c[idx];
    result[0] = global_ns() - t0;
    result[1] = idx;
}

cudaError_t ls_k_chase(const unsigned long long *chain, int steps, unsigned long long *result,
                       cudaStream_t stream)
{
    chase_kernel<<<1, 1, 0, stream>>>(chain, steps, result);
    return cudaGetLastError();
}
