#include "baseline.h"
#include "compare.h"
#include "model/doc.h"
#include "util/fileio.h"
#include "util/log.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double round1(double v) { return round(v * 10.0) / 10.0; }

json_t *ls_baseline_from_doc(const json_t *doc, const char *source_name, double tolerance_pct,
                             double latency_tolerance_pct)
{
    ls_figures_t figs;
    if (ls_figures_collect(doc, 0, &figs) != 0)
        return NULL;
    char created[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm);
    char from[512];
    snprintf(from, sizeof from, "made by linkscope baseline from %s (host %s, run %s)",
             source_name, ls_json_str(json_object_get(doc, "host"), "hostname", "?"),
             ls_json_str(doc, "created", "?"));
    json_t *list = json_array();
    for (size_t i = 0; i < figs.n; i++) {
        const ls_figure_t *f = &figs.items[i];
        double tol = f->higher_is_better ? tolerance_pct : latency_tolerance_pct;
        /* a figure whose own samples scatter needs room for that scatter */
        tol = round1(fmax(tol, 3.0 * f->cv * 100.0));
        /* "exact": the figure's identity has these attributes and no others, so that
           e.g. a copy measured under load does not have to meet the idle figure */
        json_t *exp = json_pack("{s:s, s:O, s:b}", "label", f->label, "match", f->match, "exact", 1);
        json_object_set_new(exp, f->higher_is_better ? "min" : "max", json_real(f->value));
        json_object_set_new(exp, "unit", json_string(f->unit));
        json_object_set_new(exp, "tolerance_pct", json_real(tol));
        json_array_append_new(list, exp);
    }
    ls_figures_free(&figs);
    return json_pack("{s:s, s:s, s:s, s:f, s:o}", "schema", LS_BASELINE_SCHEMA, "created", created,
                     "description", from, "tolerance_pct", tolerance_pct, "expectations", list);
}

static int check_expectation(const json_t *exp, size_t i, char *err, size_t errlen)
{
    if (!json_is_object(exp))
        return ls_seterr(err, errlen, "expectations[%zu]: expected an object", i);
    if (!json_is_object(json_object_get(exp, "match")))
        return ls_seterr(err, errlen, "expectations[%zu].match: missing or not an object", i);
    const json_t *min = json_object_get(exp, "min"), *max = json_object_get(exp, "max");
    if ((min && !json_is_number(min)) || (max && !json_is_number(max)) || (!min && !max))
        return ls_seterr(err, errlen, "expectations[%zu]: needs \"min\" or \"max\" (a number)", i);
    const json_t *tol = json_object_get(exp, "tolerance_pct");
    if (tol && (!json_is_number(tol) || json_number_value(tol) < 0))
        return ls_seterr(err, errlen,
                         "expectations[%zu].tolerance_pct: expected a non-negative number", i);
    return 0;
}

static int baseline_validate(const json_t *b, char *err, size_t errlen)
{
    if (!json_is_object(b))
        return ls_seterr(err, errlen, "top level: expected an object");
    const char *schema = ls_json_str(b, "schema", NULL);
    if (!schema)
        return ls_seterr(err, errlen, "schema: missing; not a linkscope baseline (%s)",
                         LS_BASELINE_SCHEMA);
    if (strcmp(schema, LS_BASELINE_SCHEMA) != 0)
        return ls_seterr(err, errlen, "schema: \"%s\" is not %s", schema, LS_BASELINE_SCHEMA);
    const json_t *tol = json_object_get(b, "tolerance_pct");
    if (tol && (!json_is_number(tol) || json_number_value(tol) < 0))
        return ls_seterr(err, errlen, "tolerance_pct: expected a non-negative number");
    const json_t *list = json_object_get(b, "expectations");
    if (!json_is_array(list) || json_array_size(list) == 0)
        return ls_seterr(err, errlen, "expectations: missing, empty or not an array");
    size_t i;
    const json_t *exp;
    json_array_foreach(list, i, exp)
    {
        if (check_expectation(exp, i, err, errlen) != 0)
            return -1;
    }
    return 0;
}

json_t *ls_baseline_parse(const char *text, const char *name, char *err, size_t errlen)
{
    return ls_json_parse_checked(text, name, baseline_validate, err, errlen);
}

json_t *ls_baseline_read(const char *path, char *err, size_t errlen)
{
    return ls_json_read_checked(path, baseline_validate, err, errlen);
}

static void fmt_num(double v, char *buf, size_t len)
{
    snprintf(buf, len, v != 0 && fabs(v) < 10 ? "%.3f" : "%.2f", v);
}

static json_t *violation(size_t index, const ls_figure_t *f, const char *kind, double bound,
                         double stated, double tol)
{
    char line[512], value[32], lim[32], st[32];
    fmt_num(f->value, value, sizeof value);
    fmt_num(bound, lim, sizeof lim);
    fmt_num(stated, st, sizeof st);
    snprintf(line, sizeof line, "FAIL %s: %s %s, expected %s %s %s (%s %s, tolerance %.1f%%) [%s]",
             f->label, value, f->unit, strcmp(kind, "min") == 0 ? ">=" : "<=", lim, f->unit, kind,
             st, tol, f->entry_id);
    return json_pack("{s:I, s:s, s:s, s:f, s:f, s:s, s:s}", "expectation", (json_int_t)index,
                     "label", f->label, "entry_id", f->entry_id, "value", f->value, "bound", bound,
                     "kind", kind, "line", line);
}

static json_t *missing(size_t index, const json_t *exp)
{
    char *match = json_dumps(json_object_get(exp, "match"), JSON_COMPACT | JSON_SORT_KEYS);
    char line[640];
    snprintf(line, sizeof line, "FAIL %s: no figure in the run matches %s (expectation %zu)",
             ls_json_str(exp, "label", "missing"), match ? match : "?", index);
    free(match);
    return json_pack("{s:I, s:s, s:s, s:s}", "expectation", (json_int_t)index, "label",
                     ls_json_str(exp, "label", ""), "kind", "missing", "line", line);
}

/* Applies one expectation to every matching figure. */
static void check_one(const json_t *exp, size_t index, double default_tol, const ls_figures_t *figs,
                      json_t *violations, int *checked)
{
    const json_t *match = json_object_get(exp, "match");
    double tol = ls_json_num(exp, "tolerance_pct", default_tol);
    const json_t *min = json_object_get(exp, "min"), *max = json_object_get(exp, "max");
    int exact = json_is_true(json_object_get(exp, "exact"));
    char *key = exact ? json_dumps(match, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    int matched = 0;
    for (size_t i = 0; i < figs->n; i++) {
        const ls_figure_t *f = &figs->items[i];
        if (exact ? (!key || strcmp(key, f->key) != 0) : !ls_figure_matches(f, match))
            continue;
        matched++;
        (*checked)++;
        if (min) {
            double bound = json_number_value(min) * (1.0 - tol / 100.0);
            if (f->value < bound)
                json_array_append_new(violations,
                                      violation(index, f, "min", bound, json_number_value(min), tol));
        }
        if (max) {
            double bound = json_number_value(max) * (1.0 + tol / 100.0);
            if (f->value > bound)
                json_array_append_new(violations,
                                      violation(index, f, "max", bound, json_number_value(max), tol));
        }
    }
    free(key);
    if (!matched && !json_is_true(json_object_get(exp, "optional")))
        json_array_append_new(violations, missing(index, exp));
}

json_t *ls_baseline_check(const json_t *baseline, const json_t *doc, int *checked)
{
    *checked = 0;
    json_t *violations = json_array();
    ls_figures_t figs;
    if (ls_figures_collect(doc, 0, &figs) != 0)
        return violations;
    double default_tol = ls_json_num(baseline, "tolerance_pct", 0);
    size_t i;
    const json_t *exp;
    json_array_foreach(json_object_get(baseline, "expectations"), i, exp)
        check_one(exp, i, default_tol, &figs, violations, checked);
    ls_figures_free(&figs);
    return violations;
}
