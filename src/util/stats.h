/* Summary statistics over the samples of one measurement. */
#ifndef LS_UTIL_STATS_H
#define LS_UTIL_STATS_H

#include <stddef.h>

typedef struct {
    size_t n;
    double median, min, max, mean, stddev;
    double cv; /* coefficient of variation: stddev / mean (0 when mean is 0) */
} ls_stats_t;

/* Computes the summary of n samples (n may be 0: everything is 0). */
ls_stats_t ls_stats(const double *samples, size_t n);

/* The robust spread of n samples: 1.4826 x their median absolute deviation / |median|
   (0 when n is 0 or the median is 0). For normally distributed samples it estimates
   the same ratio as the CV; one outlier among ten moves it little (docs/analysis.md,
   "Statuses, spread, busy GPUs"). */
double ls_robust_spread(const double *samples, size_t n);

#endif
