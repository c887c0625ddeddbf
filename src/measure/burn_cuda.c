/* The sustained-load family on the GPUs (burn.h, docs/methods.md "burn"): one host
   thread per GPU keeps a stream of tensor-core GEMMs (or FMA kernels) busy, with HBM
   copies and NVLink copies to the next GPU on two more streams, while series.c samples
   NVML. Each window of GEMMs is timed with events; the GEMM's output is compared with
   the first one's at the end (the same product of the same inputs: any difference is
   a fault, as gpu_burn checks). */
#include "burn.h"
#include "burn_kernels.h"
#include "cublas_load.h"
#include "harness.h"
#include "sample/series.h"
#include "measure/gpu.h"
#include "model/entry.h"
#include "model/doc.h"
#include "model/vocab.h"
#include "util/log.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* 8192^3 bf16 GEMM: 1.1 TFLOP, about 1.4 ms at an H200's ~790 TFLOP/s; its three
   128 MiB operands are far past any L2. LINKSCOPE_BURN_MATRIX_N sets a smaller one
   (a multiple of 128 from 128): compute-sanitizer's racecheck, synccheck and initcheck
   do not get through an 8192^3 GEMM in minutes (scripts/device-sanitize.sh). */
#define BURN_N 8192
#define BURN_TRAFFIC_BYTES (512ull << 20) /* per HBM or NVLink copy */
#define BURN_WINDOW_MS 200.0              /* one timed window of GEMMs lasts about this */
#define BURN_MAX_HBM_COPIES                                                                        \
    256 /* 256 GiB of traffic: ~65 ms alone at 4 TB/s, ~0.7 s beside GEMMs */
#define BURN_MAX_PEER_COPIES 64 /* 32 GiB: ~0.1 s over 18 NVLink 4 links, ~0.5 s over PCIe Gen5 */
#define BURN_FMA_ITERS 4096
#define BURN_FMA_BLOCK 256

typedef struct {
    int dev, peer, use_cublas, n; /* n: the GEMM's matrix size */
    double seconds;
    const struct timespec *t0;
    void *a, *b, *c, *ref, *src, *dst, *rx, *peer_rx;
    float *fma_out;
    size_t out_bytes;
    int fma_grid, ops_per_window;
    double flop_per_op;
    cudaStream_t sc, sh, sn;
    void *cublas;
    json_t *win_t, *win_tflops;
    double hbm_bytes, nvl_bytes, traffic_s;
    long long wrong;
    char err[256];
} worker_t;

static double since(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + (now.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* Read once per process (every GPU's worker asks); a value out of range is said once. */
static int burn_n = BURN_N;
static pthread_once_t burn_n_once = PTHREAD_ONCE_INIT;

static void read_burn_n(void)
{
    const char *env = getenv("LINKSCOPE_BURN_MATRIX_N");
    char *end;
    long v = env && *env ? strtol(env, &end, 10) : 0;
    if (env && *env && !*end && v >= 128 && v <= BURN_N && v % 128 == 0)
        burn_n = (int)v;
    else if (env && *env)
        ls_warn("LINKSCOPE_BURN_MATRIX_N=%.32s: expected a multiple of 128 from 128 to %d; the "
                "GEMM is %d^3",
                env, BURN_N, BURN_N);
}

static int burn_matrix_n(void)
{
    pthread_once(&burn_n_once, read_burn_n);
    return burn_n;
}

static cudaError_t one_op(worker_t *w)
{
    if (w->use_cublas)
        return ls_cublas_gemm_bf16(w->cublas, w->n, w->a, w->b, w->c) == 0 ? cudaSuccess
                                                                           : cudaErrorUnknown;
    return ls_k_fma(w->fma_out, BURN_FMA_ITERS, w->fma_grid, BURN_FMA_BLOCK, w->sc);
}

static int setup_buffers(worker_t *w)
{
    w->n = burn_matrix_n();
    size_t op = (size_t)w->n * w->n * 2; /* bf16 */
    w->fma_grid = ls_sms(w->dev) * 8;
    w->out_bytes = w->use_cublas ? op : (size_t)w->fma_grid * BURN_FMA_BLOCK * sizeof(float);
    if (w->use_cublas && (!(w->a = ls_dev_alloc(w->dev, op, w->err, sizeof w->err)) ||
                          !(w->b = ls_dev_alloc(w->dev, op, w->err, sizeof w->err)) ||
                          !(w->c = ls_dev_alloc(w->dev, op, w->err, sizeof w->err))))
        return -1;
    if (!w->use_cublas && !(w->fma_out = ls_dev_alloc(w->dev, w->out_bytes, w->err, sizeof w->err)))
        return -1;
    if (!(w->ref = ls_dev_alloc(w->dev, w->out_bytes, w->err, sizeof w->err)) ||
        !(w->src = ls_dev_alloc(w->dev, BURN_TRAFFIC_BYTES, w->err, sizeof w->err)) ||
        !(w->dst = ls_dev_alloc(w->dev, BURN_TRAFFIC_BYTES, w->err, sizeof w->err)) ||
        !(w->rx = ls_dev_alloc(w->dev, BURN_TRAFFIC_BYTES, w->err, sizeof w->err)))
        return -1;
    cudaError_t rc = ls_fill(w->dev, w->src, BURN_TRAFFIC_BYTES, 0xB0u);
    if (rc == cudaSuccess && w->use_cublas)
        rc = ls_k_fill_bf16(w->a, (size_t)w->n * w->n, 0xA1u, w->fma_grid, 0);
    if (rc == cudaSuccess && w->use_cublas)
        rc = ls_k_fill_bf16(w->b, (size_t)w->n * w->n, 0xB1u, w->fma_grid, 0);
    /* The product is written whole by every GEMM (beta = 0), but compute-sanitizer's
       initcheck does not see cuBLAS's Hopper kernels write it (session 6: 36,864 reports
       on copying it to the reference, none with our FMA kernel): zeroed once, so a
       report there would be a real one. */
    if (rc == cudaSuccess && w->use_cublas)
        rc = cudaMemset(w->c, 0, op);
    if (rc == cudaSuccess)
        rc = cudaDeviceSynchronize();
    if (rc != cudaSuccess)
        return ls_seterr(w->err, sizeof w->err, "GPU %d: filling the inputs: %s", w->dev,
                         cudaGetErrorString(rc)),
               -1;
    return 0;
}

static int setup_worker(worker_t *w)
{
    cudaError_t rc = cudaSetDevice(w->dev);
    if (rc == cudaSuccess)
        rc = cudaStreamCreateWithFlags(&w->sc, cudaStreamNonBlocking);
    if (rc == cudaSuccess)
        rc = cudaStreamCreateWithFlags(&w->sh, cudaStreamNonBlocking);
    if (rc == cudaSuccess)
        rc = cudaStreamCreateWithFlags(&w->sn, cudaStreamNonBlocking);
    if (rc != cudaSuccess)
        return ls_seterr(w->err, sizeof w->err, "GPU %d: streams: %s", w->dev,
                         cudaGetErrorString(rc)),
               -1;
    if (w->use_cublas && !(w->cublas = ls_cublas_create(w->sc)))
        w->use_cublas = 0; /* a handle that cannot be made: the FMA kernel instead */
    return setup_buffers(w);
}

static void free_worker(worker_t *w)
{
    cudaSetDevice(w->dev);
    ls_cublas_destroy(w->cublas);
    void *bufs[] = {w->a, w->b, w->c, w->ref, w->src, w->dst, w->rx, w->fma_out};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (bufs[i])
            ls_dev_free(w->dev, bufs[i]);
    cudaStream_t ss[] = {w->sc, w->sh, w->sn};
    for (size_t i = 0; i < 3; i++)
        if (ss[i])
            cudaStreamDestroy(ss[i]);
    json_decref(w->win_t);
    json_decref(w->win_tflops);
}

static int clamp(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Keeps the HBM and NVLink streams busy: a new batch when the last one finished, sized
   to outlast a window (the loop comes back once per window; four copies a time left the
   copy stream idle most of a 200 ms window: 18 GB/s on an H200), and capped so that the
   queue left at the end drains in about a second. */
static cudaError_t feed_traffic(worker_t *w)
{
    cudaError_t rc = cudaSuccess;
    if (cudaStreamQuery(w->sh) == cudaSuccess) {
        int n = clamp(4 * w->ops_per_window, 4, BURN_MAX_HBM_COPIES);
        for (int i = 0; i < n && rc == cudaSuccess; i++)
            rc = cudaMemcpyAsync(w->dst, w->src, BURN_TRAFFIC_BYTES, cudaMemcpyDeviceToDevice,
                                 w->sh);
        w->hbm_bytes += n * 2.0 * BURN_TRAFFIC_BYTES; /* each byte read and written */
    }
    if (w->peer >= 0 && rc == cudaSuccess && cudaStreamQuery(w->sn) == cudaSuccess) {
        int n = clamp(w->ops_per_window, 2, BURN_MAX_PEER_COPIES);
        for (int i = 0; i < n && rc == cudaSuccess; i++)
            rc = cudaMemcpyPeerAsync(w->peer_rx, w->peer, w->src, w->dev, BURN_TRAFFIC_BYTES,
                                     w->sn);
        w->nvl_bytes += n * 1.0 * BURN_TRAFFIC_BYTES;
    }
    return rc;
}

/* Three ops timed after a warm-up one (cuBLAS picks and loads its kernel at the first
   call: tens of ms) set the window's op count; their output becomes the reference. */
static cudaError_t calibrate(worker_t *w, cudaEvent_t s, cudaEvent_t e)
{
    cudaError_t rc = one_op(w);
    if (rc == cudaSuccess)
        rc = cudaStreamSynchronize(w->sc);
    if (rc == cudaSuccess)
        rc = cudaEventRecord(s, w->sc);
    for (int i = 0; i < 3 && rc == cudaSuccess; i++)
        rc = one_op(w);
    if (rc == cudaSuccess)
        rc = cudaEventRecord(e, w->sc);
    if (rc == cudaSuccess)
        rc = cudaEventSynchronize(e);
    float ms = 0;
    if (rc == cudaSuccess)
        rc = cudaEventElapsedTime(&ms, s, e);
    if (rc != cudaSuccess)
        return rc;
    double per = ms / 3 > 1e-3 ? ms / 3 : 1e-3;
    w->ops_per_window = (int)(BURN_WINDOW_MS / per) + 1;
    w->flop_per_op = w->use_cublas ? 2.0 * w->n * (double)w->n * w->n
                                   : 2.0 * LS_FMA_CHAINS * (double)BURN_FMA_ITERS * w->fma_grid *
                                         BURN_FMA_BLOCK;
    const void *out = w->use_cublas ? w->c : (const void *)w->fma_out;
    return cudaMemcpyAsync(w->ref, out, w->out_bytes, cudaMemcpyDeviceToDevice, w->sc);
}

static cudaError_t enqueue_window(worker_t *w, cudaEvent_t s, cudaEvent_t e)
{
    cudaError_t rc = cudaEventRecord(s, w->sc);
    for (int i = 0; i < w->ops_per_window && rc == cudaSuccess; i++)
        rc = one_op(w);
    return rc == cudaSuccess ? cudaEventRecord(e, w->sc) : rc;
}

static cudaError_t record_window(worker_t *w, cudaEvent_t s, cudaEvent_t e)
{
    float ms = 0;
    cudaError_t rc = cudaEventSynchronize(e);
    if (rc == cudaSuccess)
        rc = cudaEventElapsedTime(&ms, s, e);
    if (rc == cudaSuccess && ms > 0) {
        json_array_append_new(w->win_t, json_real(since(w->t0)));
        json_array_append_new(w->win_tflops,
                              json_real(w->ops_per_window * w->flop_per_op / (ms * 1e-3) / 1e12));
    }
    return rc;
}

static cudaError_t check_output(worker_t *w)
{
    unsigned long long *wrong = NULL;
    cudaError_t rc = cudaMallocHost((void **)&wrong, sizeof *wrong);
    if (rc != cudaSuccess)
        return rc;
    *wrong = 0;
    const void *out = w->use_cublas ? w->c : (const void *)w->fma_out;
    rc = ls_k_compare(out, w->ref, w->out_bytes, wrong, w->fma_grid, w->sc);
    if (rc == cudaSuccess)
        rc = cudaStreamSynchronize(w->sc);
    w->wrong = rc == cudaSuccess ? (long long)*wrong : -1;
    cudaFreeHost(wrong);
    return rc;
}

/* Windows two deep: window k is queued before window k-1 is waited for, so the GPU never
   idles between them. */
static cudaError_t burn_loop(worker_t *w)
{
    cudaEvent_t s[2] = {NULL, NULL}, e[2] = {NULL, NULL};
    cudaError_t rc = cudaSuccess;
    for (int i = 0; i < 2 && rc == cudaSuccess; i++)
        if ((rc = cudaEventCreate(&s[i])) == cudaSuccess)
            rc = cudaEventCreate(&e[i]);
    if (rc == cudaSuccess)
        rc = calibrate(w, s[0], e[0]);
    double t_start = since(w->t0);
    for (int k = 0; rc == cudaSuccess; k++) {
        int done = since(w->t0) >= w->seconds;
        if (!done)
            rc = enqueue_window(w, s[k % 2], e[k % 2]);
        if (rc == cudaSuccess && !done)
            rc = feed_traffic(w);
        if (rc == cudaSuccess && k > 0)
            rc = record_window(w, s[(k - 1) % 2], e[(k - 1) % 2]);
        if (done)
            break;
    }
    if (rc == cudaSuccess)
        rc = cudaDeviceSynchronize();
    w->traffic_s = since(w->t0) - t_start;
    if (rc == cudaSuccess)
        rc = check_output(w);
    for (int i = 0; i < 2; i++) {
        if (s[i])
            cudaEventDestroy(s[i]);
        if (e[i])
            cudaEventDestroy(e[i]);
    }
    return rc;
}

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    cudaError_t rc = cudaSetDevice(w->dev);
    if (rc == cudaSuccess)
        rc = burn_loop(w);
    if (rc != cudaSuccess)
        ls_seterr(w->err, sizeof w->err, "GPU %d: %s", w->dev, cudaGetErrorString(rc));
    return NULL;
}

/* Each GPU sends to the next one (a ring) when the pair has peer access. */
static void pair_peers(worker_t *w, int n)
{
    for (int i = 0; i < n; i++) {
        worker_t *me = &w[i], *next = &w[(i + 1) % n];
        me->peer = -1;
        if (n < 2 || me->err[0] || !next->rx || !ls_peer_enable(me->dev, next->dev, NULL))
            continue;
        me->peer = next->dev;
        me->peer_rx = next->rx;
    }
}

static json_t *burn_entry(const worker_t *w, const ls_burn_opts_t *o, const char *lib,
                          json_t *series)
{
    const char *method = w->use_cublas ? LS_BURN_GEMM_BF16 : LS_BURN_FMA_FP32;
    char id[64];
    snprintf(id, sizeof id, "burn-%s-%d", method, w->dev);
    json_t *e = ls_entry_new(LS_FAMILY_BURN, "throughput", "TFLOP/s");
    json_object_set_new(e, "id", json_string(id));
    json_object_set_new(e, "method", json_string(method));
    json_object_set_new(e, "gpus", json_pack("[i]", w->dev));
    json_object_set_new(e, "gpu", json_integer(w->dev));
    size_t n = json_array_size(w->win_tflops);
    double *v = calloc(n ? n : 1, sizeof *v);
    for (size_t i = 0; v && i < n; i++)
        v[i] = json_real_value(json_array_get(w->win_tflops, i));
    if (v)
        ls_entry_set_samples(e, v, n);
    free(v);
    json_t *b = json_pack("{s:f, s:s, s:i, s:i, s:O, s:O, s:I, s:o}", "seconds", o->seconds,
                          "method", method, "matrix_n", w->use_cublas ? w->n : 0, "ops_per_window",
                          w->ops_per_window, "window_t_s", w->win_t, "window_tflops", w->win_tflops,
                          "wrong", (json_int_t)w->wrong, "series", series);
    if (w->use_cublas)
        json_object_set_new(b, "library", json_string(lib));
    if (!o->no_traffic && w->traffic_s > 0) {
        json_object_set_new(b, "hbm_traffic_gbps", json_real(w->hbm_bytes / w->traffic_s / 1e9));
        if (w->peer >= 0) {
            json_object_set_new(b, "nvlink_peer", json_integer(w->peer));
            json_object_set_new(b, "peer_gbps", json_real(w->nvl_bytes / w->traffic_s / 1e9));
        }
    }
    json_object_set_new(e, "burn", b);
    if (w->err[0])
        ls_entry_fail(e, "failed", w->err);
    else if (w->wrong != 0)
        ls_entry_fail(e, "failed",
                      w->wrong < 0 ? "the output check could not run"
                                   : "the repeated product differed from the first");
    ls_burn_summarize(e);
    return e;
}

static void run_workers(worker_t *w, int n)
{
    pthread_t th[LS_MAX_GPUS];
    int started[LS_MAX_GPUS] = {0};
    for (int i = 0; i < n; i++)
        started[i] = !w[i].err[0] && pthread_create(&th[i], NULL, worker_main, &w[i]) == 0;
    for (int i = 0; i < n; i++)
        if (started[i])
            pthread_join(th[i], NULL);
}

/* Every GPU idle before any buffer is freed: GPU i's NVLink copies write into GPU i+1's
   rx (the last GPU's into GPU 0's, freed first), and a worker that stopped on an error
   returned without waiting for its streams. */
static void drain_all(worker_t *w, int n)
{
    for (int i = 0; i < n; i++)
        if (cudaSetDevice(w[i].dev) == cudaSuccess)
            cudaDeviceSynchronize();
    cudaGetLastError();
}

int ls_measure_burn(json_t *doc, const ls_burn_opts_t *o, char *err, size_t errlen)
{
    static worker_t w[LS_MAX_GPUS];
    char lib[200] = "", why[320] = "";
    int n = o->ngpus;
    int use_cublas = !o->no_cublas && ls_cublas_load(lib, sizeof lib, why, sizeof why) == 0;
    if (!use_cublas && !o->no_cublas)
        ls_warn("burn: %s; the FMA kernel instead", why);
    struct timespec t0;
    memset(w, 0, sizeof w);
    for (int i = 0; i < n; i++) {
        w[i].dev = o->gpus[i], w[i].use_cublas = use_cublas, w[i].seconds = o->seconds;
        w[i].t0 = &t0, w[i].win_t = json_array(), w[i].win_tflops = json_array();
        setup_worker(&w[i]);
    }
    if (!o->no_traffic)
        pair_peers(w, n);
    else
        for (int i = 0; i < n; i++)
            w[i].peer = -1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int devs[LS_MAX_GPUS];
    for (int i = 0; i < n; i++)
        devs[i] = w[i].dev;
    ls_series_t *s = ls_series_for(devs, n, o->period_ms > 0 ? o->period_ms : LS_BURN_PERIOD_MS);
    run_workers(w, n);
    json_t *series = ls_series_stop(s);
    drain_all(w, n);
    int failed = 0;
    for (int i = 0; i < n; i++) {
        json_t *e = burn_entry(&w[i], o, lib, json_incref(json_array_get(series, (size_t)i)));
        failed += strcmp(ls_json_str(e, "status", ""), "ok") != 0;
        ls_doc_add_unique(doc, e);
        free_worker(&w[i]);
    }
    json_decref(series);
    if (failed == n)
        return ls_seterr(err, errlen, "burn failed on every GPU (see the entries' errors)"), -1;
    return 0;
}
