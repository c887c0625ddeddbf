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
    /* A stale error left by an earlier call (returned to that call already) would make a
       gate that did launch look failed, and a caller that then skips the release would
       leave it spinning: clear it first, so the status below is this launch's own. */
    cudaGetLastError();
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

/* Tuning of the streaming kernels (ls_k_set_variant): loads in flight per thread before
   the first store, and whether loads and stores carry the evict-first (.cs) hint. */
static int copy_unroll = 4;
static int copy_streaming = 1;

void ls_k_set_variant(int unroll, int streaming)
{
    copy_unroll = unroll == 2 || unroll == 8 || unroll == 12 ? unroll : 4;
    copy_streaming = streaming != 0;
}

template <bool CS> static __device__ __forceinline__ uint4 load16(const uint4 *p)
{
    return CS ? __ldcs(p) : *p;
}

template <bool CS> static __device__ __forceinline__ void store16(uint4 *p, uint4 v)
{
    if (CS)
        __stcs(p, v);
    else
        *p = v;
}

/* U loads of 16 bytes, stride elements apart, all issued before any is used. */
template <int U, bool CS>
static __device__ __forceinline__ void load_unrolled(uint4 (&v)[U], const uint4 *src, size_t stride)
{
#pragma unroll
    for (int k = 0; k < U; k++)
        v[k] = load16<CS>(src + k * stride);
}

/* U independent 16-byte loads in flight per thread before the stores: enough bytes in
   flight to cover NVLink and HBM latency with a grid of a few blocks per SM. */
template <int U, bool CS>
static __global__ void copy_kernel(uint4 *__restrict__ dst, const uint4 *__restrict__ src, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + (U - 1) * stride < n; i += U * stride) {
        uint4 v[U];
        load_unrolled<U, CS>(v, src + i, stride);
#pragma unroll
        for (int k = 0; k < U; k++)
            store16<CS>(dst + i + k * stride, v[k]);
    }
    for (; i < n; i += stride)
        store16<CS>(dst + i, load16<CS>(src + i));
}

template <bool CS>
static void launch_copy(uint4 *dst, const uint4 *src, size_t n, int grid, int block, cudaStream_t s)
{
    switch (copy_unroll) {
    case 2: copy_kernel<2, CS><<<grid, block, 0, s>>>(dst, src, n); break;
    case 8: copy_kernel<8, CS><<<grid, block, 0, s>>>(dst, src, n); break;
    case 12: copy_kernel<12, CS><<<grid, block, 0, s>>>(dst, src, n); break;
    default: copy_kernel<4, CS><<<grid, block, 0, s>>>(dst, src, n); break;
    }
}

cudaError_t ls_k_copy(void *dst, const void *src, size_t bytes, int grid, int block,
                      cudaStream_t stream)
{
    if (copy_streaming)
        launch_copy<true>((uint4 *)dst, (const uint4 *)src, bytes / 16, grid, block, stream);
    else
        launch_copy<false>((uint4 *)dst, (const uint4 *)src, bytes / 16, grid, block, stream);
    return cudaGetLastError();
}

template <int U, bool CS>
static __global__ void read_kernel(const uint4 *__restrict__ src, size_t n, unsigned *xor_out)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned acc = 0;
    for (; i + (U - 1) * stride < n; i += U * stride) {
        uint4 v[U];
        load_unrolled<U, CS>(v, src + i, stride);
#pragma unroll
        for (int k = 0; k < U; k++)
            acc ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
    }
    for (; i < n; i += stride) {
        uint4 a = load16<CS>(src + i);
        acc ^= a.x ^ a.y ^ a.z ^ a.w;
    }
    atomicXor(xor_out, acc);
}

template <bool CS>
static void launch_read(const uint4 *src, size_t n, unsigned *x, int grid, int block,
                        cudaStream_t s)
{
    switch (copy_unroll) {
    case 2: read_kernel<2, CS><<<grid, block, 0, s>>>(src, n, x); break;
    case 8: read_kernel<8, CS><<<grid, block, 0, s>>>(src, n, x); break;
    case 12: read_kernel<12, CS><<<grid, block, 0, s>>>(src, n, x); break;
    default: read_kernel<4, CS><<<grid, block, 0, s>>>(src, n, x); break;
    }
}

cudaError_t ls_k_read(const void *src, size_t bytes, unsigned *xor_out, int grid, int block,
                      cudaStream_t stream)
{
    if (copy_streaming)
        launch_read<true>((const uint4 *)src, bytes / 16, xor_out, grid, block, stream);
    else
        launch_read<false>((const uint4 *)src, bytes / 16, xor_out, grid, block, stream);
    return cudaGetLastError();
}

template <bool CS>
static __global__ void write_kernel(uint4 *__restrict__ dst, size_t n, unsigned seed)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        unsigned long long w = (unsigned long long)i * 4;
        store16<CS>(dst + i, make_uint4(ls_pattern(seed, w), ls_pattern(seed, w + 1),
                                        ls_pattern(seed, w + 2), ls_pattern(seed, w + 3)));
    }
}

cudaError_t ls_k_write(void *dst, size_t bytes, unsigned seed, int grid, int block,
                       cudaStream_t stream)
{
    if (copy_streaming)
        write_kernel<true><<<grid, block, 0, stream>>>((uint4 *)dst, bytes / 16, seed);
    else
        write_kernel<false><<<grid, block, 0, stream>>>((uint4 *)dst, bytes / 16, seed);
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

/* How the chase loads: 0 = ld.volatile (never cached in L1), 1 = ld.global.cg (cached
   in L2 only), 2 = ld.global.ca (default caching; the chain is far larger than L1 and
   visited in random order). */
template <int MODE>
static __device__ __forceinline__ unsigned long long chase_load(const unsigned long long *p)
{
    if (MODE == 0)
        return *(const volatile unsigned long long *)p;
    if (MODE == 1)
        return __ldcg(p);
    return *p;
}

template <int MODE>
static __global__ void chase_kernel(const unsigned long long *chain, int steps, int target,
                                    unsigned long long *result)
{
    if (blockIdx.x != target) /* the chasing block lands on one SM of the grid's choice */
        return;
    unsigned long long idx = 0;
    for (int i = 0; i < 64; i++) /* warm the TLB */
        idx = chase_load<MODE>(chain + idx);
    unsigned long long t0 = global_ns();
    for (int i = 0; i < steps; i++)
        idx = chase_load<MODE>(chain + idx);
    result[0] = global_ns() - t0;
    result[1] = idx;
}

cudaError_t ls_k_chase(const unsigned long long *chain, int steps, int mode, int blocks, int target,
                       unsigned long long *result, cudaStream_t stream)
{
    if (mode == 1)
        chase_kernel<1><<<blocks, 1, 0, stream>>>(chain, steps, target, result);
    else if (mode == 2)
        chase_kernel<2><<<blocks, 1, 0, stream>>>(chain, steps, target, result);
    else
        chase_kernel<0><<<blocks, 1, 0, stream>>>(chain, steps, target, result);
    return cudaGetLastError();
}
