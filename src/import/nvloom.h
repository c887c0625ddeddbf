/* Reads nvloom_cli's text output (NVIDIA/nvloom: MNNVL fabric tests, one process per
   GPU): its "Process N (host): device D: NAME; rackGuid: G" table and each testcase's
   matrix ("Running NAME", a tab-separated matrix, "Min/Avg/Max/Total NAME V UNIT"), and
   the CSV its --csvOutputFile writes for custom patterns. Figures become "mnnvl" entries
   named by process index (a domain has more GPUs than one machine: no GPU index is
   written); the process table and each testcase's summary go to the top-level "nvloom"
   list, one object per file (docs/import.md). */
#ifndef LS_IMPORT_NVLOOM_H
#define LS_IMPORT_NVLOOM_H

#include <jansson.h>
#include <stddef.h>

int ls_nvloom_detect(const char *text);

/* The number of entries added, or -1 with err. */
int ls_import_nvloom(json_t *doc, const char *text, const char *name, char *err, size_t errlen);

#endif
