/* Reads nccl-tests text output (any of its binaries, versions 2.x: with or without
   the root column, the "#wrong" or older "error" column, "N/A" cells, in-place
   columns, several ranks and hosts, "-d all" / "-o all" type loops, several tests
   concatenated, NCCL_DEBUG=INFO lines mixed in) into `nccl` entries (docs/import.md). */
#ifndef LS_IMPORT_NCCL_TESTS_H
#define LS_IMPORT_NCCL_TESTS_H

#include <jansson.h>
#include <stddef.h>

/* 1 when text looks like nccl-tests output. */
int ls_nccl_tests_detect(const char *text);

/* Adds one entry per test and per (type, redop, root) to doc. name names the input in
   errors and is the last resort for the collective's name (all_reduce_perf.log).
   variant: the entry's "variant" (NULL = "default"). collective: overrides the name
   found in the text (NULL = from the text). Returns the number of entries added, or -1
   with err = "NAME: what was expected". */
int ls_import_nccl_tests(json_t *doc, const char *text, const char *name, const char *variant,
                         const char *collective, char *err, size_t errlen);

/* "all_reduce_perf" or "./build/all_reduce_perf.log" -> "all_reduce"; 0 or -1. */
int ls_nccl_collective_from_name(const char *text, char *out, size_t outlen);

#endif
