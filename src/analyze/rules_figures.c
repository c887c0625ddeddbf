/* Figures that cannot be: a document with nothing in it (nothing_measured), a figure
   recorded as ok that is missing, zero or below (impossible_value), and nccl-tests rows
   that are not what nccl-tests prints: cells of nan or inf and sizes past 2^63 the import
   left out, negative times or bandwidths, a size twice in one sweep (suspect_rows).
   A forged or broken input is never "healthy" (docs/safety.md, "Impossible figures"). */
#include "rules.h"
#include "model/doc.h"
#include "model/entry.h"
#include "model/vocab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LISTED 6

/* What every document holds that is not something measured or imported: its header,
   the host and software it ran on, the record of imports, a stored analysis. Any other
   top-level member that is not empty (gpus, links, measurements, nccl_logs, dcgm, a
   section a later import adds) is something for the rules to judge. */
static const char *const header[] = {"schema", "created", "tool",   "host",     "software",
                                     "env",    "imports", "source", "findings", "plan"};

static int is_header(const char *key)
{
    for (size_t i = 0; i < sizeof header / sizeof *header; i++)
        if (!strcmp(key, header[i]))
            return 1;
    return 0;
}

static void nothing_measured(const ls_machine_t *m, json_t *out)
{
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)m->doc, key, v) {
        if (!is_header(key) && ((json_is_array(v) && json_array_size(v)) ||
                                (json_is_object(v) && json_object_size(v)) || json_is_number(v) ||
                                json_is_string(v) || json_is_true(v)))
            return;
    }
    ls_finding_add(out, "nothing_measured", LS_SEV_ERROR, LS_ABOUT_WHAT("document"), json_array(),
                   "Nothing measured: the document holds no GPU, no link, no figure and no "
                   "imported tool "
                   "report, so nothing in it can be judged healthy; next: `linkscope run -o "
                   "RUN.json`, or "
                   "`linkscope import FILE -o RUN.json` with a tool's output");
}

/* Appends "ID (what)" to a list of at most MAX_LISTED, then counts the rest. */
static void list_entry(char *list, size_t len, int n, const json_t *e, const char *what)
{
    size_t used = strlen(list);
    if (n < MAX_LISTED)
        snprintf(list + used, len - used, "%s%s (%s)", n ? ", " : "", ls_json_str(e, "id", "?"),
                 what);
    else if (n == MAX_LISTED)
        snprintf(list + used, len - used, " and more");
}

static uint64_t entry_gpus(const json_t *e)
{
    uint64_t mask = 0;
    size_t i;
    const json_t *g;
    json_array_foreach(json_object_get(e, "gpus"), i, g) {
        if (json_is_integer(g) && json_integer_value(g) >= 0 && json_integer_value(g) < LS_MAX_GPUS)
            mask |= 1ULL << json_integer_value(g);
    }
    return mask;
}

/* Why an ok figure cannot be, or NULL. nccl-tests prints busbw with two decimals, so
   the 0.00 of a sweep that stopped at a few bytes is a rounding, and a cut paste may keep
   no row at all: an nccl entry is impossible below zero only (its rows: suspect_rows). */
static const char *impossible(const json_t *e, char *buf, size_t len)
{
    const json_t *v = json_object_get(e, "value");
    int nccl = !strcmp(ls_json_str(e, "family", ""), LS_FAMILY_NCCL);
    if (strcmp(ls_json_str(e, "status", ""), "ok"))
        return NULL;
    if (!json_is_number(v))
        return nccl ? NULL : "no figure";
    /* a bandwidth past any hardware's (the fastest HBM moves some 8 TB/s, an NVLink 5 GPU
       1.8 TB/s): a forged or misread cell, "1e308" */
    if (!strcmp(ls_json_str(e, "unit", ""), "GB/s") &&
        json_number_value(v) > LS_BANDWIDTH_BOUND_GBPS) {
        snprintf(buf, len, "%g GB/s, past any hardware's bandwidth", json_number_value(v));
        return buf;
    }
    if (json_number_value(v) > 0 || (nccl && json_number_value(v) == 0))
        return NULL;
    snprintf(buf, len, "%g %s", json_number_value(v), ls_json_str(e, "unit", ""));
    return buf;
}

/* What a rule below says of one entry: why it is wrong (into buf where it formats one),
   or NULL. */
typedef const char *(*figure_fault_fn)(const json_t *e, char *buf, size_t len);

/* The entries of family (NULL: all) that fault names, as one finding of rule: its
   subject the GPUs they hold, its evidence their ids. message is a printf format given,
   in order, the count (%d), the plural "s" of a noun (%s), the "s" of a verb in the
   singular (%s, or %.0s where the message has none) and the list of entries (%s). */
typedef struct {
    const char *rule, *family, *message;
    enum ls_severity severity;
    figure_fault_fn fault;
} figure_rule_t;

static void flag_figures(const ls_machine_t *m, const figure_rule_t *r, json_t *out)
{
    char list[768] = "", what[64];
    int n = 0;
    uint64_t gpus = 0;
    json_t *evidence = json_array();
    for (long i = ls_doc_next_measurement(m->doc, r->family, 0); i >= 0;
         i = ls_doc_next_measurement(m->doc, r->family, i + 1)) {
        const json_t *e = ls_measurement(m, (size_t)i);
        const char *why = r->fault(e, what, sizeof what);
        if (!why)
            continue;
        list_entry(list, sizeof list, n++, e, why);
        gpus |= entry_gpus(e);
        json_array_append_new(evidence, json_string(ls_json_str(e, "id", "")));
    }
    if (!n) {
        json_decref(evidence);
        return;
    }
    ls_about_t about = gpus ? LS_ABOUT_GPUS(gpus) : LS_ABOUT_WHAT("figures");
    ls_finding_add(out, r->rule, r->severity, about, evidence, r->message, n, n == 1 ? "" : "s",
                   n == 1 ? "s" : "", list);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* 1 when a row's time or bandwidth in result r (oop or ip) is below zero. */
static int negative_result(const json_t *r)
{
    return ls_json_num(r, "time_us", 0) < 0 || ls_json_num(r, "algbw", 0) < 0 ||
           ls_json_num(r, "busbw", 0) < 0;
}

/* What is wrong with an nccl entry's rows, or NULL. */
static const char *bad_rows(const json_t *e, char *buf, size_t len)
{
    (void)buf, (void)len;
    if (ls_entry_has_flag(e, "nonfinite_cells"))
        return "nan or inf cells left out";
    if (ls_entry_has_flag(e, "unreadable_size"))
        return "a size past 2^63 left out";
    const json_t *rows = json_object_get(e, "rows");
    size_t n = json_array_size(rows), i, dup = 0;
    const json_t *r;
    json_array_foreach(rows, i, r) {
        if (negative_result(json_object_get(r, "oop")) || negative_result(json_object_get(r, "ip")))
            return "a negative time or bandwidth";
    }
    double *sizes = n > 1 ? malloc(n * sizeof *sizes) : NULL;
    for (i = 0; sizes && i < n; i++)
        sizes[i] = ls_json_num(json_array_get(rows, i), "bytes", -1);
    if (sizes)
        qsort(sizes, n, sizeof *sizes, by_value);
    for (i = 1; sizes && i < n && !dup; i++)
        dup = sizes[i] == sizes[i - 1];
    free(sizes);
    return dup ? "a size twice" : NULL;
}

static const figure_rule_t impossible_values = {
    .rule = "impossible_value",
    .family = NULL,
    .severity = LS_SEV_ERROR,
    .fault = impossible,
    .message = "%d figure%s recorded as measured cannot be%.0s: %s; a bandwidth, latency or "
               "throughput of zero or "
               "below (or none), or a bandwidth past 100 TB/s, is no measurement: a measurement "
               "that did not run, a tool's cell "
               "printed as 0.00, "
               "or a hand-edited document; its pairs are unknown, not healthy; next: measure again "
               "(`linkscope run`)",
};

static const figure_rule_t suspect_rows = {
    .rule = "suspect_rows",
    .family = LS_FAMILY_NCCL,
    .severity = LS_SEV_WARNING,
    .fault = bad_rows,
    .message = "%d NCCL sweep%s hold%s rows nccl-tests does not print when it works: %s; the "
               "figures of "
               "those rows are unknown; next: run the sweep again and keep its whole output",
};

void ls_rules_figures(const ls_machine_t *m, json_t *out)
{
    nothing_measured(m, out);
    flag_figures(m, &impossible_values, out);
    flag_figures(m, &suspect_rows, out);
}
