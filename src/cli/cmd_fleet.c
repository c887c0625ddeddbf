/* linkscope fleet: the run documents of many nodes together (docs/fleet.md). */
#include "analyze/analyze.h"
#include "analyze/fleet.h"
#include "commands.h"
#include "fleet_load.h"
#include "options.h"
#include "model/doc.h"
#include "render/fleet_report.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/parse.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    ls_fleet_opts_t opts;
    int json, prom, quiet;
    const char *html;
    int fail_on;
    char **docs; /* the DOC|FOLDER|GLOB arguments */
    int ndocs;
} fleet_args_t;

static int opt_score(const char *cmd, const char *v, void *args)
{
    double *score = &((fleet_args_t *)args)->opts.score;
    if (ls_parse_double(v, score) || *score <= 0)
        return ls_usage_error(cmd, "--score: expected a positive number, got '%s'", v);
    return 0;
}

static int opt_min_change(const char *cmd, const char *v, void *args)
{
    double *pct = &((fleet_args_t *)args)->opts.min_change_pct;
    if (ls_parse_double(v, pct) || *pct < 0 || *pct > 1000)
        return ls_usage_error(cmd, "--min-change: expected a percentage 0-1000, got '%s'", v);
    return 0;
}

static const ls_opt_t options[] = {
    {.name = "score",
     .kind = LS_OPT_CALL,
     .arg = "Z",
     .call = opt_score,
     .help = "robust score beyond which a figure is an outlier (default\n3.5)"},
    {.name = "min-change",
     .kind = LS_OPT_CALL,
     .arg = "PCT",
     .call = opt_min_change,
     .help = "and at least this much worse than the median, percent\n(default 10)"},
    {.name = "json",
     .kind = LS_OPT_FLAG,
     .off = offsetof(fleet_args_t, json),
     .help = "the analysis as JSON on stdout"},
    {.name = "prom",
     .kind = LS_OPT_FLAG,
     .off = offsetof(fleet_args_t, prom),
     .help = "Prometheus text on stdout: outliers per node, median per\nfigure"},
    {.name = "html",
     .kind = LS_OPT_STRING,
     .arg = "FILE",
     .off = offsetof(fleet_args_t, html),
     .flags = LS_OPT_OUTPUT,
     .help = "an HTML report, one row per node, outliers marked"},
    LS_OPT_FAIL_ON_NOTE(fleet_args_t,
                        "\n(an outlier counts as an error; the node findings listed are\n"
                        "warnings and errors, so info acts as warning)"),
    LS_OPT_QUIET_ROW(fleet_args_t),
    {.kind = LS_OPT_END},
};

const ls_cmd_opts_t opts_fleet = {
    .head = "usage: linkscope fleet DOC|FOLDER|GLOB... [--json | --prom] [--html FILE]\n"
            "                       [--score Z] [--min-change PCT] [--fail-on LEVEL]\n"
            "                       [--quiet]\n"
            "\n"
            "Reads the run documents of many nodes (e.g. from `srun --ntasks-per-node=1\n"
            "linkscope run -o run-%N.json`), groups the nodes by hardware model and finds,\n"
            "per figure, the nodes whose value is worse than the model's median by a robust\n"
            "score (median absolute deviation) and a minimum change. Each outlier is named by\n"
            "node and subject (a GPU, a GPU pair, a network port). A FOLDER means its *.json\n"
            "files; a quoted GLOB is expanded here. Each node's own findings (this\n"
            "linkscope's rules on its document: a part that is not what it claims, a link\n"
            "trained narrow, a pending row remap, ...) are listed beside, at warning and\n"
            "error.\n"
            "\n"
            "Options:\n",
    .opts = options,
    .tail = "\n"
            "Exit codes: 0 no node fails at --fail-on; 1 a node with an outlier or a finding\n"
            "at or above --fail-on (gate a node before a job);\n"
            "2 bad usage or a document that cannot be read (one line naming the file; it is\n"
            "skipped and the others are reported).\n"
            "Details: docs/fleet.md.\n",
    .column = 21,
    .args_size = sizeof(fleet_args_t),
};

/* pos: room for argc arguments, kept as a->docs. */
static int parse_args(int argc, char **argv, fleet_args_t *a, char **pos)
{
    memset(a, 0, sizeof *a);
    a->fail_on = LS_FAIL_ON_DEFAULT;
    ls_fleet_opts_default(&a->opts);
    if (ls_opt_parse("fleet", &opts_fleet, argc, argv, a, pos, &a->ndocs))
        return LS_EXIT_USAGE;
    a->docs = pos;
    if (a->quiet && (a->json || a->prom))
        return ls_usage_error("fleet", "--quiet and --json or --prom: choose one");
    if (a->json && a->prom)
        return ls_usage_error("fleet", "--json and --prom both write stdout: choose one");
    if (a->ndocs == 0)
        return ls_usage_error("fleet", "needs run documents (files, a folder or a glob)");
    return 0;
}

/* Whether a node row fails at level: an outlier or an error finding at error, a warning
   at warning (and info: the node findings kept are warnings and errors). */
static int node_fails(const json_t *node, int level)
{
    return (ls_fail_on_trips(level, LS_SEV_ERROR) &&
            (ls_json_int(node, "outliers", 0) > 0 || ls_json_int(node, "errors", 0) > 0)) ||
           (ls_fail_on_trips(level, LS_SEV_WARNING) && ls_json_int(node, "warnings", 0) > 0);
}

/* The failing nodes, each on one line when print is set; returns their count. */
static int failing_nodes(const json_t *result, int level, int print)
{
    int n = 0;
    size_t i;
    const json_t *node;
    json_array_foreach(json_object_get(result, "nodes"), i, node) {
        if (!node_fails(node, level))
            continue;
        n++;
        if (print)
            printf("%s: %lld outlier%s, %lld error%s, %lld warning%s (%s)\n",
                   ls_json_str(node, "node", "?"), ls_json_int(node, "outliers", 0),
                   ls_json_int(node, "outliers", 0) == 1 ? "" : "s", ls_json_int(node, "errors", 0),
                   ls_json_int(node, "errors", 0) == 1 ? "" : "s", ls_json_int(node, "warnings", 0),
                   ls_json_int(node, "warnings", 0) == 1 ? "" : "s", ls_json_str(node, "file", ""));
    }
    return n;
}

static int write_outputs(const json_t *result, const fleet_args_t *a)
{
    char *text;
    if (a->quiet) {
        int n = failing_nodes(result, a->fail_on, 1);
        printf("fleet: %d of %zu nodes fail\n", n,
               json_array_size(json_object_get(result, "nodes")));
        return 0;
    }
    if (a->json)
        text = json_dumps(result, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
    else if (a->prom)
        text = ls_fleet_prom(result);
    else
        text = ls_fleet_term(result, a->opts.score, a->opts.min_change_pct);
    fputs(text, stdout);
    if (a->json)
        fputs("\n", stdout);
    free(text);
    if (!a->html)
        return 0;
    char err[512];
    text = ls_fleet_html(result, a->opts.score, a->opts.min_change_pct);
    int rc = ls_write_file_atomic(a->html, text, strlen(text), err, sizeof err);
    free(text);
    if (rc != 0)
        fprintf(stderr, "linkscope fleet: %s\n", err);
    return rc;
}

int cmd_fleet(int argc, char **argv)
{
    fleet_args_t a;
    char *pos[argc];
    int rc = parse_args(argc, argv, &a, pos);
    if (rc != 0)
        return rc;
    ls_paths_t paths = {0};
    ls_fleet_t *fleet = ls_fleet_new();
    json_t *result = NULL;
    rc = LS_EXIT_USAGE;
    int skipped = -1;
    if (fleet && ls_fleet_collect(&paths, a.ndocs, a.docs) == 0)
        skipped = ls_fleet_load(fleet, &paths);
    if (skipped >= 0 && (size_t)skipped == paths.n)
        fprintf(stderr, "linkscope fleet: none of the %zu documents could be read\n", paths.n);
    else if (skipped >= 0 && (result = ls_fleet_analyze(fleet, &a.opts)) != NULL &&
             write_outputs(result, &a) == 0)
        /* a document skipped is one that cannot be read: exit 2 after the others' report */
        rc = skipped                                   ? LS_EXIT_USAGE
             : failing_nodes(result, a.fail_on, 0) > 0 ? LS_EXIT_CHECK
                                                       : LS_EXIT_OK;
    json_decref(result);
    ls_fleet_free(fleet);
    ls_paths_free(&paths);
    return rc;
}
