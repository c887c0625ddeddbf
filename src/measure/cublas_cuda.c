#include "cublas_load.h"
#include "util/log.h"

#include <cublas_api.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

typedef cublasStatus_t (*create_fn)(cublasHandle_t *);
typedef cublasStatus_t (*destroy_fn)(cublasHandle_t);
typedef cublasStatus_t (*stream_fn)(cublasHandle_t, cudaStream_t);
typedef cublasStatus_t (*gemm_fn)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                  int, const void *, const void *, cudaDataType, int, const void *,
                                  cudaDataType, int, const void *, void *, cudaDataType, int,
                                  cublasComputeType_t, cublasGemmAlgo_t);

static struct {
    int state; /* 0 not tried, 1 loaded, -1 absent */
    char lib[200], why[320];
    create_fn create;
    destroy_fn destroy;
    stream_fn set_stream;
    gemm_fn gemm;
} cb;
static pthread_mutex_t cb_once = PTHREAD_MUTEX_INITIALIZER;

static void *open_any(void)
{
    static const char *const names[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so.11",
                                        "libcublas.so"};
    const char *env = getenv("LINKSCOPE_CUBLAS");
    if (env && *env) {
        snprintf(cb.lib, sizeof cb.lib, "%s", env);
        return dlopen(env, RTLD_NOW | RTLD_LOCAL);
    }
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (h) {
            snprintf(cb.lib, sizeof cb.lib, "%s", names[i]);
            return h;
        }
    }
    snprintf(cb.lib, sizeof cb.lib, "libcublas.so.13");
    return NULL;
}

static void load_once(void)
{
    void *h = open_any();
    if (!h) {
        snprintf(cb.why, sizeof cb.why, "cuBLAS not found (%s; set LINKSCOPE_CUBLAS to its file)",
                 dlerror());
        cb.state = -1;
        return;
    }
    cb.create = (create_fn)dlsym(h, "cublasCreate_v2");
    cb.destroy = (destroy_fn)dlsym(h, "cublasDestroy_v2");
    cb.set_stream = (stream_fn)dlsym(h, "cublasSetStream_v2");
    cb.gemm = (gemm_fn)dlsym(h, "cublasGemmEx");
    if (!cb.create || !cb.destroy || !cb.set_stream || !cb.gemm) {
        snprintf(cb.why, sizeof cb.why, "%s lacks cublasGemmEx or cublasCreate_v2", cb.lib);
        cb.state = -1;
        return;
    }
    cb.state = 1;
}

int ls_cublas_load(char *lib, size_t liblen, char *err, size_t errlen)
{
    pthread_mutex_lock(&cb_once);
    if (cb.state == 0)
        load_once();
    pthread_mutex_unlock(&cb_once);
    if (cb.state < 0) {
        ls_seterr(err, errlen, "%s", cb.why);
        return -1;
    }
    if (lib && liblen)
        snprintf(lib, liblen, "%s", cb.lib);
    return 0;
}

void *ls_cublas_create(cudaStream_t stream)
{
    cublasHandle_t h = NULL;
    if (cb.state != 1 || cb.create(&h) != CUBLAS_STATUS_SUCCESS)
        return NULL;
    if (cb.set_stream(h, stream) != CUBLAS_STATUS_SUCCESS) {
        cb.destroy(h);
        return NULL;
    }
    return h;
}

void ls_cublas_destroy(void *handle)
{
    if (handle && cb.state == 1)
        cb.destroy((cublasHandle_t)handle);
}

int ls_cublas_gemm_bf16(void *handle, int n, const void *a, const void *b, void *c)
{
    const float alpha = 1.0f, beta = 0.0f;
    return (int)cb.gemm((cublasHandle_t)handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a,
                        CUDA_R_16BF, n, b, CUDA_R_16BF, n, &beta, c, CUDA_R_16BF, n,
                        CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}
