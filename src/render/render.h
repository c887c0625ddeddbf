/* Reports of a run document: terminal, Markdown, one self-contained HTML file, CSV.
   Every renderer is a pure function of the document, its findings and its plan: the
   same input gives the same bytes (no clock, no locale, no host name but the
   document's). docs/reports.md describes each format. */
#ifndef LS_RENDER_RENDER_H
#define LS_RENDER_RENDER_H

#include <jansson.h>

/* Findings and plan as plain text (what `linkscope plan` prints). Caller frees. */
char *ls_render_plan_text(const json_t *findings, const json_t *plan);

/* The headline figures, one line per kind (range over GPUs or pairs, unit, peak), as
   `linkscope run` prints them. Caller frees. */
char *ls_render_headline(const json_t *doc, const json_t *plan);

/* The headline figures as data, full precision (the JSON report): one object per kind
   of figure {figure, min, max, unit, figures, theoretical, share_of_theoretical} and per
   collective {figure, entry, busbw, unit, bytes, small_time_us, small_bytes,
   theoretical}; peaks and shares from the plan's hardware ceilings. */
json_t *ls_headline_json(const json_t *doc, const json_t *plan);

/* The verdict line every report opens with: "Verdict: healthy (...)" or "Verdict: 1
   error, 2 warnings; worst: RULE (SUBJECT)". Caller frees. */
char *ls_render_verdict(const json_t *findings);
/* Counts of findings per severity; returns the worst present (2 error, 1 warning, 0). */
int ls_verdict_counts(const json_t *findings, int *errors, int *warnings, int *infos);
/* The worst error or warning (the first of the highest severity); NULL when none. */
const json_t *ls_verdict_worst(const json_t *findings);
/* The strongest node_action the findings carry ("none" .. "isolate"), or NULL. */
const char *ls_verdict_node_action(const json_t *findings);

/* Whole reports: the outline (format.h) through one format. Caller frees. */
char *ls_report_term(const json_t *doc, const json_t *findings, const json_t *plan);
char *ls_report_md(const json_t *doc, const json_t *findings, const json_t *plan);
char *ls_report_html(const json_t *doc, const json_t *findings, const json_t *plan);

/* JUnit XML of a baseline check (junit.c): one testcase per expectation, a failure per
   violation, <skipped/> for a skipped one (ls_baseline_check's lists). Caller frees. */
char *ls_render_junit(const json_t *baseline, const json_t *violations, const json_t *skipped,
                      const char *run);
/* The same for check --spec: one testcase per GPU of spec (ls_spec_check's), a failure
   per finding of failing (those at or above --fail-on) whose subject is that GPU; a
   testcase "node" for failing findings about no one GPU. Caller frees. */
char *ls_render_junit_spec(const json_t *spec, const json_t *failing, const char *run);

/* CSV exports: "boards_clocks", "p2p_paths", "collectives", "hbm", "host_copies",
   "latency" (plan: its ceilings and noisy ids fill the "% of peak" and status columns).
   NULL for an unknown name. */
enum { LS_CSV_COUNT = 6 };
extern const char *const ls_csv_names[LS_CSV_COUNT];
char *ls_report_csv(const json_t *doc, const json_t *plan, const char *name);

#endif
