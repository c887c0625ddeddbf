#include "figures.h"
#include "model/entry.h"
#include "model/vocab.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double ls_gbps(double bytes, double ms)
{
    if (ms <= 0)
        return 0;
    return bytes / (ms * 1e-3) / 1e9;
}

uint64_t ls_round16(uint64_t bytes)
{
    return bytes & ~(uint64_t)15;
}

uint64_t ls_p2p_counted_bytes(const char *direction, uint64_t size, int loops)
{
    uint64_t one = size * (uint64_t)loops;
    return strcmp(direction, LS_DIR_BIDIR) == 0 ? 2 * one : one;
}

uint64_t ls_hbm_traffic_bytes(const char *method, uint64_t size, int loops)
{
    uint64_t one = size * (uint64_t)loops;
    if (strcmp(method, LS_HBM_COPY) == 0 || strcmp(method, LS_HBM_COPY_CE) == 0)
        return 2 * one; /* each byte read once and written once */
    if (strcmp(method, LS_HBM_READ) == 0 || strcmp(method, LS_HBM_WRITE) == 0)
        return one;
    return 0;
}

uint64_t ls_host_counted_bytes(const char *direction, uint64_t size, int loops)
{
    uint64_t one = size * (uint64_t)loops;
    return strcmp(direction, LS_DIR_BIDIR) == 0 ? 2 * one : one;
}

double ls_pingpong_one_way_us(double elapsed_ns, int round_trips)
{
    return round_trips > 0 ? elapsed_ns / (2.0 * round_trips) / 1000.0 : 0;
}

double ls_per_access_us(double elapsed_ns, int accesses)
{
    return accesses > 0 ? elapsed_ns / accesses / 1000.0 : 0;
}

int ls_pick_loops(double one_ms, double target_ms, int max_loops)
{
    if (max_loops < 1)
        max_loops = 1;
    if (!(one_ms > 0))
        return 1;
    double want = ceil(target_ms / one_ms);
    if (want < 1)
        return 1;
    return want > max_loops ? max_loops : (int)want;
}

void ls_entry_set_bandwidth(json_t *entry, const double *ms, size_t n, double counted_bytes)
{
    double *gbps = malloc((n ? n : 1) * sizeof *gbps);
    if (!gbps)
        return;
    for (size_t i = 0; i < n; i++)
        gbps[i] = ls_gbps(counted_bytes, ms[i]);
    ls_entry_set_samples(entry, gbps, n);
    free(gbps);
}

void ls_entry_set_stop(json_t *entry, const ls_sample_rule_t *rule, int stop_rule, int taken,
                       enum ls_stop why)
{
    json_t *st = stop_rule ? json_pack("{s:s, s:f, s:f, s:i, s:i}", "rule", "median_ci",
                                       "confidence", rule->confidence, "rel_width", rule->rel_width,
                                       "min", rule->min_samples, "max", rule->max_samples)
                           : json_pack("{s:s}", "rule", "fixed");
    json_object_set_new(st, "samples", json_integer(taken));
    json_object_set_new(st, "stopped_by", json_string(ls_stop_name(why)));
    json_object_set_new(entry, "stop", st);
}
