/* Built without nccl.h (or without CUDA): the collectives say so; all else works. */
#include "sweep.h"
#include "util/log.h"

#define LS_NO_NCCL_H                                                                               \
    "this linkscope was built without nccl.h: rebuild with NCCL's headers installed "              \
    "(apt install libnccl-dev) and the CUDA toolkit"

json_t *ls_nccl_sweep(const ls_nccl_sweep_opts_t *opts, char *err, size_t errlen)
{
    (void)opts;
    ls_seterr(err, errlen, LS_NO_NCCL_H);
    return NULL;
}

int ls_nccl_probe(char *version, size_t vlen, char *err, size_t errlen)
{
    (void)version;
    (void)vlen;
    return ls_seterr(err, errlen, LS_NO_NCCL_H);
}

void ls_nccl_sweep_finish(void) {}
