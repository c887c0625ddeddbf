/* P2P bandwidth for every ordered pair of the chosen GPUs: copy engine, SM copy
   kernels reading from and writing to the peer, and copies staged through pinned host
   memory; one direction and both directions; every copy verified after. */
#include "model/entries.h"
#include "model/doc.h"
#include "model/entry.h"
#include "figures.h"
#include "harness.h"
#include "kernels.h"
#include "measure.h"
#include "model/vocab.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Staged copies move pieces of 1/64 of the copy (at least 8 MiB) through a ring of
   pinned host slots, D2H of one piece overlapping H2D of the previous ones. */
#define STAGE_MIN_CHUNK (8ull << 20)
#define STAGE_PIECES 64
#define STAGE_SLOTS 8
#define STAGE_MAX_LOOPS 4        /* keeps the queued operations well inside the queue */
#define COPY_MAX_LOOPS 64

typedef struct {
    int dev[2];          /* [0] = a (source of direction 0), [1] = b */
    void *src[2], *dst[2];
    void *ring[2][STAGE_SLOTS]; /* pinned host slots per direction */
    size_t size;
    const char *method;
    int bidir;
    int grid[2], block[2];
    size_t chunk;
    int nchunks;
    long long piece[2];                    /* pieces queued in this sample, per direction */
    cudaEvent_t d2h_ev[2][STAGE_SLOTS];    /* slot filled (source side) */
    cudaEvent_t h2d_ev[2][STAGE_SLOTS];    /* slot drained (destination side) */
} p2p_job_t;

/* Timer streams: 0 on a, 1 on b, 2 on b, 3 on a. Direction 0 (a -> b) uses stream 0 on
   the source side and 1 on the destination side; direction 1 (b -> a) uses 2 and 3. */
static int src_stream(int d) { return d == 0 ? 0 : 2; }
static int dst_stream(int d) { return d == 0 ? 1 : 3; }

static cudaError_t enqueue_staged(p2p_job_t *j, const ls_timer_t *t, int d)
{
    int s_src = src_stream(d), s_dst = dst_stream(d);
    int sdev = j->dev[d], ddev = j->dev[1 - d];
    cudaError_t rc = cudaSuccess;
    for (int k = 0; k < j->nchunks && rc == cudaSuccess; k++) {
        size_t off = (size_t)k * j->chunk;
        size_t len = j->size - off < j->chunk ? j->size - off : j->chunk;
        long long c = j->piece[d]++;
        int slot = (int)(c % STAGE_SLOTS);
        char *host = j->ring[d][slot];
        cudaSetDevice(sdev);
        if (c >= STAGE_SLOTS) /* the slot's previous piece must have left for the GPU */
            rc = cudaStreamWaitEvent(t->stream[s_src], j->h2d_ev[d][slot], 0);
        if (rc == cudaSuccess)
            rc = cudaMemcpyAsync(host, (char *)j->src[d] + off, len, cudaMemcpyDeviceToHost,
                                 t->stream[s_src]);
        if (rc == cudaSuccess)
            rc = cudaEventRecord(j->d2h_ev[d][slot], t->stream[s_src]);
        cudaSetDevice(ddev);
        if (rc == cudaSuccess)
            rc = cudaStreamWaitEvent(t->stream[s_dst], j->d2h_ev[d][slot], 0);
        if (rc == cudaSuccess)
            rc = cudaMemcpyAsync((char *)j->dst[1 - d] + off, host, len, cudaMemcpyHostToDevice,
                                 t->stream[s_dst]);
        if (rc == cudaSuccess)
            rc = cudaEventRecord(j->h2d_ev[d][slot], t->stream[s_dst]);
    }
    return rc;
}

static cudaError_t enqueue_direction(p2p_job_t *j, const ls_timer_t *t, int d)
{
    int a = j->dev[d], b = j->dev[1 - d];
    void *src = j->src[d], *dst = j->dst[1 - d];
    if (strcmp(j->method, "ce") == 0) {
        /* Issued on the source's stream: the copy engine pushes (writes) to the peer.
           LS_CE_API=1 uses cudaMemcpyAsync on the unified address space instead. */
        cudaSetDevice(a);
        if (ls_env_int("LS_CE_API", 0, 0, 1))
            return cudaMemcpyAsync(dst, src, j->size, cudaMemcpyDefault, t->stream[src_stream(d)]);
        return cudaMemcpyPeerAsync(dst, b, src, a, j->size, t->stream[src_stream(d)]);
    }
    if (strcmp(j->method, "sm_write") == 0) {
        cudaSetDevice(a);
        return ls_k_copy(dst, src, j->size, j->grid[d], j->block[d], t->stream[src_stream(d)]);
    }
    if (strcmp(j->method, "sm_read") == 0) {
        cudaSetDevice(b);
        return ls_k_copy(dst, src, j->size, j->grid[1 - d], j->block[1 - d],
                         t->stream[dst_stream(d)]);
    }
    return enqueue_staged(j, t, d);
}

static cudaError_t enqueue_p2p(void *arg, const ls_timer_t *t, int loops)
{
    p2p_job_t *j = arg;
    cudaError_t rc = cudaSuccess;
    j->piece[0] = j->piece[1] = 0; /* the last sample has drained every slot */
    for (int i = 0; i < loops && rc == cudaSuccess; i++) {
        rc = enqueue_direction(j, t, 0);
        if (rc == cudaSuccess && j->bidir)
            rc = enqueue_direction(j, t, 1);
    }
    return rc;
}

static void job_free(p2p_job_t *j)
{
    for (int s = 0; s < 2; s++) {
        ls_dev_free(j->dev[s], j->src[s]);
        ls_dev_free(j->dev[s], j->dst[s]);
        for (int k = 0; k < STAGE_SLOTS; k++)
            if (j->ring[s][k])
                cudaFreeHost(j->ring[s][k]);
    }
    for (int d = 0; d < 2; d++) {
        for (int k = 0; k < STAGE_SLOTS; k++) {
            if (j->d2h_ev[d][k])
                cudaEventDestroy(j->d2h_ev[d][k]);
            if (j->h2d_ev[d][k])
                cudaEventDestroy(j->h2d_ev[d][k]);
        }
    }
}

/* Buffers for the pair: a source (pattern of seed 1000+dev) and a destination on each. */
static int job_alloc(p2p_job_t *j, int a, int b, size_t size, char *err, size_t errlen)
{
    memset(j, 0, sizeof *j);
    j->dev[0] = a;
    j->dev[1] = b;
    j->size = size;
    j->chunk = ls_round16(size / STAGE_PIECES) > STAGE_MIN_CHUNK ? ls_round16(size / STAGE_PIECES)
                                                                  : STAGE_MIN_CHUNK;
    j->nchunks = (int)((size + j->chunk - 1) / j->chunk);
    for (int s = 0; s < 2; s++) {
        j->src[s] = ls_dev_alloc(j->dev[s], size, err, errlen);
        j->dst[s] = j->src[s] ? ls_dev_alloc(j->dev[s], size, err, errlen) : NULL;
        if (!j->dst[s])
            return -1;
        cudaError_t rc = ls_fill(j->dev[s], j->src[s], size, 1000u + (unsigned)j->dev[s]);
        if (rc != cudaSuccess)
            return ls_seterr(err, errlen, "GPU %d: %s", j->dev[s], cudaGetErrorString(rc));
        ls_sm_grid(j->dev[s], &j->grid[s], &j->block[s]);
    }
    return 0;
}

static int job_stage_init(p2p_job_t *j, char *err, size_t errlen)
{
    if (j->ring[0][0])
        return 0;
    for (int d = 0; d < 2; d++)
        for (int k = 0; k < STAGE_SLOTS; k++) {
            if (cudaHostAlloc(&j->ring[d][k], j->chunk, cudaHostAllocPortable) != cudaSuccess)
                return ls_seterr(err, errlen, "cannot pin %zu bytes of host memory", j->chunk);
            cudaSetDevice(j->dev[d]);
            if (cudaEventCreateWithFlags(&j->d2h_ev[d][k], cudaEventDisableTiming) != cudaSuccess)
                return ls_seterr(err, errlen, "cannot create events");
            cudaSetDevice(j->dev[1 - d]);
            if (cudaEventCreateWithFlags(&j->h2d_ev[d][k], cudaEventDisableTiming) != cudaSuccess)
                return ls_seterr(err, errlen, "cannot create events");
        }
    return 0;
}

/* Zeroes the destinations, so that only this method's copies can make them verify. */
static cudaError_t clear_dst(p2p_job_t *j)
{
    for (int s = 0; s < 2; s++) {
        cudaSetDevice(j->dev[s]);
        cudaError_t rc = cudaMemset(j->dst[s], 0, j->size);
        if (rc == cudaSuccess)
            rc = cudaDeviceSynchronize();
        if (rc != cudaSuccess)
            return rc;
    }
    return cudaSuccess;
}

static long long verify_job(p2p_job_t *j)
{
    long long wrong = ls_count_wrong(j->dev[1], j->dst[1], j->size, 1000u + (unsigned)j->dev[0], NULL);
    if (wrong >= 0 && j->bidir) {
        long long w2 = ls_count_wrong(j->dev[0], j->dst[0], j->size, 1000u + (unsigned)j->dev[1], NULL);
        wrong = w2 < 0 ? -1 : wrong + w2;
    }
    return wrong;
}

static void measure_one(json_t *doc, p2p_job_t *j, const char *method, int bidir, int p2p,
                        int samples)
{
    int a = j->dev[0], b = j->dev[1];
    int staged = strcmp(method, "staged") == 0;
    json_t *e = ls_p2p_entry(a, b, bidir ? "bidir" : "uni", method, p2p, j->size);
    ls_progress("p2p: %s %s GPU%d %s GPU%d", method, bidir ? "bidir" : "uni", a,
                bidir ? "<->" : "->", b);
    if (!p2p && (strcmp(method, "sm_read") == 0 || strcmp(method, "sm_write") == 0)) {
        char line[96];
        snprintf(line, sizeof line, "no P2P between GPU %d and GPU %d: SM copies need peer access", a, b);
        ls_entry_fail(e, "skipped", line);
        ls_doc_add_unique(doc, e);
        return;
    }
    j->method = method;
    j->bidir = bidir;
    char err[256] = "";
    int devs[4] = {a, b, b, a};
    ls_timer_t t;
    memset(&t, 0, sizeof t);
    double *ms = calloc((size_t)samples, sizeof *ms);
    cudaError_t rc = ms ? ls_timer_init(&t, devs, 4) : cudaErrorMemoryAllocation;
    if (rc == cudaSuccess && staged && job_stage_init(j, err, sizeof err) != 0)
        rc = cudaErrorMemoryAllocation;
    if (rc == cudaSuccess)
        rc = clear_dst(j);
    if (rc != cudaSuccess) {
        ls_entry_fail(e, "failed", err[0] ? err : cudaGetErrorString(rc));
        cudaGetLastError();
    } else {
        ls_telemetry_t *tele = ls_telemetry_for(j->dev, 2);
        int loops = 1;
        int st = ls_timer_run(&t, enqueue_p2p, j, staged ? STAGE_MAX_LOOPS : COPY_MAX_LOOPS,
                              samples, ms, &loops, err, sizeof err);
        long long wrong = st == 0 ? verify_job(j) : -1;
        ls_telemetry_stop(tele, e);
        if (st != 0) {
            ls_entry_fail(e, st == -2 ? "timeout" : "failed", err);
        } else if (wrong != 0) {
            snprintf(err, sizeof err, wrong < 0 ? "verification could not run" : "%lld words wrong after the copy", wrong);
            ls_entry_fail(e, "failed", err);
            json_object_set_new(e, "verified", json_false());
        } else {
            ls_entry_set_bandwidth(e, ms, (size_t)samples,
                                   (double)ls_p2p_counted_bytes(bidir ? "bidir" : "uni", j->size, loops));
            json_object_set_new(e, "loops", json_integer(loops));
            json_object_set_new(e, "verified", json_true());
        }
    }
    ls_timer_free(&t);
    free(ms);
    ls_doc_add_unique(doc, e);
}

static int enable_peer(int a, int b)
{
    int can = 0;
    if (cudaDeviceCanAccessPeer(&can, a, b) != cudaSuccess || !can)
        return 0;
    cudaSetDevice(a);
    cudaError_t rc = cudaDeviceEnablePeerAccess(b, 0);
    if (rc == cudaErrorPeerAccessAlreadyEnabled) {
        cudaGetLastError();
        rc = cudaSuccess;
    }
    return rc == cudaSuccess;
}

/* LS_P2P_METHODS=sm_write,sm_read limits the methods (a tuning knob). */
static int method_wanted(const char *method)
{
    const char *only = getenv("LS_P2P_METHODS");
    if (!only || !*only)
        return 1;
    size_t len = strlen(method);
    for (const char *p = strstr(only, method); p; p = strstr(p + 1, method))
        if ((p == only || p[-1] == ',') && (p[len] == ',' || p[len] == '\0'))
            return 1;
    return 0;
}

int ls_measure_p2p(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen)
{
    size_t size = o->size;
    int samples = o->samples;
    int n = o->ngpus;
    static int p2p[LS_MAX_GPUS][LS_MAX_GPUS];
    for (int x = 0; x < n; x++)
        for (int y = 0; y < n; y++)
            if (x != y)
                p2p[x][y] = enable_peer(o->gpus[x], o->gpus[y]);
    for (int x = 0; x < n; x++)
        for (int y = 0; y < n; y++) {
            if (x == y)
                continue;
            int a = o->gpus[x], b = o->gpus[y];
            int both = p2p[x][y] && p2p[y][x];
            p2p_job_t *j = calloc(1, sizeof *j);
            char line[256];
            if (!j || job_alloc(j, a, b, size, line, sizeof line) != 0) {
                /* every figure the pair would have had, failed */
                for (int bidir = 0; bidir < (a < b ? 2 : 1); bidir++)
                    for (int m = 0; m < 4; m++) {
                        if (!method_wanted(ls_p2p_methods[m]))
                            continue;
                        json_t *e = ls_p2p_entry(a, b, bidir ? "bidir" : "uni", ls_p2p_methods[m], both, size);
                        ls_entry_fail(e, "failed", j ? line : "out of memory");
                        ls_doc_add_unique(doc, e);
                    }
            } else {
                for (int m = 0; m < 4; m++)
                    if (method_wanted(ls_p2p_methods[m]))
                        measure_one(doc, j, ls_p2p_methods[m], 0, both, samples);
                if (a < b) /* both directions once per unordered pair */
                    for (int m = 0; m < 4; m++)
                        if (method_wanted(ls_p2p_methods[m]))
                            measure_one(doc, j, ls_p2p_methods[m], 1, both, samples);
            }
            if (j)
                job_free(j);
            free(j);
        }
    ls_progress_done();
    (void)err, (void)errlen;
    return 0;
}
