/* linkscope compare: two run documents (or the variants of one) side by side. */
#include "commands.h"
#include "options.h"
#include "analyze/compare.h"
#include "model/doc.h"
#include "render/compare_text.h"
#include "util/log.h"
#include "util/parse.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *files[2];
    int nfiles;
    int variants, markdown, json, changes_only, fail_on_regression, quiet, fail_on;
    const char *base;
    ls_compare_opts_t opts;
} compare_args_t;

static int opt_threshold(const char *cmd, const char *v, void *args)
{
    return ls_opt_percent(cmd, "--threshold", v, 1000,
                          &((compare_args_t *)args)->opts.threshold_pct);
}

static int opt_latency_threshold(const char *cmd, const char *v, void *args)
{
    return ls_opt_percent(cmd, "--latency-threshold", v, 1000,
                          &((compare_args_t *)args)->opts.latency_threshold_pct);
}

#define FLAG(n, field, text) LS_OPT_FLAG_ROW(compare_args_t, n, field, text)

static const ls_opt_t options[] = {
    {.name = "threshold",
     .kind = LS_OPT_CALL,
     .arg = "PCT",
     .call = opt_threshold,
     .help = "smallest change flagged, percent (default 5)"},
    {.name = "latency-threshold",
     .kind = LS_OPT_CALL,
     .arg = "PCT",
     .call = opt_latency_threshold,
     .help = "the same for figures in us: latencies and small-message\n"
             "times, which jitter more (default 10)"},
    FLAG("variants", variants,
         "compare the NCCL variants within one document against\n"
         "--base (default \"default\"), e.g. NCCL_P2P_LEVEL=PHB"),
    {.name = "base",
     .kind = LS_OPT_STRING,
     .arg = "VARIANT",
     .off = offsetof(compare_args_t, base),
     .help = "with --variants: the variant the others are held against"},
    FLAG("markdown", markdown, "Markdown tables instead of the terminal table"),
    FLAG("json", json, "the comparison as JSON on stdout"),
    FLAG("changes-only", changes_only, "list only flagged figures"),
    LS_OPT_FAIL_ON_NOTE(compare_args_t,
                        "\n(a regression counts as an error: it fails at every level\n"
                        "but never)"),
    FLAG("fail-on-regression", fail_on_regression,
         "the same as --fail-on error (kept for older scripts)"),
    LS_OPT_QUIET_ROW(compare_args_t),
    {.kind = LS_OPT_END},
};

const ls_cmd_opts_t opts_compare = {
    .head = "usage: linkscope compare A.json B.json [--threshold PCT] [--markdown | --json]\n"
            "                         [--changes-only] [--fail-on LEVEL] [--quiet]\n"
            "       linkscope compare --variants RUN.json [--base VARIANT] [same options]\n"
            "\n"
            "Matches the figures of two run documents by what they measured (family, method,\n"
            "direction, GPUs, collective, variant, size, ...) and shows A, B, B/A and the\n"
            "change. A change is flagged as a regression or a gain when it exceeds both the\n"
            "threshold and three times the samples' combined coefficient of variation;\n"
            "figures without samples (imported) use the threshold alone. Inventory\n"
            "differences (GPU names, driver, CUDA, NCCL, NIC firmware) are shown first as\n"
            "context.\n"
            "\n"
            "Options:\n",
    .opts = options,
    .tail = "\n"
            "Exit codes: 0 compared, no regression at --fail-on; 1 a regression (unless\n"
            "--fail-on never); 2 unreadable or mismatched inputs (different schema, nothing\n"
            "in common). Details: docs/compare-check.md.\n",
    .column = 24,
    .args_size = sizeof(compare_args_t),
};

static int parse_args(int argc, char **argv, compare_args_t *a)
{
    memset(a, 0, sizeof *a);
    a->base = "default";
    a->opts.threshold_pct = 5.0;
    a->opts.latency_threshold_pct = 10.0;
    a->fail_on = LS_FAIL_ON_DEFAULT;
    char *pos[argc];
    int npos;
    if (ls_opt_parse("compare", &opts_compare, argc, argv, a, pos, &npos))
        return LS_EXIT_USAGE;
    if (a->fail_on_regression && a->fail_on == LS_FAIL_NEVER)
        a->fail_on = LS_SEV_ERROR;
    for (int i = 0; i < npos; i++) {
        if (a->nfiles == 2)
            return ls_usage_error("compare", "too many files ('%s')", pos[i]);
        a->files[a->nfiles++] = pos[i];
    }
    int want = a->variants ? 1 : 2;
    if (a->nfiles != want)
        return ls_usage_error("compare", a->variants ? "--variants takes one RUN.json"
                                                     : "needs two run documents, A.json B.json");
    return 0;
}

static int total_regressions(const json_t *result)
{
    const json_t *blocks = json_object_get(result, "variants");
    if (!blocks)
        return (int)ls_json_int(result, "regressions", 0);
    int n = 0;
    size_t i;
    const json_t *b;
    json_array_foreach(blocks, i, b)
        n += (int)ls_json_int(b, "regressions", 0);
    return n;
}

/* --quiet: one line per regression, then the verdict line. */
static void print_regressions(const json_t *rows)
{
    size_t i;
    const json_t *r;
    json_array_foreach(rows, i, r) {
        if (strcmp(ls_json_str(r, "verdict", ""), "regression") != 0)
            continue;
        printf("regression %s: %g -> %g %s (%+.1f%%, limit %.1f%%)\n", ls_json_str(r, "label", "?"),
               ls_json_num(r, "a", 0), ls_json_num(r, "b", 0), ls_json_str(r, "unit", ""),
               ls_json_num(r, "change_pct", 0), ls_json_num(r, "limit_pct", 0));
    }
}

static void print_quiet(const json_t *result, const compare_args_t *a)
{
    const json_t *blocks = json_object_get(result, "variants");
    size_t i;
    const json_t *b;
    if (blocks)
        json_array_foreach(blocks, i, b)
            print_regressions(json_object_get(b, "rows"));
    else
        print_regressions(json_object_get(result, "rows"));
    int n = total_regressions(result);
    printf("compare: %d regression%s (%s) in %s%s%s\n", n, n == 1 ? "" : "s",
           ls_fail_on_trips(a->fail_on, LS_SEV_ERROR) && n ? "fail" : "pass", a->files[0],
           a->variants ? "" : " vs ", a->variants ? "" : a->files[1]);
}

static void print_result(const json_t *result, const compare_args_t *a)
{
    if (a->quiet) {
        print_quiet(result, a);
        return;
    }
    if (a->json) {
        char *text = json_dumps(result,
                                JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
        if (text)
            printf("%s\n", text);
        free(text);
        return;
    }
    ls_compare_view_t v = {a->files[0],           a->variants ? NULL : a->files[1], a->base,
                           a->opts.threshold_pct, a->opts.latency_threshold_pct,    a->markdown,
                           a->changes_only};
    char *text = ls_compare_text(result, &v);
    fputs(text, stdout);
    free(text);
}

int cmd_compare(int argc, char **argv)
{
    compare_args_t a;
    if (parse_args(argc, argv, &a) != 0)
        return LS_EXIT_USAGE;
    char err[512];
    json_t *docs[2] = {NULL, NULL};
    for (int i = 0; i < a.nfiles; i++) {
        docs[i] = ls_read_document(a.files[i]);
        if (!docs[i]) {
            json_decref(docs[0]);
            return LS_EXIT_USAGE;
        }
    }
    json_t *result = a.variants ? ls_compare_variants(docs[0], a.base, &a.opts, err, sizeof err)
                                : ls_compare_docs(docs[0], docs[1], &a.opts, err, sizeof err);
    int rc = LS_EXIT_OK;
    if (!result) {
        if (a.variants)
            ls_error("%s: %s", a.files[0], err);
        else
            ls_error("%s vs %s: %s", a.files[0], a.files[1], err);
        rc = LS_EXIT_USAGE;
    } else {
        print_result(result, &a);
        /* a regression is judged at error (--fail-on-regression: the default) */
        if (ls_fail_on_trips(a.fail_on, LS_SEV_ERROR) && total_regressions(result) > 0)
            rc = LS_EXIT_CHECK;
    }
    json_decref(result);
    json_decref(docs[0]);
    json_decref(docs[1]);
    return rc;
}
