/* Data init and result check of the collectives on the device: every element of every
   receive buffer is compared with its expected value, computed from the same pattern
   (check.h), and wrong elements are counted on the device (nccl-tests' #wrong). */
#include "check.h"
#include "coll.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

/* One block per SM x 8 keeps HBM busy for these streaming kernels on any GPU. */
#define LS_THREADS 256
#define LS_BLOCKS 1056

static __device__ double load_as_double(const void *buf, int dtype, uint64_t i)
{
    switch (dtype) {
    case LS_DT_INT8: return ((const int8_t *)buf)[i];
    case LS_DT_UINT8: return ((const uint8_t *)buf)[i];
    case LS_DT_INT32: return ((const int32_t *)buf)[i];
    case LS_DT_UINT32: return ((const uint32_t *)buf)[i];
    case LS_DT_INT64: return (double)((const int64_t *)buf)[i];
    case LS_DT_UINT64: return (double)((const uint64_t *)buf)[i];
    case LS_DT_HALF: return __half2float(((const __half *)buf)[i]);
    case LS_DT_FLOAT: return ((const float *)buf)[i];
    case LS_DT_DOUBLE: return ((const double *)buf)[i];
    default: return __bfloat162float(((const __nv_bfloat16 *)buf)[i]);
    }
}

static __device__ void store_double(void *buf, int dtype, uint64_t i, double v)
{
    switch (dtype) {
    case LS_DT_INT8: ((int8_t *)buf)[i] = (int8_t)v; break;
    case LS_DT_UINT8: ((uint8_t *)buf)[i] = (uint8_t)v; break;
    case LS_DT_INT32: ((int32_t *)buf)[i] = (int32_t)v; break;
    case LS_DT_UINT32: ((uint32_t *)buf)[i] = (uint32_t)v; break;
    case LS_DT_INT64: ((int64_t *)buf)[i] = (int64_t)v; break;
    case LS_DT_UINT64: ((uint64_t *)buf)[i] = (uint64_t)v; break;
    case LS_DT_HALF: ((__half *)buf)[i] = __float2half((float)v); break;
    case LS_DT_FLOAT: ((float *)buf)[i] = (float)v; break;
    case LS_DT_DOUBLE: ((double *)buf)[i] = v; break;
    default: ((__nv_bfloat16 *)buf)[i] = __float2bfloat16((float)v); break;
    }
}

static __device__ double value(const ls_check_t *c, int rank, uint64_t i)
{
    double v = ls_pattern_value_dev(c->op, c->modulus, rank, i);
    return c->int_prod && v < 1.0 ? 1.0 : v;
}

static __device__ double reduce_all(const ls_check_t *c, uint64_t i)
{
    double acc = value(c, 0, i);
    for (int s = 1; s < c->nranks; s++) {
        double v = value(c, s, i);
        switch (c->op) {
        case LS_OP_PROD: acc *= v; break;
        case LS_OP_MAX: acc = v > acc ? v : acc; break;
        case LS_OP_MIN: acc = v < acc ? v : acc; break;
        default: acc += v; break;
        }
    }
    return c->op == LS_OP_AVG ? acc / c->nranks : acc;
}

static __device__ double expected(const ls_check_t *c, uint64_t k)
{
    uint64_t cnt = c->count ? c->count : 1;
    switch (c->layout) {
    case LS_LAYOUT_ALL_REDUCE:
    case LS_LAYOUT_REDUCE: return reduce_all(c, k);
    case LS_LAYOUT_REDUCE_SCATTER: return reduce_all(c, (uint64_t)c->rank * cnt + k);
    case LS_LAYOUT_ALL_GATHER: return value(c, (int)(k / cnt), k % cnt);
    case LS_LAYOUT_ALLTOALL: return value(c, (int)(k / cnt), (uint64_t)c->rank * cnt + k % cnt);
    case LS_LAYOUT_BROADCAST: return value(c, c->root, k);
    default: return value(c, (c->rank + c->nranks - 1) % c->nranks, k);
    }
}

/* avg is the one inexact result (a division, or NCCL's pre-multiplication by 1/n):
   allow the rounding of the type; everything else must match bit for bit. */
static __device__ int matches(const ls_check_t *c, double got, double want)
{
    if (c->op != LS_OP_AVG)
        return got == want;
    double tol = c->dtype == LS_DT_HALF || c->dtype == LS_DT_BF16 ? 1e-2 : 1e-5;
    if (c->dtype <= LS_DT_UINT64)
        tol = 1.0 / fabs(want > 1.0 ? want : 1.0); /* integer avg truncates */
    return fabs(got - want) <= tol * fabs(want);
}

static __global__ void init_kernel(ls_check_t c, void *buf, uint64_t first, uint64_t n)
{
    for (uint64_t j = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; j < n;
         j += (uint64_t)gridDim.x * blockDim.x)
        store_double(buf, c.dtype, j, value(&c, c.rank, first + j));
}

static __global__ void verify_kernel(ls_check_t c, const void *recv, uint64_t n,
                                     unsigned long long *wrong)
{
    unsigned long long mine = 0;
    for (uint64_t k = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; k < n;
         k += (uint64_t)gridDim.x * blockDim.x) {
        /* Compare in the element type: the expected value is stored and read back. */
        double want = expected(&c, k);
        double got = load_as_double(recv, c.dtype, k);
        if (c.op != LS_OP_AVG) {
            if (c.dtype == LS_DT_HALF)
                want = __half2float(__float2half((float)want));
            else if (c.dtype == LS_DT_BF16)
                want = __bfloat162float(__float2bfloat16((float)want));
            else if (c.dtype == LS_DT_FLOAT)
                want = (float)want;
        }
        if (!matches(&c, got, want))
            mine++;
    }
    if (mine)
        atomicAdd(wrong, mine);
}

static int blocks_for(uint64_t n)
{
    uint64_t b = (n + LS_THREADS - 1) / LS_THREADS;
    return b < 1 ? 1 : b > LS_BLOCKS ? LS_BLOCKS : (int)b;
}

extern "C" int ls_check_init(const ls_check_t *c, void *buf, uint64_t first, uint64_t n,
                             void *stream)
{
    if (n == 0)
        return 0;
    init_kernel<<<blocks_for(n), LS_THREADS, 0, (cudaStream_t)stream>>>(*c, buf, first, n);
    return (int)cudaGetLastError();
}

extern "C" int ls_check_poison(const ls_check_t *c, void *buf, uint64_t n, void *stream)
{
    static const size_t sizes[] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2};
    /* Zero: no pattern value and no exact sum or product of them is 0. */
    return (int)cudaMemsetAsync(buf, 0, n * sizes[c->dtype], (cudaStream_t)stream);
}

extern "C" int ls_check_verify(const ls_check_t *c, const void *recv, uint64_t n,
                               unsigned long long *wrong_dev, void *stream)
{
    if (n == 0)
        return 0;
    verify_kernel<<<blocks_for(n), LS_THREADS, 0, (cudaStream_t)stream>>>(*c, recv, n, wrong_dev);
    return (int)cudaGetLastError();
}
