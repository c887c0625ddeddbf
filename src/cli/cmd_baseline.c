/* linkscope baseline: expected figures from a good run. */
#include "commands.h"
#include "analyze/baseline.h"
#include "model/doc.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char usage_baseline[] =
    "usage: linkscope baseline RUN.json [-o FILE] [--tolerance PCT] [--latency-tolerance PCT]\n"
    "\n"
    "Writes a baseline (schema linkscope.baseline/1) from a good run: one expectation\n"
    "per figure, a minimum for bandwidths and a maximum for latencies and times, each\n"
    "with a tolerance of at least three times the figure's own coefficient of variation.\n"
    "Check other machines or later runs against it with 'linkscope check'. Baselines\n"
    "may be edited or written by hand (docs/compare-check.md).\n"
    "\n"
    "Options:\n"
    "  -o FILE                   write to FILE (default: stdout)\n"
    "  --tolerance PCT           allowed shortfall of bandwidths, percent (default 10)\n"
    "  --latency-tolerance PCT   allowed excess of latencies and times (default 25)\n";

static int parse_pct(const char *opt, const char *text, double *out)
{
    if (ls_parse_double(text, out) != 0 || *out < 0 || *out > 100)
        return ls_usage_error("baseline", "%s '%s': expected a percentage 0-100", opt, text);
    return 0;
}

int cmd_baseline(int argc, char **argv)
{
    const char *run = NULL, *out = "-";
    double tol = 10.0, lat_tol = 25.0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int takes_value = strcmp(arg, "-o") == 0 || strcmp(arg, "--tolerance") == 0 ||
                          strcmp(arg, "--latency-tolerance") == 0;
        if (takes_value && i + 1 >= argc)
            return ls_usage_error("baseline", "%s needs a value", arg);
        if (strcmp(arg, "-o") == 0)
            out = argv[++i];
        else if (strcmp(arg, "--tolerance") == 0) {
            if (parse_pct(arg, argv[++i], &tol) != 0)
                return LS_EXIT_USAGE;
        } else if (strcmp(arg, "--latency-tolerance") == 0) {
            if (parse_pct(arg, argv[++i], &lat_tol) != 0)
                return LS_EXIT_USAGE;
        } else if (arg[0] == '-' && arg[1] != '\0')
            return ls_usage_error("baseline", "unknown option '%s'", arg);
        else if (run)
            return ls_usage_error("baseline", "one RUN.json only ('%s')", arg);
        else
            run = arg;
    }
    if (!run)
        return ls_usage_error("baseline", "no RUN.json given");
    char err[512];
    json_t *doc = ls_doc_read(run, err, sizeof err);
    if (!doc) {
        ls_error("%s", err);
        return LS_EXIT_USAGE;
    }
    json_t *baseline = ls_baseline_from_doc(doc, run, tol, lat_tol);
    json_decref(doc);
    size_t n = json_array_size(json_object_get(baseline, "expectations"));
    if (!baseline || n == 0) {
        ls_error("%s: no measured figure with status ok to make a baseline from", run);
        json_decref(baseline);
        return LS_EXIT_USAGE;
    }
    char *text = json_dumps(baseline, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
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
