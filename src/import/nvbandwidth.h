/* Reads `nvbandwidth -j` JSON output into `p2p`, `host`, `hbm` and `latency` entries
   (docs/import.md lists which testcase goes where). */
#ifndef LS_IMPORT_NVBANDWIDTH_H
#define LS_IMPORT_NVBANDWIDTH_H

#include <jansson.h>
#include <stddef.h>

/* 1 when text is nvbandwidth's JSON (an object with an "nvbandwidth" member). */
int ls_nvbandwidth_detect(const char *text);

/* Adds the entries to doc; returns how many, or -1 with err = "NAME: problem". */
int ls_import_nvbandwidth(json_t *doc, const char *text, const char *name, char *err,
                          size_t errlen);

#endif
