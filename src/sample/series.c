#include "series.h"
#include "discover/nvml.h"
#include "model/topo.h"
#include "telemetry.h"
#include "ticker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    int nvml;
    json_t *t, *sm, *mem, *power, *temp, *throttle, *tx, *rx;
    int bytes_ok;
    unsigned long long tx0, rx0;
    double last_t;
} track_t;

struct ls_series {
    ls_ticker_t ticker;
    int running, period_ms, n;
    struct timespec t0;
    char why[160];
    track_t g[LS_MAX_GPUS];
};

static double since(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + (now.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* NVML leaves a field it cannot give at 0: recorded as null, never as a zero reading. */
static json_t *or_null(double v)
{
    return v > 0 ? json_real(v) : json_null();
}

static void nvlink_rate(track_t *g, double t)
{
    unsigned long long tx, rx;
    if (!g->bytes_ok || ls_nvml_nvlink_bytes(g->nvml, &tx, &rx) != 0 || t <= g->last_t) {
        json_array_append_new(g->tx, json_null());
        json_array_append_new(g->rx, json_null());
        return;
    }
    double dt = t - g->last_t;
    json_array_append_new(g->tx, json_real((double)(tx - g->tx0) / dt / 1e9));
    json_array_append_new(g->rx, json_real((double)(rx - g->rx0) / dt / 1e9));
    g->tx0 = tx, g->rx0 = rx, g->last_t = t;
}

static void sample_once(ls_series_t *s)
{
    for (int i = 0; i < s->n; i++) {
        track_t *g = &s->g[i];
        ls_nvml_live_t live; /* zeroed by ls_nvml_live, which refuses an unknown index */
        if (ls_nvml_live(g->nvml, &live) != 0)
            continue;
        double t = since(&s->t0);
        json_array_append_new(g->t, json_real(t));
        json_array_append_new(g->sm, or_null(live.sm_mhz));
        json_array_append_new(g->mem, or_null(live.mem_mhz));
        json_array_append_new(g->power, or_null(live.power_w));
        json_array_append_new(g->temp, or_null(live.temp_c));
        json_array_append_new(g->throttle, json_integer((json_int_t)live.throttle_mask));
        nvlink_rate(g, t);
    }
}

static void tick(void *arg)
{
    sample_once(arg);
}

ls_series_t *ls_series_start(const int *nvml, int n, int period_ms)
{
    ls_series_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->n = n > LS_MAX_GPUS ? LS_MAX_GPUS : n;
    s->period_ms = period_ms > 0 ? period_ms : 100;
    clock_gettime(CLOCK_MONOTONIC, &s->t0);
    for (int i = 0; i < s->n; i++) {
        track_t *g = &s->g[i];
        g->nvml = nvml[i];
        g->t = json_array(), g->sm = json_array(), g->mem = json_array();
        g->power = json_array(), g->temp = json_array(), g->throttle = json_array();
        g->tx = json_array(), g->rx = json_array();
    }
    if (!ls_telemetry_available(s->why, sizeof s->why))
        return s;
    for (int i = 0; i < s->n; i++)
        if (s->g[i].nvml >= 0)
            s->g[i].bytes_ok = ls_nvml_nvlink_bytes(s->g[i].nvml, &s->g[i].tx0, &s->g[i].rx0) == 0;
    if (ls_ticker_start(&s->ticker, s->period_ms, tick, s) == 0)
        s->running = 1;
    else
        snprintf(s->why, sizeof s->why, "the sampling thread could not start");
    return s;
}

static json_t *track_json(const ls_series_t *s, const track_t *g)
{
    json_t *o = json_pack("{s:i, s:b}", "period_ms", s->period_ms, "available",
                          s->running && g->nvml >= 0);
    if (!s->running)
        json_object_set_new(o, "error", json_string(s->why[0] ? s->why : "NVML unavailable"));
    else if (g->nvml < 0)
        json_object_set_new(o, "error", json_string("no NVML device at this GPU's bus id"));
    json_object_set_new(o, "t_s", g->t);
    json_object_set_new(o, "sm_mhz", g->sm);
    json_object_set_new(o, "mem_mhz", g->mem);
    json_object_set_new(o, "power_w", g->power);
    json_object_set_new(o, "temp_c", g->temp);
    json_object_set_new(o, "throttle", g->throttle);
    json_object_set_new(o, "nvlink_tx_gbps", g->tx);
    json_object_set_new(o, "nvlink_rx_gbps", g->rx);
    return o;
}

json_t *ls_series_stop(ls_series_t *s)
{
    if (!s)
        return json_array();
    ls_ticker_stop(&s->ticker);
    json_t *out = json_array();
    for (int i = 0; i < s->n; i++)
        json_array_append_new(out, track_json(s, &s->g[i]));
    free(s);
    return out;
}

json_t *ls_series_throttle_events(const json_t *series)
{
    const json_t *t = json_object_get(series, "t_s"), *mask = json_object_get(series, "throttle");
    json_t *events = json_array();
    for (int bit = 0; bit < 16; bit++) {
        json_t *name = json_array();
        ls_nvml_throttle_names(1ull << bit, name);
        if (json_array_size(name) == 0) {
            json_decref(name);
            continue; /* not a reason, or a state (idle) */
        }
        double first = -1, last = -1;
        int count = 0;
        for (size_t i = 0; i < json_array_size(mask); i++) {
            if (!((unsigned long long)json_integer_value(json_array_get(mask, i)) & (1ull << bit)))
                continue;
            double at = json_number_value(json_array_get(t, i));
            first = first < 0 ? at : first;
            last = at;
            count++;
        }
        if (count)
            json_array_append_new(events, json_pack("{s:O, s:f, s:f, s:i, s:f}", "reason",
                                                    json_array_get(name, 0), "first_s", first,
                                                    "last_s", last, "samples", count, "share",
                                                    (double)count / (double)json_array_size(mask)));
        json_decref(name);
    }
    return events;
}
