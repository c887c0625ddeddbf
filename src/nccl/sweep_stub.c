/* Placeholder until the NCCL harness lands. */
#include "sweep.h"
#include "util/log.h"

json_t *ls_nccl_sweep(const ls_nccl_sweep_opts_t *opts, char *err, size_t errlen)
{
    (void)opts;
    ls_seterr(err, errlen, "NCCL collectives are not built yet");
    return NULL;
}
