/* Fleet analysis (docs/fleet.md). Each figure of each document (the identities of
   compare: what was measured, where, how) becomes a record; records are sorted by
   (model, figure) so each figure's values across the nodes of one hardware model sit
   together: median, median absolute deviation (MAD), and per node the robust score
   z = 0.6745 (x - median) / MAD (Iglewicz and Hoaglin; 0.6745 makes MAD comparable
   to a standard deviation for normal data). A value is an outlier when it is worse
   than the median (lower bandwidth, longer time) by at least min_change_pct and its
   |z| is at least `score`. Sorting keeps the cost n log n in the number of figures. */
#include "analyze/fleet.h"
#include "analyze/analyze.h"
#include "analyze/compare.h"
#include "analyze/machine.h"
#include "model/doc.h"
#include "util/array.h"
#include "model/vocab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int model, node;
    char *key, *label, *subject;
    char unit[16];
    double value;
    int higher_is_better;
} record_t;

typedef struct {
    char **items;
    int n, cap;
} names_t;

struct ls_fleet {
    record_t *rec;
    size_t n, cap;
    names_t models, nodes, files;
    int *node_model;    /* per node */
    json_t *node_found; /* per node: its findings at warning and error */
};

void ls_fleet_opts_default(ls_fleet_opts_t *opts)
{
    opts->score = 3.5;
    opts->min_change_pct = 10;
    opts->min_nodes = 5;
}

ls_fleet_t *ls_fleet_new(void)
{
    return calloc(1, sizeof(ls_fleet_t));
}

static int names_find(const names_t *names, const char *s)
{
    for (int i = 0; i < names->n; i++)
        if (!strcmp(names->items[i], s))
            return i;
    return -1;
}

static int names_add(names_t *names, const char *s)
{
    if (names->n == names->cap) {
        int cap = names->cap ? names->cap * 2 : 16;
        char **grown = realloc(names->items, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        names->items = grown;
        names->cap = cap;
    }
    if (!(names->items[names->n] = strdup(s)))
        return -1;
    return names->n++;
}

/* Models are few: a linear search is enough. */
static int model_index(ls_fleet_t *fleet, const char *model)
{
    for (int i = 0; i < fleet->models.n; i++)
        if (strcmp(fleet->models.items[i], model) == 0)
            return i;
    return names_add(&fleet->models, model);
}

/* What a figure is about, for people: a GPU pair (either direction), a GPU, a
   network port (a per-port sweep's NCCL_IB_HCA variant), or a collective. */
static void subject_of(const json_t *m, char *buf, size_t len)
{
    const char *family = ls_json_str(m, "family", "");
    const char *variant = ls_json_str(m, "variant", "");
    const char *hca = strstr(variant, "NCCL_IB_HCA=");
    long long src = ls_json_int(m, "src", -1), dst = ls_json_int(m, "dst", -1);
    if (ls_json_str(m, "subject", NULL)) /* imports that name it: "port mlx5_0", "process 5" */
        snprintf(buf, len, "%s", ls_json_str(m, "subject", ""));
    else if (hca) { /* "NCCL_IB_HCA==mlx5_1:1" (--each-hca's exact match) reads "port mlx5_1:1" */
        hca += strlen("NCCL_IB_HCA=");
        snprintf(buf, len, "port %s", hca + (*hca == '='));
    } else if ((strcmp(family, LS_FAMILY_P2P) == 0 || strcmp(family, LS_FAMILY_LATENCY) == 0) &&
               dst >= 0)
        snprintf(buf, len, "GPUs %lld-%lld", src < dst ? src : dst, src < dst ? dst : src);
    else if (strcmp(family, LS_FAMILY_P2P) == 0 || strcmp(family, LS_FAMILY_LATENCY) == 0)
        snprintf(buf, len, "GPU %lld", src);
    else if (json_object_get(m, "gpu"))
        snprintf(buf, len, "GPU %lld", ls_json_int(m, "gpu", -1));
    else
        snprintf(buf, len, "%s %s", family, ls_json_str(m, "collective", ""));
}

static record_t *push(ls_fleet_t *fleet)
{
    return ls_array_push(&fleet->rec, &fleet->n, &fleet->cap, sizeof *fleet->rec, 1024);
}

static int add_node(ls_fleet_t *fleet, const json_t *doc, const char *file)
{
    char model[256];
    ls_gpu_summary(doc, model, sizeof model);
    int m = model_index(fleet, model[0] ? model : "unknown hardware");
    const char *host = ls_json_str(json_object_get(doc, "host"), "hostname", NULL);
    const char *name = host && host[0] ? host : file;
    char both[512];
    if (names_find(&fleet->nodes, name) >=
        0) { /* two documents of one hostname: two rows, two series */
        snprintf(both, sizeof both, "%s (%s)", name, file);
        name = both;
    }
    int node = names_add(&fleet->nodes, name);
    if (m < 0 || node < 0 || names_add(&fleet->files, file) < 0)
        return -1;
    int *grown = realloc(fleet->node_model, (size_t)(node + 1) * sizeof *grown);
    if (!grown)
        return -1;
    fleet->node_model = grown;
    grown[node] = m;
    return node;
}

json_t *ls_fleet_node_findings(const json_t *doc)
{
    json_t *all = ls_findings(doc), *kept = json_array();
    size_t i;
    const json_t *f;
    json_array_foreach(all, i, f) /* ls_findings sorts errors first */
    {
        const char *sev = ls_json_str(f, "severity", "");
        if (strcmp(sev, "error") && strcmp(sev, "warning"))
            continue;
        json_t *k = json_pack("{s:s, s:s, s:s, s:s}", "severity", sev, "rule",
                              ls_json_str(f, "rule", ""), "subject", ls_json_str(f, "subject", ""),
                              "message", ls_json_str(f, "message", ""));
        if (json_object_get(f, "gpus")) /* the GPUs a scheduler drains, as data */
            json_object_set(k, "gpus", json_object_get(f, "gpus"));
        json_object_set(k, "action", json_object_get(f, "action"));
        json_array_append_new(kept, k);
    }
    json_decref(all);
    return kept;
}

/* The node's findings joined to what it already has (a node named by two documents). */
static int keep_found(ls_fleet_t *fleet, int node, json_t *found)
{
    if (!fleet->node_found)
        fleet->node_found = json_array();
    while (fleet->node_found && (int)json_array_size(fleet->node_found) <= node)
        json_array_append_new(fleet->node_found, json_array());
    json_t *have = json_array_get(fleet->node_found, (size_t)node);
    int rc = have && found ? json_array_extend(have, found) : -1;
    json_decref(found);
    return rc;
}

static int add_figures(ls_fleet_t *fleet, const json_t *doc, int node)
{
    ls_figures_t figs;
    if (ls_figures_collect(doc, 0, &figs) != 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < figs.n && rc == 0; i++) {
        const ls_figure_t *f = &figs.items[i];
        char subject[96];
        subject_of(f->match, subject, sizeof subject);
        record_t *r = push(fleet);
        if (!r)
            rc = -1;
        else {
            r->model = fleet->node_model[node];
            r->node = node;
            r->key = strdup(f->key);
            r->label = strdup(f->label);
            r->subject = strdup(subject);
            snprintf(r->unit, sizeof r->unit, "%s", f->unit);
            r->value = f->value;
            r->higher_is_better = f->higher_is_better;
            if (!r->key || !r->label || !r->subject)
                rc = -1;
        }
    }
    ls_figures_free(&figs);
    return rc;
}

int ls_fleet_add_found(ls_fleet_t *fleet, const json_t *doc, const char *file, json_t *found)
{
    int node = add_node(fleet, doc, file);
    if (node < 0) {
        json_decref(found);
        return -1;
    }
    if (keep_found(fleet, node, found ? found : ls_fleet_node_findings(doc)) != 0)
        return -1;
    return add_figures(fleet, doc, node);
}

int ls_fleet_add(ls_fleet_t *fleet, const json_t *doc, const char *file)
{
    return ls_fleet_add_found(fleet, doc, file, NULL);
}

static int by_model_key(const void *x, const void *y)
{
    const record_t *a = x, *b = y;
    if (a->model != b->model)
        return a->model < b->model ? -1 : 1;
    return strcmp(a->key, b->key);
}

/* Median and MAD of the values of records [from, to). */
static void spread(const record_t *rec, size_t from, size_t to, double *scratch, double *median,
                   double *mad)
{
    size_t n = to - from;
    for (size_t i = 0; i < n; i++)
        scratch[i] = rec[from + i].value;
    *median = ls_median(scratch, (int)n);
    for (size_t i = 0; i < n; i++)
        scratch[i] = fabs(rec[from + i].value - *median);
    *mad = ls_median(scratch, (int)n);
}

/* One group of records (one figure on the nodes of one model): outliers appended. */
static void judge_group(const ls_fleet_t *fleet, size_t from, size_t to, double *scratch,
                        const ls_fleet_opts_t *opts, json_t *outliers, json_t *figures,
                        int *per_node)
{
    double median, mad;
    spread(fleet->rec, from, to, scratch, &median, &mad);
    const record_t *first = &fleet->rec[from];
    /* every node's value, for the report's distribution of the figure */
    json_t *values = json_array();
    json_t *figure = json_pack("{s:s, s:s, s:s, s:i, s:f, s:f, s:b, s:o}", "model",
                               fleet->models.items[first->model], "label", first->label, "unit",
                               first->unit, "nodes", (int)(to - from), "median", median, "mad", mad,
                               "judged", (int)(to - from) >= opts->min_nodes, "values", values);
    json_array_append_new(figures, figure);
    for (size_t i = from; i < to; i++) {
        const record_t *r = &fleet->rec[i];
        double worse = r->higher_is_better ? median - r->value : r->value - median;
        double change_pct = median != 0 ? 100.0 * worse / fabs(median) : 0;
        /* MAD 0 (most nodes identical): any deviation scores as far beyond the limit */
        double z = mad > 0 ? 0.6745 * worse / mad : (worse > 0 ? INFINITY : 0);
        int outlier = (int)(to - from) >= opts->min_nodes && median != 0 &&
                      change_pct >= opts->min_change_pct && z >= opts->score;
        json_array_append_new(values,
                              json_pack("{s:s, s:f, s:b}", "node", fleet->nodes.items[r->node],
                                        "value", r->value, "outlier", outlier));
        if (!outlier)
            continue;
        per_node[r->node]++;
        json_array_append_new(outliers,
                              json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:f, s:f, s:f, s:f, s:f}",
                                        "node", fleet->nodes.items[r->node], "file",
                                        fleet->files.items[r->node], "model",
                                        fleet->models.items[r->model], "subject", r->subject,
                                        "label", r->label, "unit", r->unit, "value", r->value,
                                        "median", median, "mad", mad, "score", isinf(z) ? 1e9 : z,
                                        "worse_pct", change_pct));
    }
}

/* Outliers by node, then the largest score first: each node's evidence together. */
static int by_node_score(const void *x, const void *y)
{
    const json_t *a = *(json_t *const *)x, *b = *(json_t *const *)y;
    int c = strcmp(ls_json_str(a, "node", ""), ls_json_str(b, "node", ""));
    if (c)
        return c;
    double sa = ls_json_num(a, "score", 0), sb = ls_json_num(b, "score", 0);
    return (sa < sb) - (sa > sb);
}

static void sort_outliers(json_t *outliers)
{
    size_t n = json_array_size(outliers);
    json_t **items = malloc((n ? n : 1) * sizeof *items);
    if (!items)
        return; /* left in figure order */
    for (size_t i = 0; i < n; i++)
        items[i] = json_incref(json_array_get(outliers, i));
    qsort(items, n, sizeof *items, by_node_score);
    json_array_clear(outliers);
    for (size_t i = 0; i < n; i++)
        json_array_append_new(outliers, items[i]);
    free(items);
}

/* Distinct subjects of one node's outliers, in the order met. */
static json_t *node_subjects(const json_t *outliers, const char *node)
{
    json_t *subjects = json_array();
    size_t i;
    const json_t *o;
    json_array_foreach(outliers, i, o) {
        if (strcmp(ls_json_str(o, "node", ""), node) != 0)
            continue;
        ls_json_add_string_once(subjects, ls_json_str(o, "subject", ""));
    }
    return subjects;
}

/* Findings of one severity in a node's list. */
static int count_severity(const json_t *found, const char *severity)
{
    size_t i;
    const json_t *f;
    int n = 0;
    json_array_foreach(found, i, f)
        n += !strcmp(ls_json_str(f, "severity", ""), severity);
    return n;
}

static json_t *node_row(const ls_fleet_t *fleet, const json_t *outliers, int n, int outlier_count)
{
    json_t *found = json_array_get(fleet->node_found, (size_t)n); /* every node has its list */
    return json_pack("{s:s, s:s, s:s, s:i, s:o, s:i, s:i, s:O}", "node", fleet->nodes.items[n],
                     "file", fleet->files.items[n], "model",
                     fleet->models.items[fleet->node_model[n]], "outliers", outlier_count,
                     "subjects", node_subjects(outliers, fleet->nodes.items[n]), "errors",
                     count_severity(found, "error"), "warnings", count_severity(found, "warning"),
                     "findings", found);
}

static json_t *summary(const ls_fleet_t *fleet, json_t *outliers, json_t *figures,
                       const int *per_node)
{
    json_t *models = json_array(), *nodes = json_array();
    int flagged = 0, errors = 0, warnings = 0;
    for (int m = 0; m < fleet->models.n; m++) {
        int count = 0;
        for (int n = 0; n < fleet->nodes.n; n++)
            count += fleet->node_model[n] == m;
        json_array_append_new(models, json_pack("{s:s, s:i}", "model", fleet->models.items[m],
                                                "nodes", count));
    }
    for (int n = 0; n < fleet->nodes.n; n++) {
        json_t *row = node_row(fleet, outliers, n, per_node[n]);
        flagged += per_node[n] > 0;
        errors += ls_json_int(row, "errors", 0) > 0;
        warnings += ls_json_int(row, "errors", 0) == 0 && ls_json_int(row, "warnings", 0) > 0;
        json_array_append_new(nodes, row);
    }
    return json_pack("{s:o, s:o, s:o, s:o, s:i, s:i, s:i}", "models", models, "nodes", nodes,
                     "figures", figures, "outliers", outliers, "outlier_nodes", flagged,
                     "error_nodes", errors, "warning_nodes", warnings);
}

json_t *ls_fleet_analyze(ls_fleet_t *fleet, const ls_fleet_opts_t *opts)
{
    if (fleet->n) /* qsort of NULL is undefined even for 0 items */
        qsort(fleet->rec, fleet->n, sizeof *fleet->rec, by_model_key);
    double *scratch = malloc((fleet->n ? fleet->n : 1) * sizeof *scratch);
    int *per_node = calloc(fleet->nodes.n ? fleet->nodes.n : 1, sizeof *per_node);
    json_t *outliers = json_array(), *figures = json_array();
    if (!scratch || !per_node || !outliers || !figures) {
        free(scratch);
        free(per_node);
        json_decref(outliers);
        json_decref(figures);
        return NULL;
    }
    for (size_t from = 0, to; from < fleet->n; from = to) {
        for (to = from + 1; to < fleet->n && by_model_key(&fleet->rec[from], &fleet->rec[to]) == 0;)
            to++;
        judge_group(fleet, from, to, scratch, opts, outliers, figures, per_node);
    }
    sort_outliers(outliers);
    json_t *result = summary(fleet, outliers, figures, per_node);
    free(scratch);
    free(per_node);
    return result;
}

static void names_free(names_t *names)
{
    for (int i = 0; i < names->n; i++)
        free(names->items[i]);
    free(names->items);
}

void ls_fleet_free(ls_fleet_t *fleet)
{
    if (!fleet)
        return;
    json_decref(fleet->node_found);
    for (size_t i = 0; i < fleet->n; i++) {
        free(fleet->rec[i].key);
        free(fleet->rec[i].label);
        free(fleet->rec[i].subject);
    }
    free(fleet->rec);
    names_free(&fleet->models);
    names_free(&fleet->nodes);
    names_free(&fleet->files);
    free(fleet->node_model);
    free(fleet);
}
