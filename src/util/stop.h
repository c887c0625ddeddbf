/* Stop when the figure is known (issue 14, docs/methods.md "Stopping rules"): pure rules
   that say when a measurement has taken enough samples, and when a copy is large enough,
   so that a figure is measured as long as it needs and no longer. Both are recorded in
   the entry (samples taken, sizes tried, the rule that stopped it) so that figures stay
   comparable. */
#ifndef LS_UTIL_STOP_H
#define LS_UTIL_STOP_H

#include <stddef.h>

/* Samples: stop once at least min samples are in and the distribution-free confidence
   interval of the median (order statistics, binomial(n, 1/2)) is at most rel_width of
   the median wide; stop at max samples whatever the interval. */
typedef struct {
    int min_samples, max_samples;
    double confidence; /* of the median's interval, e.g. 0.95 */
    double rel_width;  /* (hi - lo) / median, e.g. 0.01 */
} ls_sample_rule_t;

/* Sizes: the copy size doubles from a start until the bandwidth changes by at most tol
   (relative) from one size to the next, or the largest size is reached. */
typedef struct {
    int min_sizes; /* at least this many sizes tried (>= 2) */
    double tol;    /* |bw[k] - bw[k-1]| / bw[k-1] at most this: converged */
} ls_size_rule_t;

enum ls_stop { LS_STOP_MORE = 0, LS_STOP_CONVERGED, LS_STOP_LIMIT };

/* The documented defaults (docs/methods.md). max_samples: the level's count. */
ls_sample_rule_t ls_sample_rule_default(int max_samples);
ls_size_rule_t ls_size_rule_default(void);

/* The 1-based order statistics l..u (u = n + 1 - l) that bound the median of n samples
   with at least the given confidence; 0 when n is too small for any interval. */
int ls_median_ci_rank(int n, double confidence);

/* The interval's bounds over n samples (unsorted; not modified). 0, or -1 when n is too
   small or out of memory. */
int ls_median_ci(const double *x, int n, double confidence, double *lo, double *hi);

/* Whether n samples are enough under r. */
enum ls_stop ls_samples_enough(const double *x, int n, const ls_sample_rule_t *r);

/* Whether the bandwidths bw[0..n-1] measured at growing sizes are enough; at_max: the
   last size tried was the largest allowed. */
enum ls_stop ls_sizes_enough(const double *bw, int n, int at_max, const ls_size_rule_t *r);

/* "ci" (interval within width), "max" (limit reached), "more" (not stopped). */
const char *ls_stop_name(enum ls_stop s);

#endif
