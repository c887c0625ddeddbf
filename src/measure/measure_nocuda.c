/* Built without CUDA: the measuring commands say so (exit 3). */
#include "measure.h"
#include "util/log.h"

static int without_cuda(char *err, size_t errlen)
{
    ls_seterr(err, errlen, "built without CUDA: this linkscope cannot measure (install a CUDA "
                           "toolkit and rebuild)");
    return LS_EXIT_NOGPU;
}

int ls_measure_p2p(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen)
{
    (void)doc, (void)o;
    return without_cuda(err, errlen);
}

int ls_measure_latency(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen)
{
    (void)doc, (void)o;
    return without_cuda(err, errlen);
}

int ls_measure_hbm(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen)
{
    (void)doc, (void)o;
    return without_cuda(err, errlen);
}

int ls_measure_host(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen)
{
    (void)doc, (void)o;
    return without_cuda(err, errlen);
}
