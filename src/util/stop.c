/* Stopping rules (stop.h). */
#include "stop.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Documented in docs/methods.md ("Stopping rules"). At least 6 samples: the fewest for
   which a 95% distribution-free interval of the median exists (2 x 2^-6 < 0.05). */
#define SAMPLE_MIN 6
#define SAMPLE_CONFIDENCE 0.95
#define SAMPLE_REL_WIDTH 0.01
#define SIZE_MIN 2
#define SIZE_TOL 0.01

ls_sample_rule_t ls_sample_rule_default(int max_samples)
{
    ls_sample_rule_t r = {SAMPLE_MIN, max_samples, SAMPLE_CONFIDENCE, SAMPLE_REL_WIDTH};
    if (r.max_samples < r.min_samples)
        r.min_samples = r.max_samples;
    return r;
}

ls_size_rule_t ls_size_rule_default(void)
{
    ls_size_rule_t r = {SIZE_MIN, SIZE_TOL};
    return r;
}

/* P(B <= k) for B ~ binomial(n, 1/2), by the running binomial coefficient. */
static double binom_cdf_half(int n, int k)
{
    double term = pow(0.5, n), sum = 0;
    for (int i = 0; i <= k; i++) {
        sum += term;
        term = term * (n - i) / (i + 1);
    }
    return sum;
}

int ls_median_ci_rank(int n, double confidence)
{
    double tail = (1.0 - confidence) / 2;
    int l = 0;
    /* [x_(l), x_(n+1-l)] misses the median with probability 2 P(B <= l - 1) */
    while (l + 1 <= (n + 1) / 2 && binom_cdf_half(n, l) <= tail)
        l++;
    return l;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int ls_median_ci(const double *x, int n, double confidence, double *lo, double *hi)
{
    int l = n > 0 ? ls_median_ci_rank(n, confidence) : 0;
    if (l == 0)
        return -1;
    double *s = malloc((size_t)n * sizeof *s);
    if (!s)
        return -1;
    memcpy(s, x, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    *lo = s[l - 1];
    *hi = s[n - l];
    free(s);
    return 0;
}

static double median_of(const double *x, int n)
{
    double *s = malloc((size_t)n * sizeof *s);
    if (!s)
        return 0;
    memcpy(s, x, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    double m = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    free(s);
    return m;
}

enum ls_stop ls_samples_enough(const double *x, int n, const ls_sample_rule_t *r)
{
    if (n >= r->max_samples)
        return LS_STOP_LIMIT;
    if (n < r->min_samples)
        return LS_STOP_MORE;
    double lo, hi, m = median_of(x, n);
    if (ls_median_ci(x, n, r->confidence, &lo, &hi) != 0 || m <= 0)
        return LS_STOP_MORE;
    return (hi - lo) / m <= r->rel_width ? LS_STOP_CONVERGED : LS_STOP_MORE;
}

enum ls_stop ls_sizes_enough(const double *bw, int n, int at_max, const ls_size_rule_t *r)
{
    if (n >= r->min_sizes && n >= 2 && bw[n - 2] > 0 &&
        fabs(bw[n - 1] - bw[n - 2]) / bw[n - 2] <= r->tol)
        return LS_STOP_CONVERGED;
    return at_max ? LS_STOP_LIMIT : LS_STOP_MORE;
}

const char *ls_stop_name(enum ls_stop s)
{
    return s == LS_STOP_CONVERGED ? "ci" : s == LS_STOP_LIMIT ? "max" : "more";
}
