/* Built without CUDA: every family's measure function is this one (family.c), and the
   measuring commands say so (exit 3). */
#include "measure.h"
#include "util/log.h"

int ls_measure_without_cuda(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen)
{
    (void)doc, (void)o;
    ls_seterr(err, errlen,
              "built without CUDA: this linkscope cannot measure (install a CUDA "
              "toolkit and rebuild)");
    return LS_EXIT_NOGPU;
}

int ls_measure_fabric(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen)
{
    return ls_measure_without_cuda(doc, o, err, errlen);
}
