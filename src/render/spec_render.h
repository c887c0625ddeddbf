/* The acceptance check against the datasheet (docs/acceptance.md) in words: the report's
   "Acceptance (against the datasheet)" section and `linkscope check --spec` both print a
   check, an unidentified part and the tensor-parallel verdict through these functions,
   so the two never say it differently. Everything is read from the stored objects
   (the document's `spec`, docs/schema.md); nothing is recomputed here. */
#ifndef LS_RENDER_SPEC_RENDER_H
#define LS_RENDER_SPEC_RENDER_H

#include <jansson.h>
#include <stddef.h>

#include "strbuf.h"
#include "table.h"

/* Said in a GPU's part's place when the datasheet has no row for it. */
#define LS_SPEC_UNKNOWN_PART "unknown part: judged against clock-derived peaks only"

/* One check of spec.gpus[].checks[] in words: "nvlinks", seen "0", part "18"; an SM
   clock held under load against the part's base clock is what "SM clock under load",
   which "base clock". "unknown" where the stored figure is null or missing. */
typedef struct {
    char what[32];
    char seen[48];
    char part[48];
    const char *which; /* which of the part's figures: "" (the same as seen), "base clock" */
} ls_spec_words_t;

void ls_spec_check_words(const json_t *check, ls_spec_words_t *w);
/* "nvlinks 0 (part 18)", "SM clock under load 1470 MHz (part's base clock unknown)". */
void ls_spec_check_line(const json_t *check, char *buf, size_t len);

/* The tensor-parallel verdict (spec.tp: {degrees[].line} or {error}) for ngpus GPUs:
   "tensor parallelism (ring all-reduce, bandwidth term only; N GPUs here):" and one
   "  TP=..." line per degree, or "tensor parallelism: unknown (why)"; lines wrapped at
   width columns (0: not wrapped). */
void ls_spec_tp_text(ls_buf_t *b, const json_t *tp, int ngpus, int width);

/* Whether the document has a stored `spec` (the report's section is shown only then). */
int ls_spec_present(const json_t *doc);
/* The report's tables: one row per GPU (its part and the row's source), one row per
   check (seen, the part's figure); NULL where the document has no spec. */
ls_table_t *ls_table_spec_parts(const json_t *doc);
ls_table_t *ls_table_spec_checks(const json_t *doc);

#endif
