/* From figures to answers: findings and the plan, computed from a run document alone
   (no GPU, no CUDA). docs/analysis.md describes every rule. */
#ifndef LS_ANALYZE_ANALYZE_H
#define LS_ANALYZE_ANALYZE_H

#include <jansson.h>

/* Severity order for findings and `--fail-on`. */
enum ls_severity { LS_SEV_INFO = 0, LS_SEV_WARNING = 1, LS_SEV_ERROR = 2 };

/* Array of findings: each {rule, severity ("info"|"warning"|"error"), subject
   (e.g. "GPU0->GPU4"), message (one line), evidence (array of measurement ids or
   document paths)}. An even, healthy machine gives an empty array. Ordered by
   severity (errors first), then by rule group, deterministically. */
json_t *ls_findings(const json_t *doc);

/* The plan: {islands: [{gpus, link_class}], groups: [{k, gpus, ring,
   expected_busbw_gbps, expected_from, measured_busbw_gbps?, measured_entries?}],
   measured_groups: [...], best_pairs: [...], best_hbm_gpus: [...], keep_out: [{gpu,
   codes: [...], reasons: [...]}], needs: [...], ceilings: {ID: {ceiling_gbps, percent?,
   path, basis}}, noisy: [ID, ...]}. docs/analysis.md describes each field. */
json_t *ls_plan(const json_t *doc);
/* The same from the document's findings (ls_findings(doc)) already computed: the rules
   run once for a report or a plan, not once more inside the planner. */
json_t *ls_plan_with(const json_t *doc, const json_t *findings);

/* "info", "warning", "error". */
const char *ls_severity_name(enum ls_severity sev);
/* Parses one of the names above; 0 or -1. */
int ls_severity_parse(const char *name, enum ls_severity *sev);
/* Severity of one finding object (info when unreadable). */
enum ls_severity ls_finding_severity(const json_t *finding);
/* Number of findings at or above sev. */
int ls_findings_count_at_least(const json_t *findings, enum ls_severity sev);

#endif
