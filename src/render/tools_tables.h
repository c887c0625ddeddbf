/* Tables of other tools' imported figures that have no linkscope family of their own:
   perftest's (net) and nvloom's (mnnvl), one row per port and test, or per testcase
   (docs/import.md). Each is NULL when the document has none. */
#ifndef LS_RENDER_TOOLS_TABLES_H
#define LS_RENDER_TOOLS_TABLES_H

#include <jansson.h>

#include "table.h"

/* 1 when the document holds net, mnnvl or dcgm entries (the report's "Other tools"
   section). */
int ls_tools_present(const json_t *doc);
/* perftest: tool, port, direction, link layer, sizes, the figure at the largest size and
   the best, per (tool, port, direction). */
ls_table_t *ls_table_perftest(const json_t *doc);
/* nvloom: testcase, pattern, cells, min / median / max, the lowest cell's subject. */
ls_table_t *ls_table_nvloom(const json_t *doc);
/* DCGM diagnostic figures: test, figure, GPU, value, unit. */
ls_table_t *ls_table_dcgm_figures(const json_t *doc);

#endif
