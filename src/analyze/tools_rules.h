/* Findings from other tools' results imported beside linkscope's own (import/
   dcgm_diag.c, nccl_ras.c, inspector.c, nccl_tests_json.c; docs/analysis.md). */
#ifndef LS_ANALYZE_TOOLS_RULES_H
#define LS_ANALYZE_TOOLS_RULES_H

#include <jansson.h>

/* A process whose mean time per iteration is this many times the median of the other
   processes' (nccl-tests -I): every rank of a collective waits for it. */
#define LS_STRAGGLER_RATIO 1.25
/* A job's collective below this fraction of the machine's own measured busbw at the same
   size and rank count (LS_DEGRADED_RATIO's figure). */
#define LS_JOB_VS_MEASURED_RATIO 0.75

/* Rules dcgm_failed, dcgm_passed, dcgm_runtime_error, nccl_straggler, nccl_ras_state,
   nccl_ras_problem, job_vs_measured. */
void ls_rules_tools(const json_t *doc, json_t *out);

/* Rules dcgm_health (a watched system warned or failed), dcgm_health_ok (rules_dcgm_health.c). */
void ls_rules_dcgm_health(const json_t *doc, json_t *out);

/* Rule mnnvl_degraded: an nvloom process below LS_DEGRADED_RATIO of the others' median in
   one testcase, as source, destination or tested GPU (rules_nvloom.c). */
void ls_rules_nvloom(const json_t *doc, json_t *out);

/* Rule collective_timeout: PyTorch's NCCL watchdog text, what its ranks' SeqNums show
   (rules_watchdog.c). */
void ls_rules_watchdog(const json_t *doc, json_t *out);

/* Rule torch_pg_warning: ProcessGroupNCCL's set-up warnings (a guessed GPU, no
   destroy_process_group() at exit), info with node action none (rules_pg_warnings.c). */
void ls_rules_pg_warnings(const json_t *doc, json_t *out);

/* Rule p2p_corrupt: cuda-samples' simpleP2P found wrong data read over P2P
   (rules_simple_p2p.c). */
void ls_rules_simple_p2p(const json_t *doc, json_t *out);

#endif
