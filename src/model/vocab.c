#include "vocab.h"

#include <stddef.h>

const char *const ls_p2p_methods[] = {LS_P2P_CE, LS_P2P_SM_WRITE, LS_P2P_SM_READ, LS_P2P_STAGED,
                                      NULL};
const char *const ls_latency_methods[] = {LS_LAT_GPU_PINGPONG, LS_LAT_POINTER_CHASE,
                                          LS_LAT_GPU_COPY, LS_LAT_CPU_COPY, NULL};
const char *const ls_hbm_methods[] = {LS_HBM_READ, LS_HBM_WRITE, LS_HBM_COPY, LS_HBM_COPY_CE, NULL};
