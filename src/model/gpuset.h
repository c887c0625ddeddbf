/* Sets of GPUs (document indices 0..63) as bit masks: bit g = GPU g. */
#ifndef LS_MODEL_GPUSET_H
#define LS_MODEL_GPUSET_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* "0-4,7,9" for a set of GPU indices (runs of three or more as a range). */
void ls_format_gpu_mask(uint64_t mask, char *buf, size_t len);
/* The set of a JSON array of indices; what is not an index in 0..63 is left out. */
uint64_t ls_gpu_mask_of(const json_t *gpus);

#endif
