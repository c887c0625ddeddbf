/* Latency between GPUs and to the host, by four labelled definitions:
   gpu_pingpong   a flag written into the other side's memory and polled there, many
                  round trips, reported per one-way trip (GPU global timer);
   pointer_chase  dependent 8-byte loads of the other side's memory, per access;
   gpu_copy       back-to-back 4-byte cudaMemcpyPeerAsync, GPU-timed per copy
                  (p2pBandwidthLatencyTest's GPU matrix);
   cpu_copy       host time per cudaMemcpyPeerAsync call of the same loop
                  (p2pBandwidthLatencyTest's CPU matrix). */
#include "model/entries.h"
#include "model/doc.h"
#include "model/entry.h"
#include "figures.h"
#include "harness.h"
#include "kernels.h"
#include "measure.h"
#include "util/log.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHAIN_BYTES (2u << 20) /* one 2 MiB page: the chase measures memory, not TLB misses */
#define CHAIN_STRIDE_WORDS 16  /* 128 B between nodes: one cache line each */
#define PINGPONG_TIMEOUT_MS 5000u

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* A random cycle through all nodes (Sattolo's algorithm), fixed seed. */
static unsigned long long *build_chain(void)
{
    size_t words = CHAIN_BYTES / 8, nodes = words / CHAIN_STRIDE_WORDS;
    unsigned long long *chain = calloc(words, 8);
    size_t *order = malloc(nodes * sizeof *order);
    if (!chain || !order) {
        free(chain);
        free(order);
        return NULL;
    }
    for (size_t i = 0; i < nodes; i++)
        order[i] = i;
    unsigned long long rng = 0x9E3779B97F4A7C15ull;
    int sequential = ls_env_int("LS_CHASE_ORDER", 0, 0, 1); /* tuning: 1 = node i -> i + 1 */
    for (size_t i = nodes - 1; i > 0 && !sequential; i--) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        size_t k = (size_t)(rng % i);
        size_t tmp = order[i];
        order[i] = order[k];
        order[k] = tmp;
    }
    for (size_t i = 0; i < nodes; i++)
        chain[order[i] * CHAIN_STRIDE_WORDS] = order[(i + 1) % nodes] * CHAIN_STRIDE_WORDS;
    free(order);
    return chain;
}

static void finish_entry(json_t *doc, json_t *e, const double *us, int n, const char *fail)
{
    if (fail) {
        ls_entry_fail(e, strstr(fail, "timed out") ? "timeout" : "failed", fail);
    } else {
        ls_entry_set_samples(e, us, (size_t)n);
        json_object_set_new(e, "verified", json_true());
    }
    ls_doc_add_unique(doc, e);
}

/* Ping-pong; flags either in each GPU's memory (p2p) or both in mapped host memory. */
static const char *pingpong(int a, int b, int through_host, int n, double *us, char *buf,
                            size_t len)
{
    int *flag_a = NULL, *flag_b = NULL;
    volatile int *host = NULL;
    unsigned long long *result = NULL;
    cudaStream_t sa = NULL, sb = NULL;
    const char *fail = NULL;
    cudaError_t rc = ls_host_alloc((void **)&result, 64,
                                   cudaHostAllocMapped | cudaHostAllocPortable);
    if (rc == cudaSuccess && through_host) {
        rc = ls_host_alloc((void **)&host, 4096, cudaHostAllocMapped | cudaHostAllocPortable);
        flag_a = (int *)host;
        flag_b = (int *)host + 256; /* separate 1 KiB apart: never one cache line */
    } else if (rc == cudaSuccess) {
        char why[128];
        flag_a = ls_dev_alloc(a, 256, why, sizeof why);
        flag_b = flag_a ? ls_dev_alloc(b, 256, why, sizeof why) : NULL;
        rc = flag_b ? cudaSuccess : cudaErrorMemoryAllocation;
    }
    if (rc == cudaSuccess) {
        cudaSetDevice(a);
        rc = cudaStreamCreateWithFlags(&sa, cudaStreamNonBlocking);
        cudaSetDevice(b);
        if (rc == cudaSuccess)
            rc = cudaStreamCreateWithFlags(&sb, cudaStreamNonBlocking);
    }
    for (int i = -1; i < n && rc == cudaSuccess && !fail; i++) { /* i = -1: warm-up */
        if (through_host) {
            host[0] = 0;
            host[256] = 0;
        } else {
            cudaSetDevice(a);
            rc = cudaMemset(flag_a, 0, 256);
            cudaSetDevice(b);
            if (rc == cudaSuccess)
                rc = cudaMemset(flag_b, 0, 256);
            if (rc == cudaSuccess)
                rc = cudaDeviceSynchronize();
            cudaSetDevice(a);
            if (rc == cudaSuccess)
                rc = cudaDeviceSynchronize();
        }
        result[0] = result[1] = 0;
        /* b's kernel spins until a's is launched: no other thread's memory call between */
        ls_spin_enter();
        cudaSetDevice(b);
        if (rc == cudaSuccess)
            rc = ls_k_pingpong(flag_b, flag_a, LS_LATENCY_ROUND_TRIPS, 0, NULL, PINGPONG_TIMEOUT_MS,
                               sb);
        cudaSetDevice(a);
        if (rc == cudaSuccess)
            rc = ls_k_pingpong(flag_a, flag_b, LS_LATENCY_ROUND_TRIPS, 1, result,
                               PINGPONG_TIMEOUT_MS, sa);
        cudaError_t s = cudaStreamSynchronize(sa);
        rc = rc == cudaSuccess ? s : rc;
        s = cudaStreamSynchronize(sb); /* both, even after a failed launch: nothing left spinning */
        rc = rc == cudaSuccess ? s : rc;
        ls_spin_leave();
        if (rc == cudaSuccess && result[1])
            fail = "a ping-pong wait timed out (the flag writes did not arrive)";
        else if (rc == cudaSuccess && i >= 0)
            us[i] = ls_pingpong_one_way_us((double)result[0], LS_LATENCY_ROUND_TRIPS);
    }
    if (rc != cudaSuccess && !fail) {
        snprintf(buf, len, "%s", cudaGetErrorString(rc));
        fail = buf;
        cudaGetLastError();
    }
    if (sa) {
        cudaSetDevice(a);
        cudaStreamDestroy(sa);
    }
    if (sb) {
        cudaSetDevice(b);
        cudaStreamDestroy(sb);
    }
    if (through_host) {
        ls_host_free((void *)host);
    } else {
        ls_dev_free(a, flag_a);
        ls_dev_free(b, flag_b);
    }
    ls_host_free(result);
    return fail;
}

/* GPU a chases the chain held by GPU b (b >= 0) or by pinned host memory (b < 0). */
static const char *chase(int a, int b, const unsigned long long *chain_host, int n, double *us,
                         char *buf, size_t len)
{
    unsigned long long *chain = NULL, *result = NULL;
    cudaError_t rc = ls_host_alloc((void **)&result, 64,
                                   cudaHostAllocMapped | cudaHostAllocPortable);
    if (rc == cudaSuccess && b >= 0) {
        char why[128];
        chain = ls_dev_alloc(b, CHAIN_BYTES, why, sizeof why);
        rc = chain ? cudaMemcpy(chain, chain_host, CHAIN_BYTES, cudaMemcpyHostToDevice)
                   : cudaErrorMemoryAllocation;
    } else if (rc == cudaSuccess) {
        rc = ls_host_alloc((void **)&chain, CHAIN_BYTES,
                           cudaHostAllocMapped | cudaHostAllocPortable);
        if (rc == cudaSuccess)
            memcpy(chain, chain_host, CHAIN_BYTES);
    }
    cudaSetDevice(a);
    /* LS_CHASE_LOAD picks the load (0 volatile, 1 L2-only, 2 default); with
       LS_CHASE_SPREAD=1 sample i runs on block i of a grid of one block per SM, so the
       samples cover SMs at different distances from the links. */
    int mode = ls_env_int("LS_CHASE_LOAD", 0, 0, 2);
    int spread = ls_env_int("LS_CHASE_SPREAD", 1, 0, 1);
    int blocks = spread ? ls_sms(a) : 1;
    for (int i = -1; i < n && rc == cudaSuccess; i++) {
        rc = ls_k_chase(chain, LS_LATENCY_CHASE_STEPS, mode, blocks,
                        spread && i >= 0 ? i % blocks : 0, result, 0);
        if (rc == cudaSuccess)
            rc = cudaDeviceSynchronize();
        if (rc == cudaSuccess && i >= 0)
            us[i] = ls_per_access_us((double)result[0], LS_LATENCY_CHASE_STEPS);
    }
    const char *fail = NULL;
    if (rc != cudaSuccess) {
        snprintf(buf, len, "%s", cudaGetErrorString(rc));
        fail = buf;
        cudaGetLastError();
    }
    if (b >= 0)
        ls_dev_free(b, chain);
    else
        ls_host_free(chain);
    ls_host_free(result);
    return fail;
}

typedef struct {
    int a, b;
    void *src, *dst;
    double cpu_ms;
} small_copy_t;

static cudaError_t enqueue_small(void *arg, const ls_timer_t *t, int loops)
{
    small_copy_t *c = arg;
    cudaSetDevice(c->a);
    double t0 = now_ms();
    cudaError_t rc = cudaSuccess;
    for (int i = 0; i < loops && rc == cudaSuccess; i++)
        rc = cudaMemcpyPeerAsync(c->dst, c->b, c->src, c->a, 4, t->stream[0]);
    c->cpu_ms = now_ms() - t0;
    return rc;
}

/* gpu_copy and cpu_copy from the same gated loops of 4-byte copies a -> b. */
static const char *small_copies(int a, int b, int n, double *gpu_us, double *cpu_us, char *buf,
                                size_t len)
{
    small_copy_t c = {a, b, NULL, NULL, 0};
    ls_timer_t t;
    memset(&t, 0, sizeof t);
    int devs[1] = {a};
    c.src = ls_dev_alloc(a, 256, buf, len);
    c.dst = c.src ? ls_dev_alloc(b, 256, buf, len) : NULL;
    const char *fail = c.dst ? NULL : buf;
    cudaError_t rc = fail ? cudaSuccess : ls_timer_init(&t, devs, 1);
    for (int i = -1; i < n && rc == cudaSuccess && !fail; i++) {
        double ms = 0;
        int late = 0;
        rc = ls_timer_sample(&t, enqueue_small, &c, LS_LATENCY_COPIES, &ms, &late);
        if (late)
            fail = "the gate kernel timed out";
        else if (rc == cudaSuccess && i >= 0) {
            gpu_us[i] = ms * 1e3 / LS_LATENCY_COPIES;
            cpu_us[i] = c.cpu_ms * 1e3 / LS_LATENCY_COPIES;
        }
    }
    if (rc != cudaSuccess && !fail) {
        snprintf(buf, len, "%s", cudaGetErrorString(rc));
        fail = buf;
        cudaGetLastError();
    }
    ls_timer_free(&t);
    ls_dev_free(a, c.src);
    ls_dev_free(b, c.dst);
    return fail;
}

static int set_peer(int a, int b, int on)
{
    int can = 0;
    if (cudaDeviceCanAccessPeer(&can, a, b) != cudaSuccess || !can)
        return 0;
    cudaSetDevice(a);
    ls_mem_enter(); /* maps or unmaps b's memory: a memory call (harness.h) */
    cudaError_t rc = on ? cudaDeviceEnablePeerAccess(b, 0) : cudaDeviceDisablePeerAccess(b);
    ls_mem_leave();
    if (rc == cudaErrorPeerAccessAlreadyEnabled || rc == cudaErrorPeerAccessNotEnabled)
        rc = cudaSuccess;
    cudaGetLastError();
    return rc == cudaSuccess;
}

/* Small copies a -> b with peer access enabled (through_host 0) or disabled (1). */
static void measure_small(json_t *doc, int a, int b, int pair_p2p, int through_host, int n,
                          double *g, double *c)
{
    char buf[256];
    int devs[2] = {a, b};
    json_t *eg = ls_latency_entry(a, b, "gpu_copy", pair_p2p, through_host, 4);
    json_t *ec = ls_latency_entry(a, b, "cpu_copy", pair_p2p, through_host, 4);
    ls_progress_detail("latency: small copies GPU%d -> GPU%d (%s)", a, b,
                       through_host ? "P2P disabled" : "P2P");
    ls_telemetry_t *tele = ls_telemetry_for(devs, 2, 0);
    const char *fail = small_copies(a, b, n, g, c, buf, sizeof buf);
    ls_telemetry_stop(tele, eg);
    ls_entry_share_telemetry(ec, eg);
    finish_entry(doc, eg, g, n, fail);
    finish_entry(doc, ec, c, n, fail);
}

/* Entry e measured by ping-pong (chain NULL) or pointer chase between a and b (b -1:
   a reads host memory), the GPUs' telemetry around it, then finished into doc. */
static void timed_entry(json_t *doc, json_t *e, int a, int b, int through_host,
                        const unsigned long long *chain, int n, double *us)
{
    char buf[256];
    int devs[2] = {a, b};
    ls_telemetry_t *tele = ls_telemetry_for(devs, b < 0 ? 1 : 2, 0);
    const char *fail = chain ? chase(a, b, chain, n, us, buf, sizeof buf)
                             : pingpong(a, b, through_host, n, us, buf, sizeof buf);
    ls_telemetry_stop(tele, e);
    finish_entry(doc, e, us, n, fail);
}

static void measure_pair(json_t *doc, int a, int b, int p2p, int n, double *us, double *us2,
                         const unsigned long long *chain)
{
    for (int through_host = 0; through_host < 2; through_host++) {
        if (!through_host && !p2p)
            continue;
        json_t *e = ls_latency_entry(a, b, "gpu_pingpong", p2p, through_host, 4);
        ls_progress_detail("latency: ping-pong GPU%d <-> GPU%d%s", a, b,
                           through_host ? " through host" : "");
        timed_entry(doc, e, a, b, through_host, NULL, n, us);
    }
    if (p2p) {
        json_t *e = ls_latency_entry(a, b, "pointer_chase", 1, 0, 8);
        ls_progress_detail("latency: pointer chase GPU%d reads GPU%d", a, b);
        timed_entry(doc, e, a, b, 0, chain, n, us);
        measure_small(doc, a, b, 1, 0, n, us, us2);
    }
    /* P2P disabled: the driver stages the small copies through host memory. */
    if (p2p) {
        set_peer(a, b, 0);
        set_peer(b, a, 0);
    }
    measure_small(doc, a, b, p2p, 1, n, us, us2);
    if (p2p) {
        set_peer(a, b, 1);
        set_peer(b, a, 1);
    }
}

/* One pair of a round, both orders, on its own thread into its own document (pairs of a
   round share no GPU, so their peer-access switching never meets). */
typedef struct {
    int a, b, n, index;
    const unsigned long long *chain;
    json_t *doc;
    pthread_t thread;
    int started;
} pair_job_t;

static void *pair_thread(void *arg)
{
    pair_job_t *j = arg;
    double *us = calloc((size_t)j->n, sizeof *us), *us2 = calloc((size_t)j->n, sizeof *us2);
    for (int order = 0; order < 2 && us && us2; order++) {
        int a = order ? j->b : j->a, b = order ? j->a : j->b;
        int p2p = set_peer(a, b, 1) && set_peer(b, a, 1);
        measure_pair(j->doc, a, b, p2p, j->n, us, us2, j->chain);
    }
    free(us), free(us2);
    return NULL;
}

/* The pairs pa[k], pb[k] (indices into o->gpus) at the same time, their entries added to
   doc in pair order after all are done. */
static void measure_round(json_t *doc, const ls_measure_opts_t *o, const int *pa, const int *pb,
                          int npairs, int index, void *chain_ctx)
{
    const unsigned long long *chain = chain_ctx; /* the pointer chase's chain */
    pair_job_t *jobs = calloc((size_t)npairs, sizeof *jobs);
    if (!jobs)
        return;
    for (int k = 0; k < npairs; k++) {
        pair_job_t *j = &jobs[k];
        *j = (pair_job_t){.a = o->gpus[pa[k]],
                          .b = o->gpus[pb[k]],
                          .n = o->samples,
                          .index = index,
                          .chain = chain,
                          .doc = json_pack("{s:[]}", "measurements")};
        if (npairs == 1 || pthread_create(&j->thread, NULL, pair_thread, j) != 0)
            pair_thread(j); /* alone, or no thread to be had: here */
        else
            j->started = 1;
    }
    for (int k = 0; k < npairs; k++) {
        if (jobs[k].started)
            pthread_join(jobs[k].thread, NULL);
        size_t i;
        json_t *e;
        json_array_foreach(json_object_get(jobs[k].doc, "measurements"), i, e) {
            json_object_set_new(e, "round",
                                json_pack("{s:i, s:i}", "index", index, "pairs", npairs));
            ls_doc_add_unique(doc, json_incref(e));
        }
        json_decref(jobs[k].doc);
    }
    free(jobs);
}

int ls_measure_latency(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen)
{
    int n = o->samples;
    double *us = calloc((size_t)n, sizeof *us);
    unsigned long long *chain = build_chain();
    if (!us || !chain) {
        free(us), free(chain);
        ls_seterr(err, errlen, "out of memory");
        return LS_EXIT_NOGPU;
    }
    for (int x = 0; x < o->ngpus; x++) {
        int a = o->gpus[x];
        json_t *e = ls_latency_entry(a, LS_HOST_SIDE, "pointer_chase", 0, 1, 8);
        ls_progress_detail("latency: pointer chase GPU%d reads host memory", a);
        timed_entry(doc, e, a, -1, 1, chain, n, us);
    }
    ls_measure_each_round(doc, o, measure_round, chain);
    ls_progress_done();
    free(us), free(chain);
    return 0;
}
