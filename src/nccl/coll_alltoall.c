/* alltoall: rank r's block s goes to rank s, landing at offset r x count there.
   algbw counts S = count x size x n (each rank's whole send buffer). Of it, (n-1)/n
   leaves the rank (its own block stays), so busbw = algbw x (n-1)/n. In-place alltoall
   is not checked (nccl-tests prints N/A): NCCL does not define it. */
#include "coll.h"

static void counts(uint64_t bytes, size_t type_size, int nranks, uint64_t *send_count,
                   uint64_t *recv_count, uint64_t *count)
{
    *count = bytes / type_size / (uint64_t)nranks;
    *send_count = *recv_count = *count * (uint64_t)nranks;
}

static double factor(int nranks)
{
    return nranks > 0 ? (double)(nranks - 1) / nranks : 0.0;
}

const ls_coll_t ls_coll_alltoall = {"alltoall", LS_LAYOUT_ALLTOALL, 0, 0, 0, counts, factor};
