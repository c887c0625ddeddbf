/* Tables of the run's schedule work (run_tables.h). */
#include "run_tables.h"
#include "strbuf.h"
#include "model/doc.h"
#include "model/view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

ls_table_t *ls_table_run_cuts(const json_t *doc)
{
    const json_t *steps = json_object_get(json_object_get(doc, "run"), "steps");
    static const char *header[] = {"step", "cut down", "projected s", "seconds"};
    ls_table_t *t = NULL;
    size_t i;
    json_t *s;
    json_array_foreach(steps, i, s) {
        if (!json_is_string(json_object_get(s, "cut")))
            continue;
        if (!t)
            t = ls_table_new("Steps the time budget cut down (none dropped)", 4, header);
        char proj[24], sec[24];
        ls_fmt_num(ls_json_num(s, "projected_s", NAN), proj, sizeof proj);
        ls_fmt_num(ls_json_num(s, "seconds", NAN), sec, sizeof sec);
        const char *row[] = {ls_json_str(s, "step", "?"), ls_json_str(s, "cut", "?"), proj, sec};
        ls_table_row(t, row);
    }
    return t;
}

/* The smallest and largest per-GPU figure, "a - b". */
static void per_gpu_range(const json_t *e, char *buf, size_t len)
{
    double lo = INFINITY, hi = -INFINITY;
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)json_object_get(e, "per_gpu_gbps"), k, v) {
        double x = json_number_value(v);
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    char a[24], b[24];
    ls_fmt_num(isfinite(lo) ? lo : NAN, a, sizeof a);
    ls_fmt_num(isfinite(hi) ? hi : NAN, b, sizeof b);
    snprintf(buf, len, "%s - %s", a, b);
}

ls_table_t *ls_table_fabric(const json_t *doc)
{
    if (!ls_doc_has(doc, &ls_fam_fabric))
        return NULL;
    static const char *header[] = {"pattern",      "GPU",          "total GB/s (median)",
                                   "ceiling GB/s", "of ceiling %", "per writing GPU GB/s",
                                   "status",       "entry"};
    ls_table_t *t = ls_table_new("Fabric stress: GPUs writing at the same time (copy engine)", 8,
                                 header);
    LS_DOC_FOREACH(view, doc, &ls_fam_fabric)
    {
        const json_t *e = view.json;
        char gpu[16] = "all", v[24], ceil[24], pct[24], range[64];
        if (json_is_integer(json_object_get(e, "subject")))
            snprintf(gpu, sizeof gpu, "%lld", ls_json_int(e, "subject", -1));
        double value = ls_json_num(e, "value", NAN), c = ls_json_num(e, "ceiling_gbps", NAN);
        ls_fmt_num(value, v, sizeof v);
        ls_fmt_num(c, ceil, sizeof ceil);
        ls_fmt_num(c > 0 ? 100 * value / c : NAN, pct, sizeof pct);
        per_gpu_range(e, range, sizeof range);
        const char *row[] =
            {ls_json_str(e, "method", "?"), gpu, v, ceil, pct, range, ls_json_str(e, "status", "?"),
             ls_json_str(e, "id", "")};
        ls_table_row(t, row);
    }
    return t;
}
