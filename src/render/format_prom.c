/* The Prometheus / OpenMetrics text report (--format prom), for node_exporter's textfile
   collector: one gauge family per family of figures that names one (its descriptor,
   model/families.c), named by Prometheus' conventions (base
   units: bytes per second, seconds; a linkscope_ prefix), every label set unique (the
   entry id is a label), values at full precision. A data format: written at the end,
   nothing for the outline's tables. docs/reports.md lists the metrics. */
#include "format.h"
#include "render.h"
#include "model/doc.h"
#include "model/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void nothing(ls_out_t *o, const ls_table_t *t, int flags)
{
    (void)o, (void)t, (void)flags;
}

/* name="value", after a comma unless first. */
static void label(ls_buf_t *b, const char *name, const char *value, int *first)
{
    ls_buf_printf(b, "%s%s=\"", *first ? "" : ",", name);
    ls_buf_prom_label(b, value);
    ls_buf_puts(b, "\"");
    *first = 0;
}

static void int_label(ls_buf_t *b, const json_t *e, const char *key, int *first)
{
    const json_t *v = json_object_get(e, key);
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        char s[24];
        snprintf(s, sizeof s, "%lld", (long long)json_integer_value(v));
        label(b, key, s, first);
    }
}

static void str_label(ls_buf_t *b, const json_t *e, const char *key, int *first)
{
    if (json_is_string(json_object_get(e, key)))
        label(b, key, json_string_value(json_object_get(e, key)), first);
}

static void sample(ls_buf_t *b, const char *host, const ls_fam_prom_t *m, const json_t *e)
{
    int first = 1;
    ls_buf_printf(b, "%s{", m->name);
    label(b, "host", host, &first);
    str_label(b, e, "id", &first);
    str_label(b, e, "method", &first);
    str_label(b, e, "direction", &first);
    str_label(b, e, "memory", &first);
    str_label(b, e, "collective", &first);
    str_label(b, e, "variant", &first);
    int_label(b, e, "src", &first);
    int_label(b, e, "dst", &first);
    int_label(b, e, "gpu", &first);
    int_label(b, e, "nranks", &first);
    int_label(b, e, "bytes", &first);
    char v[40];
    ls_fmt_full(ls_json_num(e, "value", NAN) * m->scale, v, sizeof v); /* unrounded */
    ls_buf_printf(b, "} %s\n", v);
}

/* One gauge per family that names one (model/families.c), over its ok entries of that
   metric with a value. */
static void family(ls_buf_t *b, const json_t *doc, const char *host, const ls_fam_t *f)
{
    const ls_fam_prom_t *m = &f->prom;
    size_t n = 0;
    LS_DOC_FOREACH(v, doc, f)
    {
        if (!v.ok || strcmp(v.metric, m->metric) ||
            !json_is_number(json_object_get(v.json, "value")))
            continue;
        if (!n++)
            ls_buf_printf(b, "# HELP %s %s\n# TYPE %s gauge\n", m->name, m->help, m->name);
        sample(b, host, m, v.json);
    }
}

static void verdict_metrics(ls_buf_t *b, const json_t *findings, const char *host)
{
    int n[3];
    ls_verdict_counts(findings, &n[2], &n[1], &n[0]);
    static const char *sev[] = {"info", "warning", "error"};
    ls_buf_puts(b, "# HELP linkscope_findings Findings of the run's analysis, by severity.\n"
                   "# TYPE linkscope_findings gauge\n");
    for (int s = 2; s >= 0; s--) {
        int first = 1;
        ls_buf_puts(b, "linkscope_findings{");
        label(b, "host", host, &first);
        label(b, "severity", sev[s], &first);
        ls_buf_printf(b, "} %d\n", n[s]);
    }
    ls_buf_puts(b, "# HELP linkscope_healthy 1 when no finding is an error or a warning.\n"
                   "# TYPE linkscope_healthy gauge\n");
    int first = 1;
    ls_buf_puts(b, "linkscope_healthy{");
    label(b, "host", host, &first);
    ls_buf_printf(b, "} %d\n", n[2] + n[1] == 0);
}

static char *end(ls_out_t *o)
{
    ls_buf_t b = {0};
    const char *host = ls_json_str(json_object_get(o->doc, "host"), "hostname", "");
    verdict_metrics(&b, o->findings, host);
    for (int k = 0; ls_fams[k]; k++)
        if (ls_fams[k]->prom.name)
            family(&b, o->doc, host, ls_fams[k]);
    return ls_buf_take(&b);
}

const ls_format_t ls_format_prom = {
    .name = "prom",
    .ext = ".prom",
    .table = nothing,
    .end = end,
    .help = "Prometheus text for node_exporter's textfile collector",
};
