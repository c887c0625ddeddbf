/* The timing harness shared by the measuring families (CUDA host code only).
   Method (nvbandwidth's): a gate kernel spins on a host-mapped flag; the start event,
   the operations and the stop event are queued behind it on one or more streams (the
   other streams wait on the start event), then the host releases the flag, so that
   launch and queueing costs stay out of the timed span. */
#ifndef LS_MEASURE_HARNESS_H
#define LS_MEASURE_HARNESS_H

#include <cuda_runtime_api.h>
#include <jansson.h>
#include <stddef.h>

#include "sample/telemetry.h"

#define LS_MAX_STREAMS 8 /* the fabric step writes to up to 8 peers at once per GPU */
#define LS_GATE_TIMEOUT_MS 20000u

/* The gate's bound in ms: LS_GATE_TIMEOUT_MS, or the environment's LS_GATE_TIMEOUT_MS
   (1 - 600000). Under compute-sanitizer every kernel launch waits for the kernels before
   it, so the launch queued behind the gate waits out the whole bound: a short one keeps
   a sanitizer pass within its time (scripts/device-sanitize.sh); the figures then come
   out "timeout", their kernels still run once. */
unsigned ls_gate_timeout_ms(void);
#define LS_SAMPLE_TARGET_MS 10.0 /* each timed sample lasts about this long */

/* In a function returning cudaError_t: return the error of call when it failed. */
#define LS_CUDA_TRY(call)                                                                          \
    do {                                                                                           \
        cudaError_t rc_ = (call);                                                                  \
        if (rc_ != cudaSuccess)                                                                    \
            return rc_;                                                                            \
    } while (0)

typedef struct {
    double target_ms; /* a timed sample lasts about this long */
    int nstreams;
    int device[LS_MAX_STREAMS];
    cudaStream_t stream[LS_MAX_STREAMS];
    cudaEvent_t start, stop;          /* on device[0] */
    cudaEvent_t done[LS_MAX_STREAMS]; /* end of each other stream */
    volatile int *ctl;                /* host-mapped: [0] release, [1] gate timed out */
} ls_timer_t;

/* Enqueues loops operations on the timer's streams; returns a CUDA status. */
typedef cudaError_t (*ls_enqueue_fn)(void *arg, const ls_timer_t *t, int loops);

/* Creates streams on the given devices (stream 0 carries the gate and the events). */
cudaError_t ls_timer_init(ls_timer_t *t, const int *devices, int n);
void ls_timer_free(ls_timer_t *t);

/* The parts ls_timer_init and the round timer (rtimer.h) share: a stream and a done
   event per device (done_flags: cudaEventCreateWithFlags' flags), their release, and
   the gate's control words (host-mapped and portable, so any device's gate reads them;
   zeroed). */
cudaError_t ls_timer_streams_init(ls_timer_t *t, const int *devices, int n, unsigned done_flags);
void ls_timer_streams_free(ls_timer_t *t);
cudaError_t ls_gate_ctl_new(volatile int **ctl);

/* One gated sample: ms = time from the start event to the last stream's end.
   Returns cudaSuccess, or an error; *timed_out = 1 when the gate gave up waiting. */
cudaError_t ls_timer_sample(ls_timer_t *t, ls_enqueue_fn fn, void *arg, int loops, double *ms,
                            int *timed_out);

/* Warm-up (two gated samples: one operation, then the loop count picked so a sample
   lasts about LS_SAMPLE_TARGET_MS, at most max_loops), then n timed samples into
   ms[n]. *loops_out gets the loop count used. On failure fills err and returns -1,
   or -2 for a gate time-out. */
int ls_timer_run(ls_timer_t *t, ls_enqueue_fn fn, void *arg, int max_loops, int n, double *ms,
                 int *loops_out, char *err, size_t errlen);

/* Peer access from a to b (a's kernels and copy engines reach b's memory): 1 when a can
   reach b after the call (enabled now or already), 0 when not (*why, when given, gets
   the error; cudaSuccess where the pair has no P2P). Whatever happened, the calling
   thread's last error is left clear: cudaDeviceEnablePeerAccess's error stays pending
   otherwise and fails the next kernel launch (which returns cudaGetLastError). */
int ls_peer_enable(int a, int b, cudaError_t *why);

/* Threads measuring at once (latency pairs, host batches): a kernel that spins until
   this thread acts (the gate, until the release; the ping-pong, until the second GPU's
   kernel is launched) must not meet a memory call of another thread that synchronizes
   the GPUs (cudaFree, cudaFreeHost, cudaHostRegister/Unregister, peer access switched):
   that call waits for the spinning kernel while holding the driver's lock, and the
   launch or release it waits for never comes (the known cudaFree-beside-NCCL hang)
   until the kernel's own time-out. Spinning sections share a lock that memory calls
   take alone. A thread holding ls_spin_enter must not make a memory call. */
void ls_spin_enter(void);
void ls_spin_leave(void);
void ls_mem_enter(void);
void ls_mem_leave(void);
/* cudaHostAlloc, cudaFreeHost, cudaHostRegister, cudaHostUnregister under ls_mem_enter. */
cudaError_t ls_host_alloc(void **p, size_t bytes, unsigned flags);
void ls_host_free(void *p);
cudaError_t ls_host_register(void *p, size_t bytes, unsigned flags);
void ls_host_unregister(void *p);

/* Device buffers and checking (ls_dev_alloc, ls_dev_free under ls_mem_enter). */
void *ls_dev_alloc(int dev, size_t bytes, char *err, size_t errlen);
void ls_dev_free(int dev, void *p);
int ls_sms(int dev);
/* Fills buf (on dev) with the pattern of seed; synchronizes. */
cudaError_t ls_fill(int dev, void *buf, size_t bytes, unsigned seed);
/* Wrong words of buf (on dev, or readable from dev) against the pattern of seed, and the
   XOR of all its words; -1 on a CUDA error. */
long long ls_count_wrong(int dev, const void *buf, size_t bytes, unsigned seed, unsigned *xor_out);

/* Records a CUDA failure in entry: status failed, error "WHAT: cuda message". */
void ls_entry_cuda_fail(json_t *entry, const char *what, cudaError_t rc);

/* Tuning knobs for the copy kernels, from the environment (LS_SM_BLOCKS_PER_SM,
   LS_SM_THREADS): grid = SMs x blocks per SM; LS_COPY_UNROLL, LS_COPY_STREAMING set the
   kernel variant (ls_k_set_variant). */
void ls_sm_grid(int dev, int *grid, int *block);

/* An integer tuning knob from the environment, fallback when unset or out of range. */
int ls_env_int(const char *name, int fallback, int lo, int hi);

#endif
