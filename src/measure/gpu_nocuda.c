#include "gpu.h"
#include "util/log.h"

int ls_built_with_cuda(void)
{
    return 0;
}

int ls_gpu_count(char *err, size_t errlen)
{
    ls_seterr(err, errlen,
              "no usable GPU: this linkscope was built without CUDA (install a "
              "CUDA toolkit and rebuild to measure)");
    return 0;
}

uint64_t ls_gpu_memory_bytes(int dev)
{
    (void)dev;
    return 0;
}

int ls_gpu_bus_id(int dev, char *buf, size_t buflen)
{
    (void)dev, (void)buf, (void)buflen;
    return -1;
}
