/* Host <-> device copy bandwidth per GPU and per NUMA node: pinned memory through the
   gated timer; pageable memory timed on the CPU (a pageable copy blocks the calling
   thread while the driver stages it, so it cannot be queued behind a gate). Host
   memory is bound to the node and the thread runs on that node's CPUs. */
#include "numa.h"

#include "model/entries.h"
#include "model/entry.h"
#include "figures.h"
#include "gpu.h"
#include "harness.h"
#include "host_pattern.h"
#include "kernels.h"
#include "measure.h"
#include "pattern.h"
#include "model/doc.h"
#include "model/vocab.h"
#include "util/log.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HOST_MAX_LOOPS 32
#define HOST_SAMPLE_MS 40
#define SEED_HOST 0x40570u
#define SEED_DEV 0xDE7u

typedef struct {
    int dev;
    size_t size;
    char *host_src, *host_dst; /* bound to the node */
    void *dev_src, *dev_dst;
    const char *direction;
    unsigned seed_dev; /* what dev_src holds: a new seed each figure (clear_outputs) */
    int figures;
    cudaStream_t pageable_stream[2];
    int mapped; /* host buffers from ls_numa_alloc (else cudaHostAlloc) */
} host_job_t;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static cudaError_t enqueue_host(void *arg, const ls_timer_t *t, int loops)
{
    host_job_t *j = arg;
    cudaError_t rc = cudaSuccess;
    int h2d = strcmp(j->direction, LS_DIR_D2H) != 0, d2h = strcmp(j->direction, LS_DIR_H2D) != 0;
    cudaSetDevice(j->dev);
    for (int i = 0; i < loops && rc == cudaSuccess; i++) {
        if (h2d)
            rc = cudaMemcpyAsync(j->dev_dst, j->host_src, j->size, cudaMemcpyHostToDevice,
                                 t->stream[0]);
        if (d2h && rc == cudaSuccess)
            rc = cudaMemcpyAsync(j->host_dst, j->dev_src, j->size, cudaMemcpyDeviceToHost,
                                 t->stream[1]);
    }
    return rc;
}

typedef struct {
    host_job_t *j;
    int to_device, loops;
    cudaError_t rc;
} pageable_run_t;

static void *pageable_thread(void *arg)
{
    pageable_run_t *r = arg;
    host_job_t *j = r->j;
    cudaStream_t s = j->pageable_stream[r->to_device ? 0 : 1];
    cudaSetDevice(j->dev);
    r->rc = cudaSuccess;
    for (int i = 0; i < r->loops && r->rc == cudaSuccess; i++)
        r->rc = r->to_device
                    ? cudaMemcpyAsync(j->dev_dst, j->host_src, j->size, cudaMemcpyHostToDevice, s)
                    : cudaMemcpyAsync(j->host_dst, j->dev_src, j->size, cudaMemcpyDeviceToHost, s);
    if (r->rc == cudaSuccess)
        r->rc = cudaStreamSynchronize(s);
    return NULL;
}

/* One CPU-timed pageable sample; both directions run from two threads at once. */
static cudaError_t pageable_sample(host_job_t *j, int loops, double *ms)
{
    pageable_run_t up = {j, 1, loops, cudaSuccess}, down = {j, 0, loops, cudaSuccess};
    double t0 = now_ms();
    if (strcmp(j->direction, LS_DIR_BIDIR) == 0) {
        pthread_t th;
        if (pthread_create(&th, NULL, pageable_thread, &down) != 0)
            return cudaErrorUnknown;
        pageable_thread(&up);
        pthread_join(th, NULL);
    } else if (strcmp(j->direction, LS_DIR_H2D) == 0) {
        pageable_thread(&up);
    } else {
        pageable_thread(&down);
    }
    *ms = now_ms() - t0;
    return up.rc != cudaSuccess ? up.rc : down.rc;
}

static int run_pageable(host_job_t *j, int n, double *ms, int *loops_out, char *err, size_t errlen)
{
    double one = 0, warm = 0;
    cudaError_t rc = pageable_sample(j, 1, &one);
    int loops = ls_pick_loops(one,
                              getenv("LS_SAMPLE_MS") ? ls_env_int("LS_SAMPLE_MS", 10, 1, 10000)
                                                     : HOST_SAMPLE_MS,
                              HOST_MAX_LOOPS);
    if (rc == cudaSuccess)
        rc = pageable_sample(j, loops, &warm);
    for (int i = 0; i < n && rc == cudaSuccess; i++)
        rc = pageable_sample(j, loops, &ms[i]);
    *loops_out = loops;
    if (rc != cudaSuccess)
        return ls_seterr(err, errlen, "%s", cudaGetErrorString(rc));
    return 0;
}

/* What the copies left: the device buffer (H2D) checked on the device, the host
   buffer (D2H) checked on the host against the figure's own seed, over threads. */
static long long verify_host(host_job_t *j)
{
    long long wrong = 0;
    if (strcmp(j->direction, LS_DIR_D2H) != 0)
        wrong = ls_count_wrong(j->dev, j->dev_dst, j->size, SEED_HOST, NULL);
    if (wrong == 0 && strcmp(j->direction, LS_DIR_H2D) != 0)
        wrong = ls_host_count_wrong(j->host_dst, j->size, j->seed_dev);
    return wrong;
}

/* Before each figure: the device destination zeroed, and the device source filled with
   a seed of its own, so a host destination the copies did not write (the figure before's
   data) fails the check with no 512 MiB memset on the CPU (55 ms a figure). */
static void clear_outputs(host_job_t *j)
{
    j->seed_dev = SEED_DEV + (unsigned)++j->figures;
    cudaSetDevice(j->dev);
    cudaMemset(j->dev_dst, 0, j->size);
    ls_fill(j->dev, j->dev_src, j->size, j->seed_dev);
    cudaDeviceSynchronize();
}

static void measure_case(json_t *doc, host_job_t *j, int node, int local, int bound,
                         const char *direction, int pinned, int n)
{
    char err[256] = "";
    j->direction = direction;
    json_t *e = ls_host_entry(j->dev, node, direction, pinned ? "pinned" : "pageable", local,
                              j->size);
    json_object_set_new(e, "numa_bound", json_boolean(bound));
    /* Share of the host buffers in transparent huge pages (fewer translations for the
       DMA engines and the IOMMU); absent where unknown or not linkscope's own mapping. */
    double src_huge = j->mapped ? ls_numa_huge_share(j->host_src) : -1;
    double dst_huge = j->mapped ? ls_numa_huge_share(j->host_dst) : -1;
    if (src_huge >= 0 && dst_huge >= 0)
        json_object_set_new(e, "huge_page_share", json_real((src_huge + dst_huge) / 2));
    ls_progress_detail("host: %s %s GPU%d node %d", direction, pinned ? "pinned" : "pageable",
                       j->dev, node);
    double *ms = calloc((size_t)n, sizeof *ms);
    int devs[2] = {j->dev, j->dev}, loops = 1, st = -1;
    ls_timer_t t;
    memset(&t, 0, sizeof t);
    clear_outputs(j);
    ls_telemetry_t *tele = ls_telemetry_for(&j->dev, 1,
                                            LS_TELEMETRY_PCIE); /* the copies cross PCIe */
    if (!ms) {
        snprintf(err, sizeof err, "out of memory");
    } else if (pinned) {
        cudaError_t rc = ls_timer_init(&t, devs, 2);
        /* PCIe copies of both directions vary more from sample to sample than NVLink
           ones: longer samples (unless LS_SAMPLE_MS says otherwise). */
        if (!getenv("LS_SAMPLE_MS"))
            t.target_ms = HOST_SAMPLE_MS;
        if (rc == cudaSuccess)
            st = ls_timer_run(&t, enqueue_host, j, HOST_MAX_LOOPS, n, ms, &loops, err, sizeof err);
        else
            snprintf(err, sizeof err, "%s", cudaGetErrorString(rc));
    } else {
        st = run_pageable(j, n, ms, &loops, err, sizeof err);
    }
    long long wrong = st == 0 ? verify_host(j) : -1;
    ls_telemetry_stop(tele, e);
    if (st != 0) {
        ls_entry_fail(e, st == -2 ? "timeout" : "failed", err);
        cudaGetLastError();
    } else if (wrong != 0) {
        snprintf(err, sizeof err, wrong < 0 ? "verification could not run" : "%lld words wrong",
                 wrong);
        ls_entry_fail(e, "failed", err);
        json_object_set_new(e, "verified", json_false());
    } else {
        ls_entry_set_bandwidth(e, ms, (size_t)n,
                               (double)ls_host_counted_bytes(direction, j->size, loops));
        json_object_set_new(e, "loops", json_integer(loops));
        json_object_set_new(e, "verified", json_true());
    }
    ls_timer_free(&t);
    free(ms);
    ls_doc_add_unique(doc, e);
}

static void fail_node(json_t *doc, int dev, int node, int local, size_t size, const char *why)
{
    static const char *const dirs[] = {"h2d", "d2h", "bidir"};
    for (int p = 1; p >= 0; p--)
        for (int d = 0; d < 3; d++) {
            json_t *e = ls_host_entry(dev, node, dirs[d], p ? "pinned" : "pageable", local, size);
            ls_entry_fail(e, "failed", why);
            ls_doc_add_unique(doc, e);
        }
}

/* Tuning comparison (LS_HOST_ALLOC=1): pinned buffers from cudaHostAlloc, not bound to
   a node; pageable figures are left out. */
static void measure_node_cudahost(json_t *doc, int dev, int node, int local, size_t size, int n)
{
    static const char *const dirs[] = {"h2d", "d2h", "bidir"};
    host_job_t j;
    memset(&j, 0, sizeof j);
    j.dev = dev;
    j.size = size;
    char line[256] = "";
    if (ls_host_alloc((void **)&j.host_src, size, cudaHostAllocPortable) == cudaSuccess &&
        ls_host_alloc((void **)&j.host_dst, size, cudaHostAllocPortable) == cudaSuccess &&
        (j.dev_src = ls_dev_alloc(dev, size, line, sizeof line)) &&
        (j.dev_dst = ls_dev_alloc(dev, size, line, sizeof line)) &&
        ls_fill(dev, j.dev_src, size, SEED_DEV) == cudaSuccess) {
        ls_host_fill_pattern(j.host_src, size, SEED_HOST);
        for (int d = 0; d < 3; d++)
            measure_case(doc, &j, node, local, 0, dirs[d], 1, n);
    } else {
        fail_node(doc, dev, node, local, size, line[0] ? line : "cannot allocate");
    }
    ls_host_free(j.host_src);
    ls_host_free(j.host_dst);
    ls_dev_free(dev, j.dev_src);
    ls_dev_free(dev, j.dev_dst);
}

static void measure_node(json_t *doc, int dev, int node, int local, size_t size, int n)
{
    if (ls_env_int("LS_HOST_ALLOC", 0, 0, 1)) {
        measure_node_cudahost(doc, dev, node, local, size, n);
        return;
    }
    static const char *const dirs[] = {"h2d", "d2h", "bidir"};
    host_job_t j;
    memset(&j, 0, sizeof j);
    j.dev = dev;
    j.size = size;
    int bound_src = 0, bound_dst = 0;
    char line[256] = "";
    j.mapped = 1;
    j.host_src = ls_numa_alloc(size, node, &bound_src);
    j.host_dst = j.host_src ? ls_numa_alloc(size, node, &bound_dst) : NULL;
    j.dev_src = j.host_dst ? ls_dev_alloc(dev, size, line, sizeof line) : NULL;
    j.dev_dst = j.dev_src ? ls_dev_alloc(dev, size, line, sizeof line) : NULL;
    cudaSetDevice(dev);
    if (!j.dev_dst || cudaStreamCreateWithFlags(&j.pageable_stream[0], cudaStreamNonBlocking) ||
        cudaStreamCreateWithFlags(&j.pageable_stream[1], cudaStreamNonBlocking) ||
        ls_fill(dev, j.dev_src, size, SEED_DEV)) {
        fail_node(doc, dev, node, local, size, line[0] ? line : "cannot allocate host memory");
    } else {
        ls_host_fill_pattern(j.host_src, size, SEED_HOST);
        int bound = bound_src && bound_dst;
        /* Pinned: the same node-bound pages, registered (page-locked) with the driver. */
        int reg_src = ls_host_register(j.host_src, size, cudaHostRegisterPortable) == cudaSuccess;
        int reg_dst = reg_src &&
                      ls_host_register(j.host_dst, size, cudaHostRegisterPortable) == cudaSuccess;
        if (reg_dst) {
            for (int d = 0; d < 3; d++)
                measure_case(doc, &j, node, local, bound, dirs[d], 1, n);
            ls_host_unregister(j.host_dst);
        }
        if (reg_src) /* also when the second one was refused: no page left pinned */
            ls_host_unregister(j.host_src);
        if (!reg_dst) {
            cudaGetLastError();
            for (int d = 0; d < 3; d++) {
                json_t *e = ls_host_entry(dev, node, dirs[d], "pinned", local, size);
                ls_entry_fail(e, "failed", "cudaHostRegister refused the host buffer");
                ls_doc_add_unique(doc, e);
            }
        }
        for (int d = 0; d < 3; d++)
            measure_case(doc, &j, node, local, bound, dirs[d], 0, n);
    }
    for (int s = 0; s < 2; s++)
        if (j.pageable_stream[s])
            cudaStreamDestroy(j.pageable_stream[s]);
    ls_dev_free(dev, j.dev_src);
    ls_dev_free(dev, j.dev_dst);
    ls_numa_free(j.host_src, size);
    ls_numa_free(j.host_dst, size);
}

/* GPUs on different NUMA nodes are measured at the same time (issue 14), one thread
   each: at step k the GPU of the batch's i-th node uses memory node (i + k) mod nodes,
   with a barrier between steps, so no two threads bind the same memory node or CPUs at
   once. A GPU whose node is unknown, or a machine of one node, goes alone. */
typedef struct {
    int dev, gpu_node, slot; /* slot: the GPU's node's index in nodes[] */
    int nnodes;
    const int *nodes;
    size_t size;
    int n;
    json_t *doc;             /* its own, merged after the batch */
    pthread_barrier_t *step; /* NULL: alone */
    struct start *start;     /* threads wait here until every one of the batch started */
    pthread_t thread;
    int started;
} host_gpu_t;

/* 0 wait, 1 go, -1 cancelled (a thread of the batch could not start). */
struct start {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int state;
};

static int wait_start(struct start *st)
{
    pthread_mutex_lock(&st->lock);
    while (st->state == 0)
        pthread_cond_wait(&st->cond, &st->lock);
    int go = st->state > 0;
    pthread_mutex_unlock(&st->lock);
    return go;
}

static void set_start(struct start *st, int state)
{
    pthread_mutex_lock(&st->lock);
    st->state = state;
    pthread_cond_broadcast(&st->cond);
    pthread_mutex_unlock(&st->lock);
}

static void *host_gpu_thread(void *arg)
{
    host_gpu_t *h = arg;
    if (h->start && !wait_start(h->start))
        return NULL;
    cpu_set_t saved;
    int have_saved = sched_getaffinity(0, sizeof saved, &saved) == 0;
    for (int k = 0; k < h->nnodes; k++) {
        int node = h->nodes[(h->slot + k) % h->nnodes];
        int local = h->gpu_node >= 0 ? node == h->gpu_node : h->nnodes == 1 ? 1 : -1;
        cpu_set_t cpus;
        if (ls_numa_node_cpus(NULL, node, &cpus) == 0)
            sched_setaffinity(0, sizeof cpus, &cpus);
        measure_node(h->doc, h->dev, node, local, h->size, h->n);
        if (have_saved)
            sched_setaffinity(0, sizeof saved, &saved);
        if (h->step)
            pthread_barrier_wait(h->step);
    }
    return NULL;
}

/* One batch: its GPUs at once (a barrier per memory-node step; batch[0] on the calling
   thread), entries in GPU order; one after another when threads cannot be had. */
static void measure_batch(json_t *doc, host_gpu_t *batch, int m)
{
    pthread_barrier_t step;
    struct start st = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    int have_step = m > 1 && pthread_barrier_init(&step, NULL, (unsigned)m) == 0;
    int together = have_step;
    for (int i = 0; i < m; i++) {
        batch[i].doc = json_pack("{s:[]}", "measurements");
        batch[i].step = together ? &step : NULL;
        batch[i].start = together ? &st : NULL;
    }
    for (int i = 1; i < m && together; i++)
        together = pthread_create(&batch[i].thread, NULL, host_gpu_thread, &batch[i]) == 0 &&
                   (batch[i].started = 1);
    if (m > 1)
        set_start(&st, together ? 1 : -1); /* cancelled threads return at once */
    if (together)
        host_gpu_thread(&batch[0]);
    for (int i = 0; i < m; i++)
        if (batch[i].started)
            pthread_join(batch[i].thread, NULL);
    for (int i = 0; i < m && !together; i++) { /* one after another, here */
        batch[i].step = NULL;
        batch[i].start = NULL;
        host_gpu_thread(&batch[i]);
    }
    for (int i = 0; i < m; i++) {
        size_t k;
        json_t *e;
        json_array_foreach(json_object_get(batch[i].doc, "measurements"), k, e)
            ls_doc_add_unique(doc, json_incref(e));
        json_decref(batch[i].doc);
    }
    if (have_step)
        pthread_barrier_destroy(&step);
}

static int node_slot(const int *nodes, int nnodes, int node)
{
    for (int k = 0; k < nnodes; k++)
        if (nodes[k] == node)
            return k;
    return -1;
}

int ls_measure_host(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen)
{
    int nodes[LS_MAX_NODES];
    int nnodes = ls_numa_nodes(NULL, nodes, LS_MAX_NODES);
    host_gpu_t all[LS_MAX_GPUS];
    int done[LS_MAX_GPUS] = {0};
    for (int x = 0; x < o->ngpus; x++) {
        char bus[32];
        int dev = o->gpus[x];
        int gpu_node = ls_gpu_bus_id(dev, bus, sizeof bus) == 0 ? ls_numa_of_pci(NULL, bus) : -1;
        all[x] = (host_gpu_t){.dev = dev,
                              .gpu_node = gpu_node,
                              .slot = node_slot(nodes, nnodes, gpu_node),
                              .nnodes = nnodes,
                              .nodes = nodes,
                              .size = o->size,
                              .n = o->samples};
    }
    for (int x = 0; x < o->ngpus; x++) {
        if (done[x])
            continue;
        host_gpu_t batch[LS_MAX_NODES];
        int m = 0, used[LS_MAX_NODES] = {0};
        for (int y = x; y < o->ngpus && m < LS_MAX_NODES; y++) {
            int slot = all[y].slot;
            if (done[y] || (m > 0 && (slot < 0 || used[slot] || nnodes == 1)))
                continue;
            if (slot < 0) /* unknown node: alone, from node 0 as before */
                all[y].slot = 0;
            else
                used[slot] = 1;
            batch[m++] = all[y];
            done[y] = 1;
            if (slot < 0)
                break;
        }
        measure_batch(doc, batch, m);
    }
    ls_progress_done();
    (void)err, (void)errlen;
    return 0;
}
