/* NCCL loaded with dlopen (private to the *_nccl.c files): the few entry points the
   harness calls, typed from nccl.h, and the library's version. */
#ifndef LS_NCCL_LIB_H
#define LS_NCCL_LIB_H

#include <nccl.h>
#include <stddef.h>

typedef struct {
    void *handle;
    int version;          /* NCCL_VERSION_CODE of the library: 22803 */
    char version_str[32]; /* "2.28.3" */
    char path[512];       /* what was opened */
    const char *(*GetErrorString)(ncclResult_t);
    ncclResult_t (*GetUniqueId)(ncclUniqueId *);
    ncclResult_t (*CommInitAll)(ncclComm_t *, int, const int *);
    ncclResult_t (*CommInitRank)(ncclComm_t *, int, ncclUniqueId, int);
    ncclResult_t (*CommDestroy)(ncclComm_t);
    ncclResult_t (*CommAbort)(ncclComm_t);
    ncclResult_t (*CommGetAsyncError)(ncclComm_t, ncclResult_t *);
    ncclResult_t (*AllReduce)(const void *, void *, size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t,
                              cudaStream_t);
    ncclResult_t (*AllGather)(const void *, void *, size_t, ncclDataType_t, ncclComm_t,
                              cudaStream_t);
    ncclResult_t (*ReduceScatter)(const void *, void *, size_t, ncclDataType_t, ncclRedOp_t,
                                  ncclComm_t, cudaStream_t);
    ncclResult_t (*Broadcast)(const void *, void *, size_t, ncclDataType_t, int, ncclComm_t,
                              cudaStream_t);
    ncclResult_t (*Reduce)(const void *, void *, size_t, ncclDataType_t, ncclRedOp_t, int,
                           ncclComm_t, cudaStream_t);
    ncclResult_t (*Send)(const void *, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t);
    ncclResult_t (*Recv)(void *, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t);
    /* Optional: NCCL >= 2.28. Without it alltoall is grouped send/recv. */
    ncclResult_t (*AlltoAll)(const void *, void *, size_t, ncclDataType_t, ncclComm_t,
                             cudaStream_t);
    /* Optional: NCCL >= 2.19. Buffers NCCL can map for P2P without copies (nccl-tests
       allocates with it); without it, cudaMalloc. */
    ncclResult_t (*MemAlloc)(void **, size_t);
    ncclResult_t (*MemFree)(void *);
    ncclResult_t (*GroupStart)(void);
    ncclResult_t (*GroupEnd)(void);
} ls_nccl_lib_t;

/* Loads NCCL once per process (LINKSCOPE_NCCL first, then libnccl.so.2 through the
   loader's search: LD_LIBRARY_PATH, ld.so.cache, system paths). NULL with err naming
   what was tried and how to install it. */
const ls_nccl_lib_t *ls_nccl_lib(char *err, size_t errlen);

#endif
