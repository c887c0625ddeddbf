/* From figures to answers: findings and the plan, computed from a run document alone
   (no GPU, no CUDA). docs/analysis.md describes every rule. */
#ifndef LS_ANALYZE_ANALYZE_H
#define LS_ANALYZE_ANALYZE_H

#include <jansson.h>

/* Severity order for findings and `--fail-on`. */
enum ls_severity { LS_SEV_INFO = 0, LS_SEV_WARNING = 1, LS_SEV_ERROR = 2 };

/* Array of findings: each {rule, severity ("info"|"warning"|"error"), subject
   (e.g. "GPU0->GPU4", rendered from the data), gpus?, pairs?, port? (what it names, as
   data: about.h), message (one line), evidence (array of measurement ids or document
   paths), action ("none"|"avoid": what the plan does with its GPUs), node_action? (an
   imported kernel log's findings: none|watch|reset|reboot|isolate, what a scheduler does
   with the node; kernel_rules.h)}. An even, healthy
   machine gives an empty array. Ordered by severity (errors first), then by the rule
   table's order (rule_table.c), deterministically. */
json_t *ls_findings(const json_t *doc);

/* The plan: {islands: [{gpus, link_class}], groups: [{k, gpus, ring,
   expected_busbw_gbps, expected_from, measured_busbw_gbps?, measured_entries?}],
   measured_groups: [...], best_pairs: [...], best_hbm_gpus: [...], keep_out: [{gpu,
   codes: [...], reasons: [...]}], needs: [...], ceilings: {ID: {ceiling_gbps, percent?,
   path, basis}}, noisy: [ID, ...]}. docs/analysis.md describes each field. Made from the
   document's findings (ls_findings(doc)) already computed: a report, `plan`, a run's
   analysis and the fuzz targets compute the findings once and pass them on. The planner
   reads each finding's action and gpus, never its text. */
json_t *ls_plan_with(const json_t *doc, const json_t *findings);
/* ls_findings then ls_plan_with, for a caller that has no findings and wants only the
   plan (the run's plan of groups to measure, mid-run, on the document as it stands). */
json_t *ls_plan(const json_t *doc);

/* "info", "warning", "error". */
const char *ls_severity_name(enum ls_severity sev);
/* Parses one of the names above; 0 or -1. */
int ls_severity_parse(const char *name, enum ls_severity *sev);
/* Severity of one finding object (info when unreadable). */
enum ls_severity ls_finding_severity(const json_t *finding);
/* Number of findings at or above sev. */
int ls_findings_count_at_least(const json_t *findings, enum ls_severity sev);

#endif
