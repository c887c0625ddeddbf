/* all_gather: every rank ends with all ranks' blocks, rank s's at offset s x count.
   algbw counts S = count x size x n (the whole result). Each rank must receive the
   (n-1)/n of S it does not hold, so busbw = algbw x (n-1)/n. */
#include "coll.h"

static void counts(uint64_t bytes, size_t type_size, int nranks, uint64_t *send_count,
                   uint64_t *recv_count, uint64_t *count)
{
    *count = *send_count = bytes / type_size / (uint64_t)nranks;
    *recv_count = *count * (uint64_t)nranks;
}

static double factor(int nranks)
{
    return nranks > 0 ? (double)(nranks - 1) / nranks : 0.0;
}

const ls_coll_t ls_coll_all_gather = {"all_gather", LS_LAYOUT_ALL_GATHER, 0, 0, 1, counts, factor};
