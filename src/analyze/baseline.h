/* Baselines (schema linkscope.baseline/1): expected figures with tolerances, made from
   a good run or written by hand, checked against a run document. Format and an HGX
   H200 acceptance example: docs/compare-check.md. */
#ifndef LS_ANALYZE_BASELINE_H
#define LS_ANALYZE_BASELINE_H

#include <jansson.h>
#include <stddef.h>

#define LS_BASELINE_SCHEMA "linkscope.baseline/1"

/* One expectation per figure of doc: "min" for bandwidths, "max" for latencies and
   times, each with tolerance_pct = max(tolerance, 3 x the samples' CV) (latency_tolerance
   for figures in us). */
json_t *ls_baseline_from_doc(const json_t *doc, const char *source_name, double tolerance_pct,
                             double latency_tolerance_pct);

/* Parses and validates a baseline; NULL with err = "NAME: FIELD: problem". */
json_t *ls_baseline_parse(const char *text, const char *name, char *err, size_t errlen);
json_t *ls_baseline_read(const char *path, char *err, size_t errlen);

/* Checks doc against baseline. Returns the violations, each {expectation (index),
   label, entry_id, value, bound, kind ("min"|"max"|"missing"), line (one line for
   people)}; *checked = figure comparisons made. */
json_t *ls_baseline_check(const json_t *baseline, const json_t *doc, int *checked);

#endif
