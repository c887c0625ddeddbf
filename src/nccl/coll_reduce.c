/* reduce: the root ends with the reduction of all ranks' buffers (other ranks' receive
   buffers are not defined and not checked). algbw counts S = count x size; a pipelined
   chain moves S over each link once, so busbw = algbw (factor 1). */
#include "coll.h"

static void counts(uint64_t bytes, size_t type_size, int nranks, uint64_t *send_count,
                   uint64_t *recv_count, uint64_t *count)
{
    (void)nranks;
    *count = *send_count = *recv_count = bytes / type_size;
}

static double factor(int nranks)
{
    return nranks > 0 ? 1.0 : 0.0;
}

const ls_coll_t ls_coll_reduce = {"reduce", LS_LAYOUT_REDUCE, 1, 1, 1, counts, factor};
