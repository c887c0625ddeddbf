/* Baselines (schema linkscope.baseline/1): expected figures with tolerances, made from
   a good run or written by hand, checked against a run document. Format and an HGX
   H200 acceptance example: docs/compare-check.md. */
#ifndef LS_ANALYZE_BASELINE_H
#define LS_ANALYZE_BASELINE_H

#include <jansson.h>
#include <stddef.h>

#define LS_BASELINE_SCHEMA "linkscope.baseline/1"

/* A figure fails only beyond tolerance = max(tolerance_pct, k x spread_pct): the given
   percent, or k times the figure's spread as the baseline recorded it, whichever is
   wider. k = 3 holds every pair of the 53 idle H200 runs kept in tests/fixtures/runs/
   (the worst pair needs 2.8; docs/compare-check.md, "How k was chosen"). A baseline may
   carry its own "spread_k". */
#define LS_BASELINE_SPREAD_K 3.0

/* One expectation per figure of doc: "min" for bandwidths, "max" for latencies and
   times, each with tolerance_pct (tolerance, or latency_tolerance for figures in us) and
   spread_pct: the CV of the figure's samples, at least LS_SPREAD_HOST_SHARED for a
   pageable or both-ways host copy (their run-to-run spread), in percent. */
json_t *ls_baseline_from_doc(const json_t *doc, const char *source_name, double tolerance_pct,
                             double latency_tolerance_pct);

/* Parses and validates a baseline; NULL with err = "NAME: FIELD: problem". */
json_t *ls_baseline_parse(const char *text, const char *name, char *err, size_t errlen);
json_t *ls_baseline_read(const char *path, char *err, size_t errlen);

/* Checks doc against baseline. Returns the violations, each {expectation (index),
   label, entry_id, value, bound, tolerance_pct, kind ("min"|"max"|"missing"), line (one
   line for people)}; *checked = figure comparisons made. An expectation that no figure
   of the run matches is skipped (the run did not measure it), or, with require_all and
   not "optional", a "missing" violation. *skipped (when skipped is not NULL) gets the
   skipped ones, {expectation, label, kind "skipped", line}. */
json_t *ls_baseline_check(const json_t *baseline, const json_t *doc, int require_all, int *checked,
                          json_t **skipped);

#endif
