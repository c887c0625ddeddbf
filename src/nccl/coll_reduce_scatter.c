/* reduce_scatter: rank r ends with block r of the reduction of all ranks' buffers.
   algbw counts S = count x size x n (each rank's whole input). Each rank sends the
   (n-1)/n of S that other ranks reduce, so busbw = algbw x (n-1)/n. */
#include "coll.h"

static void counts(uint64_t bytes, size_t type_size, int nranks, uint64_t *send_count,
                   uint64_t *recv_count, uint64_t *count)
{
    *count = *recv_count = bytes / type_size / (uint64_t)nranks;
    *send_count = *count * (uint64_t)nranks;
}

static double factor(int nranks)
{
    return nranks > 0 ? (double)(nranks - 1) / nranks : 0.0;
}

const ls_coll_t ls_coll_reduce_scatter =
    {"reduce_scatter", LS_LAYOUT_REDUCE_SCATTER, 1, 0, 1, counts, factor};
