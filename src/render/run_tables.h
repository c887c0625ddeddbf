/* Tables of the run's schedule work (issue 14): the steps the budget cut down, and the
   fabric stress figures. Each is NULL when the document has nothing for it. */
#ifndef LS_RENDER_RUN_TABLES_H
#define LS_RENDER_RUN_TABLES_H

#include <jansson.h>

#include "table.h"

/* run.steps that were cut down: step, what was left out, projected and taken seconds. */
ls_table_t *ls_table_run_cuts(const json_t *doc);
/* fabric entries: pattern, subject GPU, total GB/s, ceiling, per-GPU range. */
ls_table_t *ls_table_fabric(const json_t *doc);

#endif
