#define _GNU_SOURCE /* pthread_rwlockattr_setkind_np */
#include "harness.h"
#include "figures.h"
#include "gpu.h"
#include "kernels.h"
#include "model/entry.h"
#include "model/topo.h"
#include "util/log.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_rwlock_t spin_lock;
static pthread_once_t spin_once = PTHREAD_ONCE_INIT;

/* Writers first: a memory call waits for the samples under way, not for every sample
   that other threads start after it (spinning sections are never nested). */
static void spin_lock_init(void)
{
    pthread_rwlockattr_t attr;
    pthread_rwlockattr_init(&attr);
#ifdef __GLIBC__
    pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
#endif
    pthread_rwlock_init(&spin_lock, &attr);
    pthread_rwlockattr_destroy(&attr);
}

void ls_spin_enter(void)
{
    pthread_once(&spin_once, spin_lock_init);
    pthread_rwlock_rdlock(&spin_lock);
}

void ls_spin_leave(void)
{
    pthread_rwlock_unlock(&spin_lock);
}

void ls_mem_enter(void)
{
    pthread_once(&spin_once, spin_lock_init);
    pthread_rwlock_wrlock(&spin_lock);
}

void ls_mem_leave(void)
{
    pthread_rwlock_unlock(&spin_lock);
}

cudaError_t ls_host_alloc(void **p, size_t bytes, unsigned flags)
{
    ls_mem_enter();
    cudaError_t rc = cudaHostAlloc(p, bytes, flags);
    ls_mem_leave();
    return rc;
}

void ls_host_free(void *p)
{
    if (!p)
        return;
    ls_mem_enter();
    cudaFreeHost(p);
    ls_mem_leave();
}

cudaError_t ls_host_register(void *p, size_t bytes, unsigned flags)
{
    ls_mem_enter();
    cudaError_t rc = cudaHostRegister(p, bytes, flags);
    ls_mem_leave();
    return rc;
}

void ls_host_unregister(void *p)
{
    ls_mem_enter();
    cudaHostUnregister(p);
    ls_mem_leave();
}

cudaError_t ls_timer_streams_init(ls_timer_t *t, const int *devices, int n, unsigned done_flags)
{
    t->nstreams = n;
    for (int i = 0; i < n; i++) {
        t->device[i] = devices[i];
        LS_CUDA_TRY(cudaSetDevice(devices[i]));
        LS_CUDA_TRY(cudaStreamCreateWithFlags(&t->stream[i], cudaStreamNonBlocking));
        LS_CUDA_TRY(cudaEventCreateWithFlags(&t->done[i], done_flags));
    }
    return cudaSuccess;
}

void ls_timer_streams_free(ls_timer_t *t)
{
    for (int i = 0; i < t->nstreams; i++) {
        cudaSetDevice(t->device[i]);
        if (t->stream[i])
            cudaStreamDestroy(t->stream[i]);
        if (t->done[i])
            cudaEventDestroy(t->done[i]);
    }
    if (t->nstreams)
        cudaSetDevice(t->device[0]);
}

cudaError_t ls_gate_ctl_new(volatile int **ctl)
{
    void *words = NULL;
    LS_CUDA_TRY(ls_host_alloc(&words, 64, cudaHostAllocMapped | cudaHostAllocPortable));
    *ctl = words;
    (*ctl)[0] = (*ctl)[1] = 0;
    return cudaSuccess;
}

cudaError_t ls_timer_init(ls_timer_t *t, const int *devices, int n)
{
    memset(t, 0, sizeof *t);
    t->target_ms = ls_env_int("LS_SAMPLE_MS", (int)LS_SAMPLE_TARGET_MS, 1, 10000);
    LS_CUDA_TRY(ls_timer_streams_init(t, devices, n, cudaEventDefault));
    LS_CUDA_TRY(cudaSetDevice(devices[0]));
    LS_CUDA_TRY(cudaEventCreate(&t->start));
    LS_CUDA_TRY(cudaEventCreate(&t->stop));
    return ls_gate_ctl_new(&t->ctl);
}

void ls_timer_free(ls_timer_t *t)
{
    ls_timer_streams_free(t);
    if (t->start)
        cudaEventDestroy(t->start);
    if (t->stop)
        cudaEventDestroy(t->stop);
    ls_host_free((void *)t->ctl);
    memset(t, 0, sizeof *t);
}

static cudaError_t timer_sample(ls_timer_t *t, ls_enqueue_fn fn, void *arg, int loops, double *ms,
                                int *timed_out);

cudaError_t ls_timer_sample(ls_timer_t *t, ls_enqueue_fn fn, void *arg, int loops, double *ms,
                            int *timed_out)
{
    ls_spin_enter(); /* the gate spins until this thread releases it */
    cudaError_t rc = timer_sample(t, fn, arg, loops, ms, timed_out);
    ls_spin_leave();
    return rc;
}

static cudaError_t timer_sample(ls_timer_t *t, ls_enqueue_fn fn, void *arg, int loops, double *ms,
                                int *timed_out)
{
    t->ctl[0] = 0;
    t->ctl[1] = 0;
    *timed_out = 0;
    LS_CUDA_TRY(cudaSetDevice(t->device[0]));
    LS_CUDA_TRY(ls_k_gate(t->ctl, ls_gate_timeout_ms(), t->stream[0]));
    /* from here the gate runs: every path below releases it and waits for the streams
       (a return that left it spinning would free ctl under it) */
    cudaError_t rc = cudaEventRecord(t->start, t->stream[0]);
    for (int i = 1; i < t->nstreams && rc == cudaSuccess; i++)
        rc = cudaStreamWaitEvent(t->stream[i], t->start, 0);
    if (rc == cudaSuccess)
        rc = fn(arg, t, loops);
    for (int i = 1; i < t->nstreams && rc == cudaSuccess; i++) {
        cudaSetDevice(t->device[i]);
        rc = cudaEventRecord(t->done[i], t->stream[i]);
        if (rc == cudaSuccess)
            rc = cudaStreamWaitEvent(t->stream[0], t->done[i], 0);
    }
    cudaSetDevice(t->device[0]);
    if (rc == cudaSuccess)
        rc = cudaEventRecord(t->stop, t->stream[0]);
    __atomic_store_n(&t->ctl[0], 1, __ATOMIC_SEQ_CST); /* release the gate, whatever happened */
    for (int i = 0; i < t->nstreams; i++) {
        cudaError_t s = cudaStreamSynchronize(t->stream[i]);
        if (rc == cudaSuccess)
            rc = s;
    }
    if (rc != cudaSuccess)
        return rc;
    *timed_out = t->ctl[1] != 0;
    float elapsed = 0;
    LS_CUDA_TRY(cudaEventElapsedTime(&elapsed, t->start, t->stop));
    *ms = elapsed;
    return cudaSuccess;
}

int ls_timer_run(ls_timer_t *t, ls_enqueue_fn fn, void *arg, int max_loops, int n, double *ms,
                 int *loops_out, char *err, size_t errlen)
{
    double one = 0;
    int late = 0;
    cudaError_t rc = ls_timer_sample(t, fn, arg, 1, &one, &late);
    int loops = ls_pick_loops(one, t->target_ms, max_loops);
    double warm;
    if (rc == cudaSuccess && !late)
        rc = ls_timer_sample(t, fn, arg, loops, &warm, &late);
    for (int i = 0; i < n && rc == cudaSuccess && !late; i++)
        rc = ls_timer_sample(t, fn, arg, loops, &ms[i], &late);
    *loops_out = loops;
    if (rc != cudaSuccess) {
        ls_seterr(err, errlen, "%s", cudaGetErrorString(rc));
        return -1;
    }
    if (late) {
        ls_seterr(err, errlen,
                  "the gate kernel timed out after %u ms while work was queued "
                  "(queue full or GPU stalled)",
                  ls_gate_timeout_ms());
        return -2;
    }
    return 0;
}

int ls_peer_enable(int a, int b, cudaError_t *why)
{
    int can = 0;
    cudaError_t rc = cudaDeviceCanAccessPeer(&can, a, b);
    if (rc == cudaSuccess && can && (rc = cudaSetDevice(a)) == cudaSuccess) {
        ls_mem_enter(); /* maps b's memory into a: a memory call (ls_spin_enter) */
        rc = cudaDeviceEnablePeerAccess(b, 0);
        ls_mem_leave();
    }
    if (rc == cudaErrorPeerAccessAlreadyEnabled)
        rc = cudaSuccess;
    cudaGetLastError(); /* every path: the error is returned here, not left pending */
    if (why)
        *why = rc;
    return rc == cudaSuccess && can;
}

void *ls_dev_alloc(int dev, size_t bytes, char *err, size_t errlen)
{
    void *p = NULL;
    cudaError_t rc = cudaSetDevice(dev);
    ls_mem_enter();
    if (rc == cudaSuccess)
        rc = cudaMalloc(&p, bytes);
    ls_mem_leave();
    if (rc != cudaSuccess) {
        ls_seterr(err, errlen, "GPU %d: cannot allocate %zu bytes: %s", dev, bytes,
                  cudaGetErrorString(rc));
        cudaGetLastError(); /* clear a non-sticky allocation error */
        return NULL;
    }
    return p;
}

void ls_dev_free(int dev, void *p)
{
    if (!p)
        return;
    cudaSetDevice(dev);
    ls_mem_enter();
    cudaFree(p);
    ls_mem_leave();
}

int ls_sms(int dev)
{
    int sms = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms < 1)
        sms = 1;
    return sms;
}

cudaError_t ls_fill(int dev, void *buf, size_t bytes, unsigned seed)
{
    LS_CUDA_TRY(cudaSetDevice(dev));
    LS_CUDA_TRY(ls_k_fill(buf, bytes, seed, ls_sms(dev) * 4, 0));
    return cudaDeviceSynchronize();
}

long long ls_count_wrong(int dev, const void *buf, size_t bytes, unsigned seed, unsigned *xor_out)
{
    /* Counters in device memory: atomics on mapped host memory are not dependable
       over PCIe. */
    static unsigned long long *counters[LS_MAX_GPUS];
    if (dev < 0 || dev >= LS_MAX_GPUS || cudaSetDevice(dev) != cudaSuccess)
        return -1;
    if (!counters[dev]) {
        ls_mem_enter();
        cudaError_t rc = cudaMalloc((void **)&counters[dev], 16);
        ls_mem_leave();
        if (rc != cudaSuccess)
            return -1;
    }
    unsigned long long host[2] = {0, 0};
    if (cudaMemset(counters[dev], 0, 16) != cudaSuccess ||
        ls_k_verify(buf, bytes, seed, counters[dev], (unsigned *)(counters[dev] + 1),
                    ls_sms(dev) * 4, 0) != cudaSuccess ||
        cudaMemcpy(host, counters[dev], 16, cudaMemcpyDeviceToHost) != cudaSuccess)
        return -1;
    if (xor_out)
        *xor_out = (unsigned)host[1];
    return (long long)host[0];
}

void ls_entry_cuda_fail(json_t *entry, const char *what, cudaError_t rc)
{
    char line[256];
    snprintf(line, sizeof line, "%s: %s", what, cudaGetErrorString(rc));
    ls_entry_fail(entry, "failed", line);
    cudaGetLastError();
}

unsigned ls_gate_timeout_ms(void)
{
    return (unsigned)ls_env_int("LS_GATE_TIMEOUT_MS", (int)LS_GATE_TIMEOUT_MS, 1, 600000);
}

int ls_env_int(const char *name, int fallback, int lo, int hi)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return fallback;
    int x = atoi(v);
    return x < lo || x > hi ? fallback : x;
}

void ls_sm_grid(int dev, int *grid, int *block)
{
    /* 4 blocks of 256 threads per SM: measured best on H200 for the HBM write and read
       kernels and the peer-reading copy (docs/benchmarks.md, sweep). */
    *block = ls_env_int("LS_SM_THREADS", 256, 32, 1024);
    *grid = ls_sms(dev) * ls_env_int("LS_SM_BLOCKS_PER_SM", 4, 1, 64);
    ls_k_set_variant(ls_env_int("LS_COPY_UNROLL", 4, 2, 12),
                     ls_env_int("LS_COPY_STREAMING", 1, 0, 1));
}
