/* The collective harness, nccl-tests' way: one process drives the listed GPUs with
   group calls (ncclCommInitAll), or one GPU per MPI rank (ncclCommInitRank with the
   unique id broadcast over MPI). Per size: data init, warmup, a host timer around
   `iters` back-to-back launches and one wait, then a separate run whose result is
   checked on the device. A watchdog aborts a collective that does not finish. */
#include "capture.h"
#include "sample/telemetry.h"
#include "check.h"
#include "coll.h"
#include "hangguard.h"
#include "mpirt.h"
#include "nccl_lib.h"
#include "placement.h"
#include "sweep.h"
#include "table.h"
#include "model/translog.h"
#include "model/doc.h"
#include "model/nic_view.h"
#include "model/entry.h"
#include "model/vocab.h"
#include "util/log.h"

#include <cuda_runtime.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>

#define LS_NCCL_MAX_LOCAL 64

typedef struct {
    int valid;
    int mpi;
    int n;             /* GPUs driven by this process */
    int nranks, rank0; /* communicator size, global rank of local GPU 0 */
    int dev[LS_NCCL_MAX_LOCAL];
    ncclComm_t comm[LS_NCCL_MAX_LOCAL];
    cudaStream_t stream[LS_NCCL_MAX_LOCAL];
    unsigned long long *wrong[LS_NCCL_MAX_LOCAL];
    long log_offset; /* capture position before the communicators were made */
} ctx_t;

static ctx_t ctx;

typedef struct {
    const ls_nccl_lib_t *lib;
    const ls_coll_t *coll;
    const ls_dtype_t *dtype;
    const ls_nccl_sweep_opts_t *opts;
    int op;
    void *send[LS_NCCL_MAX_LOCAL], *recv[LS_NCCL_MAX_LOCAL];
    uint64_t count, send_count, recv_count;
    int in_place;
    int hang_once;      /* test hook: leave the last GPU out of one launch */
    size_t alloc_bytes; /* each buffer's size (the largest size's need) */
    int iter;           /* iteration: picks the buffer offset (see buffers()) */
    int threads;        /* opts->threads, or LINKSCOPE_NCCL_LAUNCH=threads|group */
} run_t;

enum { WAIT_OK = 0, WAIT_ERROR = -1, WAIT_TIMEOUT = -2 };

/* The last-resort guard (hangguard.h) fires after the collective watchdog's bound plus
   this margin without progress. */
#define LS_HANG_MARGIN_S 30.0

static void heartbeat(const char *what)
{
    ls_hang_guard_beat(what);
}

static void heartbeat_start(double timeout_s, const char *what)
{
    ls_hang_guard_arm((timeout_s > 0 ? timeout_s : 300.0) + LS_HANG_MARGIN_S, what);
}

static void heartbeat_stop(void)
{
    ls_hang_guard_disarm();
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static ncclDataType_t nccl_type(int code)
{
    switch (code) {
    case LS_DT_INT8: return ncclInt8;
    case LS_DT_UINT8: return ncclUint8;
    case LS_DT_INT32: return ncclInt32;
    case LS_DT_UINT32: return ncclUint32;
    case LS_DT_INT64: return ncclInt64;
    case LS_DT_UINT64: return ncclUint64;
    case LS_DT_HALF: return ncclFloat16;
    case LS_DT_DOUBLE: return ncclFloat64;
    case LS_DT_BF16: return ncclBfloat16;
    default: return ncclFloat32;
    }
}

static ncclRedOp_t nccl_op(int op)
{
    static const ncclRedOp_t ops[] = {ncclSum, ncclProd, ncclMax, ncclMin, ncclAvg};
    return ops[op];
}

/* Communicators ------------------------------------------------------------------ */

static void ctx_release(int abort)
{
    const ls_nccl_lib_t *lib = ls_nccl_lib(NULL, 0);
    for (int i = 0; i < ctx.n; i++) {
        if (ctx.comm[i] && lib)
            (abort ? lib->CommAbort : lib->CommDestroy)(ctx.comm[i]);
        ctx.comm[i] = NULL;
        cudaSetDevice(ctx.dev[i]);
        if (ctx.wrong[i])
            cudaFree(ctx.wrong[i]);
        if (ctx.stream[i])
            cudaStreamDestroy(ctx.stream[i]);
        ctx.wrong[i] = NULL;
        ctx.stream[i] = NULL;
    }
    ctx.valid = 0;
}

static void abort_comms(void)
{
    const ls_nccl_lib_t *lib = ls_nccl_lib(NULL, 0);
    for (int i = 0; i < ctx.n; i++) {
        if (ctx.comm[i] && lib)
            lib->CommAbort(ctx.comm[i]);
        ctx.comm[i] = NULL;
    }
}

void ls_nccl_sweep_finish(void)
{
    if (ctx.valid)
        ctx_release(0);
}

static int same_gpus(const int *dev, int n, int mpi)
{
    if (!ctx.valid || ctx.n != n || ctx.mpi != mpi)
        return 0;
    for (int i = 0; i < n; i++)
        if (ctx.dev[i] != dev[i])
            return 0;
    return 1;
}

static int make_comms(const ls_nccl_lib_t *lib, const int *dev, int n, int mpi, char *err,
                      size_t errlen)
{
    ctx.log_offset = ls_nccl_capture_offset();
    ctx.mpi = mpi;
    ctx.n = n;
    memcpy(ctx.dev, dev, sizeof(int) * (size_t)n);
    ncclResult_t rc;
    if (mpi) {
        /* The id travels with rank 0's success, so that a rank 0 that could not make one
           does not leave the other ranks waiting in the broadcast. */
        struct {
            ncclUniqueId id;
            int ok;
        } msg;
        memset(&msg, 0, sizeof msg);
        rc = ncclSuccess;
        if (ls_mpi_rank() == 0)
            msg.ok = (rc = lib->GetUniqueId(&msg.id)) == ncclSuccess;
        if (ls_mpi_bcast(&msg, sizeof msg, 0) != 0)
            return ls_seterr(err, errlen, "MPI: broadcasting the NCCL unique id failed");
        if (!msg.ok)
            return ls_seterr(err, errlen, "ncclGetUniqueId failed on rank 0%s%s",
                             rc != ncclSuccess ? ": " : "",
                             rc != ncclSuccess ? lib->GetErrorString(rc) : "");
        ncclUniqueId id = msg.id;
        ctx.nranks = ls_mpi_size();
        ctx.rank0 = ls_mpi_rank();
        if (cudaSetDevice(dev[0]) != cudaSuccess)
            return ls_seterr(err, errlen, "GPU %d: cannot be selected", dev[0]);
        rc = lib->CommInitRank(&ctx.comm[0], ctx.nranks, id, ctx.rank0);
    } else {
        ctx.nranks = n;
        ctx.rank0 = 0;
        rc = lib->CommInitAll(ctx.comm, n, dev);
    }
    if (rc != ncclSuccess) {
        memset(ctx.comm, 0, sizeof ctx.comm);
        return ls_seterr(err, errlen, "NCCL communicator init failed: %s", lib->GetErrorString(rc));
    }
    for (int i = 0; i < n; i++) {
        cudaSetDevice(dev[i]);
        if (cudaStreamCreateWithFlags(&ctx.stream[i], cudaStreamNonBlocking) != cudaSuccess ||
            cudaMalloc((void **)&ctx.wrong[i], sizeof(unsigned long long)) != cudaSuccess) {
            ctx.valid = 1;
            ctx_release(0);
            return ls_seterr(err, errlen, "GPU %d: cannot create a stream", dev[i]);
        }
    }
    ctx.valid = 1;
    return 0;
}

/* Launch and wait ------------------------------------------------------------------ */

static ncclResult_t launch_one(const run_t *r, int i, const void *s, void *d)
{
    const ls_nccl_lib_t *L = r->lib;
    ncclDataType_t dt = nccl_type(r->dtype->code);
    ncclComm_t comm = ctx.comm[i];
    cudaStream_t st = ctx.stream[i];
    int rank = ctx.rank0 + i, n = ctx.nranks, root = r->opts->root;
    size_t block = r->count * r->dtype->size;
    switch (r->coll->layout) {
    case LS_LAYOUT_ALL_REDUCE: return L->AllReduce(s, d, r->count, dt, nccl_op(r->op), comm, st);
    case LS_LAYOUT_ALL_GATHER: return L->AllGather(s, d, r->count, dt, comm, st);
    case LS_LAYOUT_REDUCE_SCATTER:
        return L->ReduceScatter(s, d, r->count, dt, nccl_op(r->op), comm, st);
    case LS_LAYOUT_BROADCAST: return L->Broadcast(s, d, r->count, dt, root, comm, st);
    case LS_LAYOUT_REDUCE: return L->Reduce(s, d, r->count, dt, nccl_op(r->op), root, comm, st);
    case LS_LAYOUT_ALLTOALL:
        if (L->AlltoAll)
            return L->AlltoAll(s, d, r->count, dt, comm, st);
        L->GroupStart();
        for (int p = 0; p < n; p++) {
            L->Send((const char *)s + block * (size_t)p, r->count, dt, p, comm, st);
            L->Recv((char *)d + block * (size_t)p, r->count, dt, p, comm, st);
        }
        return L->GroupEnd();
    default:
        L->GroupStart();
        L->Send(s, r->count, dt, (rank + 1) % n, comm, st);
        L->Recv(d, r->count, dt, (rank + n - 1) % n, comm, st);
        return L->GroupEnd();
    }
}

/* Where rank i reads and writes: out-of-place uses two buffers; in-place puts the send
   block inside the receive buffer where NCCL expects it (all_gather: at rank x count;
   reduce_scatter: the result at rank x count of the input). As nccl-tests, each
   iteration moves to the next free stretch of the buffers (iteration k at k x the bytes
   one call touches, modulo what fits), so that a small size is not served from the L2
   cache the previous iteration warmed; data init and the check use offset 0. */
static void buffers(const run_t *r, int i, void **s, void **d)
{
    size_t block = r->count * r->dtype->size;
    int rank = ctx.rank0 + i;
    size_t touched = (r->send_count > r->recv_count ? r->send_count : r->recv_count) *
                     r->dtype->size;
    size_t shift = ls_coll_iter_offset(touched, r->alloc_bytes, r->iter);
    if (!r->in_place) {
        *s = (char *)r->send[i] + shift;
        *d = (char *)r->recv[i] + shift;
        return;
    }
    *s = *d = (char *)r->recv[i] + shift;
    if (r->coll->layout == LS_LAYOUT_ALL_GATHER)
        *s = (char *)*d + block * (size_t)rank;
    else if (r->coll->layout == LS_LAYOUT_REDUCE_SCATTER)
        *d = (char *)*s + block * (size_t)rank;
}

static int launch(run_t *r, char *err, size_t errlen)
{
    int n = ctx.n;
    heartbeat(r->coll->name);
    if (r->hang_once) {
        n--; /* the missing participant makes the others wait: a hang for the watchdog */
        r->hang_once = 0;
    }
    r->lib->GroupStart();
    for (int i = 0; i < n; i++) {
        void *s, *d;
        buffers(r, i, &s, &d);
        ncclResult_t rc = launch_one(r, i, s, d);
        if (rc != ncclSuccess) {
            r->lib->GroupEnd();
            return ls_seterr(err, errlen, "%s: %s", r->coll->name, r->lib->GetErrorString(rc));
        }
    }
    ncclResult_t rc = r->lib->GroupEnd();
    if (rc != ncclSuccess)
        return ls_seterr(err, errlen, "%s: %s", r->coll->name, r->lib->GetErrorString(rc));
    return 0;
}

/* Busy-waits for every stream (as nccl-tests: cudaStreamQuery plus NCCL's async error),
   up to timeout_s: the watchdog. */
static int wait_all(const run_t *r, char *err, size_t errlen)
{
    double start = now_s(), limit = r->opts->timeout_s > 0 ? r->opts->timeout_s : 300.0;
    heartbeat(r->coll->name);
    for (unsigned spin = 0;; spin++) {
        int pending = 0;
        for (int i = 0; i < ctx.n; i++) {
            cudaError_t e = cudaStreamQuery(ctx.stream[i]);
            if (e == cudaErrorNotReady)
                pending++;
            else if (e != cudaSuccess) {
                ls_seterr(err, errlen, "GPU %d: %s", ctx.dev[i], cudaGetErrorString(e));
                return WAIT_ERROR;
            }
        }
        if (!pending)
            return WAIT_OK;
        sched_yield(); /* as nccl-tests: let NCCL's own threads run while we poll */
        if (spin % 16 == 0) {
            for (int i = 0; i < ctx.n; i++) {
                ncclResult_t a = ncclSuccess;
                r->lib->CommGetAsyncError(ctx.comm[i], &a);
                if (a != ncclSuccess && a != ncclInProgress) {
                    ls_seterr(err, errlen, "NCCL: %s", r->lib->GetErrorString(a));
                    return WAIT_ERROR;
                }
            }
            if (now_s() - start > limit) {
                ls_seterr(err, errlen, "%s did not finish within %.0f s: aborted (ncclCommAbort)",
                          r->coll->name, limit);
                return WAIT_TIMEOUT;
            }
        }
    }
}

static int barrier(void)
{
    return ctx.mpi ? ls_mpi_barrier() : 0;
}

/* Under MPI: 0 when every rank's `ok` is true; else -1 with err naming the first rank
   that failed (its own message stays on that rank's stderr). */
static int mpi_all_ok(int ok, char *err, size_t errlen)
{
    int n = ls_mpi_size();
    int *all = calloc((size_t)n, sizeof(int));
    int rc = 0;
    if (!all || ls_mpi_allgather(&ok, sizeof ok, all) != 0) {
        free(all);
        return ls_seterr(err, errlen, "MPI: gathering the ranks' state failed");
    }
    for (int k = 0; k < n && rc == 0; k++)
        if (!all[k] && ok)
            rc = ls_seterr(err, errlen, "rank %d could not start (see its message)", k);
        else if (!all[k])
            rc = -1;
    free(all);
    return rc;
}

/* Data init and check ----------------------------------------------------------------- */

static ls_check_t check_params(const run_t *r, int i)
{
    ls_check_t c = {0};
    c.layout = (int)r->coll->layout;
    c.dtype = r->dtype->code;
    /* the operator shapes the data only where the collective reduces: all_gather with
       -o prod must still get rank-distinct data */
    c.op = r->coll->has_redop ? r->op : LS_OP_SUM;
    c.int_prod = !r->dtype->is_float && c.op == LS_OP_PROD;
    c.modulus = ls_pattern_modulus(r->dtype, ctx.nranks);
    c.rank = ctx.rank0 + i;
    c.nranks = ctx.nranks;
    c.root = r->opts->root;
    c.count = r->count;
    return c;
}

static int init_data(run_t *r)
{
    r->iter = 0;
    for (int i = 0; i < ctx.n; i++) {
        cudaSetDevice(ctx.dev[i]);
        ls_check_t c = check_params(r, i);
        void *s, *d;
        buffers(r, i, &s, &d);
        if (ls_check_poison(&c, r->recv[i],
                            r->recv_count > r->send_count ? r->recv_count : r->send_count,
                            ctx.stream[i]) ||
            ls_check_init(&c, s, 0, r->send_count, ctx.stream[i]))
            return -1;
    }
    for (int i = 0; i < ctx.n; i++)
        if (cudaStreamSynchronize(ctx.stream[i]) != cudaSuccess)
            return -1;
    return 0;
}

/* Counts wrong elements of every local receive buffer; -1 on a CUDA error. */
static long long verify(run_t *r)
{
    r->iter = 0;
    unsigned long long total = 0;
    for (int i = 0; i < ctx.n; i++) {
        cudaSetDevice(ctx.dev[i]);
        ls_check_t c = check_params(r, i);
        if (r->coll->layout == LS_LAYOUT_REDUCE && c.rank != c.root)
            continue; /* only the root's result is defined */
        void *s, *d;
        buffers(r, i, &s, &d);
        if (cudaMemsetAsync(ctx.wrong[i], 0, sizeof(unsigned long long), ctx.stream[i]) ||
            ls_check_verify(&c, d, r->recv_count, ctx.wrong[i], ctx.stream[i]))
            return -1;
        unsigned long long w = 0;
        if (cudaMemcpyAsync(&w, ctx.wrong[i], sizeof w, cudaMemcpyDeviceToHost, ctx.stream[i]) ||
            cudaStreamSynchronize(ctx.stream[i]))
            return -1;
        total += w;
    }
    return (long long)total;
}

/* One case: timing, then the checked run --------------------------------------------- */

typedef struct {
    double time_us;
    double launch_us; /* host time per iteration spent queueing the launches */
    long long wrong;  /* -1: not checked (N/A) */
} case_t;

/* Graph launches, one thread per GPU. NCCL's documentation: with several GPUs per
   process, cudaGraphLaunch may block until the other GPUs' graphs are launched, so one
   thread launching them in turn can deadlock (it did here, on 2 x H200). Each thread
   launches its GPU's graph `launches` times (waiting after each when blocking); *t0 is
   taken when all threads are released together. Returns once all launches are queued. */
typedef struct {
    int i, launches, blocking, failed;
    cudaGraphExec_t exec;
    volatile int *go; /* 1: start; -1: give up (another thread could not start) */
} graph_launcher_t;

static void *graph_launcher(void *arg)
{
    graph_launcher_t *l = arg;
    cudaSetDevice(ctx.dev[l->i]);
    while (__atomic_load_n(l->go, __ATOMIC_ACQUIRE) == 0)
        sched_yield();
    if (__atomic_load_n(l->go, __ATOMIC_ACQUIRE) < 0)
        return NULL;
    for (int k = 0; k < l->launches && !l->failed; k++) {
        heartbeat(NULL);
        if (cudaGraphLaunch(l->exec, ctx.stream[l->i]) != cudaSuccess ||
            (l->blocking && cudaStreamSynchronize(ctx.stream[l->i]) != cudaSuccess))
            l->failed = 1;
    }
    return NULL;
}

static int launch_graphs(cudaGraphExec_t *exec, int launches, int blocking, double *t0, char *err,
                         size_t errlen)
{
    volatile int go = 0;
    graph_launcher_t l[LS_NCCL_MAX_LOCAL];
    pthread_t th[LS_NCCL_MAX_LOCAL];
    int started = 0;
    for (int i = 0; i < ctx.n; i++) {
        l[i] = (graph_launcher_t){i, launches, blocking, 0, exec[i], &go};
        if (pthread_create(&th[i], NULL, graph_launcher, &l[i]) != 0)
            break;
        started++;
    }
    if (t0)
        *t0 = now_s();
    __atomic_store_n(&go, started == ctx.n ? 1 : -1, __ATOMIC_RELEASE);
    int failed = started < ctx.n;
    for (int i = 0; i < started; i++) {
        pthread_join(th[i], NULL);
        failed |= l[i].failed;
    }
    if (started < ctx.n)
        return ls_seterr(err, errlen, "cannot start the graph launch threads");
    if (failed)
        return ls_seterr(err, errlen, "cudaGraphLaunch failed: %s",
                         cudaGetErrorString(cudaGetLastError()));
    return 0;
}

static int timed_graph(run_t *r, double *elapsed, char *err, size_t errlen)
{
    cudaGraph_t graph[LS_NCCL_MAX_LOCAL];
    cudaGraphExec_t exec[LS_NCCL_MAX_LOCAL];
    int iters = r->opts->iters, launches = r->opts->graph, rc = 0, captured = 0;
    /* Thread-local capture, as nccl-tests: NCCL may allocate while it connects. */
    for (int i = 0; i < ctx.n && rc == 0; i++, captured++) {
        cudaSetDevice(ctx.dev[i]);
        if (cudaStreamBeginCapture(ctx.stream[i], cudaStreamCaptureModeThreadLocal))
            rc = ls_seterr(err, errlen, "CUDA graph capture could not start");
    }
    for (int it = 0; it < iters && rc == 0; it++) {
        r->iter = it;
        rc = launch(r, err, errlen);
    }
    r->iter = 0;
    int made = 0;
    for (int i = 0; i < captured; i++) {
        cudaSetDevice(ctx.dev[i]);
        cudaError_t e = cudaStreamEndCapture(ctx.stream[i], &graph[i]);
        if (e == cudaSuccess && rc == 0 &&
            cudaGraphInstantiate(&exec[i], graph[i], 0) == cudaSuccess)
            made++;
        else if (rc == 0)
            rc = ls_seterr(err, errlen, "CUDA graph capture of %s failed: %s", r->coll->name,
                           cudaGetErrorString(e ? e : cudaGetLastError()));
    }
    /* Upload every graph before any launch: a first launch that uploads could have to
       map memory while the other GPU's NCCL kernel already spins waiting for it (one
       process, several GPUs: NCCL's launch-order deadlock). */
    for (int i = 0; i < made && rc == 0; i++) {
        cudaSetDevice(ctx.dev[i]);
        if (cudaGraphUpload(exec[i], ctx.stream[i]) != cudaSuccess ||
            cudaStreamSynchronize(ctx.stream[i]) != cudaSuccess)
            rc = ls_seterr(err, errlen, "CUDA graph upload of %s failed: %s", r->coll->name,
                           cudaGetErrorString(cudaGetLastError()));
    }
    if (rc == 0) { /* one untimed replay: first-launch costs out */
        rc = launch_graphs(exec, 1, 0, NULL, err, errlen);
        if (rc == 0)
            rc = wait_all(r, err, errlen);
    }
    if (rc == 0) {
        barrier();
        double t0 = now_s();
        rc = launch_graphs(exec, launches, r->opts->blocking, &t0, err, errlen);
        if (rc == 0)
            rc = wait_all(r, err, errlen);
        *elapsed = (now_s() - t0) / ((double)iters * launches);
    }
    if (rc != WAIT_TIMEOUT) /* after a hang the graphs stay: destroying them would wait */
        for (int i = 0; i < made; i++) {
            cudaGraphExecDestroy(exec[i]);
            cudaGraphDestroy(graph[i]);
        }
    return rc;
}

/* *queued: host time per iteration until the last launch returned (without -z): when it
   is close to *elapsed, the host's launch rate, not the GPUs, sets the time. */
static int timed_loop(run_t *r, double *elapsed, double *queued, char *err, size_t errlen)
{
    int rc = 0;
    barrier();
    double t0 = now_s();
    for (int it = 0; it < r->opts->iters && rc == 0; it++) {
        r->iter = it;
        rc = launch(r, err, errlen);
        if (rc == 0 && r->opts->blocking)
            rc = wait_all(r, err, errlen);
    }
    *queued = (now_s() - t0) / r->opts->iters;
    if (rc == 0)
        rc = wait_all(r, err, errlen);
    *elapsed = (now_s() - t0) / r->opts->iters;
    r->iter = 0;
    return rc;
}

/* Thread-per-GPU launching applies without MPI (one GPU per process already) and
   without -G (graphs have their own launch threads). */
static int threads_apply(const run_t *r)
{
    return r->threads && !ctx.mpi && r->opts->graph <= 0;
}

/* One thread per GPU (opts->threads): each launches its own GPU's collective `iters`
   times, without a group call, all released together; the host cost of a launch is then
   paid once per iteration on every GPU in parallel, instead of once per GPU in turn as
   when one thread drives them all (docs/nccl.md, "The small-message floor"). The threads
   live for the whole sweep and make one untimed round first: a thread's first NCCL and
   CUDA calls cost hundreds of us (measured on 1 x H200: 21 us instead of 7 per 8 B
   all_reduce over 20 iterations with a new thread per size). */
typedef struct {
    run_t r;       /* a private copy: the iteration number picks each launch's buffer offset */
    int i, failed; /* failed: WAIT_ERROR or WAIT_TIMEOUT */
    double launched, done;
    char err[256];
} gpu_launcher_t;

static struct {
    pthread_t th[LS_NCCL_MAX_LOCAL];
    gpu_launcher_t l[LS_NCCL_MAX_LOCAL];
    int started, warm;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int gen, quit;       /* under mu: a new round, or the end */
    volatile int go;     /* 0: hold; 1: launch */
    int ready, finished; /* threads waiting at go; threads done with the round */
} pool = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

/* Each launcher waits for its own stream and takes the end time itself: a main thread
   that first joined the launchers would add the join's wake-up (tens of us in a VM) to
   every case, over only `iters` iterations. */
static int own_stream_done(gpu_launcher_t *l)
{
    double start = now_s(), limit = l->r.opts->timeout_s > 0 ? l->r.opts->timeout_s : 300.0;
    for (unsigned spin = 0;; spin++) {
        cudaError_t e = cudaStreamQuery(ctx.stream[l->i]);
        if (e == cudaSuccess)
            return 0;
        if (e != cudaErrorNotReady) {
            snprintf(l->err, sizeof l->err, "GPU %d: %s", ctx.dev[l->i], cudaGetErrorString(e));
            return WAIT_ERROR;
        }
        sched_yield();
        if (spin % 16 == 0) {
            ncclResult_t a = ncclSuccess;
            l->r.lib->CommGetAsyncError(ctx.comm[l->i], &a);
            if (a != ncclSuccess && a != ncclInProgress) {
                snprintf(l->err, sizeof l->err, "NCCL: %s", l->r.lib->GetErrorString(a));
                return WAIT_ERROR;
            }
            if (now_s() - start > limit) {
                snprintf(l->err, sizeof l->err,
                         "%s did not finish within %.0f s: aborted (ncclCommAbort)",
                         l->r.coll->name, limit);
                return WAIT_TIMEOUT;
            }
        }
    }
}

static void launch_round(gpu_launcher_t *l)
{
    l->failed = 0;
    for (int it = 0; it < l->r.opts->iters && !l->failed; it++) {
        void *s, *d;
        l->r.iter = it;
        buffers(&l->r, l->i, &s, &d);
        heartbeat(NULL);
        ncclResult_t rc = launch_one(&l->r, l->i, s, d);
        if (rc != ncclSuccess) {
            snprintf(l->err, sizeof l->err, "%s: %s", l->r.coll->name,
                     l->r.lib->GetErrorString(rc));
            l->failed = WAIT_ERROR;
        } else if (l->r.opts->blocking)
            l->failed = own_stream_done(l);
    }
    l->launched = now_s();
    if (!l->failed)
        l->failed = own_stream_done(l);
    l->done = now_s();
}

static void *pool_thread(void *arg)
{
    gpu_launcher_t *l = arg;
    cudaSetDevice(ctx.dev[l->i]);
    for (int seen = 0;;) {
        pthread_mutex_lock(&pool.mu);
        while (pool.gen == seen && !pool.quit)
            pthread_cond_wait(&pool.cv, &pool.mu);
        seen = pool.gen;
        int quit = pool.quit;
        pthread_mutex_unlock(&pool.mu);
        if (quit)
            return NULL;
        __atomic_add_fetch(&pool.ready, 1, __ATOMIC_ACQ_REL);
        while (__atomic_load_n(&pool.go, __ATOMIC_ACQUIRE) == 0)
            sched_yield();
        launch_round(l);
        __atomic_add_fetch(&pool.finished, 1, __ATOMIC_ACQ_REL);
    }
}

/* Ends the sweep's launch threads; after a failed round they may be blocked in NCCL,
   so they are then left detached rather than joined. */
static void pool_stop(int clean)
{
    if (!pool.started)
        return;
    pthread_mutex_lock(&pool.mu);
    pool.quit = 1;
    pthread_cond_broadcast(&pool.cv);
    pthread_mutex_unlock(&pool.mu);
    for (int i = 0; i < pool.started; i++)
        clean ? pthread_join(pool.th[i], NULL) : pthread_detach(pool.th[i]);
    pool.started = pool.warm = pool.gen = pool.quit = 0;
}

static int pool_start(void)
{
    pool.quit = pool.gen = pool.warm = 0;
    for (int i = 0; i < ctx.n; i++) {
        pool.l[i].i = i;
        if (pthread_create(&pool.th[i], NULL, pool_thread, &pool.l[i]) != 0) {
            pool_stop(1);
            return -1;
        }
        pool.started++;
    }
    return 0;
}

/* One round on every GPU; *t0 when they were released, *queued and *end the latest
   thread's last launch and completion. */
static int pool_round(run_t *r, double *t0, double *queued, double *end, char *err, size_t errlen)
{
    double limit = (r->opts->timeout_s > 0 ? r->opts->timeout_s : 300.0) + 5.0;
    for (int i = 0; i < ctx.n; i++)
        pool.l[i].r = *r;
    __atomic_store_n(&pool.go, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&pool.ready, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&pool.finished, 0, __ATOMIC_RELEASE);
    pthread_mutex_lock(&pool.mu);
    pool.gen++;
    pthread_cond_broadcast(&pool.cv);
    pthread_mutex_unlock(&pool.mu);
    while (__atomic_load_n(&pool.ready, __ATOMIC_ACQUIRE) < ctx.n)
        sched_yield();
    *t0 = now_s();
    __atomic_store_n(&pool.go, 1, __ATOMIC_RELEASE);
    while (__atomic_load_n(&pool.finished, __ATOMIC_ACQUIRE) < ctx.n) {
        sched_yield();
        if (now_s() - *t0 > limit) {
            ls_seterr(err, errlen, "%s: a launch thread did not return within %.0f s",
                      r->coll->name, limit);
            return WAIT_TIMEOUT;
        }
    }
    *queued = *end = *t0;
    for (int i = 0; i < ctx.n; i++) {
        gpu_launcher_t *l = &pool.l[i];
        if (l->failed) {
            ls_seterr(err, errlen, "%s", l->err);
            return l->failed == WAIT_TIMEOUT ? WAIT_TIMEOUT : WAIT_ERROR;
        }
        *queued = l->launched > *queued ? l->launched : *queued;
        *end = l->done > *end ? l->done : *end;
    }
    return 0;
}

static int timed_threads(run_t *r, double *elapsed, double *queued, char *err, size_t errlen)
{
    double t0, last, end;
    if (!pool.started && pool_start() != 0)
        return ls_seterr(err, errlen, "cannot start the launch threads");
    int rc = 0;
    if (!pool.warm) /* untimed: each thread's first calls */
        rc = pool_round(r, &t0, &last, &end, err, errlen);
    pool.warm = 1;
    barrier();
    if (rc == 0)
        rc = pool_round(r, &t0, &last, &end, err, errlen);
    if (rc)
        return rc;
    *elapsed = (end - t0) / r->opts->iters;
    *queued = (last - t0) / r->opts->iters;
    return 0;
}

static int run_case(run_t *r, case_t *out, char *err, size_t errlen)
{
    out->wrong = -1;
    if (init_data(r) != 0)
        return ls_seterr(err, errlen, "%s: data init failed: %s", r->coll->name,
                         cudaGetErrorString(cudaGetLastError()));
    int rc = 0;
    const char *fault = getenv("LINKSCOPE_NCCL_FAULT"); /* test hook: "hang" */
    if (rc == 0 && fault && strcmp(fault, "hang") == 0 && !threads_apply(r) &&
        (ctx.n > 1 || (ctx.mpi && ctx.rank0 == ctx.nranks - 1)))
        r->hang_once = 1;
    double elapsed = 0, queued = -1;
    if (rc == 0)
        rc = r->opts->graph > 0 ? timed_graph(r, &elapsed, err, errlen)
             : threads_apply(r) ? timed_threads(r, &elapsed, &queued, err, errlen)
                                : timed_loop(r, &elapsed, &queued, err, errlen);
    if (rc)
        return rc;
    out->time_us = elapsed * 1e6;
    out->launch_us = queued >= 0 ? queued * 1e6 : -1;
    if (ctx.mpi) { /* nccl-tests' default: the time averaged over ranks */
        int n = ls_mpi_size();
        double *all = calloc((size_t)n, sizeof(double));
        if (all && ls_mpi_allgather(&out->time_us, sizeof(double), all) == 0) {
            double sum = 0;
            for (int k = 0; k < n; k++)
                sum += all[k];
            out->time_us = sum / n;
        }
        free(all);
    }
    int checked = r->opts->check && (!r->in_place || r->coll->in_place_checked);
    if (!checked)
        return 0;
    if (init_data(r) != 0)
        return ls_seterr(err, errlen, "%s: data init failed", r->coll->name);
    if ((rc = launch(r, err, errlen)) != 0 || (rc = wait_all(r, err, errlen)) != 0)
        return rc;
    out->wrong = verify(r);
    if (out->wrong < 0)
        return ls_seterr(err, errlen, "%s: result check failed: %s", r->coll->name,
                         cudaGetErrorString(cudaGetLastError()));
    if (ctx.mpi) {
        int n = ls_mpi_size();
        long long *all = calloc((size_t)n, sizeof(long long));
        if (all && ls_mpi_allgather(&out->wrong, sizeof(long long), all) == 0) {
            out->wrong = 0;
            for (int k = 0; k < n; k++)
                out->wrong += all[k];
        }
        free(all);
    }
    return 0;
}

/* The sweep ------------------------------------------------------------------------- */

/* LINKSCOPE_NCCL_CPU=N: the launching thread runs on CPU N while the sizes are timed
   (set after the communicators exist, so NCCL's own threads keep their affinity). The
   CPU used and every thread's placement go into the entry's "host_threads". */
static void *pin_launcher(json_t *entry)
{
    const char *want = getenv("LINKSCOPE_NCCL_CPU");
    void *saved = NULL;
    char *end;
    long cpu = want && *want ? strtol(want, &end, 10) : -1;
    if (cpu >= 0 && *end == '\0' && ls_pin_self((int)cpu, &saved) != 0)
        json_array_append_new(json_object_get(entry, "notes"),
                              json_pack("s",
                                        "LINKSCOPE_NCCL_CPU: that CPU cannot be used; not pinned"));
    char allowed[256];
    ls_affinity_text(allowed, sizeof allowed);
    json_object_set_new(entry, "host_threads",
                        json_pack("{s:i, s:s, s:b}", "launch_cpu", ls_current_cpu(),
                                  "launch_allowed", allowed, "pinned", saved != NULL));
    return saved;
}

static void placement_done(json_t *entry, void *saved)
{
    json_t *h = json_object_get(entry, "host_threads");
    json_object_set_new(h, "launch_cpu_end", json_integer(ls_current_cpu()));
    json_object_set_new(h, "threads", ls_thread_placement(NULL));
    ls_unpin_self(saved);
}

static json_t *case_json(const case_t *c, uint64_t bytes, double factor)
{
    double algbw = ls_coll_algbw(bytes, c->time_us);
    json_t *o = json_pack("{s:f, s:f, s:f}", "time_us", c->time_us, "algbw", algbw, "busbw",
                          algbw * factor);
    json_object_set_new(o, "wrong", c->wrong >= 0 ? json_integer(c->wrong) : json_null());
    if (c->launch_us >= 0)
        json_object_set_new(o, "launch_us", json_real(c->launch_us));
    return o;
}

/* nccl-tests' warmup: `warmup` launches of every size, out-of-place and in-place,
   before any timing (first-use costs such as lazy connection setup stay out). */
static int warmup_all(run_t *r, const uint64_t *sizes, int nsizes, char *err, size_t errlen)
{
    int rc = 0;
    for (int s = 0; s < nsizes && rc == 0 && r->opts->warmup > 0; s++) {
        r->coll->counts(sizes[s], r->dtype->size, ctx.nranks, &r->send_count, &r->recv_count,
                        &r->count);
        if (r->count == 0)
            continue;
        for (int w = 0; w < r->opts->warmup && rc == 0; w++)
            for (int ip = 0; ip < 2 && rc == 0; ip++) {
                r->in_place = ip;
                r->iter = w;
                rc = launch(r, err, errlen);
            }
        r->iter = 0;
        if (rc == 0)
            rc = wait_all(r, err, errlen);
    }
    return rc;
}

/* Per-GPU bytes for a size: both buffers are as large as the larger of the two. */
static uint64_t bytes_per_gpu(const ls_coll_t *coll, const ls_dtype_t *dt, uint64_t size, int n)
{
    uint64_t sc, rc, c;
    coll->counts(size, dt->size, n, &sc, &rc, &c);
    return 2 * (sc > rc ? sc : rc) * dt->size;
}

/* Sizes the GPUs can hold: nccl-tests lowers maxBytes to what fits and says so. */
static int fit_sizes(const run_t *r, uint64_t *sizes, int nsizes, json_t *notes)
{
    size_t lowest_free = SIZE_MAX;
    for (int i = 0; i < ctx.n; i++) {
        size_t fr = 0, total = 0;
        cudaSetDevice(ctx.dev[i]);
        if (cudaMemGetInfo(&fr, &total) == cudaSuccess && fr < lowest_free)
            lowest_free = fr;
    }
    if (ctx.mpi) {
        int n = ls_mpi_size();
        size_t *all = calloc((size_t)n, sizeof(size_t));
        if (all && ls_mpi_allgather(&lowest_free, sizeof lowest_free, all) == 0)
            for (int k = 0; k < n; k++)
                lowest_free = all[k] < lowest_free ? all[k] : lowest_free;
        free(all);
    }
    /* Keep 10% and 1 GiB for NCCL's own buffers and the CUDA context. */
    double usable = (double)lowest_free * 0.9 - (double)(1ull << 30);
    int keep = nsizes;
    while (keep > 0 &&
           (double)bytes_per_gpu(r->coll, r->dtype, sizes[keep - 1], ctx.nranks) > usable)
        keep--;
    if (keep < nsizes) {
        char line[256];
        snprintf(line, sizeof line,
                 "sizes above %llu B were dropped: %llu B needs %.1f GiB per GPU, %.1f GiB is "
                 "free (nccl-tests reduces maxBytes the same way)",
                 keep ? (unsigned long long)sizes[keep - 1] : 0ull,
                 (unsigned long long)sizes[nsizes - 1],
                 bytes_per_gpu(r->coll, r->dtype, sizes[nsizes - 1], ctx.nranks) / 1073741824.0,
                 lowest_free / 1073741824.0);
        json_array_append_new(notes, json_string(line));
    }
    return keep;
}

/* 1 when every stream is idle within limit_s (after an abort the kernels should leave;
   if they do not, freeing their buffers would block: they are left allocated). */
static int streams_drain(double limit_s)
{
    double start = now_s();
    for (;;) {
        int busy = 0;
        for (int i = 0; i < ctx.n; i++)
            busy += ctx.stream[i] && cudaStreamQuery(ctx.stream[i]) == cudaErrorNotReady;
        if (!busy)
            return 1;
        if (now_s() - start > limit_s)
            return 0;
        sched_yield();
    }
}

/* 1 when buffers come from ncclMemAlloc: where the library has it, as nccl-tests
   (buffers NCCL can register and reach from the peer without staging), unless
   LINKSCOPE_NCCL_BUFFERS=cudaMalloc asks for plain allocations (to compare the two). */
static int use_nccl_alloc(const run_t *r)
{
    const char *want = getenv("LINKSCOPE_NCCL_BUFFERS");
    return r->lib->MemAlloc && !(want && strcmp(want, "cudaMalloc") == 0);
}

static int dev_alloc(const run_t *r, void **p, size_t bytes)
{
    if (use_nccl_alloc(r))
        return r->lib->MemAlloc(p, bytes) == ncclSuccess ? 0 : -1;
    return cudaMalloc(p, bytes) == cudaSuccess ? 0 : -1;
}

static void dev_free(const run_t *r, void *p)
{
    if (!p)
        return;
    if (use_nccl_alloc(r) && r->lib->MemFree)
        r->lib->MemFree(p);
    else
        cudaFree(p);
}

static void free_buffers(run_t *r)
{
    for (int i = 0; i < ctx.n; i++) {
        cudaSetDevice(ctx.dev[i]);
        dev_free(r, r->send[i]);
        dev_free(r, r->recv[i]);
        r->send[i] = r->recv[i] = NULL;
    }
}

static int alloc_buffers(run_t *r, uint64_t max_size, char *err, size_t errlen)
{
    size_t half = (size_t)(bytes_per_gpu(r->coll, r->dtype, max_size, ctx.nranks) / 2);
    for (int i = 0; i < ctx.n; i++) {
        cudaSetDevice(ctx.dev[i]);
        if (dev_alloc(r, &r->send[i], half ? half : 1) != 0 ||
            dev_alloc(r, &r->recv[i], half ? half : 1) != 0) {
            free_buffers(r);
            cudaGetLastError(); /* the allocation's error would fail the next sweep's first launch
                                 */
            return ls_seterr(err, errlen, "GPU %d: cannot allocate 2 x %zu B", ctx.dev[i], half);
        }
        /* as nccl-tests: never time uninitialised memory (NaN patterns and all) */
        cudaMemset(r->send[i], 0, half ? half : 1);
        cudaMemset(r->recv[i], 0, half ? half : 1);
    }
    r->alloc_bytes = half;
    for (int i = 0; i < ctx.n; i++) {
        cudaSetDevice(ctx.dev[i]);
        cudaDeviceSynchronize();
    }
    return 0;
}

/* Rings, trees and transports from NCCL's log; under MPI every rank's, gathered. */
static void add_transports(json_t *entry)
{
    char *text = ls_nccl_capture_read(ctx.log_offset);
    if (ctx.mpi) {
        int n = ls_mpi_size();
        unsigned long long len = text ? strlen(text) + 1 : 1, maxlen = 0;
        unsigned long long *lens = calloc((size_t)n, sizeof len);
        if (lens && ls_mpi_allgather(&len, sizeof len, lens) == 0) {
            for (int k = 0; k < n; k++)
                maxlen = lens[k] > maxlen ? lens[k] : maxlen;
            char *mine = calloc(1, maxlen), *all = calloc((size_t)n, maxlen);
            if (mine && all) {
                if (text)
                    memcpy(mine, text, len);
                if (ls_mpi_allgather(mine, maxlen, all) == 0) {
                    free(text); /* joined: rank 0's text, then the others' */
                    text = ls_nccl_join_logs(all, n, (size_t)maxlen);
                }
            }
            free(mine);
            free(all);
        }
        free(lens);
    }
    json_t *parsed = ls_nccl_parse_log(text);
    ls_nccl_net_text(text, entry); /* the HCAs NCCL used, [RO], GDR: nics[].nccl */
    free(text);
    const char *keys[] = {"transports", "rings", "trees", "nccl_env"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        json_object_set(entry, keys[k], json_object_get(parsed, keys[k]));
    json_object_set_new(entry, "debug_captured", json_boolean(ls_nccl_capture_path() != NULL));
    json_decref(parsed);
}

static json_t *new_entry(const run_t *r, const int *gpus_all)
{
    const ls_nccl_sweep_opts_t *o = r->opts;
    json_t *e = ls_entry_new(LS_FAMILY_NCCL, "busbw", "GB/s");
    json_t *gpus = json_array();
    for (int k = 0; k < ctx.nranks; k++)
        json_array_append_new(gpus, json_integer(gpus_all[k]));
    json_object_set_new(e, "method", json_string(o->graph > 0 ? LS_NCCL_GRAPH : LS_NCCL_LAUNCH));
    json_object_set_new(e, "gpus", gpus);
    json_object_set_new(e, "source", json_string(LS_SOURCE_LINKSCOPE));
    json_object_set_new(e, "collective", json_string(r->coll->name));
    json_object_set_new(e, "nranks", json_integer(ctx.nranks));
    json_object_set_new(e, "mode", json_string(ctx.mpi ? "mpi" : "threads"));
    json_object_set_new(e, "variant", json_string(o->variant ? o->variant : "default"));
    json_object_set_new(e, "dtype", json_string(r->dtype->name));
    json_object_set_new(e, "redop",
                        json_string(r->coll->has_redop ? ls_redop_name(r->op) : "none"));
    json_object_set_new(e, "root", json_integer(r->coll->has_root ? o->root : -1));
    json_object_set_new(e, "graph", json_boolean(o->graph > 0));
    json_object_set_new(e, "graph_launches", json_integer(o->graph));
    json_object_set_new(e, "iters", json_integer(o->iters));
    json_object_set_new(e, "warmup", json_integer(o->warmup));
    json_object_set_new(e, "blocking", json_boolean(o->blocking));
    json_object_set_new(e, "check", json_boolean(o->check));
    json_object_set_new(e, "timing",
                        json_string(
                            "host timer around iters back-to-back launches and one wait, divided "
                            "by iters; buffer offset moves each iteration (nccl-tests)"));
    json_object_set_new(e, "launch",
                        json_string(ctx.mpi                   ? "process_per_gpu"
                                    : o->graph > 0            ? "graph"
                                    : r->threads && ctx.n > 1 ? "thread_per_gpu"
                                                              : "group"));
    json_object_set_new(e, "nccl_version", json_string(r->lib->version_str));
    json_object_set_new(e, "buffers",
                        json_string(use_nccl_alloc(r) ? "ncclMemAlloc" : "cudaMalloc"));
    json_object_set_new(e, "rows", json_array());
    json_object_set_new(e, "notes", json_array());
    return e;
}

static void finish_entry(json_t *e, const run_t *r, int ok)
{
    json_t *rows = json_object_get(e, "rows");
    size_t nrows = json_array_size(rows);
    json_object_set_new(e, "verified", json_boolean(ok && ls_nccl_rows_verified(rows)));
    if (nrows == 0)
        return;
    const json_t *last = json_array_get(rows, nrows - 1), *first = json_array_get(rows, 0);
    const char *which = r->opts->in_place == 1 ? "ip" : "oop";
    double busbw = ls_json_num(json_object_get(last, which), "busbw", 0);
    ls_entry_set_samples(e, &busbw, 1);
    json_object_set_new(e, "bytes", json_integer(ls_json_int(last, "bytes", 0)));
    json_object_set_new(e, "small_time_us",
                        json_real(ls_json_num(json_object_get(first, which), "time_us", 0)));
    json_object_set_new(e, "small_bytes", json_integer(ls_json_int(first, "bytes", 0)));
}

static int resolve_run(run_t *r, const ls_nccl_sweep_opts_t *o, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->opts = o;
    r->coll = ls_coll_find(o->collective ? o->collective : "");
    if (!r->coll)
        return ls_seterr(err, errlen, "unknown collective '%s'",
                         o->collective ? o->collective : "");
    r->dtype = ls_dtype_find(o->dtype ? o->dtype : "float");
    if (!r->dtype)
        return ls_seterr(err, errlen, "unknown data type '%s' (expected %s)", o->dtype,
                         ls_dtype_names());
    r->op = ls_redop_find(o->redop ? o->redop : "sum");
    if (r->op < 0)
        return ls_seterr(err, errlen, "unknown reduction '%s' (expected sum, prod, max, min, avg)",
                         o->redop);
    if (o->iters < 1 || o->warmup < 0)
        return ls_seterr(err, errlen, "iterations must be at least 1");
    const char *launch = getenv("LINKSCOPE_NCCL_LAUNCH");
    r->threads = launch && strcmp(launch, "threads") == 0 ? 1
                 : launch && strcmp(launch, "group") == 0 ? 0
                                                          : o->threads;
    return 0;
}

static int local_devices(const ls_nccl_sweep_opts_t *o, int *dev, char *err, size_t errlen)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
        return ls_seterr(err, errlen, "no usable GPU (CUDA reports none)");
    if (o->mpi) {
        int lr = ls_mpi_local_rank();
        dev[0] = o->ngpus > 0 ? (lr < o->ngpus ? o->gpus[lr] : -1) : lr;
        if (dev[0] < 0 || dev[0] >= count)
            return ls_seterr(err, errlen, "node-local rank %d has no GPU (%d visible%s)", lr, count,
                             o->ngpus > 0 ? ", --gpus lists fewer" : "");
        return 1;
    }
    int n = o->ngpus > 0 ? o->ngpus : count;
    if (n > LS_NCCL_MAX_LOCAL)
        return ls_seterr(err, errlen, "at most %d GPUs per process", LS_NCCL_MAX_LOCAL);
    for (int i = 0; i < n; i++) {
        dev[i] = o->ngpus > 0 ? o->gpus[i] : i;
        if (dev[i] < 0 || dev[i] >= count)
            return ls_seterr(err, errlen, "GPU %d does not exist (%d visible: 0-%d)", dev[i], count,
                             count - 1);
    }
    return n;
}

static int cmp_size(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

json_t *ls_nccl_sweep(const ls_nccl_sweep_opts_t *o, char *err, size_t errlen)
{
    run_t r;
    if (resolve_run(&r, o, err, errlen) != 0)
        return NULL;
    r.lib = ls_nccl_lib(err, errlen);
    if (!r.lib)
        return NULL;
    int dev[LS_NCCL_MAX_LOCAL];
    int n = local_devices(o, dev, err, errlen);
    /* CUDA graphs of several GPUs in one process hung inside NCCL on the 2 x H200 machine
       (NCCL 2.28.3), whatever the launch order, buffer allocation or NCCL_GRAPH_REGISTER /
       NCCL_GRAPH_MIXING_SUPPORT setting; one process per GPU, NCCL's recommended setup for
       graphs, ran and validated (docs/nccl.md, Known issues). */
    if (n > 1 && o->graph > 0 && !o->mpi) {
        ls_seterr(err, errlen,
                  "-G with %d GPUs in one process hangs in NCCL; run one process "
                  "per GPU: mpirun -np %d linkscope nccl ... -G %d",
                  n, n, o->graph);
        return NULL;
    }
    if (o->mpi && mpi_all_ok(n > 0, err, errlen) != 0)
        return NULL; /* every rank stops together: none waits in a collective alone */
    if (n <= 0)
        return NULL;
    heartbeat_start(o->timeout_s, r.coll->name);
    if (!same_gpus(dev, n, o->mpi)) {
        if (ctx.valid)
            ctx_release(0);
        if (make_comms(r.lib, dev, n, o->mpi, err, errlen) != 0) {
            heartbeat_stop();
            return NULL;
        }
    }
    if (r.coll->has_root && (o->root < 0 || o->root >= ctx.nranks)) {
        heartbeat_stop();
        ls_seterr(err, errlen, "root %d is not a rank (0-%d)", o->root, ctx.nranks - 1);
        return NULL;
    }
    /* The GPU of every rank, rank order: under MPI gathered, whatever the rank count. */
    int *gpus_all = calloc((size_t)ctx.nranks, sizeof(int));
    if (o->mpi)
        ls_mpi_allgather(&dev[0], sizeof(int), gpus_all);
    else
        memcpy(gpus_all, dev, sizeof(int) * (size_t)n);

    uint64_t *sizes;
    int nsizes;
    if (o->sizes && o->nsizes > 0) {
        sizes = malloc(sizeof(uint64_t) * (size_t)o->nsizes);
        memcpy(sizes, o->sizes, sizeof(uint64_t) * (size_t)o->nsizes);
        nsizes = o->nsizes;
        /* ascending: the buffers and the memory fit are sized by the last size */
        qsort(sizes, (size_t)nsizes, sizeof *sizes, cmp_size);
    } else {
        nsizes = ls_coll_sweep_sizes(o->min_bytes, o->max_bytes, o->step_factor, o->step_bytes,
                                     NULL, 0);
        if (nsizes <= 0 || nsizes > LS_COLL_MAX_SIZES) {
            heartbeat_stop();
            free(gpus_all);
            ls_seterr(err, errlen,
                      nsizes > 0 ? "more than 100000 sizes between -b and -e"
                                 : "no sizes between -b and -e");
            return NULL;
        }
        sizes = malloc(sizeof(uint64_t) * (size_t)nsizes);
        ls_coll_sweep_sizes(o->min_bytes, o->max_bytes, o->step_factor, o->step_bytes, sizes,
                            nsizes);
    }
    json_t *entry = new_entry(&r, gpus_all);
    free(gpus_all);
    char id[160];
    snprintf(id, sizeof id, "nccl-%s-%s", r.coll->name, o->variant ? o->variant : "default");
    json_object_set_new(entry, "id", json_string(id));
    json_t *notes = json_object_get(entry, "notes");
    nsizes = fit_sizes(&r, sizes, nsizes, notes);
    if (nsizes == 0 || alloc_buffers(&r, sizes[nsizes - 1], err, errlen) != 0) {
        if (nsizes == 0)
            ls_seterr(err, errlen, "not even the smallest size fits in GPU memory");
        ls_entry_fail(entry, "failed", err);
        free(sizes);
        add_transports(entry);
        heartbeat_stop();
        return entry;
    }
    double factor = r.coll->busbw_factor(ctx.nranks);
    int status = 0;
    char why[512] = "";
    /* NVML telemetry over the whole sweep, as for every measurement (this process's GPUs) */
    ls_telemetry_t *tele = ls_telemetry_for(ctx.dev, ctx.n, 0);
    void *pinned = pin_launcher(entry);
    status = warmup_all(&r, sizes, nsizes, why, sizeof why);
    for (int s = 0; s < nsizes && status == 0; s++) {
        ls_progress_step(s, nsizes, "nccl %s, %llu bytes", r.coll->name,
                         (unsigned long long)sizes[s]);
        r.coll->counts(sizes[s], r.dtype->size, ctx.nranks, &r.send_count, &r.recv_count, &r.count);
        if (r.count == 0)
            continue; /* below one element per rank */
        uint64_t bytes = ls_coll_bytes(r.coll, r.count, r.dtype->size, ctx.nranks);
        json_t *row = json_pack("{s:I, s:I}", "bytes", (json_int_t)bytes, "count",
                                (json_int_t)r.count);
        for (int ip = 0; ip < 2 && status == 0; ip++) {
            if ((ip == 0 && o->in_place == 1) || (ip == 1 && o->in_place == 0))
                continue;
            r.in_place = ip;
            case_t c;
            status = run_case(&r, &c, why, sizeof why);
            if (status == 0)
                json_object_set_new(row, ip ? "ip" : "oop", case_json(&c, bytes, factor));
        }
        if (status == 0)
            json_array_append_new(json_object_get(entry, "rows"), row);
        else
            json_decref(row);
    }
    placement_done(entry, pinned);
    pool_stop(status == 0);
    ls_telemetry_stop(tele, entry);
    if (status == WAIT_TIMEOUT)
        ls_entry_fail(entry, "timeout", why);
    else if (status != 0)
        ls_entry_fail(entry, "failed", why);
    if (status != 0)
        abort_comms(); /* ncclCommAbort: the next sweep makes new communicators */
    if (status == 0 || streams_drain(5.0))
        free_buffers(&r); /* after an abort only once the aborted kernels have left */
    if (status != 0)
        ctx_release(0);
    add_transports(entry);
    finish_entry(entry, &r, status == 0);
    free(sizes);
    heartbeat_stop();
    return entry;
}
