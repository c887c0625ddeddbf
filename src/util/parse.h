/* Parsing of numbers, sizes and lists given on the command line. */
#ifndef LS_UTIL_PARSE_H
#define LS_UTIL_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* "64M", "1G", "512", "4KiB", "1.5G": binary multiples (K=1024), as nccl-tests.
   Returns 0 and sets *bytes, or -1 for anything malformed, negative or overflowing. */
int ls_parse_size(const char *text, uint64_t *bytes);

/* Whole decimal number in [min, max]. */
int ls_parse_long(const char *text, long min, long max, long *value);

/* Finite decimal floating-point number. */
int ls_parse_double(const char *text, double *value);

/* "0,1,4" or "0-3,6": up to max distinct non-negative indices, kept in the order
   given. Returns the count, or -1 if malformed or too many. */
int ls_parse_index_list(const char *text, int *out, int max);

/* Formats a byte count the way nccl-tests and people write it: "8 B", "64 KiB",
   "1 GiB"; non-power sizes get one decimal. */
void ls_format_size(uint64_t bytes, char *buf, size_t buflen);

#endif
