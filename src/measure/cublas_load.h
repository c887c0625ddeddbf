/* cuBLAS, loaded with dlopen at run time (as NVML and NCCL are): the binary runs where
   the library is absent, and the burn family falls back to its FMA kernel there.
   LINKSCOPE_CUBLAS names the library file; else libcublas.so.13, .12, .11, then
   libcublas.so on the loader's path. */
#ifndef LS_MEASURE_CUBLAS_LOAD_H
#define LS_MEASURE_CUBLAS_LOAD_H

#include <cuda_runtime_api.h>
#include <stddef.h>

/* Loads once. 0 with the file loaded in lib, or -1 with why not in err. */
int ls_cublas_load(char *lib, size_t liblen, char *err, size_t errlen);

/* A handle on the current device bound to stream; NULL on failure. */
void *ls_cublas_create(cudaStream_t stream);
void ls_cublas_destroy(void *handle);

/* C = A x B, n x n, bf16 inputs and output, FP32 accumulation (the tensor cores' dense
   bf16 path). 0 or the cuBLAS status. */
int ls_cublas_gemm_bf16(void *handle, int n, const void *a, const void *b, void *c);

#endif
