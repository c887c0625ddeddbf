/* nccl-tests -J. Facts from nccl-tests' src/util.cu that decide what a key means:
   - top level: version (the file version), args (argv), env, nccl_version (the
     library's code, 22803 = 2.28.3), config {nthreads, ngpus, iterations, warmup_iters,
     validation, graph, devices[]}, results[], out_of_bounds {count},
     average_bus_bandwidth {bandwidth} (file version 1 spelled it
     "average_bus_bandwidith" {"bandwidith"});
   - devices[] holds one object per process ({rank, hostname, device, device_hex,
     device_info}) from the first of that process's rank lines: a process driving
     nthreads x ngpus GPUs uses devices device .. device + nthreads*ngpus - 1;
   - results[] {size, count, type, redop, root (a padded string), out_of_place,
     in_place}: each {time (or cpu_time), alg_bw, bus_bw, nwrong (null = not
     checked)}; out_of_place is null for trace replays;
   - with -I: out_of_place_per_iter / in_place_per_iter {min_us, max_us, avg_us,
     p50_us, p95_us, p99_us, stdev_us, cv_pct, times_us[], per_process_max_times_us[p][i]
     (each process's own time per iteration, the max over its GPUs)}. */
#include "nccl_tests_json.h"
#include "import_util.h"
#include "nccl_tests.h"
#include "model/doc.h"
#include "model/entry.h"
#include "model/vocab.h"
#include "util/log.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SOURCE "nccl-tests"

int ls_nccl_tests_json_detect(const char *text)
{
    const char *p = text;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return *p == '{' && strstr(text, "\"results\"") && strstr(text, "\"config\"") &&
           strstr(text, "\"nccl_version\"");
}

/* 22803 -> "2.28.3"; codes before 2.9 (2708 = 2.7.8) have one digit per part. */
static void version_from_code(long long code, char *out, size_t outlen)
{
    if (code >= 10000)
        snprintf(out, outlen, "%lld.%lld.%lld", code / 10000, code / 100 % 100, code % 100);
    else if (code > 0)
        snprintf(out, outlen, "%lld.%lld.%lld", code / 1000, code / 100 % 10, code % 100);
    else
        out[0] = 0;
}

static const json_t *first_of(const json_t *obj, const char *a, const char *b)
{
    const json_t *v = json_object_get(obj, a);
    return v ? v : json_object_get(obj, b);
}

/* The per-iteration statistics kept beside a result, and each process's mean time. */
static json_t *iter_json(const json_t *it)
{
    static const char *const keys[] = {"min_us", "max_us", "avg_us",   "p50_us",
                                       "p95_us", "p99_us", "stdev_us", "cv_pct"};
    json_t *o = json_object();
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (json_is_number(json_object_get(it, keys[k])))
            json_object_set_new(o, keys[k],
                                json_real(json_number_value(json_object_get(it, keys[k]))));
    /* nccl-tests 2.19.6 (-I with a skip): its statistics leave out the first iterations;
       the per-process means here do the same */
    long long skip = json_is_integer(json_object_get(it, "skipped_iterations"))
                         ? json_integer_value(json_object_get(it, "skipped_iterations"))
                         : 0;
    if (skip > 0)
        json_object_set_new(o, "skipped_iterations", json_integer(skip));
    json_t *means = json_array();
    size_t p;
    const json_t *times;
    json_array_foreach(json_object_get(it, "per_process_max_times_us"), p, times) {
        double sum = 0;
        size_t n = 0, i;
        const json_t *t;
        json_array_foreach(times, i, t) {
            if (json_is_number(t) && (long long)i >= skip)
                sum += json_number_value(t), n++;
        }
        json_array_append_new(means, n ? json_real(sum / (double)n) : json_null());
    }
    if (json_array_size(means))
        json_object_set_new(o, "process_mean_us", means);
    else
        json_decref(means);
    return o;
}

/* {time_us, algbw, busbw, wrong} as the text import keeps them; NULL when absent. */
static json_t *result_json(const json_t *r, const json_t *per_iter)
{
    if (!json_is_object(r))
        return NULL;
    json_t *o = json_object();
    const json_t *t = first_of(r, "time", "cpu_time");
    if (json_is_number(t))
        json_object_set_new(o, "time_us", json_real(json_number_value(t)));
    if (json_is_number(json_object_get(r, "alg_bw")))
        json_object_set_new(o, "algbw", json_real(ls_json_num(r, "alg_bw", 0)));
    if (json_is_number(json_object_get(r, "bus_bw")))
        json_object_set_new(o, "busbw", json_real(ls_json_num(r, "bus_bw", 0)));
    const json_t *w = json_object_get(r, "nwrong");
    double wrong = json_is_number(w) ? json_number_value(w) : NAN;
    json_object_set_new(o, "wrong",
                        isfinite(wrong) && fabs(wrong) < 9.2e18 && wrong == floor(wrong)
                            ? json_integer((long long)wrong)
                            : json_null());
    if (json_is_object(per_iter))
        json_object_set_new(o, "iter", iter_json(per_iter));
    return o;
}

static long long root_of(const json_t *r)
{
    const json_t *root = json_object_get(r, "root");
    if (json_is_integer(root))
        return json_integer_value(root);
    const char *s = json_string_value(root);
    return s ? strtoll(s, NULL, 10) : -1;
}

static int same_group(const json_t *a, const json_t *b)
{
    return strcmp(ls_json_str(a, "type", ""), ls_json_str(b, "type", "")) == 0 &&
           strcmp(ls_json_str(a, "redop", ""), ls_json_str(b, "redop", "")) == 0 &&
           root_of(a) == root_of(b);
}

typedef struct {
    const json_t *top, *config;
    char collective[64], nccl[32], tool[32];
    long long per_process; /* GPUs one process drives */
    int nhosts;
} run_t;

/* Distinct hostnames of devices[], through a hash set (a file of many devices compared
   each with every earlier one was quadratic: docs/safety.md, "Cost"). */
static int count_hosts(const json_t *devices)
{
    json_t *seen = json_object();
    size_t i;
    const json_t *d;
    json_array_foreach(devices, i, d)
        json_object_set_new_nocheck(seen, ls_json_str(d, "hostname", ""), json_true());
    int n = (int)json_object_size(seen);
    json_decref(seen);
    return n;
}

/* gpus[] (device indices), ranks[] on several hosts, the GPU inventory on one. */
static void set_gpus(json_t *e, const run_t *run, json_t *doc)
{
    json_t *gpus = json_array(), *ranks = json_array();
    size_t p;
    const json_t *d;
    json_array_foreach(json_object_get(run->config, "devices"), p, d) {
        long long dev = ls_json_int(d, "device", -1), rank = ls_json_int(d, "rank", -1);
        for (long long k = 0; dev >= 0 && k < run->per_process && k < 1024; k++) {
            json_array_append_new(gpus, json_integer(dev + k));
            json_array_append_new(ranks,
                                  json_pack("{s:I, s:s, s:I}", "rank", (json_int_t)(rank + k),
                                            "host", ls_json_str(d, "hostname", "unknown"), "device",
                                            (json_int_t)(dev + k)));
        }
        /* one host: the inventory; the file keeps only each process's first rank line, so
           only that GPU's model is known (the others stay unnamed, never guessed) */
        if (run->nhosts == 1 && dev >= 0 && dev < 1024)
            ls_set_if_absent(ls_import_gpu(doc, (int)dev), "name",
                             ls_json_str(d, "device_info", NULL));
        if (run->nhosts == 1)
            ls_set_if_absent(json_object_get(doc, "host"), "hostname",
                             ls_json_str(d, "hostname", NULL));
    }
    json_object_set_new(e, "gpus", gpus);
    json_object_set_new(e, "nranks", json_integer((json_int_t)json_array_size(ranks)));
    if (run->nhosts > 1) {
        json_object_set_new(e, "nodes", json_integer(run->nhosts));
        json_object_set_new(e, "ranks", ranks);
    } else {
        json_decref(ranks);
    }
    json_object_set_new(e, "mode",
                        json_string(json_array_size(json_object_get(run->config, "devices")) > 1
                                        ? "mpi"
                                        : "threads"));
}

static void set_run(json_t *e, const run_t *run, const json_t *first, json_t *doc)
{
    json_object_set_new(e, "collective", json_string(run->collective));
    set_gpus(e, run, doc);
    json_object_set_new(e, "variant", json_string("default"));
    json_object_set_new(e, "dtype", json_string(ls_json_str(first, "type", "unknown")));
    json_object_set_new(e, "redop", json_string(ls_json_str(first, "redop", "none")));
    json_object_set_new(e, "root", json_integer(root_of(first)));
    const json_t *c = run->config;
    if (json_is_integer(json_object_get(c, "graph")))
        json_object_set_new(e, "graph", json_boolean(ls_json_int(c, "graph", 0) > 0));
    if (json_is_integer(json_object_get(c, "iterations")))
        json_object_set_new(e, "iters", json_integer(ls_json_int(c, "iterations", 0)));
    if (json_is_integer(json_object_get(c, "warmup_iters")))
        json_object_set_new(e, "warmup", json_integer(ls_json_int(c, "warmup_iters", 0)));
    if (run->nccl[0])
        json_object_set_new(e, "nccl_version", json_string(run->nccl));
}

static const json_t *main_of(const json_t *row)
{
    const json_t *oop = json_object_get(row, "oop");
    return oop ? oop : json_object_get(row, "ip");
}

/* rows[], value and bytes at the largest size, small_time_us at the smallest. */
static void set_rows(json_t *e, const json_t *results, size_t from, size_t to, long long validation)
{
    json_t *rows = json_array();
    const json_t *largest = NULL, *smallest = NULL;
    int all_checked = to > from;
    for (size_t i = from; i < to; i++) {
        const json_t *r = json_array_get(results, i);
        json_t *row = json_pack("{s:I, s:I}", "bytes", (json_int_t)ls_json_int(r, "size", 0),
                                "count", (json_int_t)ls_json_int(r, "count", 0));
        json_t *oop = result_json(json_object_get(r, "out_of_place"),
                                  json_object_get(r, "out_of_place_per_iter"));
        json_t *ip = result_json(json_object_get(r, "in_place"),
                                 json_object_get(r, "in_place_per_iter"));
        if (oop)
            json_object_set_new(row, "oop", oop);
        if (ip)
            json_object_set_new(row, "ip", ip);
        const json_t *m = main_of(row);
        all_checked &= m && json_is_integer(json_object_get(m, "wrong"));
        json_array_append_new(rows, row);
        if (!largest || ls_json_int(row, "bytes", 0) >= ls_json_int(largest, "bytes", 0))
            largest = row;
        if (!smallest || ls_json_int(row, "bytes", 0) < ls_json_int(smallest, "bytes", 0))
            smallest = row;
    }
    json_object_set_new(e, "rows", rows);
    if (largest) {
        json_object_set_new(e, "bytes", json_integer(ls_json_int(largest, "bytes", 0)));
        const json_t *m = main_of(largest), *s = main_of(smallest);
        if (json_is_number(json_object_get(m, "busbw")))
            json_object_set_new(e, "value", json_real(ls_json_num(m, "busbw", 0)));
        if (json_is_number(json_object_get(s, "time_us"))) {
            json_object_set_new(e, "small_time_us", json_real(ls_json_num(s, "time_us", 0)));
            json_object_set_new(e, "small_bytes", json_integer(ls_json_int(smallest, "bytes", 0)));
        }
    }
    json_object_set_new(e, "verified", json_boolean(validation != 0 && all_checked));
}

/* The footer: average bus bandwidth (either spelling), out-of-bounds count; a file
   without them was cut (the run died or is still going). */
static void set_footer(json_t *e, const json_t *top)
{
    const json_t *avg = first_of(top, "average_bus_bandwidth", "average_bus_bandwidith");
    const json_t *bw = first_of(avg, "bandwidth", "bandwidith");
    if (json_is_number(bw))
        json_object_set_new(e, "avg_busbw", json_real(json_number_value(bw)));
    const json_t *oob = json_object_get(json_object_get(top, "out_of_bounds"), "count");
    if (json_is_integer(oob))
        json_object_set_new(e, "out_of_bounds", json_integer(json_integer_value(oob)));
    if (!json_is_number(bw) && !json_is_integer(oob)) {
        json_object_set_new(e, "flags", json_pack("[s]", "incomplete"));
        json_object_set_new(e, "notes",
                            json_pack("[s]", "incomplete file: no average_bus_bandwidth or "
                                             "out_of_bounds (the run stopped before its footer)"));
    }
}

static int add_group(json_t *doc, const run_t *run, size_t from, size_t to)
{
    const json_t *results = json_object_get(run->top, "results");
    json_t *e = ls_import_entry(LS_FAMILY_NCCL, "busbw", "GB/s", 0);
    json_object_del(e, "value");
    set_run(e, run, json_array_get(results, from), doc);
    set_rows(e, results, from, to, ls_json_int(run->config, "validation", 0));
    set_footer(e, run->top);
    if (from == to)
        ls_entry_fail(e, "failed", "nccl-tests wrote no result (the run stopped early?)");
    long long oob = ls_json_int(e, "out_of_bounds", 0);
    if (oob > 0)
        ls_entry_fail(e, "failed", "nccl-tests counted out-of-bounds values (wrong results)");
    const json_t *errors = json_object_get(run->top, "errors");
    if (json_is_string(json_array_get(errors, 0)) && *json_string_value(json_array_get(errors, 0)))
        json_object_set_new(e, "notes",
                            json_pack("[s]", json_string_value(json_array_get(errors, 0))));
    char id[128];
    size_t used = (size_t)snprintf(id, sizeof id, "nccl-%s", run->collective);
    size_t i;
    const json_t *g;
    json_array_foreach(json_object_get(e, "gpus"), i, g) {
        if (used < sizeof id)
            used += (size_t)snprintf(id + used, sizeof id - used, "-%lld",
                                     (long long)json_integer_value(g));
    }
    ls_import_add(doc, e, SOURCE, id);
    return 1;
}

static void fill_run(run_t *run, const json_t *top, const char *name)
{
    memset(run, 0, sizeof *run);
    run->top = top;
    run->config = json_object_get(top, "config");
    const char *argv0 = json_string_value(json_array_get(json_object_get(top, "args"), 0));
    if ((!argv0 ||
         ls_nccl_collective_from_name(argv0, run->collective, sizeof run->collective) != 0) &&
        ls_nccl_collective_from_name(name, run->collective, sizeof run->collective) != 0)
        snprintf(run->collective, sizeof run->collective, "unknown");
    version_from_code(ls_json_int(top, "nccl_version", 0), run->nccl, sizeof run->nccl);
    long long nt = ls_json_int(run->config, "nthreads", 1),
              ng = ls_json_int(run->config, "ngpus", 1);
    run->per_process = nt > 0 && ng > 0 && nt * ng < 1024 ? nt * ng : 1;
    run->nhosts = count_hosts(json_object_get(run->config, "devices"));
}

int ls_import_nccl_tests_json(json_t *doc, const char *text, const char *name, char *err,
                              size_t errlen)
{
    json_error_t jerr;
    json_t *top = json_loads(text, JSON_DECODE_ANY, &jerr);
    if (!json_is_object(top) || !json_is_array(json_object_get(top, "results")))
        return ls_import_json_refused(top, &jerr, name, "nccl-tests", "no \"results\" list", err,
                                      errlen);
    run_t run;
    fill_run(&run, top, name);
    if (run.nccl[0])
        ls_set_if_absent(json_object_get(doc, "software"), "nccl", run.nccl);
    const json_t *results = json_object_get(top, "results");
    size_t n = json_array_size(results), start = 0;
    int added = 0;
    while (start < n) {
        size_t end = start;
        while (end < n && json_is_object(json_array_get(results, end)) &&
               same_group(json_array_get(results, start), json_array_get(results, end)))
            end++;
        if (end == start) { /* not an object: skipped */
            start++;
            continue;
        }
        added += add_group(doc, &run, start, end);
        start = end;
    }
    if (added == 0)
        add_group(doc, &run, 0, 0),
            added = 1; /* a run that printed no row: an entry that says so */
    json_decref(top);
    return added;
}
