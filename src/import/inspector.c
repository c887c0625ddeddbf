/* NCCL Inspector JSONL (NCCL's ext-profiler / plugins/profiler/inspector). Each line is
   one finished collective on one rank; records are grouped by collective, message size
   and rank count, and each group keeps its medians (a job repeats the same call many
   times). Some writers flatten header and metadata into the record: both are read; a
   file of records printed over several lines (as the plugin's README shows them) is read
   object by object. p2p_perf records and lines that are not JSON are ignored; the
   Prometheus mode's metrics text (NCCL_INSPECTOR_PROM_DUMP=1: sizes in buckets such as
   "4-5GB") is not read. */
#include "inspector.h"
#include "model/doc.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ls_inspector_detect(const char *text)
{
    const char *p = text;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return *p == '{' && strstr(text, "\"coll_perf\"") && strstr(text, "\"coll_busbw_gbs\"");
}

/* NCCL's function names to nccl-tests' (and linkscope's) collective names. */
static const char *collective_name(const char *coll)
{
    static const struct {
        const char *nccl, *ours;
    } names[] = {{"AllReduce", "all_reduce"},
                 {"AllGather", "all_gather"},
                 {"ReduceScatter", "reduce_scatter"},
                 {"Broadcast", "broadcast"},
                 {"Reduce", "reduce"},
                 {"AllToAll", "alltoall"},
                 {"AlltoAll", "alltoall"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(coll, names[i].nccl) == 0)
            return names[i].ours;
    return coll;
}

static const json_t *field(const json_t *rec, const char *part, const char *key)
{
    const json_t *v = json_object_get(json_object_get(rec, part), key);
    return v ? v : json_object_get(rec, key);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(const json_t *values)
{
    size_t n = json_array_size(values);
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return 0;
    for (size_t i = 0; i < n; i++)
        v[i] = json_number_value(json_array_get(values, i));
    qsort(v, n, sizeof *v, cmp_double);
    double m = n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    free(v);
    return m;
}

static json_t *group_for(json_t *groups, const char *coll, long long bytes, long long nranks)
{
    size_t i;
    json_t *g;
    json_array_foreach(groups, i, g) {
        if (strcmp(ls_json_str(g, "collective", ""), coll) == 0 &&
            ls_json_int(g, "bytes", -1) == bytes && ls_json_int(g, "nranks", -1) == nranks)
            return g;
    }
    g = json_pack("{s:s, s:I, s:I, s:[], s:[], s:[]}", "collective", coll, "bytes",
                  (json_int_t)bytes, "nranks", (json_int_t)nranks, "busbw_all", "time_all",
                  "hosts");
    json_array_append_new(groups, g);
    return g;
}

static void add_host(json_t *g, const char *host)
{
    if (!host)
        return;
    size_t i;
    const json_t *h;
    json_array_foreach(json_object_get(g, "hosts"), i, h) {
        if (strcmp(json_string_value(h), host) == 0)
            return;
    }
    json_array_append_new(json_object_get(g, "hosts"), json_string(host));
}

static int add_record(json_t *groups, const json_t *rec)
{
    const json_t *perf = json_object_get(rec, "coll_perf");
    const char *coll = ls_json_str(perf, "coll", NULL);
    const json_t *bw = json_object_get(perf, "coll_busbw_gbs");
    long long bytes = ls_json_int(perf, "coll_msg_size_bytes", -1);
    if (!coll || !json_is_number(bw) || bytes < 0)
        return 0;
    const json_t *nr = field(rec, "header", "n_ranks");
    json_t *g = group_for(groups, collective_name(coll), bytes,
                          json_is_integer(nr) ? json_integer_value(nr) : -1);
    json_array_append_new(json_object_get(g, "busbw_all"), json_real(json_number_value(bw)));
    const json_t *t = json_object_get(perf, "coll_exec_time_us");
    if (json_is_number(t))
        json_array_append_new(json_object_get(g, "time_all"), json_real(json_number_value(t)));
    const json_t *nodes = field(rec, "header", "nnodes");
    if (json_is_integer(nodes))
        json_object_set_new(g, "nnodes", json_integer(json_integer_value(nodes)));
    static const char *const names[] = {"coll_algo", "coll_proto"}, *const keys[] = {"algo",
                                                                                     "proto"};
    for (int k = 0; k < 2; k++)
        if (json_is_string(json_object_get(perf, names[k])))
            json_object_set_new(g, keys[k], json_string(ls_json_str(perf, names[k], "")));
    add_host(g, json_string_value(field(rec, "metadata", "hostname")));
    return 1;
}

/* The medians replace the per-record lists. */
static void finish(json_t *groups)
{
    size_t i;
    json_t *g;
    json_array_foreach(groups, i, g) {
        const json_t *bw = json_object_get(g, "busbw_all"), *t = json_object_get(g, "time_all");
        json_object_set_new(g, "records", json_integer((json_int_t)json_array_size(bw)));
        json_object_set_new(g, "busbw", json_real(median_of(bw)));
        if (json_array_size(t))
            json_object_set_new(g, "exec_time_us", json_real(median_of(t)));
        json_object_del(g, "busbw_all");
        json_object_del(g, "time_all");
        if (ls_json_int(g, "nranks", -1) < 0)
            json_object_del(g, "nranks");
    }
}

/* Records printed over several lines (the plugin's README, a paste through jq): each
   object in turn, text between them skipped up to the next line opening with '{'. */
static int read_pretty(json_t *groups, const char *text)
{
    int records = 0;
    size_t len = strlen(text), at = 0;
    while (at < len) {
        const char *open = text[at] == '{' ? text + at : strstr(text + at, "\n{");
        if (!open)
            break;
        at = (size_t)(open - text) + (*open == '\n');
        json_error_t jerr;
        json_t *rec = json_loadb(text + at, len - at, JSON_DISABLE_EOF_CHECK, &jerr);
        if (json_is_object(rec))
            records += add_record(groups, rec);
        at += rec && jerr.position > 0 ? (size_t)jerr.position : 1;
        json_decref(rec);
    }
    return records;
}

int ls_import_inspector(json_t *doc, const char *text, const char *name, char *err, size_t errlen)
{
    json_t *groups = json_array();
    int records = 0;
    const char *p = text;
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        json_t *rec = json_loadb(p, len, 0, NULL);
        if (json_is_object(rec))
            records += add_record(groups, rec);
        json_decref(rec);
        p += len + (end != NULL);
    }
    if (records == 0)
        records = read_pretty(groups, text);
    if (records == 0) {
        json_decref(groups);
        return ls_seterr(err, errlen, "%s: NCCL Inspector JSONL: no coll_perf record", name);
    }
    finish(groups);
    json_t *list = ls_json_array_at(doc, "inspector");
    int n = (int)json_array_size(groups);
    json_array_extend(list, groups);
    json_decref(groups);
    return n;
}
