/* Reads the CUDA error lines of any pasted text (a Python traceback, a program's output, a
   job log) into the document's top-level "cuda_errors" (docs/import.md "CUDA errors",
   docs/schema.md): each distinct error once, with its count, first line and what the
   line names. The forms tools print today:
     RuntimeError: CUDA error: system not yet initialized              (PyTorch)
     torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate ... (GPU 0; ...)
     UserWarning: CUDA initialization: ... Error 802: system not yet initialized
     RuntimeError: No CUDA GPUs are available / Found no NVIDIA driver on your system
     CUDA error at helper_cuda.h:888 code=802(cudaErrorSystemNotReady) "cudaGetDeviceCount(&n)"
     cudaGetDeviceCount returned 802                                    (deviceQuery)
     failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected
     failed call to cuInit: UNKNOWN ERROR (303)                          (TensorFlow)
     CUDARuntimeError: cudaErrorInsufficientDriver: CUDA driver version is ... (CuPy)
   An error is told by its enum name, its code in one of these forms, or its catalog
   string after "CUDA error" (data/cuda-errors.tsv, model/cuda_errors.h): any error of the
   catalog is read in any form. NCCL's WARN "Cuda failure [N] 'STRING'" is read too (the
   CUDA error under NCCL's WARN), and the same words as NCCL's last error a framework
   prints after "Last error:"; NCCL's other lines and nccl-tests' "Cuda failure
   FILE:LINE '...'" are their readers', not read here. */
#ifndef LS_IMPORT_CUDA_ERROR_H
#define LS_IMPORT_CUDA_ERROR_H

#include <jansson.h>
#include <stddef.h>

/* 1 when a line of text names a CUDA error in one of the forms above. */
int ls_cuda_error_detect(const char *text);

/* Appends the text's errors to the document's "cuda_errors" (file name on each): the
   number of distinct errors added, or -1 with err when the text holds none. */
int ls_import_cuda_errors(json_t *doc, const char *text, const char *name, char *err,
                          size_t errlen);

#endif
