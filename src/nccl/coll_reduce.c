/* reduce: the root ends with the reduction of all ranks' buffers (other ranks' receive
   buffers are not defined and not checked). algbw counts S = count x size; a pipelined
   chain moves S over each link once, so busbw = algbw (factor 1). */
#include "coll.h"

const ls_coll_t ls_coll_reduce =
    {"reduce", LS_LAYOUT_REDUCE, 1, 1, 1, ls_coll_counts_whole, ls_coll_factor_one};
