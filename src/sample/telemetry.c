#include "telemetry.h"
#include "model/doc.h"
#include "model/entry.h"
#include "model/vocab.h"
#include "discover/nvml.h"
#include "model/topo.h"
#include "ticker.h"
#include "util/log.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    double min, max;
    int seen;
} range_t;

typedef struct {
    int gpu, nvml;
    range_t sm, mem, power, temp, pcie_tx, pcie_rx;
    unsigned sm_app;
    int errors_ok;
    ls_nvlink_errors_t errors_before, errors_after;
    int bytes_ok;
    unsigned long long tx0, rx0, tx1, rx1;
    json_t *procs; /* other compute processes seen at the start and at the end */
} gpu_track_t;

struct ls_telemetry {
    ls_ticker_t ticker;
    int running, period_ms, n, samples;
    int pcie;         /* query NVML's sampled PCIe throughput in every reading */
    double reading_s; /* the readings' seconds, summed: what the window costs (issue 26) */
    unsigned long long throttle_union;
    int throttled;
    struct timespec t0, t1;
    char why[160];
    gpu_track_t g[LS_MAX_GPUS];
};

static int nvml_state = 0; /* 0 unknown, 1 open, -1 unavailable */
static char nvml_why[160];
static pthread_mutex_t nvml_once = PTHREAD_MUTEX_INITIALIZER;

int ls_telemetry_available(char *err, size_t errlen)
{
    pthread_mutex_lock(&nvml_once);
    if (nvml_state == 0)
        nvml_state = ls_nvml_open(nvml_why, sizeof nvml_why) == 0 ? 1 : -1;
    pthread_mutex_unlock(&nvml_once);
    if (nvml_state < 0 && err && errlen)
        snprintf(err, errlen, "%s", nvml_why[0] ? nvml_why : "NVML unavailable");
    return nvml_state > 0;
}

static void widen(range_t *r, double v)
{
    if (!r->seen || v < r->min)
        r->min = v;
    if (!r->seen || v > r->max)
        r->max = v;
    r->seen = 1;
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One reading of every GPU of the window, one after the other; its time is kept (the
   PCIe throughput query, only in windows that ask for it, samples over 20 ms per
   direction, NVML's documentation). */
static void sample_once(ls_telemetry_t *t)
{
    double start = mono_s();
    for (int i = 0; i < t->n; i++) {
        gpu_track_t *g = &t->g[i];
        ls_nvml_live_t live; /* zeroed by ls_nvml_live, which refuses an unknown index */
        if (ls_nvml_live(g->nvml, &live) != 0)
            continue;
        if (live.sm_mhz)
            widen(&g->sm, live.sm_mhz);
        if (live.mem_mhz)
            widen(&g->mem, live.mem_mhz);
        if (live.power_w > 0)
            widen(&g->power, live.power_w);
        if (live.temp_c > 0)
            widen(&g->temp, live.temp_c);
        if (live.sm_app_mhz)
            g->sm_app = live.sm_app_mhz;
        t->throttle_union |= live.throttle_mask;
        if (ls_nvml_is_throttling(live.throttle_mask))
            t->throttled = 1;
        double tx, rx;
        if (t->pcie && ls_nvml_pcie_throughput(g->nvml, &tx, &rx) == 0) {
            widen(&g->pcie_tx, tx);
            widen(&g->pcie_rx, rx);
        }
    }
    t->samples++;
    t->reading_s += mono_s() - start;
}

static void tick(void *arg)
{
    sample_once(arg);
}

/* The sampling period: LINKSCOPE_TELEMETRY_MS overrides the caller's; 0 there means one
   reading at the start and one at the end only (no polling while the figure is timed). */
static int telemetry_period(int period_ms)
{
    const char *env = getenv("LINKSCOPE_TELEMETRY_MS");
    char *end;
    long v = env && *env ? strtol(env, &end, 10) : -1;
    if (env && *env && !*end && v >= 0)
        return v == 0 ? 24 * 3600 * 1000 : (int)(v > 3600000 ? 3600000 : v);
    return period_ms > 0 ? period_ms : LS_TELEMETRY_PERIOD_MS;
}

/* LINKSCOPE_TELEMETRY_PCIE=always: the PCIe throughput in every window (before session
   6, every window read it); =never: in none; another value is said once, never ignored
   in silence. Read once per process: windows open from several threads. */
static int pcie_env = -1; /* -1: as each window asks, 0 never, 1 always */
static pthread_once_t pcie_env_once = PTHREAD_ONCE_INIT;

static void read_pcie_env(void)
{
    const char *env = getenv("LINKSCOPE_TELEMETRY_PCIE");
    if (!env || !*env)
        return;
    if (strcmp(env, "always") == 0 || strcmp(env, "never") == 0)
        pcie_env = strcmp(env, "always") == 0;
    else
        ls_warn("LINKSCOPE_TELEMETRY_PCIE=%.32s: expected always or never; the PCIe throughput "
                "is read in the host copies' windows only",
                env);
}

static int want_pcie(unsigned what)
{
    pthread_once(&pcie_env_once, read_pcie_env);
    return pcie_env >= 0 ? pcie_env : (what & LS_TELEMETRY_PCIE) != 0;
}

ls_telemetry_t *ls_telemetry_start(const int *gpus, const int *nvml, int n, int period_ms,
                                   unsigned what)
{
    ls_telemetry_t *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->n = n > LS_MAX_GPUS ? LS_MAX_GPUS : n;
    t->period_ms = telemetry_period(period_ms);
    t->pcie = want_pcie(what);
    clock_gettime(CLOCK_MONOTONIC, &t->t0);
    if (!ls_telemetry_available(t->why, sizeof t->why))
        return t;
    for (int i = 0; i < t->n; i++) {
        gpu_track_t *g = &t->g[i];
        g->gpu = gpus[i];
        g->nvml = nvml ? nvml[i] : -1;
        if (g->nvml < 0)
            continue;
        g->errors_ok = ls_nvml_nvlink_errors(g->nvml, &g->errors_before) == 0;
        g->bytes_ok = ls_nvml_nvlink_bytes(g->nvml, &g->tx0, &g->rx0) == 0;
        g->procs = json_array();
        ls_nvml_compute_processes(g->nvml, (unsigned)getpid(), g->procs);
    }
    if (ls_ticker_start(&t->ticker, t->period_ms, tick, t) == 0)
        t->running = 1;
    return t;
}

static json_t *range_json(const range_t *r)
{
    return json_pack("{s:f, s:f}", "min", r->min, "max", r->max);
}

static void put_range(json_t *tele, const char *key, const gpu_track_t *g, const range_t *r)
{
    if (!r->seen)
        return;
    json_t *per = ls_json_object_at(tele, key);
    char idx[16];
    snprintf(idx, sizeof idx, "%d", g->gpu);
    json_object_set_new(per, idx, range_json(r));
}

static json_t *errors_json(const ls_nvlink_errors_t *e)
{
    return json_pack("{s:I, s:I, s:I, s:I}", "crc_flit", (json_int_t)e->crc_flit, "crc_data",
                     (json_int_t)e->crc_data, "replay", (json_int_t)e->replay, "recovery",
                     (json_int_t)e->recovery);
}

static void put_per_gpu(json_t *tele, const char *key, int gpu, json_t *value)
{
    json_t *per = ls_json_object_at(tele, key);
    char idx[16];
    snprintf(idx, sizeof idx, "%d", gpu);
    json_object_set_new(per, idx, value);
}

/* The processes at the end joined to those seen at the start, each pid once. */
static void add_processes(gpu_track_t *g)
{
    json_t *now = json_array();
    ls_nvml_compute_processes(g->nvml, (unsigned)getpid(), now);
    size_t i, k;
    json_t *p, *q;
    json_array_foreach(now, i, p) {
        int seen = 0;
        json_array_foreach(g->procs, k, q) {
            seen |= json_integer_value(json_object_get(q, "pid")) ==
                    json_integer_value(json_object_get(p, "pid"));
        }
        if (!seen)
            json_array_append(g->procs, p);
    }
    json_decref(now);
}

static void finish_gpu(ls_telemetry_t *t, gpu_track_t *g, json_t *tele, json_t *entry)
{
    double seconds = (double)(t->t1.tv_sec - t->t0.tv_sec) + (t->t1.tv_nsec - t->t0.tv_nsec) * 1e-9;
    put_range(tele, "sm_mhz", g, &g->sm);
    put_range(tele, "mem_mhz", g, &g->mem);
    put_range(tele, "power_w", g, &g->power);
    put_range(tele, "temp_c", g, &g->temp);
    put_range(tele, "pcie_tx_gbps", g, &g->pcie_tx);
    put_range(tele, "pcie_rx_gbps", g, &g->pcie_rx);
    if (g->errors_ok && ls_nvml_nvlink_errors(g->nvml, &g->errors_after) == 0) {
        put_per_gpu(tele, "nvlink_errors_before", g->gpu, errors_json(&g->errors_before));
        put_per_gpu(tele, "nvlink_errors_after", g->gpu, errors_json(&g->errors_after));
    }
    if (g->bytes_ok && seconds > 0 && ls_nvml_nvlink_bytes(g->nvml, &g->tx1, &g->rx1) == 0) {
        /* Average over the whole measurement, from NVML's cumulative byte counters. */
        put_per_gpu(tele, "nvlink_tx_gbps", g->gpu,
                    json_real((double)(g->tx1 - g->tx0) / seconds / 1e9));
        put_per_gpu(tele, "nvlink_rx_gbps", g->gpu,
                    json_real((double)(g->rx1 - g->rx0) / seconds / 1e9));
    }
    /* Other processes on the GPU at the start or the end of the measurement (NVML's
       running compute processes, this one left out): they shared its memory and links. */
    add_processes(g);
    if (json_array_size(g->procs))
        put_per_gpu(tele, "processes", g->gpu, json_incref(g->procs));
    /* Below application clocks: the SM clock never reached the application clock
       while the measurement ran (1% tolerance for clock granularity). */
    if (g->sm.seen && g->sm_app && g->sm.max < 0.99 * g->sm_app)
        ls_entry_flag(entry, LS_FLAG_BELOW_APP_CLOCKS);
}

static void free_tracks(ls_telemetry_t *t)
{
    for (int i = 0; i < t->n; i++)
        json_decref(t->g[i].procs);
    free(t);
}

void ls_telemetry_stop(ls_telemetry_t *t, json_t *entry)
{
    if (!t)
        return;
    json_t *tele = json_object();
    if (!t->running) {
        json_object_set_new(tele, "samples", json_integer(0));
        json_object_set_new(tele, "available", json_false());
        json_object_set_new(tele, "error", json_string(t->why[0] ? t->why : "sampler not started"));
        json_object_set_new(entry, "telemetry", tele);
        free_tracks(t);
        return;
    }
    ls_ticker_stop(&t->ticker);
    sample_once(t); /* one reading at the end: short measurements get at least two */
    clock_gettime(CLOCK_MONOTONIC, &t->t1);
    json_object_set_new(tele, "samples", json_integer(t->samples));
    if (t->samples > 0) /* the mean reading of the window's GPUs: the per-figure cost */
        json_object_set_new(tele, "reading_ms", json_real(1e3 * t->reading_s / t->samples));
    json_object_set_new(tele, "available", json_true());
    json_t *reasons = json_array();
    ls_nvml_throttle_names(t->throttle_union, reasons);
    for (int i = 0; i < t->n; i++)
        if (t->g[i].nvml >= 0)
            finish_gpu(t, &t->g[i], tele, entry);
    json_object_set_new(tele, "throttle_reasons", reasons);
    if (t->throttled)
        ls_entry_flag(entry, LS_FLAG_THROTTLED);
    json_object_set_new(entry, "telemetry", tele);
    free_tracks(t);
}
