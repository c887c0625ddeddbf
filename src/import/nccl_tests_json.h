/* Reads nccl-tests' -J JSON file (file versions 1-3: "average_bus_bandwidith" in
   version 1, "average_bus_bandwidth" after; -I's per-iteration blocks) into `nccl`
   entries of the same shape as the text import (docs/import.md). */
#ifndef LS_IMPORT_NCCL_TESTS_JSON_H
#define LS_IMPORT_NCCL_TESTS_JSON_H

#include <jansson.h>
#include <stddef.h>

/* 1 when text is an nccl-tests -J document (an object with "results" and "config"). */
int ls_nccl_tests_json_detect(const char *text);

/* Adds one entry per (type, redop, root) group; the number added, or -1 with err. */
int ls_import_nccl_tests_json(json_t *doc, const char *text, const char *name, char *err,
                              size_t errlen);

#endif
