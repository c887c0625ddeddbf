/* Sets of GPU indices (0..63) as bit masks, read from a document's JSON arrays and
   written compactly: what the analysis compares and every report prints. */
#ifndef LS_MODEL_GPUSET_H
#define LS_MODEL_GPUSET_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* The set of a JSON array of GPU indices (others than 0..63 are left out). */
uint64_t ls_gpu_mask_of(const json_t *gpus);
/* "0-4,7,9" for a set of GPU indices; "" for none. */
void ls_format_gpu_mask(uint64_t mask, char *buf, size_t len);

#endif
