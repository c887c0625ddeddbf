/* Reads ncclras's text report (NCCL 2.24 on: "Job summary", "Communicators", "Errors",
   "Warnings") into the document's top-level "nccl_ras" list (docs/schema.md). */
#ifndef LS_IMPORT_NCCL_RAS_H
#define LS_IMPORT_NCCL_RAS_H

#include <jansson.h>
#include <stddef.h>

int ls_nccl_ras_detect(const char *text);

/* The number of communicator groups and problems kept, or -1 with err. */
int ls_import_nccl_ras(json_t *doc, const char *text, const char *name, char *err, size_t errlen);

#endif
