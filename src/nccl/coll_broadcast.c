/* broadcast: every rank ends with the root's buffer. algbw counts S = count x size;
   a pipelined chain moves S over each link once, so busbw = algbw (factor 1). */
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

const ls_coll_t ls_coll_broadcast = {"broadcast", LS_LAYOUT_BROADCAST, 0, 1, 1, counts, factor};
