/* P2P bandwidth for every ordered pair of the chosen GPUs: copy engine, SM copy
   kernels reading from and writing to the peer, and copies staged through pinned host
   memory; one direction and both directions; every copy verified after. */
#include "model/entries.h"
#include "model/doc.h"
#include "model/entry.h"
#include "figures.h"
#include "harness.h"
#include "kernels.h"
#include "family.h"
#include "measure.h"
#include "rtimer.h"
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
#define STAGE_MAX_LOOPS 4 /* keeps the queued operations well inside the queue */
#define COPY_MAX_LOOPS 64

typedef struct {
    int dev[2]; /* [0] = a (source of direction 0), [1] = b */
    void *src[2], *dst[2];
    void *ring[2][STAGE_SLOTS]; /* pinned host slots per direction */
    size_t size;
    const char *method;
    int phase; /* 0: a -> b, 1: b -> a, 2: both at once */
    int bidir; /* phase == 2 */
    int grid[2], block[2];
    size_t chunk;
    int nchunks;
    long long piece[2];                 /* pieces queued in this sample, per direction */
    cudaEvent_t d2h_ev[2][STAGE_SLOTS]; /* slot filled (source side) */
    cudaEvent_t h2d_ev[2][STAGE_SLOTS]; /* slot drained (destination side) */
} p2p_job_t;

/* Timer streams: 0 on a, 1 on b, 2 on b, 3 on a. Direction 0 (a -> b) uses stream 0 on
   the source side and 1 on the destination side; direction 1 (b -> a) uses 2 and 3. */
static int src_stream(int d)
{
    return d == 0 ? 0 : 2;
}
static int dst_stream(int d)
{
    return d == 0 ? 1 : 3;
}

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
    if (strcmp(j->method, LS_P2P_CE) == 0) {
        /* Issued on the source's stream: the copy engine pushes (writes) to the peer.
           LS_CE_API=1 uses cudaMemcpyAsync on the unified address space instead. */
        cudaSetDevice(a);
        if (ls_env_int("LS_CE_API", 0, 0, 1))
            return cudaMemcpyAsync(dst, src, j->size, cudaMemcpyDefault, t->stream[src_stream(d)]);
        return cudaMemcpyPeerAsync(dst, b, src, a, j->size, t->stream[src_stream(d)]);
    }
    if (strcmp(j->method, LS_P2P_SM_WRITE) == 0) {
        cudaSetDevice(a);
        return ls_k_copy(dst, src, j->size, j->grid[d], j->block[d], t->stream[src_stream(d)]);
    }
    if (strcmp(j->method, LS_P2P_SM_READ) == 0) {
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
        if (j->phase != 1)
            rc = enqueue_direction(j, t, 0);
        if (rc == cudaSuccess && j->phase != 0)
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
            ls_host_free(j->ring[s][k]);
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
            if (ls_host_alloc(&j->ring[d][k], j->chunk, cudaHostAllocPortable) != cudaSuccess)
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

/* The destinations this phase wrote: b's for a -> b, a's for b -> a. */
static long long verify_job(p2p_job_t *j)
{
    long long wrong = 0;
    if (j->phase != 1)
        wrong = ls_count_wrong(j->dev[1], j->dst[1], j->size, 1000u + (unsigned)j->dev[0], NULL);
    if (wrong >= 0 && j->phase != 0) {
        long long w2 = ls_count_wrong(j->dev[0], j->dst[0], j->size, 1000u + (unsigned)j->dev[1],
                                      NULL);
        wrong = w2 < 0 ? -1 : wrong + w2;
    }
    return wrong;
}

/* The stopping rule of o: the median's interval (util/stop.h) or exactly o->samples. */
static ls_sample_rule_t sample_rule(const ls_measure_opts_t *o)
{
    ls_sample_rule_t fixed = {o->samples, o->samples, 0.95, 0};
    return o->stop_rule ? ls_sample_rule_default(o->samples) : fixed;
}

/* One round: its pairs' jobs, measured together (rtimer.h). */
typedef struct {
    p2p_job_t *job[LS_RT_MAX_GROUPS];
    int p2p[LS_RT_MAX_GROUPS]; /* peer access both ways */
    int njobs;
    int index, npairs; /* the round's number and its pairs (for the entries) */
    ls_rtimer_t timer;
    int timer_ok;
} round_t;

/* One phase of a round: per group (the round's pairs, in order) its entry, NULL where the
   pair has nothing to measure this time. */
typedef struct {
    round_t *r;
    json_t *entry[LS_RT_MAX_GROUPS];
} phase_t;

static cudaError_t enqueue_group(void *arg, int g, const ls_timer_t *view, int loops)
{
    phase_t *ph = arg;
    return ph->entry[g] ? enqueue_p2p(ph->r->job[g], view, loops) : cudaSuccess;
}

static const char *phase_direction(int phase)
{
    return phase == 2 ? "bidir" : "uni";
}

static json_t *phase_entry(p2p_job_t *j, const char *method, int phase, int p2p, const round_t *r)
{
    int src = j->dev[phase == 1], dst = j->dev[phase != 1];
    json_t *e = ls_p2p_entry(src, dst, phase_direction(phase), method, p2p, j->size);
    json_object_set_new(e, "round", json_pack("{s:i, s:i}", "index", r->index, "pairs", r->npairs));
    return e;
}

/* Telemetry of the GPUs measured in the phase: one window, copied into each entry. No
   PCIe throughput query, staged copies included: a round's window holds up to all the
   machine's GPUs, and the query takes 40 ms a GPU in every reading (telemetry.h). */
static ls_telemetry_t *phase_telemetry(const phase_t *ph)
{
    int devs[2 * LS_RT_MAX_GROUPS], n = 0;
    for (int g = 0; g < ph->r->njobs; g++)
        if (ph->entry[g]) {
            devs[n++] = ph->r->job[g]->dev[0];
            devs[n++] = ph->r->job[g]->dev[1];
        }
    return ls_telemetry_for(devs, n, 0);
}

static void telemetry_into(ls_telemetry_t *tele, phase_t *ph)
{
    json_t *scratch = json_object();
    ls_telemetry_stop(tele, scratch);
    for (int g = 0; g < ph->r->njobs; g++)
        if (ph->entry[g])
            ls_entry_share_telemetry(ph->entry[g], scratch);
    json_decref(scratch);
}

static void group_result(json_t *e, p2p_job_t *j, const double *ms, const ls_rtimer_result_t *res,
                         const ls_sample_rule_t *rule, int stop_rule)
{
    long long wrong = verify_job(j);
    char err[96];
    if (wrong != 0) {
        snprintf(err, sizeof err,
                 wrong < 0 ? "verification could not run" : "%lld words wrong after the copy",
                 wrong);
        ls_entry_fail(e, "failed", err);
        json_object_set_new(e, "verified", json_false());
        return;
    }
    ls_entry_set_bandwidth(e, ms, (size_t)res->taken,
                           (double)ls_p2p_counted_bytes(phase_direction(j->phase), j->size,
                                                        res->loops));
    json_object_set_new(e, "loops", json_integer(res->loops));
    json_object_set_new(e, "verified", json_true());
    ls_entry_set_stop(e, rule, stop_rule, res->taken, res->why);
}

/* The timed part of a phase: every active pair at once, one gate release. */
static void measure_groups(phase_t *ph, int staged, const ls_measure_opts_t *o)
{
    round_t *r = ph->r;
    ls_sample_rule_t rule = sample_rule(o);
    double *ms = calloc((size_t)r->njobs * (size_t)rule.max_samples, sizeof *ms);
    for (int g = 0; g < r->njobs; g++)
        r->timer.active[g] = ph->entry[g] != NULL;
    char err[256] = "out of memory";
    ls_rtimer_result_t res;
    ls_telemetry_t *tele = phase_telemetry(ph);
    int st = ms ? ls_rtimer_run(&r->timer, enqueue_group, ph,
                                staged ? STAGE_MAX_LOOPS : COPY_MAX_LOOPS, &rule, ms, &res, err,
                                sizeof err)
                : -1;
    telemetry_into(tele, ph);
    for (int g = 0; g < r->njobs; g++) {
        if (!ph->entry[g])
            continue;
        if (st != 0)
            ls_entry_fail(ph->entry[g], st == -2 ? "timeout" : "failed", err);
        else
            group_result(ph->entry[g], r->job[g], ms + (size_t)g * (size_t)rule.max_samples, &res,
                         &rule, o->stop_rule);
    }
    free(ms);
}

/* Readies pair k of the round for method and phase; 0, or its entry settled (skipped or
   failed). */
static int ready_pair(round_t *r, int k, json_t *e, const char *method, int phase)
{
    p2p_job_t *j = r->job[k];
    int sm = strcmp(method, LS_P2P_SM_READ) == 0 || strcmp(method, LS_P2P_SM_WRITE) == 0;
    char err[256] = "";
    j->method = method;
    j->phase = phase;
    j->bidir = phase == 2;
    if (sm && !r->p2p[k]) {
        snprintf(err, sizeof err, "no P2P between GPU %d and GPU %d: SM copies need peer access",
                 j->dev[0], j->dev[1]);
        ls_entry_fail(e, "skipped", err);
        return -1;
    }
    cudaError_t rc = cudaSuccess;
    if ((strcmp(method, LS_P2P_STAGED) == 0 && job_stage_init(j, err, sizeof err) != 0) ||
        (rc = clear_dst(j)) != cudaSuccess) {
        ls_entry_fail(e, "failed", err[0] ? err : cudaGetErrorString(rc));
        cudaGetLastError();
        return -1;
    }
    return 0;
}

/* Every pair of the round at once: one method, one phase (0 a->b, 1 b->a, 2 both). */
static void measure_phase(json_t *doc, round_t *r, const char *method, int phase,
                          const ls_measure_opts_t *o)
{
    phase_t ph = {.r = r};
    int active = 0;
    json_t *all[LS_RT_MAX_GROUPS];
    ls_progress("p2p: %s %s, round %d (%d pairs at once)", method,
                phase == 2 ? "both ways"
                : phase    ? "b->a"
                           : "a->b",
                r->index, r->njobs);
    for (int k = 0; k < r->njobs; k++) {
        all[k] = phase_entry(r->job[k], method, phase, r->p2p[k], r);
        if (!r->timer_ok)
            ls_entry_fail(all[k], "failed", "cannot create the round's streams and events");
        else if (ready_pair(r, k, all[k], method, phase) == 0)
            ph.entry[k] = all[k], active++;
    }
    if (active > 0)
        measure_groups(&ph, strcmp(method, LS_P2P_STAGED) == 0, o);
    for (int k = 0; k < r->njobs; k++)
        ls_doc_add_unique(doc, all[k]);
}

/* o->methods, else LS_P2P_METHODS=sm_write,sm_read (a tuning knob), limits the methods. */
static int method_wanted(const ls_measure_opts_t *o, const char *method)
{
    return ls_methods_include(o->methods && *o->methods ? o->methods : getenv("LS_P2P_METHODS"),
                              method);
}

/* Phases of a round: a->b, b->a, and both ways at once unless o asks for one way. */
static int phases(const ls_measure_opts_t *o)
{
    return o->one_way ? 2 : 3;
}

/* Every figure a pair would have had, failed (its buffers could not be had). */
static void pair_failed(json_t *doc, const ls_measure_opts_t *o, int a, int b, int both,
                        const char *why)
{
    for (int phase = 0; phase < phases(o); phase++)
        for (int m = 0; ls_p2p_methods[m]; m++) {
            if (!method_wanted(o, ls_p2p_methods[m]))
                continue;
            json_t *e = ls_p2p_entry(phase == 1 ? b : a, phase == 1 ? a : b, phase_direction(phase),
                                     ls_p2p_methods[m], both, o->size);
            ls_entry_fail(e, "failed", why);
            ls_doc_add_unique(doc, e);
        }
}

static void round_free(round_t *r)
{
    if (r->timer_ok)
        ls_rtimer_free(&r->timer);
    for (int k = 0; k < r->njobs; k++) {
        job_free(r->job[k]);
        free(r->job[k]);
    }
}

/* Round r of o (pairs first .. last - 1 of o's arrays): buffers, streams and events once
   for every method and phase of the round (issue 14: the fixed cost per figure). */
static void measure_round(json_t *doc, const ls_measure_opts_t *o, const int *pa, const int *pb,
                          int npairs, int index, void *p2p_ctx)
{
    int(*p2p)[LS_MAX_GPUS] = p2p_ctx; /* whether peer access is on, per ordered pair */
    round_t *r = calloc(1, sizeof *r);
    if (!r)
        return;
    r->index = index;
    r->npairs = npairs;
    int devs[4 * LS_RT_MAX_GROUPS];
    for (int k = 0; k < npairs && r->njobs < LS_RT_MAX_GROUPS; k++) {
        int a = o->gpus[pa[k]], b = o->gpus[pb[k]];
        int both = p2p[pa[k]][pb[k]] && p2p[pb[k]][pa[k]];
        p2p_job_t *j = calloc(1, sizeof *j);
        char line[256] = "out of memory";
        if (!j || job_alloc(j, a, b, o->size, line, sizeof line) != 0) {
            pair_failed(doc, o, a, b, both, line);
            if (j)
                job_free(j);
            free(j);
            continue;
        }
        /* timer streams per pair: 0 on a, 1 on b, 2 on b, 3 on a (src_stream, dst_stream) */
        int *d = devs + 4 * r->njobs;
        d[0] = d[3] = a;
        d[1] = d[2] = b;
        r->p2p[r->njobs] = both;
        r->job[r->njobs++] = j;
    }
    r->timer_ok = r->njobs > 0 && ls_rtimer_init(&r->timer, r->njobs, 4, devs) == cudaSuccess;
    if (r->njobs > 0 && !r->timer_ok) {
        cudaGetLastError();
        ls_rtimer_free(&r->timer);
    }
    for (int m = 0; ls_p2p_methods[m] && r->njobs > 0; m++)
        for (int phase = 0; phase < phases(o) && method_wanted(o, ls_p2p_methods[m]); phase++)
            measure_phase(doc, r, ls_p2p_methods[m], phase, o);
    round_free(r);
    free(r);
}

int ls_measure_p2p(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen)
{
    int n = o->ngpus;
    static int p2p[LS_MAX_GPUS][LS_MAX_GPUS];
    for (int x = 0; x < n; x++)
        for (int y = 0; y < n; y++)
            if (x != y)
                p2p[x][y] = ls_peer_enable(o->gpus[x], o->gpus[y], NULL);
    ls_measure_each_round(doc, o, measure_round, p2p);
    ls_progress_done();
    (void)err, (void)errlen;
    return 0;
}
