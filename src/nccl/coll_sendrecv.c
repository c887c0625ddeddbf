/* sendrecv: rank r sends its buffer to rank r+1 and receives rank r-1's (a ring shift,
   as nccl-tests). algbw counts S = count x size, the bytes each rank sends; each link
   carries S once, so busbw = algbw (factor 1). In-place is not checked: sending from
   and receiving into one buffer at once is not defined by NCCL. */
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

const ls_coll_t ls_coll_sendrecv = {"sendrecv", LS_LAYOUT_SENDRECV, 0, 0, 0, counts, factor};
