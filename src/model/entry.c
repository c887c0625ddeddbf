#include "entry.h"
#include "doc.h"
#include "../util/stats.h"

#include <math.h>
#include <string.h>
#include <stdlib.h>

json_t *ls_entry_new(const char *family, const char *metric, const char *unit)
{
    return json_pack("{s:s, s:s, s:s, s:s}", "family", family, "metric", metric, "unit", unit,
                     "status", "ok");
}

void ls_entry_set_samples(json_t *entry, const double *samples, size_t n)
{
    /* JSON has no NaN or infinity (json_real refuses them): such a sample would vanish
       from "samples" and take "stats" and "value" with it. Keep the finite ones. */
    double *finite = malloc((n ? n : 1) * sizeof *finite);
    if (!finite)
        return;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(samples[i]))
            finite[kept++] = samples[i];
    json_t *arr = json_array();
    for (size_t i = 0; i < kept; i++)
        json_array_append_new(arr, json_real(finite[i]));
    ls_stats_t s = ls_stats(finite, kept);
    free(finite);
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

void ls_entry_flag(json_t *entry, const char *flag)
{
    ls_json_add_string_once(ls_json_array_at(entry, "flags"), flag);
}

int ls_entry_has_flag(const json_t *entry, const char *flag)
{
    size_t i;
    const json_t *f;
    json_array_foreach(json_object_get(entry, "flags"), i, f) {
        if (json_is_string(f) && strcmp(json_string_value(f), flag) == 0)
            return 1;
    }
    return 0;
}
