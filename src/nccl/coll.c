/* Registry of collectives, size sweep, data types, operators and the data pattern. */
#include "coll.h"
#include "check.h"

#include <math.h>
#include <string.h>

static const ls_coll_t *const all_colls[] = {
    &ls_coll_all_reduce, &ls_coll_all_gather, &ls_coll_reduce_scatter, &ls_coll_alltoall,
    &ls_coll_broadcast,  &ls_coll_reduce,     &ls_coll_sendrecv,
};

void ls_coll_counts_whole(uint64_t bytes, size_t type_size, int nranks, uint64_t *send_count,
                          uint64_t *recv_count, uint64_t *count)
{
    (void)nranks;
    *count = *send_count = *recv_count = bytes / type_size;
}

double ls_coll_factor_one(int nranks)
{
    return nranks > 0 ? 1.0 : 0.0;
}

const ls_coll_t *const *ls_coll_all(int *count)
{
    *count = (int)(sizeof all_colls / sizeof all_colls[0]);
    return all_colls;
}

const ls_coll_t *ls_coll_find(const char *name)
{
    for (size_t i = 0; i < sizeof all_colls / sizeof all_colls[0]; i++)
        if (strcmp(all_colls[i]->name, name) == 0)
            return all_colls[i];
    return NULL;
}

uint64_t ls_coll_bytes(const ls_coll_t *coll, uint64_t count, size_t type_size, int nranks)
{
    switch (coll->layout) {
    case LS_LAYOUT_REDUCE_SCATTER:
    case LS_LAYOUT_ALL_GATHER:
    case LS_LAYOUT_ALLTOALL: return count * type_size * (uint64_t)nranks;
    default: return count * type_size;
    }
}

double ls_coll_algbw(uint64_t bytes, double time_us)
{
    return time_us > 0 ? (double)bytes / (time_us * 1e-6) / 1e9 : 0.0;
}

int ls_coll_sweep_sizes(uint64_t min_bytes, uint64_t max_bytes, double factor, uint64_t step,
                        uint64_t *out, int max_out)
{
    if (min_bytes > max_bytes || (factor <= 1.0 && step == 0) || min_bytes == 0)
        return -1;
    int n = 0;
    for (uint64_t size = min_bytes; size <= max_bytes;) {
        if (out && n < max_out)
            out[n] = size;
        if (++n > LS_COLL_MAX_SIZES)
            break;
        double grown = (double)size * factor;
        if (factor > 1.0 && grown >= 18446744073709551615.0)
            break; /* the next size would not fit in 64 bits */
        uint64_t next = factor > 1.0 ? (uint64_t)grown : size + step;
        if (next <= size) /* overflow or a factor too close to 1 to move */
            break;
        size = next;
    }
    return n;
}

size_t ls_coll_iter_offset(size_t touched, size_t alloc_bytes, int iter)
{
    if (touched == 0 || touched > alloc_bytes || iter <= 0)
        return 0;
    size_t steps = alloc_bytes / touched;
    return touched * ((size_t)iter % steps);
}

/* Exactness bounds: integers up to 2^mantissa_bits are exact in a float type; integer
   types are bounded by their largest positive value. */
static const ls_dtype_t dtypes[] = {
    {"int8", 1, 0, 7, LS_DT_INT8},      {"uint8", 1, 0, 8, LS_DT_UINT8},
    {"int32", 4, 0, 31, LS_DT_INT32},   {"uint32", 4, 0, 32, LS_DT_UINT32},
    {"int64", 8, 0, 63, LS_DT_INT64},   {"uint64", 8, 0, 64, LS_DT_UINT64},
    {"half", 2, 1, 11, LS_DT_HALF},     {"float", 4, 1, 24, LS_DT_FLOAT},
    {"double", 8, 1, 53, LS_DT_DOUBLE}, {"bfloat16", 2, 1, 8, LS_DT_BF16},
};

const ls_dtype_t *ls_dtype_find(const char *name)
{
    static const struct {
        const char *alias, *name;
    } aliases[] = {{"float32", "float"}, {"float16", "half"}, {"float64", "double"},
                   {"bf16", "bfloat16"}, {"fp32", "float"},   {"fp16", "half"}};
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(name, aliases[i].alias) == 0)
            name = aliases[i].name;
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
        if (strcmp(dtypes[i].name, name) == 0)
            return &dtypes[i];
    return NULL;
}

const char *ls_dtype_names(void)
{
    return "int8, uint8, int32, uint32, int64, uint64, half, float, double, bfloat16";
}

static const char *const redops[] = {"sum", "prod", "max", "min", "avg"};

int ls_redop_find(const char *name)
{
    for (int i = 0; i < (int)(sizeof redops / sizeof redops[0]); i++)
        if (strcmp(redops[i], name) == 0)
            return i;
    return -1;
}

const char *ls_redop_name(int op)
{
    return op >= 0 && op < (int)(sizeof redops / sizeof redops[0]) ? redops[op] : "none";
}

static int is_prime(uint32_t n)
{
    if (n < 2)
        return 0;
    for (uint32_t d = 2; d * d <= n; d++)
        if (n % d == 0)
            return 0;
    return 1;
}

uint32_t ls_pattern_modulus(const ls_dtype_t *dtype, int nranks)
{
    /* Largest value v with nranks x v exact in the type, capped so the search is short
       and the period stays prime (an offset by a power of two never aliases). */
    double exact = ldexp(1.0, dtype->mantissa_bits) - 1.0;
    double bound = exact / (nranks > 0 ? nranks : 1);
    uint32_t m = bound > 65521.0 ? 65521u : (uint32_t)bound;
    /* not 3 or 7, the pattern's multipliers: m = 7 would give every element one value,
       m = 3 every rank (bfloat16 on 24 or 64 ranks, half on 256) */
    while (m > 2 && (!is_prime(m) || m == 3 || m == 7))
        m--;
    return m < 2 ? 2 : m;
}

double ls_pattern_value(int op, uint32_t modulus, int rank, uint64_t i)
{
    return ls_pattern_value_dev(op, modulus, rank, i);
}
