/* Reads `dcgmi diag -r N --json` (DCGM 2.x/3.x "DCGM GPU Diagnostic", 4.x "DCGM
   Diagnostic"; tests under test_categories[] or hoisted to tests[]) into the document's
   top-level "dcgm" object (docs/schema.md, docs/import.md). */
#ifndef LS_IMPORT_DCGM_DIAG_H
#define LS_IMPORT_DCGM_DIAG_H

#include <jansson.h>
#include <stddef.h>

int ls_dcgm_diag_detect(const char *text);

/* Fills doc's "dcgm": the number of test results kept, or -1 with err. */
int ls_import_dcgm_diag(json_t *doc, const char *text, const char *name, char *err, size_t errlen);

#endif
