/* The status and "% of peak" cells every measurement table shows. Both read what the
   analysis decided (the plan's ceilings and noisy ids); render never judges a figure. */
#ifndef LS_RENDER_STATUS_H
#define LS_RENDER_STATUS_H

#include <jansson.h>
#include <stddef.h>

/* "ok", "failed", "timeout", "skipped", "wrong" (an nccl row with wrong elements),
   "noisy" (the plan lists its id); "-" for no entry. */
const char *ls_status_word(const json_t *plan, const json_t *entry);
/* The same for one row of an nccl entry: "wrong" when that row has wrong elements. */
const char *ls_status_row_word(const json_t *plan, const json_t *entry, const json_t *row);

/* Status of an ordered pair's figures: the first entry of a pair family (p2p, latency) that did not
   end ok (failed, timeout, skipped), else the chosen figure's own ("noisy", "ok"); "-" none. */
const char *ls_pair_status(const json_t *doc, const json_t *plan, int a, int b,
                           const json_t *chosen);

/* The three cells that end every measurement row: its source (linkscope when the entry
   names none), its id and its status word. */
void ls_entry_tail_cells(const json_t *plan, const json_t *entry, const char *cells[3]);

/* The measurement with this id, NULL when none (or id empty). */
const json_t *ls_doc_entry_by_id(const json_t *doc, const char *id);

/* The entry's hardware ceiling that the analysis derived (plan.ceilings, GB/s); 0 when
   the plan has none for it. */
double ls_plan_ceiling(const json_t *plan, const json_t *entry);

/* value as a percentage of the entry's ceiling in the plan: "83%"; "unknown" when the
   plan has no ceiling for it; "-" without an entry or value. */
void ls_peak_cell(const json_t *plan, const json_t *entry, double value, char *buf, size_t len);

#endif
