/* sendrecv: rank r sends its buffer to rank r+1 and receives rank r-1's (a ring shift,
   as nccl-tests). algbw counts S = count x size, the bytes each rank sends; each link
   carries S once, so busbw = algbw (factor 1). In-place is not checked: sending from
   and receiving into one buffer at once is not defined by NCCL. */
#include "coll.h"

const ls_coll_t ls_coll_sendrecv = {"sendrecv",           LS_LAYOUT_SENDRECV, 0, 0, 0,
                                    ls_coll_counts_whole, ls_coll_factor_one};
