/* The fabric stress step (issue 14; nvbandwidth's all_to_one / one_to_all testcases and
   an all-to-all): many GPUs writing through the fabric at the same time, the load that
   pairwise figures never put on an NVSwitch plane, trunk or PCIe switch. Copy-engine
   writes (cudaMemcpyPeerAsync issued on the source), all behind one gate (rtimer.h);
   every destination verified after. docs/methods.md ("Fabric stress"). */
#include "figures.h"
#include "harness.h"
#include "measure.h"
#include "rtimer.h"
#include "model/doc.h"
#include "model/entry.h"
#include "model/entries.h"
#include "model/vocab.h"
#include "util/log.h"
#include "util/stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each GPU holds one destination buffer per peer: at most this much in all, each copy
   at most FABRIC_MAX_COPY (a copy of 256 MiB lasts ~0.7 ms at 400 GB/s, far above the
   copy engine's start cost). */
#define FABRIC_DST_PER_GPU (2ull << 30)
#define FABRIC_MAX_COPY (256ull << 20)
#define FABRIC_MAX_LOOPS 16

enum pattern { ALL_TO_ALL, ONE_TO_ALL, ALL_TO_ONE };
static const char *const pattern_names[] = {LS_FABRIC_ALL_TO_ALL, LS_FABRIC_ONE_TO_ALL,
                                            LS_FABRIC_ALL_TO_ONE};

typedef struct {
    int n;
    int dev[LS_MAX_GPUS];
    void *src[LS_MAX_GPUS];
    void *dst[LS_MAX_GPUS][LS_MAX_GPUS]; /* dst[i][j]: on GPU j, written by GPU i */
    size_t size;
    enum pattern pat;
    int subject;                     /* one_to_all: the source; all_to_one: the target */
    int group_src[LS_RT_MAX_GROUPS]; /* the writing GPU (index) of each group */
    int ngroups;
} fabric_t;

static int writes(const fabric_t *f, int i, int j)
{
    if (i == j)
        return 0;
    return f->pat == ALL_TO_ALL || (f->pat == ONE_TO_ALL && i == f->subject) ||
           (f->pat == ALL_TO_ONE && j == f->subject);
}

/* Group g's source writes to each of its peers, spread over its streams. */
static cudaError_t enqueue_group(void *arg, int g, const ls_timer_t *view, int loops)
{
    fabric_t *f = arg;
    int i = f->group_src[g], k = 0;
    cudaError_t rc = cudaSetDevice(f->dev[i]);
    for (int l = 0; l < loops && rc == cudaSuccess; l++)
        for (int j = 0; j < f->n && rc == cudaSuccess; j++)
            if (writes(f, i, j))
                rc = cudaMemcpyPeerAsync(f->dst[i][j], f->dev[j], f->src[i], f->dev[i], f->size,
                                         view->stream[k++ % view->nstreams]);
    return rc;
}

static void fabric_free(fabric_t *f)
{
    for (int i = 0; i < f->n; i++) {
        ls_dev_free(f->dev[i], f->src[i]);
        for (int j = 0; j < f->n; j++)
            ls_dev_free(f->dev[j], f->dst[i][j]);
    }
}

static int fabric_alloc(fabric_t *f, const ls_measure_opts_t *o, char *err, size_t errlen)
{
    f->n = o->ngpus;
    memcpy(f->dev, o->gpus, sizeof(int) * (size_t)f->n);
    uint64_t per = FABRIC_DST_PER_GPU / (uint64_t)(f->n - 1);
    f->size = ls_round16(per < FABRIC_MAX_COPY ? per : FABRIC_MAX_COPY);
    for (int i = 0; i < f->n; i++) {
        if (!(f->src[i] = ls_dev_alloc(f->dev[i], f->size, err, errlen)))
            return -1;
        if (ls_fill(f->dev[i], f->src[i], f->size, 3000u + (unsigned)f->dev[i]) != cudaSuccess)
            return ls_seterr(err, errlen, "GPU %d: cannot fill the source", f->dev[i]);
        for (int j = 0; j < f->n; j++)
            if (i != j && !(f->dst[i][j] = ls_dev_alloc(f->dev[j], f->size, err, errlen)))
                return -1;
    }
    return 0;
}

/* The destinations the pattern writes: zeroed before, wrong words after. */
static long long clear_or_verify(fabric_t *f, int verify)
{
    long long wrong = 0;
    for (int i = 0; i < f->n && wrong >= 0; i++)
        for (int j = 0; j < f->n && wrong >= 0; j++) {
            if (!writes(f, i, j))
                continue;
            if (verify) {
                long long w = ls_count_wrong(f->dev[j], f->dst[i][j], f->size,
                                             3000u + (unsigned)f->dev[i], NULL);
                wrong = w < 0 ? -1 : wrong + w;
            } else if (cudaSetDevice(f->dev[j]) != cudaSuccess ||
                       cudaMemset(f->dst[i][j], 0, f->size) != cudaSuccess ||
                       cudaDeviceSynchronize() != cudaSuccess) {
                wrong = -1;
            }
        }
    return wrong;
}

/* The GPU's NVLink ceiling, one direction: its active links' rates (doc gpus[].nvlinks),
   0 when unknown. */
static double nvlink_ceiling(const json_t *doc, int gpu)
{
    const json_t *g = json_array_get(json_object_get(doc, "gpus"), (size_t)gpu);
    double sum = 0;
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(g, "nvlinks"), i, l)
        if (json_is_true(json_object_get(l, "active")))
            sum += ls_json_num(l, "gbps", 0);
    return sum;
}

static double pattern_ceiling(const fabric_t *f, const json_t *doc)
{
    if (!doc)
        return 0;
    if (f->pat != ALL_TO_ALL)
        return nvlink_ceiling(doc, f->dev[f->subject]);
    double sum = 0;
    for (int i = 0; i < f->n; i++) {
        double c = nvlink_ceiling(doc, f->dev[i]);
        if (c <= 0)
            return 0; /* one unknown: the whole is unknown */
        sum += c;
    }
    return sum;
}

static json_t *pattern_entry(const fabric_t *f)
{
    char id[64];
    if (f->pat == ALL_TO_ALL)
        snprintf(id, sizeof id, "%s-%s", LS_FAMILY_FABRIC, LS_FABRIC_ALL_TO_ALL);
    else
        snprintf(id, sizeof id, "%s-%s-%d", LS_FAMILY_FABRIC, pattern_names[f->pat],
                 f->dev[f->subject]);
    json_t *e = ls_entry_new(LS_FAMILY_FABRIC, "bandwidth", "GB/s");
    json_t *gpus = json_array();
    for (int i = 0; i < f->n; i++)
        json_array_append_new(gpus, json_integer(f->dev[i]));
    json_object_set_new(e, "id", json_string(id));
    json_object_set_new(e, "method", json_string(pattern_names[f->pat]));
    json_object_set_new(e, "gpus", gpus);
    json_object_set_new(e, "bytes", json_integer((json_int_t)f->size));
    json_object_set_new(e, "copy", json_string(LS_P2P_CE));
    if (f->pat != ALL_TO_ALL)
        json_object_set_new(e, "subject", json_integer(f->dev[f->subject]));
    return e;
}

static int group_copies(const fabric_t *f, int g)
{
    int c = 0;
    for (int j = 0; j < f->n; j++)
        c += writes(f, f->group_src[g], j);
    return c;
}

/* Total GB/s of each sample (all bytes over the slowest group), per writing GPU GB/s
   (its bytes over its median time). */
static void pattern_figures(json_t *e, const fabric_t *f, const double *ms, int max,
                            const ls_rtimer_result_t *res, double ceiling)
{
    double *total = calloc((size_t)res->taken, sizeof *total);
    if (!total)
        return;
    double all_bytes = 0;
    json_t *per = json_object();
    for (int g = 0; g < f->ngroups; g++) {
        double bytes = (double)group_copies(f, g) * (double)f->size * res->loops;
        all_bytes += bytes;
        ls_stats_t st = ls_stats(ms + (size_t)g * (size_t)max, (size_t)res->taken);
        char key[16];
        snprintf(key, sizeof key, "%d", f->dev[f->group_src[g]]);
        json_object_set_new(per, key, json_real(ls_gbps(bytes, st.median)));
    }
    for (int k = 0; k < res->taken; k++) {
        double slowest = 0;
        for (int g = 0; g < f->ngroups; g++)
            if (ms[(size_t)g * (size_t)max + (size_t)k] > slowest)
                slowest = ms[(size_t)g * (size_t)max + (size_t)k];
        total[k] = ls_gbps(all_bytes, slowest);
    }
    ls_entry_set_samples(e, total, (size_t)res->taken);
    json_object_set_new(e, "per_gpu_gbps", per);
    json_object_set_new(e, "loops", json_integer(res->loops));
    if (ceiling > 0)
        json_object_set_new(e, "ceiling_gbps", json_real(ceiling));
    free(total);
}

/* The groups of the pattern: every GPU writing (all_to_all), the one source
   (one_to_all), every other GPU writing into the target (all_to_one). */
static int pattern_groups(fabric_t *f, int devs[LS_RT_MAX_GROUPS * LS_MAX_STREAMS], int *per_group)
{
    f->ngroups = 0;
    for (int i = 0; i < f->n && f->ngroups < LS_RT_MAX_GROUPS; i++) {
        int c = 0;
        for (int j = 0; j < f->n; j++)
            c += writes(f, i, j);
        if (c > 0)
            f->group_src[f->ngroups++] = i;
    }
    /* one stream per peer, up to LS_MAX_STREAMS: copies to more peers share them */
    *per_group = f->pat == ALL_TO_ONE ? 1 : (f->n - 1 < LS_MAX_STREAMS ? f->n - 1 : LS_MAX_STREAMS);
    for (int g = 0; g < f->ngroups; g++)
        for (int s = 0; s < *per_group; s++)
            devs[g * *per_group + s] = f->dev[f->group_src[g]];
    return f->ngroups;
}

static void measure_pattern(json_t *doc, fabric_t *f, const ls_measure_opts_t *o)
{
    json_t *e = pattern_entry(f);
    int devs[LS_RT_MAX_GROUPS * LS_MAX_STREAMS], per_group;
    pattern_groups(f, devs, &per_group);
    ls_sample_rule_t fixed = {o->samples, o->samples, 0.95, 0};
    ls_sample_rule_t rule = o->stop_rule ? ls_sample_rule_default(o->samples) : fixed;
    double *ms = calloc((size_t)f->ngroups * (size_t)rule.max_samples, sizeof *ms);
    ls_rtimer_t *t = calloc(1, sizeof *t);
    char err[256] = "out of memory";
    ls_progress("fabric: %s%s", pattern_names[f->pat], f->pat == ALL_TO_ALL ? "" : " ...");
    cudaError_t rc = ms && t ? ls_rtimer_init(t, f->ngroups, per_group, devs)
                             : cudaErrorMemoryAllocation;
    if (rc != cudaSuccess || clear_or_verify(f, 0) != 0) {
        ls_entry_fail(e, "failed",
                      rc != cudaSuccess ? cudaGetErrorString(rc) : "cannot clear the destinations");
        cudaGetLastError();
    } else {
        ls_telemetry_t *tele = ls_telemetry_for(f->dev, f->n, 0);
        ls_rtimer_result_t res;
        int st = ls_rtimer_run(t, enqueue_group, f, FABRIC_MAX_LOOPS, &rule, ms, &res, err,
                               sizeof err);
        ls_telemetry_stop(tele, e);
        long long wrong = st == 0 ? clear_or_verify(f, 1) : -1;
        if (st != 0)
            ls_entry_fail(e, st == -2 ? "timeout" : "failed", err);
        else if (wrong != 0) {
            snprintf(err, sizeof err,
                     wrong < 0 ? "verification could not run" : "%lld words wrong after the copies",
                     wrong);
            ls_entry_fail(e, "failed", err);
            json_object_set_new(e, "verified", json_false());
        } else {
            pattern_figures(e, f, ms, rule.max_samples, &res, pattern_ceiling(f, o->doc));
            ls_entry_set_stop(e, &rule, o->stop_rule, res.taken, res.why);
            json_object_set_new(e, "verified", json_true());
        }
    }
    if (t)
        ls_rtimer_free(t);
    free(t);
    free(ms);
    ls_doc_add_unique(doc, e);
}

/* Peer access between every two GPUs: the copies go straight through the fabric. */
static int peers_all(const fabric_t *f, char *err, size_t errlen)
{
    for (int i = 0; i < f->n; i++)
        for (int j = 0; j < f->n; j++) {
            cudaError_t rc;
            if (i == j || ls_peer_enable(f->dev[i], f->dev[j], &rc))
                continue;
            if (rc == cudaSuccess)
                return ls_seterr(err, errlen,
                                 "GPU %d cannot reach GPU %d peer to peer: the fabric "
                                 "step needs P2P between every two GPUs",
                                 f->dev[i], f->dev[j]);
            return ls_seterr(err, errlen, "GPU %d -> GPU %d: %s", f->dev[i], f->dev[j],
                             cudaGetErrorString(rc));
        }
    return 0;
}

int ls_measure_fabric(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen)
{
    if (o->ngpus < 2)
        return ls_seterr(err, errlen, "the fabric step needs two GPUs or more");
    fabric_t *f = calloc(1, sizeof *f);
    if (!f)
        return ls_seterr(err, errlen, "out of memory");
    f->n = o->ngpus;
    memcpy(f->dev, o->gpus, sizeof(int) * (size_t)f->n);
    int rc = peers_all(f, err, errlen) != 0 || fabric_alloc(f, o, err, errlen) != 0 ? -1 : 0;
    if (rc == 0) {
        f->pat = ALL_TO_ALL;
        measure_pattern(doc, f, o);
        for (int s = 0; s < f->n; s++) {
            f->pat = ONE_TO_ALL;
            f->subject = s;
            measure_pattern(doc, f, o);
            f->pat = ALL_TO_ONE;
            measure_pattern(doc, f, o);
        }
    }
    ls_progress_done();
    fabric_free(f);
    free(f);
    return rc;
}
