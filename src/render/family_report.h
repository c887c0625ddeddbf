/* The report's table of a family shown as one table (LS_SHOW_TABLE, model/families.h):
   what a family gets in the report, in its section, before render has tables of its
   own for it. */
#ifndef LS_RENDER_FAMILY_REPORT_H
#define LS_RENDER_FAMILY_REPORT_H

#include "table.h"
#include "model/families.h"

#include <jansson.h>

/* One row per entry of fam: what it is about (GPU, pair, GPUs or subject), method,
   median, min, max, cv, samples, source, entry id, status (the plan's word). NULL when
   the document holds none. */
ls_table_t *ls_table_family(const json_t *doc, const json_t *plan, const ls_fam_t *fam);

#endif
