/* From figures to answers: findings and the plan, computed from a run document alone
   (no GPU, no CUDA). docs/analysis.md describes every rule. */
#ifndef LS_ANALYZE_ANALYZE_H
#define LS_ANALYZE_ANALYZE_H

#include <jansson.h>

/* Severity order for findings and `--fail-on`. */
enum ls_severity { LS_SEV_INFO = 0, LS_SEV_WARNING = 1, LS_SEV_ERROR = 2 };

/* Array of findings: each {rule, severity ("info"|"warning"|"error"), subject
   (e.g. "GPU0->GPU4"), message (one line), evidence (array of measurement ids or
   document paths)}. An even, healthy machine gives an empty array. */
json_t *ls_findings(const json_t *doc);

/* The plan: {islands: [{gpus, link_class}], groups: [{k, gpus, expected_busbw_gbps,
   measured_busbw_gbps?}], best_pairs: [...], best_hbm_gpus: [...], keep_out: [{gpu,
   reasons: [...]}]}. */
json_t *ls_plan(const json_t *doc);

#endif
