/* linkscope baseline: expected figures from a good run. */
#include "commands.h"
#include "options.h"
#include "analyze/baseline.h"
#include "model/doc.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/parse.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *run, *out;
    double tol, lat_tol;
} baseline_args_t;

static int opt_tolerance(const char *cmd, const char *v, void *args)
{
    return ls_opt_percent(cmd, "--tolerance", v, 100, &((baseline_args_t *)args)->tol);
}

static int opt_latency_tolerance(const char *cmd, const char *v, void *args)
{
    return ls_opt_percent(cmd, "--latency-tolerance", v, 100, &((baseline_args_t *)args)->lat_tol);
}

static const ls_opt_t options[] = {
    {.short_name = 'o',
     .kind = LS_OPT_STRING,
     .arg = "FILE",
     .off = offsetof(baseline_args_t, out),
     .flags = LS_OPT_OUTPUT,
     .help = "write to FILE (default: stdout)"},
    {.name = "tolerance",
     .kind = LS_OPT_CALL,
     .arg = "PCT",
     .call = opt_tolerance,
     .help = "allowed shortfall of bandwidths, percent (default\n10)"},
    {.name = "latency-tolerance",
     .kind = LS_OPT_CALL,
     .arg = "PCT",
     .call = opt_latency_tolerance,
     .help = "allowed excess of latencies and times (default 25)"},
    {.kind = LS_OPT_END},
};

const ls_cmd_opts_t opts_baseline = {
    .head = "usage: linkscope baseline RUN.json [-o FILE] [--tolerance PCT]\n"
            "                          [--latency-tolerance PCT]\n"
            "\n"
            "Writes a baseline (schema linkscope.baseline/1) from a good run: one expectation\n"
            "per figure, a minimum for bandwidths and a maximum for latencies and times, each\n"
            "with a tolerance of at least three times the figure's own coefficient of\n"
            "variation. Check other machines or later runs against it with 'linkscope check'.\n"
            "Baselines may be edited or written by hand (docs/compare-check.md).\n"
            "\n"
            "Options:\n",
    .opts = options,
    .column = 28,
    .args_size = sizeof(baseline_args_t),
};

static int parse_args(int argc, char **argv, baseline_args_t *a)
{
    *a = (baseline_args_t){.out = "-", .tol = 10.0, .lat_tol = 25.0};
    char *pos[argc];
    int npos;
    if (ls_opt_parse("baseline", &opts_baseline, argc, argv, a, pos, &npos))
        return LS_EXIT_USAGE;
    if (npos > 1)
        return ls_usage_error("baseline", "one RUN.json only ('%s')", pos[1]);
    if (npos < 1)
        return ls_usage_error("baseline", "no RUN.json given");
    a->run = pos[0];
    return 0;
}

int cmd_baseline(int argc, char **argv)
{
    baseline_args_t a;
    int prc = parse_args(argc, argv, &a);
    if (prc)
        return prc;
    const char *run = a.run, *out = a.out;
    double tol = a.tol, lat_tol = a.lat_tol;
    char err[512];
    json_t *doc = ls_read_document(run);
    if (!doc)
        return LS_EXIT_USAGE;
    json_t *baseline = ls_baseline_from_doc(doc, run, tol, lat_tol);
    json_decref(doc);
    size_t n = json_array_size(json_object_get(baseline, "expectations"));
    if (!baseline || n == 0) {
        ls_error("%s: no measured figure with status ok to make a baseline from", run);
        json_decref(baseline);
        return LS_EXIT_USAGE;
    }
    char *text = json_dumps(baseline,
                            JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    json_decref(baseline);
    int rc = LS_EXIT_USAGE;
    if (text) {
        size_t len = strlen(text);
        char *withnl = realloc(text, len + 2);
        if (withnl) {
            text = withnl;
            text[len] = '\n';
            text[len + 1] = '\0';
            if (ls_write_file_atomic(out, text, len + 1, err, sizeof err) == 0) {
                rc = LS_EXIT_OK;
                ls_info("baseline: %zu expectations from %s", n, run);
            } else {
                ls_error("%s", err);
            }
        }
    }
    free(text);
    return rc;
}
