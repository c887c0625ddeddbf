/* One measurement entry of the run document: common fields and samples.
   Every figure linkscope reports is one entry; see docs/schema.md. */
#ifndef LS_MODEL_ENTRY_H
#define LS_MODEL_ENTRY_H

#include <jansson.h>
#include <stddef.h>

/* family: "p2p" | "latency" | "hbm" | "host" | "nccl" | "tp"
   metric: what the value is, e.g. "bandwidth", "latency", "busbw"
   unit:   "GB/s" (1e9 bytes/s) | "us" | "TB/s" is never used: HBM is GB/s too */
json_t *ls_entry_new(const char *family, const char *metric, const char *unit);

/* Sets "samples" (all finite ones kept; NaN and infinity cannot be written in JSON and
   are left out) and "stats" {n, median, min, max, mean, stddev, cv} over them, and
   "value" = median. */
void ls_entry_set_samples(json_t *entry, const double *samples, size_t n);

/* Marks the entry failed (status "failed" or "timeout", error line). */
void ls_entry_fail(json_t *entry, const char *status, const char *error);

/* Adds a flag (once) to the entry's "flags" array. */
void ls_entry_flag(json_t *entry, const char *flag);
/* 1 when the entry's "flags" array holds flag. */
int ls_entry_has_flag(const json_t *entry, const char *flag);

#endif
