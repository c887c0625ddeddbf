/* The collectives linkscope measures, nccl-tests' model: each collective is one short
   file (coll_<name>.c) that fills an ls_coll_t: how many elements each rank sends and
   receives for a given size, the bus-bandwidth factor, and how its result is laid out
   (which the device-side data init and check read). The harness does the rest.
   Host-only: no CUDA, no NCCL here, so every formula is tested on any machine. */
#ifndef LS_NCCL_COLL_H
#define LS_NCCL_COLL_H

#include <stddef.h>
#include <stdint.h>

/* How a receive buffer is made from the send buffers (see pattern in coll.c). */
enum ls_coll_layout {
    LS_LAYOUT_ALL_REDUCE,     /* recv[k] = op over ranks of send_r[k] */
    LS_LAYOUT_REDUCE,         /* like all_reduce, only on the root */
    LS_LAYOUT_REDUCE_SCATTER, /* recv_r[k] = op over ranks s of send_s[r*count + k] */
    LS_LAYOUT_ALL_GATHER,     /* recv[s*count + k] = send_s[k] */
    LS_LAYOUT_ALLTOALL,       /* recv_r[s*count + k] = send_s[r*count + k] */
    LS_LAYOUT_BROADCAST,      /* recv[k] = send_root[k] */
    LS_LAYOUT_SENDRECV        /* recv_r[k] = send_{r-1}[k] (ring: r sends to r+1) */
};

typedef struct {
    const char *name; /* "all_reduce", as nccl-tests' binary without _perf */
    enum ls_coll_layout layout;
    int has_redop;        /* prints/uses the reduction operator */
    int has_root;         /* prints/uses the root (-1 in the table otherwise) */
    int in_place_checked; /* 0: in-place result undefined by NCCL's contract (N/A) */
    /* -b/-e size (bytes, as the table's size column) -> element counts per rank.
       count is the table's count column (nccl-tests' "paramcount"). */
    void (*counts)(uint64_t bytes, size_t type_size, int nranks, uint64_t *send_count,
                   uint64_t *recv_count, uint64_t *count);
    /* bus bandwidth = algbw x factor (nccl-tests doc/PERFORMANCE.md, docs/nccl.md) */
    double (*busbw_factor)(int nranks);
} ls_coll_t;

extern const ls_coll_t ls_coll_all_reduce, ls_coll_all_gather, ls_coll_reduce_scatter,
    ls_coll_alltoall, ls_coll_broadcast, ls_coll_reduce, ls_coll_sendrecv;

/* The counts of a collective whose every rank sends and receives the whole message
   (count = bytes / type_size: all_reduce, broadcast, reduce, sendrecv). */
void ls_coll_counts_whole(uint64_t bytes, size_t type_size, int nranks, uint64_t *send_count,
                          uint64_t *recv_count, uint64_t *count);
/* The bus-bandwidth factor of a collective that carries the message once over each link
   (broadcast, reduce, sendrecv): 1 (0 without ranks). */
double ls_coll_factor_one(int nranks);

/* By name; NULL when unknown. */
const ls_coll_t *ls_coll_find(const char *name);
/* All seven, in nccl-tests' order of the first four then the rest. */
const ls_coll_t *const *ls_coll_all(int *count);

/* Table size column (bytes) for a count: what nccl-tests prints after rounding. */
uint64_t ls_coll_bytes(const ls_coll_t *coll, uint64_t count, size_t type_size, int nranks);

/* algbw (GB/s = 1e9 B/s) of `bytes` moved in time_us. */
double ls_coll_algbw(uint64_t bytes, double time_us);

/* The size sweep, nccl-tests' way: min, then x factor (factor > 1) or + step, up to
   max inclusive. Returns how many sizes (at most max_out are stored; call with NULL to
   count), or -1 when the arguments make no sweep (min > max, factor <= 1 with step 0).
   Counting stops at LS_COLL_MAX_SIZES + 1: a larger result means "too many" (-b 1
   -e 1T -i 1 would count for minutes and overflow the int). */
#define LS_COLL_MAX_SIZES 100000
int ls_coll_sweep_sizes(uint64_t min_bytes, uint64_t max_bytes, double factor, uint64_t step,
                        uint64_t *out, int max_out);

/* Offset of iteration `iter` in buffers of alloc_bytes when one call touches `touched`
   bytes: nccl-tests moves each iteration to the next free stretch (touched x (iter mod
   alloc/touched)) so that small sizes are not served from a warm L2. Always
   offset + touched <= alloc_bytes when touched <= alloc_bytes. */
size_t ls_coll_iter_offset(size_t touched, size_t alloc_bytes, int iter);

/* Data types and reduction operators, nccl-tests' names. */
typedef struct {
    const char *name;  /* "float" */
    size_t size;       /* bytes per element */
    int is_float;      /* floating point (exactness bound below) */
    int mantissa_bits; /* integers up to 2^bits are exact (float 24, half 11, bf16 8) */
    int code;          /* ls_dtype code shared with the device kernels (check.h) */
} ls_dtype_t;

const ls_dtype_t *ls_dtype_find(const char *name);
const char *ls_dtype_names(void); /* "int8, uint8, ..." for error lines */

enum ls_redop { LS_OP_SUM, LS_OP_PROD, LS_OP_MAX, LS_OP_MIN, LS_OP_AVG };
int ls_redop_find(const char *name); /* -1 when unknown */
const char *ls_redop_name(int op);

/* The data pattern (docs/nccl.md "Correctness"): the value rank r puts at element i of
   its send buffer, chosen so that a wrong rank, a wrong offset or a wrong operator
   gives a different result, and every sum stays exactly representable in the type.
   modulus: a prime such that nranks x modulus fits the type's exact integers. */
uint32_t ls_pattern_modulus(const ls_dtype_t *dtype, int nranks);
double ls_pattern_value(int op, uint32_t modulus, int rank, uint64_t i);

#endif
