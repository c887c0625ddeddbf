/* dcgmi's and the DCGM diagnostic's (NVVS's) own error texts, printed instead of a
   result when the diagnostic or the health check could not run: the MIG refusals, the
   host engine not reached, a "Return:" code of dcgmi diag (DCGM's errorString), the
   driver branch refused. Read into the document's "dcgm" list as an entry without tests
   whose "runtime_error" is DCGM's text and whose "not_run" says what it means
   (docs/import.md): the diagnostic did not run, so nothing about the GPUs is known. */
#ifndef LS_IMPORT_DCGM_ERROR_H
#define LS_IMPORT_DCGM_ERROR_H

#include <jansson.h>
#include <stddef.h>

int ls_dcgm_error_detect(const char *text);

/* 1 (one dcgm entry added, no test in it), or -1 with err (dcgmi health's "Health
   watches not enabled": no report at all, refused in one line naming it). */
int ls_import_dcgm_error(json_t *doc, const char *text, const char *name, char *err, size_t errlen);

/* {cause, meaning, fault} for a DCGM error text (a JSON runtime_error too), or NULL when
   the text is none of the known ones. fault: "none", "gpu_lost", "reset" or "driver". */
json_t *ls_dcgm_not_run(const char *text);

#endif
