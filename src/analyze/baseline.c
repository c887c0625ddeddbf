#include "baseline.h"
#include "compare.h"
#include "rules.h"
#include "model/doc.h"
#include "util/fileio.h"
#include "util/strindex.h"
#include "util/log.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double round2(double v)
{
    return round(v * 100.0) / 100.0;
}

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
    snprintf(from, sizeof from, "made by linkscope baseline from %s (host %s, run %s)", source_name,
             ls_json_str(json_object_get(doc, "host"), "hostname", "?"),
             ls_json_str(doc, "created", "?"));
    json_t *list = json_array();
    for (size_t i = 0; i < figs.n; i++) {
        const ls_figure_t *f = &figs.items[i];
        double tol = f->higher_is_better ? tolerance_pct : latency_tolerance_pct;
        /* a figure whose own samples scatter needs room for that scatter; a pageable or
           both-ways host copy moves more from run to run than one run's samples show */
        double spread = fmax(f->cv, ls_entry_host_shared(f->match) ? LS_SPREAD_HOST_SHARED : 0);
        /* "exact": the figure's identity has these attributes and no others, so that
           e.g. a copy measured under load does not have to meet the idle figure */
        json_t *exp = json_pack("{s:s, s:O, s:b}", "label", f->label, "match", f->match, "exact",
                                1);
        json_object_set_new(exp, f->higher_is_better ? "min" : "max", json_real(f->value));
        json_object_set_new(exp, "unit", json_string(f->unit));
        json_object_set_new(exp, "tolerance_pct", json_real(tol));
        json_object_set_new(exp, "spread_pct", json_real(round2(spread * 100.0)));
        json_array_append_new(list, exp);
    }
    ls_figures_free(&figs);
    return json_pack("{s:s, s:s, s:s, s:f, s:f, s:o}", "schema", LS_BASELINE_SCHEMA, "created",
                     created, "description", from, "tolerance_pct", tolerance_pct, "spread_k",
                     LS_BASELINE_SPREAD_K, "expectations", list);
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
    static const char *const pcts[] = {"tolerance_pct", "spread_pct"};
    for (size_t k = 0; k < 2; k++) {
        const json_t *v = json_object_get(exp, pcts[k]);
        if (v && (!json_is_number(v) || json_number_value(v) < 0))
            return ls_seterr(err, errlen, "expectations[%zu].%s: expected a non-negative number", i,
                             pcts[k]);
    }
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
    static const char *const nums[] = {"tolerance_pct", "spread_k"};
    for (size_t k = 0; k < 2; k++) {
        const json_t *v = json_object_get(b, nums[k]);
        if (v && (!json_is_number(v) || json_number_value(v) < 0))
            return ls_seterr(err, errlen, "%s: expected a non-negative number", nums[k]);
    }
    const json_t *list = json_object_get(b, "expectations");
    if (!json_is_array(list) || json_array_size(list) == 0)
        return ls_seterr(err, errlen, "expectations: missing, empty or not an array");
    size_t i;
    const json_t *exp;
    json_array_foreach(list, i, exp) {
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

/* What one expectation allows: the given percent, or k x the recorded spread. */
typedef struct {
    double tol, given, spread, k;
} tolerance_t;

static tolerance_t tolerance_of(const json_t *exp, double default_tol, double k)
{
    tolerance_t t = {.given = ls_json_num(exp, "tolerance_pct", default_tol),
                     .spread = ls_json_num(exp, "spread_pct", 0),
                     .k = k};
    t.tol = fmax(t.given, k * t.spread);
    return t;
}

/* "tolerance 10.0%" or "tolerance 42.0% = 3 x spread 14.00%" */
static void tolerance_text(const tolerance_t *t, char *buf, size_t len)
{
    if (t->k * t->spread > t->given)
        snprintf(buf, len, "tolerance %.1f%% = %g x spread %.2f%%", t->tol, t->k, t->spread);
    else
        snprintf(buf, len, "tolerance %.1f%%", t->tol);
}

static json_t *violation(size_t index, const ls_figure_t *f, const char *kind, double bound,
                         double stated, const tolerance_t *t)
{
    char line[640], value[32], lim[32], st[32], tol[64];
    fmt_num(f->value, value, sizeof value);
    fmt_num(bound, lim, sizeof lim);
    fmt_num(stated, st, sizeof st);
    tolerance_text(t, tol, sizeof tol);
    snprintf(line, sizeof line, "FAIL %s: %s %s, expected %s %s %s (%s %s, %s) [%s]", f->label,
             value, f->unit, strcmp(kind, "min") == 0 ? ">=" : "<=", lim, f->unit, kind, st, tol,
             f->entry_id);
    return json_pack("{s:I, s:s, s:s, s:f, s:f, s:f, s:s, s:s}", "expectation", (json_int_t)index,
                     "label", f->label, "entry_id", f->entry_id, "value", f->value, "bound", bound,
                     "tolerance_pct", t->tol, "kind", kind, "line", line);
}

/* An expectation no figure matches: "missing" (a violation) or "skipped". */
static json_t *unmatched(size_t index, const json_t *exp, const char *kind)
{
    char *match = json_dumps(json_object_get(exp, "match"), JSON_COMPACT | JSON_SORT_KEYS);
    int skip = strcmp(kind, "skipped") == 0;
    char line[640];
    snprintf(line, sizeof line, "%s %s: no figure in the run matches %s (expectation %zu)%s",
             skip ? "SKIP" : "FAIL", ls_json_str(exp, "label", "missing"), match ? match : "?",
             index, skip ? "" : " and --require-all is given");
    free(match);
    return json_pack("{s:I, s:s, s:s, s:s}", "expectation", (json_int_t)index, "label",
                     ls_json_str(exp, "label", ""), "kind", kind, "line", line);
}

/* The next figure at or after i that the expectation matches: an exact one through the
   hash index (what 'baseline' writes: linear in figures overall), a partial one by a
   scan. LS_STRINDEX_NONE at the end. */
static size_t next_match(const ls_figures_t *figs, const ls_strindex_t *ix, const char *key,
                         const json_t *match, size_t i, int first)
{
    if (key)
        return first                   ? ls_strindex_first(ix, key)
               : i == LS_STRINDEX_NONE ? i
                                       : ls_strindex_next(ix, i);
    for (i = first ? 0 : i + 1; i < figs->n; i++)
        if (ls_figure_matches(&figs->items[i], match))
            return i;
    return LS_STRINDEX_NONE;
}

/* Holds one figure to one expectation's bounds. */
static void check_figure(const json_t *exp, size_t index, const ls_figure_t *f,
                         const tolerance_t *t, json_t *violations)
{
    const json_t *min = json_object_get(exp, "min"), *max = json_object_get(exp, "max");
    if (min) {
        double bound = json_number_value(min) * (1.0 - t->tol / 100.0);
        if (f->value < bound)
            json_array_append_new(violations,
                                  violation(index, f, "min", bound, json_number_value(min), t));
    }
    if (max) {
        double bound = json_number_value(max) * (1.0 + t->tol / 100.0);
        if (f->value > bound)
            json_array_append_new(violations,
                                  violation(index, f, "max", bound, json_number_value(max), t));
    }
}

typedef struct {
    const ls_figures_t *figs;
    const ls_strindex_t *ix;
    double default_tol, k;
    int require_all;
    json_t *violations, *skipped;
    int checked;
} check_ctx_t;

/* Applies one expectation to every matching figure. */
static void check_one(const json_t *exp, size_t index, check_ctx_t *c)
{
    const json_t *match = json_object_get(exp, "match");
    tolerance_t t = tolerance_of(exp, c->default_tol, c->k);
    int exact = json_is_true(json_object_get(exp, "exact"));
    char *key = exact ? json_dumps(match, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    int matched = 0;
    for (size_t i = exact && !key ? LS_STRINDEX_NONE : next_match(c->figs, c->ix, key, match, 0, 1);
         i != LS_STRINDEX_NONE; i = next_match(c->figs, c->ix, key, match, i, 0)) {
        matched++;
        c->checked++;
        check_figure(exp, index, &c->figs->items[i], &t, c->violations);
    }
    free(key);
    if (matched)
        return;
    /* not measured is not passed, but not failed either, unless every figure is required */
    if (c->require_all && !json_is_true(json_object_get(exp, "optional")))
        json_array_append_new(c->violations, unmatched(index, exp, "missing"));
    else
        json_array_append_new(c->skipped, unmatched(index, exp, "skipped"));
}

json_t *ls_baseline_check(const json_t *baseline, const json_t *doc, int require_all, int *checked,
                          json_t **skipped)
{
    *checked = 0;
    check_ctx_t c = {.default_tol = ls_json_num(baseline, "tolerance_pct", 0),
                     .k = ls_json_num(baseline, "spread_k", LS_BASELINE_SPREAD_K),
                     .require_all = require_all,
                     .violations = json_array(),
                     .skipped = json_array()};
    if (skipped)
        *skipped = c.skipped;
    ls_figures_t figs;
    if (ls_figures_collect(doc, 0, &figs) != 0)
        goto out;
    const char **keys = malloc((figs.n ? figs.n : 1) * sizeof *keys);
    ls_strindex_t ix;
    for (size_t k = 0; keys && k < figs.n; k++)
        keys[k] = figs.items[k].key;
    if (keys && ls_strindex_build(&ix, keys, figs.n) == 0) {
        c.figs = &figs;
        c.ix = &ix;
        size_t i;
        const json_t *exp;
        json_array_foreach(json_object_get(baseline, "expectations"), i, exp)
            check_one(exp, i, &c);
        ls_strindex_free(&ix);
    }
    free(keys);
    ls_figures_free(&figs);
out:
    *checked = c.checked;
    if (!skipped)
        json_decref(c.skipped);
    return c.violations;
}
