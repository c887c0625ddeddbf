/* The summary of one burn entry, from its windows and NVML series (burn.h). Host code:
   tests feed it series without a GPU. */
#include "burn.h"
#include "model/doc.h"
#include "sample/series.h"
#include "util/stats.h"

#include <stdlib.h>

/* Statistics of the values of arr whose time (times[i]) lies in [from, to]; nulls
   (readings NVML could not give) are left out. */
static ls_stats_t stats_between(const json_t *times, const json_t *arr, double from, double to)
{
    size_t n = json_array_size(arr), k = 0;
    double *v = malloc((n ? n : 1) * sizeof *v);
    ls_stats_t s = {0};
    if (!v)
        return s;
    for (size_t i = 0; i < n; i++) {
        double t = json_number_value(json_array_get(times, i));
        const json_t *x = json_array_get(arr, i);
        if (json_is_number(x) && t >= from && t <= to)
            v[k++] = json_number_value(x);
    }
    s = ls_stats(v, k);
    free(v);
    return s;
}

static double last_time(const json_t *times)
{
    size_t n = json_array_size(times);
    return n ? json_number_value(json_array_get(times, n - 1)) : 0;
}

static void put_if(json_t *b, const char *key, const ls_stats_t *s, double v)
{
    if (s->n)
        json_object_set_new(b, key, json_real(v));
}

/* Clock, power and temperature over the whole run and over its second half (the
   sustained state). */
static void summarize_series(json_t *b, const json_t *series)
{
    const json_t *t = json_object_get(series, "t_s");
    double end = last_time(t), half = end / 2;
    ls_stats_t temp = stats_between(t, json_object_get(series, "temp_c"), 0, end);
    ls_stats_t power = stats_between(t, json_object_get(series, "power_w"), 0, end);
    ls_stats_t power2 = stats_between(t, json_object_get(series, "power_w"), half, end);
    ls_stats_t sm2 = stats_between(t, json_object_get(series, "sm_mhz"), half, end);
    put_if(b, "temp_max_c", &temp, temp.max);
    put_if(b, "power_max_w", &power, power.max);
    put_if(b, "power_sustained_w", &power2, power2.median);
    put_if(b, "sm_mhz_sustained", &sm2, sm2.median);
    put_if(b, "sm_mhz_min_sustained", &sm2, sm2.min);
    json_object_set_new(b, "throttle_events", ls_series_throttle_events(series));
}

void ls_burn_summarize(json_t *entry)
{
    json_t *b = json_object_get(entry, "burn");
    if (!json_is_object(b))
        return;
    const json_t *wt = json_object_get(b, "window_t_s"), *wv = json_object_get(b, "window_tflops");
    double end = last_time(wt);
    ls_stats_t first = stats_between(wt, wv, 0, LS_BURN_FIRST_S);
    if (first.n == 0) /* a window longer than the first seconds: the first window */
        first = stats_between(wt, wv, 0, json_number_value(json_array_get(wt, 0)));
    ls_stats_t sustained = stats_between(wt, wv, end / 2, end);
    json_object_set_new(b, "first_s", json_real(LS_BURN_FIRST_S));
    if (first.n && sustained.n) {
        json_object_set_new(b, "first_tflops", json_real(first.median));
        json_object_set_new(b, "sustained_tflops", json_real(sustained.median));
        json_object_set_new(b, "sustained_ratio", json_real(sustained.median / first.median));
        json_object_set_new(entry, "value", json_real(sustained.median));
    }
    summarize_series(b, json_object_get(b, "series"));
}
