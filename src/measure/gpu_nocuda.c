#include "gpu.h"
#include "util/log.h"

int ls_built_with_cuda(void) { return 0; }

int ls_gpu_count(char *err, size_t errlen)
{
    ls_seterr(err, errlen, "no usable GPU: this linkscope was built without CUDA (install a "
                           "CUDA toolkit and rebuild to measure)");
    return 0;
}
