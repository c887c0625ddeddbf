/* Reads dcgmi diag's text table (DCGM 2.x to 4.x, what `dcgmi diag -r N` prints without
   --json) into the document's top-level "dcgm", the same objects as the JSON importer
   (dcgm_diag.c) writes, so that the same rules judge it (docs/import.md). */
#ifndef LS_IMPORT_DCGM_DIAG_TEXT_H
#define LS_IMPORT_DCGM_DIAG_TEXT_H

#include <jansson.h>
#include <stddef.h>

int ls_dcgm_diag_text_detect(const char *text);

/* Appends one dcgm[] object: the number of test results kept, or -1 with err. */
int ls_import_dcgm_diag_text(json_t *doc, const char *text, const char *name, char *err,
                             size_t errlen);

#endif
