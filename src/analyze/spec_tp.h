/* The acceptance verdict in application terms (docs/acceptance.md): what the GPUs'
   interconnect means for a tensor-parallel prefill of a named model, here against the
   NVLink the part is sold with. Ring all-reduce, bandwidth term only (the latency term
   is left out, so both figures are lower bounds and the ratio is the link's). */
#ifndef LS_ANALYZE_SPEC_TP_H
#define LS_ANALYZE_SPEC_TP_H

#include <jansson.h>
#include <stdint.h>

#include "spec.h"

#define LS_SPEC_TP_MODEL "llama3.3-70b"
#define LS_SPEC_TP_TOKENS 32768ull /* a 32k-token prefill */

/* {model, tokens, here: {gbps, basis}, part: {gbps, name}?, degrees: [{tp, here_s,
   part_s?, line}]} for TP = 2, 4, 8 up to the document's GPU count; {model, tokens,
   none: why} for fewer than two GPUs (no TP size on the machine); NULL with err when
   the model is unknown or the document gives no GPU-to-GPU bandwidth. The one verdict
   run, report, check --spec and tp --verdict print. */
json_t *ls_spec_tp_verdict(const json_t *doc, const ls_datasheet_t *ds, const char *model,
                           uint64_t tokens, char *err, size_t errlen);

/* The run's spec step: doc.spec = {gpus: [...] (ls_spec_check), tp: the verdict or
   {error}}; ls_findings then adds the spec findings. 0, or -1 with err. */
int ls_spec_record(json_t *doc, char *err, size_t errlen);

#endif
