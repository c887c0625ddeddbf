/* The figures DCGM's diagnostic prints in its results' info lines (its PCIe test's
   bandwidths and latencies per GPU), as "dcgm" entries beside the diagnostic's record,
   so that fleet compares them across nodes like linkscope's own (docs/import.md). */
#ifndef LS_IMPORT_DCGM_FIGURES_H
#define LS_IMPORT_DCGM_FIGURES_H

#include <jansson.h>

/* root: the "DCGM Diagnostic" / "DCGM GPU Diagnostic" object. Returns the entries added. */
int ls_dcgm_figures(json_t *doc, const json_t *root);

#endif
