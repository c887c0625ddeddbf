/* nccl-tests' table from an `nccl` entry, and variants side by side. Host-only. */
#ifndef LS_NCCL_TABLE_H
#define LS_NCCL_TABLE_H

#include <jansson.h>
#include <stdio.h>

/* Header, one row per size (out-of-place and in-place), the averages, the small-message
   time, transports per GPU pair and the "P2P is OK but NCCL used SHM" lines. */
void ls_nccl_print_table(FILE *out, const json_t *entry);

/* One table per collective: size, then busbw of each setting and its ratio to the
   first (the default). entries[k] are the same collective under settings[k]. */
void ls_nccl_print_variants(FILE *out, json_t *const *entries, int n);

/* nccl-tests' "Avg bus bandwidth": mean busbw over every printed row and both modes. */
double ls_nccl_avg_busbw(const json_t *entry);

/* 1 when the rows hold at least one checked result (`wrong` a number) and every checked
   result has wrong 0; 0 when any is wrong or none was checked (-c 0, or only in-place
   alltoall/sendrecv, which NCCL leaves undefined). */
int ls_nccl_rows_verified(const json_t *rows);

#endif
