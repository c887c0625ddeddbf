#include "entry.h"
#include "../util/stats.h"

json_t *ls_entry_new(const char *family, const char *metric, const char *unit)
{
    return json_pack("{s:s, s:s, s:s, s:s}", "family", family, "metric", metric, "unit", unit,
                     "status", "ok");
}

void ls_entry_set_samples(json_t *entry, const double *samples, size_t n)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(arr, json_real(samples[i]));
    ls_stats_t s = ls_stats(samples, n);
    json_object_set_new(entry, "samples", arr);
    json_object_set_new(entry, "stats",
                        json_pack("{s:I, s:f, s:f, s:f, s:f, s:f, s:f}", "n", (json_int_t)s.n,
                                  "median", s.median, "min", s.min, "max", s.max, "mean", s.mean,
                                  "stddev", s.stddev, "cv", s.cv));
    json_object_set_new(entry, "value", json_real(s.median));
}

void ls_entry_fail(json_t *entry, const char *status, const char *error)
{
    json_object_set_new(entry, "status", json_string(status));
    json_object_set_new(entry, "error", json_string(error));
}
