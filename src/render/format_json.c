/* The JSON report (--format json): the verdict, the headline, the findings with all
   their evidence, the plan, and one flat object per figure, at full precision (the
   document's own numbers, never the display rounding). A data format: it writes the
   whole object at the end and nothing for the outline's tables. docs/reports.md lists
   its fields. */
#include "format.h"
#include "render.h"
#include "model/doc.h"
#include "model/view.h"

#include <stdlib.h>
#include <string.h>

static void nothing(ls_out_t *o, const ls_table_t *t, int flags)
{
    (void)o, (void)t, (void)flags;
}

static json_t *verdict(const json_t *findings)
{
    int e, w, i;
    int worst = ls_verdict_counts(findings, &e, &w, &i);
    char *line = ls_render_verdict(findings);
    const json_t *f = ls_verdict_worst(findings);
    json_t *v = json_pack("{s:s, s:s, s:i, s:i, s:i}", "status",
                          worst == 2 ? "error"
                          : worst    ? "warning"
                                     : "healthy",
                          "line", line, "errors", e, "warnings", w, "infos", i);
    json_object_set_new(v, "worst",
                        f ? json_pack("{s:s, s:s, s:s, s:s}", "severity",
                                      ls_json_str(f, "severity", ""), "rule",
                                      ls_json_str(f, "rule", ""), "subject",
                                      ls_json_str(f, "subject", ""), "message",
                                      ls_json_str(f, "message", ""))
                          : json_null());
    free(line);
    return v;
}

/* Copies key from an object when it is there. */
static void copy(json_t *to, const json_t *from, const char *key, const char *as)
{
    json_t *v = json_object_get(from, key);
    if (v && !json_is_null(v))
        json_object_set(to, as ? as : key, v);
}

/* One figure, flat: what it is, where, its median and spread, its peak. */
static json_t *figure(const json_t *e)
{
    static const char *keys[] = {"id",          "family",     "method",      "metric",
                                 "direction",   "unit",       "status",      "src",
                                 "dst",         "gpu",        "gpus",        "bytes",
                                 "memory",      "numa_node",  "collective",  "variant",
                                 "nranks",      "nodes",      "small_bytes", "small_time_us",
                                 "theoretical", "efficiency", "source",      "flags",
                                 "error"};
    json_t *f = json_object();
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        copy(f, e, keys[k], NULL);
    copy(f, e, "value", "median");
    const json_t *st = json_object_get(e, "stats");
    copy(f, st, "min", NULL);
    copy(f, st, "max", NULL);
    copy(f, st, "mean", NULL);
    copy(f, st, "cv", NULL);
    copy(f, st, "n", "samples");
    return f;
}

static char *end(ls_out_t *o)
{
    const json_t *host = json_object_get(o->doc, "host"), *sw = json_object_get(o->doc, "software");
    json_t *r = json_pack("{s:s, s:s, s:s}", "schema", "linkscope.report/1", "host",
                          ls_json_str(host, "hostname", ""), "created",
                          ls_json_str(o->doc, "created", ""));
    json_object_set_new(r, "verdict", verdict(o->findings));
    json_object_set_new(r, "gpus", json_integer(ls_doc_ngpus(o->doc)));
    json_object_set_new(r, "headline", ls_headline_json(o->doc, o->plan));
    json_t *figs = json_array();
    LS_DOC_FOREACH(e, o->doc, NULL)
    {
        json_array_append_new(figs, figure(e.json));
    }
    json_object_set(r, "findings", (json_t *)o->findings);
    json_object_set(r, "plan", (json_t *)o->plan);
    json_object_set_new(r, "figures", figs);
    json_t *meta = json_object();
    copy(meta, sw, "driver", NULL);
    copy(meta, sw, "cuda_driver", NULL);
    copy(meta, sw, "cuda_runtime", NULL);
    copy(meta, sw, "nccl", NULL);
    copy(meta, host, "cpu_model", NULL);
    copy(meta, host, "numa_nodes", NULL);
    copy(meta, json_object_get(o->doc, "tool"), "version", "linkscope");
    json_object_set_new(r, "run", meta);
    /* 17 significant digits: a double read back is the same double */
    char *text = json_dumps(r, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    json_decref(r);
    size_t n = strlen(text);
    char *out = realloc(text, n + 2);
    if (!out)
        abort();
    out[n] = '\n', out[n + 1] = '\0';
    return out;
}

const ls_format_t ls_format_json = {
    .name = "json",
    .ext = ".json",
    .table = nothing,
    .end = end,
    .help = "the verdict, headline, findings, plan and one flat object per\n"
            "figure, full precision",
};
