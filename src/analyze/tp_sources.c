/* tp's sources and its document entry (tp_sources.h), moved from cli/cmd_tp.c. */
#include "tp_sources.h"
#include "model/doc.h"
#include "model/entry.h"
#include "util/parse.h"
#include "model/vocab.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* "name=PCIe,bw=5.2,lat=22.1" (or rtt=44.2 for a round trip, used as lat = rtt/2). */
int ls_tp_source_from_link(const char *spec, int number, ls_tp_source_t *src, char *err,
                           size_t errlen)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", spec);
    snprintf(src->name, sizeof src->name, "link%d", number);
    double bw = -1, lat = -1, rtt = -1;
    for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        if (!eq)
            return fail(err, errlen, "--link '%s': expected key=value items (name, bw, lat or rtt)",
                        spec);
        *eq = '\0';
        const char *key = item, *val = eq + 1;
        double *dst = strcmp(key, "bw") == 0    ? &bw
                      : strcmp(key, "lat") == 0 ? &lat
                      : strcmp(key, "rtt") == 0 ? &rtt
                                                : NULL;
        if (strcmp(key, "name") == 0 && *val) {
            snprintf(src->name, sizeof src->name, "%s", val);
        } else if (!dst || ls_parse_double(val, dst) != 0 || *dst < 0) {
            return fail(err, errlen,
                        "--link '%s': '%s=%s' is not name=TEXT, bw=GB/s, lat=us or rtt=us", spec,
                        key, val);
        }
    }
    if (!(bw > 0) || (lat < 0) == (rtt < 0))
        return fail(err, errlen, "--link '%s': needs bw=GB/s (> 0) and one of lat=us or rtt=us",
                    spec);
    src->kind = LS_TP_SRC_LINK;
    src->bw_gbps = bw;
    src->lat_us = lat >= 0 ? lat : rtt / 2;
    snprintf(src->origin, sizeof src->origin, "--link bw %g GB/s, %s: ring all-reduce formula", bw,
             lat >= 0 ? "lat per step given" : "lat = rtt/2");
    return 0;
}

void ls_tp_format_gpus(const int *gpus, int n, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%d", i ? "," : "", gpus[i]);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int stem_length(const char *name)
{
    size_t n = strlen(name);
    return (int)(n > 5 && strcmp(name + n - 5, ".json") == 0 ? n - 5 : n);
}

int ls_tp_source_from_run(const json_t *doc, const ls_tp_run_t *r, long tp, ls_tp_source_t *src,
                          int *skipped, char *err, size_t errlen)
{
    char why[600];
    /* without --gpus, an entry on --tp ranks first (seed 000's document holds 2-, 5-, 6-,
       10- and 11-GPU all_reduces); else the usual choice, refused below with its rank count */
    const json_t *entry = ls_tp_find_allreduce_ranks(doc, r->gpus, r->ngpus, r->variant, (int)tp,
                                                     why, sizeof why);
    if (!entry)
        entry = ls_tp_find_allreduce(doc, r->gpus, r->ngpus, r->variant, why, sizeof why);
    *skipped = 0;
    if (!entry)
        return fail(err, errlen, "%s: %s", r->path, why);
    if (ls_tp_entry_nranks(entry) != tp)
        return fail(err, errlen, "%s: the all_reduce entry '%s' ran on %d ranks but --tp is %ld",
                    r->path, ls_json_str(entry, "id", "?"), ls_tp_entry_nranks(entry), tp);
    if (ls_tp_curve_from_entry(&src->curve, entry, skipped, why, sizeof why) != 0)
        return fail(err, errlen, "%s: entry '%s': %s", r->path, ls_json_str(entry, "id", "?"), why);
    char gpus[128];
    const json_t *g;
    size_t k;
    int list[LS_TP_MAX_GPUS], n = 0;
    json_array_foreach(json_object_get(entry, "gpus"), k, g)
        if (n < LS_TP_MAX_GPUS)
            list[n++] = (int)json_integer_value(g);
    ls_tp_format_gpus(list, n, gpus, sizeof gpus);
    const char *variant = ls_json_str(entry, "variant", "default");
    src->kind = LS_TP_SRC_CURVE;
    if (r->name)
        snprintf(src->name, sizeof src->name, "%s", r->name);
    else
        snprintf(src->name, sizeof src->name, "%.*s%s%s", stem_length(base_name(r->path)),
                 base_name(r->path), strcmp(variant, "default") ? ":" : "",
                 strcmp(variant, "default") ? variant : "");
    snprintf(src->origin, sizeof src->origin,
             "%s: nccl all_reduce '%s', GPUs %s, variant %s, out-of-place times%s", r->path,
             ls_json_str(entry, "id", "?"), gpus, variant,
             *skipped ? " (rows with #wrong > 0 left out)" : "");
    return 0;
}

json_t *ls_tp_doc_entry(const json_t *estimate, const char *model, long tp, const int *gpus,
                        int ngpus)
{
    json_t *e = ls_entry_new(LS_FAMILY_TP, "time", "us");
    char id[128];
    snprintf(id, sizeof id, "tp-%s-tp%ld", model ? model : "custom", tp);
    json_object_set_new(e, "id", json_string(id));
    json_object_set_new(e, "method", json_string("megatron_allreduce"));
    if (ngpus) {
        json_t *g = json_array();
        for (int i = 0; i < ngpus; i++)
            json_array_append_new(g, json_integer(gpus[i]));
        json_object_set_new(e, "gpus", g);
    }
    /* value: the whole first request's communication time on the first source */
    const json_t *req = json_object_get(json_array_get(json_object_get(estimate, "scenarios"), 0),
                                        "request");
    double ms = ls_json_num(json_array_get(json_object_get(req, "sources"), 0), "comm_ms", 0);
    json_object_set_new(e, "value", json_real(ms * 1e3));
    json_object_set_new(e, "source", json_string(LS_SOURCE_LINKSCOPE));
    json_object_set_new(e, "estimate", json_deep_copy(estimate));
    return e;
}
