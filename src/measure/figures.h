/* What each figure counts: the bytes per sample and the conversions from timings to
   the reported units (docs/methods.md gives the formulas). Pure functions, no CUDA. */
#ifndef LS_MEASURE_FIGURES_H
#define LS_MEASURE_FIGURES_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "util/stop.h"

/* GB/s (1e9 bytes per second) for bytes moved in ms milliseconds; 0 when ms <= 0. */
double ls_gbps(double bytes, double ms);

/* Rounds a buffer size down to a multiple of 16 bytes (the kernels' vector width). */
uint64_t ls_round16(uint64_t bytes);

/* p2p: bytes counted in one sample of loops copies of size bytes. "uni" counts one
   direction; "bidir" counts both directions (the value is their sum). */
uint64_t ls_p2p_counted_bytes(const char *direction, uint64_t size, int loops);

/* hbm: bytes of HBM traffic (read + written) in one sample. "read" reads size,
   "write" writes size, "copy" and "copy_ce" (copy engine) read size and write size. 0 for an
   unknown method. */
uint64_t ls_hbm_traffic_bytes(const char *method, uint64_t size, int loops);

/* host: "h2d" and "d2h" count size per copy; "bidir" counts both directions. */
uint64_t ls_host_counted_bytes(const char *direction, uint64_t size, int loops);

/* latency: one-way time in us from a ping-pong of round_trips round trips. */
double ls_pingpong_one_way_us(double elapsed_ns, int round_trips);
/* latency: time per dependent access in us. */
double ls_per_access_us(double elapsed_ns, int accesses);

/* How many operations one timed sample repeats so that it lasts about target_ms,
   given one operation took one_ms; clamped to [1, max_loops]. */
int ls_pick_loops(double one_ms, double target_ms, int max_loops);

/* Converts per-sample times (ms) into GB/s samples for counted bytes per sample and
   stores them with their statistics (ls_entry_set_samples). */
void ls_entry_set_bandwidth(json_t *entry, const double *ms, size_t n, double counted_bytes);

/* The entry's record of how its samples stopped ("stop": rule, and for the median's
   interval its confidence, width, min and max; samples taken; "ci" or "max"), so that
   figures taken under different rules stay comparable (util/stop.h). */
void ls_entry_set_stop(json_t *entry, const ls_sample_rule_t *rule, int stop_rule, int taken,
                       enum ls_stop why);

#endif
