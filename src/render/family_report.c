#include "family_report.h"
#include "strbuf.h"
#include "status.h"
#include "model/doc.h"
#include "model/view.h"
#include "model/vocab.h"

#include <math.h>
#include <stdio.h>

/* "GPU 3", "0 -> 1", "GPUs 0,1,2", else the entry's subject; "unknown" without any. */
static void about(const ls_view_t *v, char *buf, size_t len)
{
    const json_t *gpus = json_object_get(v->json, "gpus");
    if (v->src >= 0 && v->dst >= 0)
        snprintf(buf, len, "%d -> %d", v->src, v->dst);
    else if (v->gpu >= 0)
        snprintf(buf, len, "GPU %d", v->gpu);
    else if (json_array_size(gpus)) {
        size_t at = (size_t)snprintf(buf, len, "GPUs ");
        size_t i;
        const json_t *g;
        json_array_foreach(gpus, i, g) {
            if (at < len)
                at += (size_t)snprintf(buf + at, len - at, "%s%lld", i ? "," : "",
                                       (long long)json_integer_value(g));
        }
    } else
        snprintf(buf, len, "%s", ls_json_str(v->json, "subject", "unknown"));
}

static void stat_cell(const json_t *stats, const char *key, char *buf, size_t len)
{
    double x = ls_json_num(stats, key, NAN);
    if (isnan(x))
        snprintf(buf, len, "-");
    else
        ls_fmt_num(x, buf, len);
}

static void family_row(ls_table_t *t, const json_t *plan, const ls_view_t *v)
{
    const json_t *stats = json_object_get(v->json, "stats");
    char what[96], value[24], mn[24], mx[24], cv[24], n[16];
    about(v, what, sizeof what);
    if (isnan(v->value))
        snprintf(value, sizeof value, "-");
    else
        ls_fmt_num(v->value, value, sizeof value);
    stat_cell(stats, "min", mn, sizeof mn);
    stat_cell(stats, "max", mx, sizeof mx);
    ls_fmt_num(100 * v->cv, cv, sizeof cv);
    snprintf(n, sizeof n, "%d", v->n);
    const char *row[10] = {what, v->method_word[0] ? v->method_word : "unknown", value, mn, mx, cv,
                           n};
    ls_entry_tail_cells(plan, v->json, row + 7);
    ls_table_row(t, row);
}

ls_table_t *ls_table_family(const json_t *doc, const json_t *plan, const ls_fam_t *fam)
{
    if (!ls_doc_has(doc, fam))
        return NULL;
    char title[160], median[48];
    snprintf(title, sizeof title, "%s, %s, median of the samples", fam->title, fam->unit);
    snprintf(median, sizeof median, "%s (median)", fam->unit);
    const char *header[] = {"of",   "method",  median,   "min",   "max",
                            "cv %", "samples", "source", "entry", "status"};
    ls_table_t *t = ls_table_new(title, 10, header);
    LS_DOC_FOREACH(v, doc, fam)
    {
        family_row(t, plan, &v);
    }
    return t;
}
