/* The host side of the host copies' data (measure/host_cuda.c): a buffer filled with the
   pattern (pattern.h) and checked against it, split over threads. One thread reads or
   writes 512 MiB in 0.2-0.3 s (1 x H200 machine, session 6: 212 ms to fill, 236-300 ms
   to check), four times the copy it checks; the threads inherit the caller's CPU
   affinity, so a copy bound to a NUMA node's CPUs keeps its check there. */
#ifndef LS_MEASURE_HOST_PATTERN_H
#define LS_MEASURE_HOST_PATTERN_H

#include <stddef.h>

/* Word i of buf (bytes / 4 words) becomes ls_pattern(seed, i). */
void ls_host_fill_pattern(void *buf, size_t bytes, unsigned seed);

/* How many words of buf differ from ls_pattern(seed, i). */
long long ls_host_count_wrong(const void *buf, size_t bytes, unsigned seed);

/* The threads the two use for `bytes` (1 below 64 MiB; at most 8 and the CPUs this thread
   may run on). */
int ls_host_pattern_threads(size_t bytes);

#endif
