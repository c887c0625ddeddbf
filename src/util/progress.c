/* One-line progress on a terminal for long work: where the work is (step, pair, size),
   how long it has run and about how long the rest will take, rewritten in place with \r.
   An item of a series is a detail: no log line where stderr is not a terminal (the
   step's own line says where the run is). */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double run_start, run_budget; /* ls_progress_clock: the whole run */
static double phase_start;           /* the first item of the current ls_progress_step series */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void ls_progress_clock(double budget_s)
{
    run_start = now(), run_budget = budget_s;
}

/* "1:05" */
static void mmss(char *buf, size_t len, double s)
{
    long t = (long)(s + 0.5);
    snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

void ls_progress_line(char *buf, size_t len, int done, int total, double phase_s, double run_s,
                      double budget, const char *what)
{
    char el[24], left[48] = "", run[80] = "";
    mmss(el, sizeof el, phase_s);
    if (done > 0 && total > done) { /* the items so far at their mean pace */
        char l[24];
        mmss(l, sizeof l, phase_s / done * (total - done));
        snprintf(left, sizeof left, ", ~%s left", l);
    }
    if (budget > 0) {
        char a[24], z[24];
        mmss(a, sizeof a, run_s);
        mmss(z, sizeof z, budget);
        snprintf(run, sizeof run, " | run %s of %s budget", a, z);
    }
    snprintf(buf, len, "[%d/%d] %s | %s%s%s", done + 1 > total ? total : done + 1, total, what, el,
             left, run);
}

void ls_progress_step(int done, int total, const char *fmt, ...)
{
    if (!isatty(STDERR_FILENO))
        return; /* a detail: ls_progress_detail prints nothing either */
    if (done == 0)
        phase_start = now();
    char what[160], line[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    double t = now();
    ls_progress_line(line, sizeof line, done, total, t - phase_start,
                     run_start > 0 ? t - run_start : 0, run_start > 0 ? run_budget : 0, what);
    ls_progress_detail("%s", line);
}
