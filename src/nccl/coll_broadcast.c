/* broadcast: every rank ends with the root's buffer. algbw counts S = count x size;
   a pipelined chain moves S over each link once, so busbw = algbw (factor 1). */
#include "coll.h"

const ls_coll_t ls_coll_broadcast = {"broadcast",          LS_LAYOUT_BROADCAST, 0, 1, 1,
                                     ls_coll_counts_whole, ls_coll_factor_one};
