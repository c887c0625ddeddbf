#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of n sorted values (n > 0). */
static double sorted_median(const double *sorted, size_t n)
{
    return (n % 2) ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

ls_stats_t ls_stats(const double *samples, size_t n)
{
    ls_stats_t s;
    memset(&s, 0, sizeof s);
    s.n = n;
    if (n == 0)
        return s;
    double *sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        return s;
    memcpy(sorted, samples, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_double);
    s.min = sorted[0];
    s.max = sorted[n - 1];
    s.median = sorted_median(sorted, n);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += sorted[i];
    s.mean = sum / (double)n;
    double var = 0;
    for (size_t i = 0; i < n; i++)
        var += (sorted[i] - s.mean) * (sorted[i] - s.mean);
    /* Sample standard deviation (n - 1); a single sample has no spread. */
    s.stddev = n > 1 ? sqrt(var / (double)(n - 1)) : 0.0;
    s.cv = s.mean != 0 ? s.stddev / fabs(s.mean) : 0.0;
    free(sorted);
    return s;
}

/* 1 / the third quartile of the standard normal distribution: MAD x this estimates the
   standard deviation of normally distributed samples. */
#define LS_MAD_NORMAL 1.4826

double ls_robust_spread(const double *samples, size_t n)
{
    if (n == 0)
        return 0.0;
    double *x = malloc(n * sizeof *x);
    if (!x)
        return 0.0;
    memcpy(x, samples, n * sizeof *x);
    qsort(x, n, sizeof *x, cmp_double);
    double median = sorted_median(x, n);
    for (size_t i = 0; i < n; i++)
        x[i] = fabs(x[i] - median);
    qsort(x, n, sizeof *x, cmp_double);
    double mad = sorted_median(x, n);
    free(x);
    return median != 0 ? LS_MAD_NORMAL * mad / fabs(median) : 0.0;
}
