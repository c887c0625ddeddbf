/* all_reduce: every rank ends with the reduction of all ranks' buffers.
   algbw counts S = count x size. A ring moves 2(n-1)/n x S over each link (n-1 steps of
   reduce-scatter and n-1 of all-gather, S/n each), so busbw = algbw x 2(n-1)/n. */
#include "coll.h"

static double factor(int nranks)
{
    return nranks > 0 ? 2.0 * (nranks - 1) / nranks : 0.0;
}

const ls_coll_t ls_coll_all_reduce =
    {"all_reduce", LS_LAYOUT_ALL_REDUCE, 1, 0, 1, ls_coll_counts_whole, factor};
