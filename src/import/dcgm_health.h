/* Reads `dcgmi health --check --json` (DCGM's passive health watches) into the
   document's top-level "dcgm_health" list: the overall result and, per entity (GPU,
   NvSwitch, ConnectX ...), each watched system's result and DCGM's message
   (docs/import.md, docs/schema.md). */
#ifndef LS_IMPORT_DCGM_HEALTH_H
#define LS_IMPORT_DCGM_HEALTH_H

#include <jansson.h>
#include <stddef.h>

int ls_dcgm_health_detect(const char *text);

/* The number of incidents kept (0 for a healthy report), or -1 with err. */
int ls_import_dcgm_health(json_t *doc, const char *text, const char *name, char *err,
                          size_t errlen);

#endif
