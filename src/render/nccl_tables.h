/* nccl-tests' tables from `nccl` entries of the document: one collective's table, and the
   settings of --variant side by side. nccl/ measures and calls back (nccl/variants.h);
   the command passes these, as nccl may not call render. */
#ifndef LS_RENDER_NCCL_TABLES_H
#define LS_RENDER_NCCL_TABLES_H

#include <jansson.h>
#include <stdio.h>

/* nccl-tests' header, one row per size (out-of-place and in-place), the average bus
   bandwidth, the small-message time, transports per GPU pair and the "P2P is OK but NCCL
   used SHM" lines. Caller frees. */
char *ls_nccl_table_text(const json_t *entry);
void ls_nccl_print_table(FILE *out, const json_t *entry);

/* The most settings side by side (nccl/variants.h allows 16 and the default). */
#define LS_NCCL_TABLE_SETTINGS 17

/* One table per collective: size, then busbw of each setting and its ratio to the first
   (the default); entries[k] are the same collective under each setting (NULL: none). */
char *ls_nccl_variants_text(json_t *const *entries, int n);
void ls_nccl_print_variants(FILE *out, json_t *const *entries, int n);

/* nccl-tests' "Avg bus bandwidth": mean busbw over every printed row and both modes. */
double ls_nccl_avg_busbw(const json_t *entry);

#endif
