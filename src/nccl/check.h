/* Device-side data init and result check for the collectives (check.cu), with the
   pattern formula shared by host and device so host tests pin it down. */
#ifndef LS_NCCL_CHECK_H
#define LS_NCCL_CHECK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define LS_HD __host__ __device__
#else
#define LS_HD
#endif

enum ls_dtype_code {
    LS_DT_INT8,
    LS_DT_UINT8,
    LS_DT_INT32,
    LS_DT_UINT32,
    LS_DT_INT64,
    LS_DT_UINT64,
    LS_DT_HALF,
    LS_DT_FLOAT,
    LS_DT_DOUBLE,
    LS_DT_BF16
};

/* Rank r's send element i: sum/max/min/avg use 1 + ((7 i + 3 r + 1) mod m), distinct
   per rank (m prime > nranks, m != 3) and per element (period m, prime, m != 7, so no
   power-of-two offset aliases), with nranks x m exact in the type; prod uses 2^e,
   e = ((i mod m) + r + 1) mod 3 - 1 in {-1,0,1}: exact products, and neighbouring
   ranks differ at every element. The op code is enum ls_redop (coll.h): 1 = prod. */
static inline LS_HD double ls_pattern_value_dev(int op, uint32_t modulus, int rank, uint64_t i)
{
    uint64_t k = (i % modulus) * 7u + (uint64_t)rank * 3u + 1u;
    if (op == 1) {
        /* k + r, not k: 3r vanishes mod 3, which gave every rank the same factor */
        int e = (int)((k + (uint64_t)rank) % 3u) - 1;
        return e < 0 ? 0.5 : e > 0 ? 2.0 : 1.0;
    }
    return (double)(1u + k % modulus);
}

/* What a check needs to know to compute the expected value of every element. */
typedef struct {
    int layout;   /* enum ls_coll_layout */
    int dtype;    /* enum ls_dtype_code */
    int op;       /* enum ls_redop */
    int int_prod; /* prod on an integer type: {1,2} instead of {1/2,1,2} */
    uint32_t modulus;
    int rank, nranks, root;
    uint64_t count; /* the table's count (per-rank block for blocked layouts) */
} ls_check_t;

#ifdef __cplusplus
extern "C" {
#endif
/* Fills n elements of rank's buffer at buf with its send pattern starting at element
   first (stream-ordered on the current device). Returns 0 or a CUDA error code. */
int ls_check_init(const ls_check_t *c, void *buf, uint64_t first, uint64_t n, void *stream);
/* Fills n elements with a value no pattern produces (so stale data is seen). */
int ls_check_poison(const ls_check_t *c, void *buf, uint64_t n, void *stream);
/* Counts wrong elements of rank's receive buffer (n elements) into *wrong_dev (a device
   unsigned long long, added to). */
int ls_check_verify(const ls_check_t *c, const void *recv, uint64_t n,
                    unsigned long long *wrong_dev, void *stream);
#ifdef __cplusplus
}
#endif

#endif
