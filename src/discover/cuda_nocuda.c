/* CUDA backend in a build without CUDA: there is no runtime to ask. */
#include "cudadev.h"
#include "util/log.h"

const int ls_cudadev_anchor = 0;

int ls_cudadev_list(ls_cudadev_t *out, int max, char *err, size_t errlen)
{
    (void)out;
    (void)max;
    return ls_seterr(err, errlen, "CUDA: this linkscope was built without CUDA");
}

int ls_cudadev_peer(int a, int b, ls_cudapeer_t *out)
{
    (void)a;
    (void)b;
    (void)out;
    return -1;
}

int ls_cudadev_versions(char *driver, size_t driverlen, char *runtime, size_t runtimelen)
{
    (void)driver;
    (void)driverlen;
    (void)runtime;
    (void)runtimelen;
    return -1;
}
