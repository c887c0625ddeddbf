/* Diagnostics: one line to stderr, prefixed with "linkscope: ". */
#ifndef LS_UTIL_LOG_H
#define LS_UTIL_LOG_H

#include <stdarg.h>
#include <stddef.h>

/* Exit codes shared by every command (DESIGN.md, "Behaviour at the edges"). */
enum ls_exit {
    LS_EXIT_OK = 0,
    LS_EXIT_CHECK = 1, /* a check failed: baseline violated, finding over threshold */
    LS_EXIT_USAGE = 2, /* usage or input error */
    LS_EXIT_NOGPU = 3, /* no usable GPU or driver where one is needed */
    LS_EXIT_BUDGET = 4 /* run: even cut down, the projection does not fit --budget */
};

void ls_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ls_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ls_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Silence warnings (tests). */
void ls_log_quiet(int quiet);

/* Progress on stderr (--progress, docs/run.md "Progress"): auto (the default) rewrites
   one line in place on a terminal and, where stderr is no terminal (srun, ssh without a
   tty, CI, a log file), prints one timestamped line per step and per round; always
   prints the timestamped lines even on a terminal; never prints nothing. The mode is
   $LINKSCOPE_PROGRESS until a command sets it. */
enum ls_progress_mode { LS_PROGRESS_AUTO, LS_PROGRESS_ALWAYS, LS_PROGRESS_NEVER };
void ls_progress_set_mode(enum ls_progress_mode mode);
/* "auto", "always", "never": the mode, or -1. */
int ls_progress_mode_parse(const char *text);
/* A step or a round: the line in place, or one timestamped line. */
void ls_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A detail inside a step (a pair, a size): on a terminal only, never a log line. */
void ls_progress_detail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ls_progress_done(void);
/* The timestamped line: "linkscope: 2026-12-04T18:01:02Z +12.3 s TEXT" (tests). */
void ls_progress_log_line(char *buf, size_t len, long long wall_s, double since_s,
                          const char *text);
/* progress.c: item done+1 of total of a long series (pairs, sizes, steps), with the time
   since the series began and the time left at its pace so far, and, after
   ls_progress_clock, the whole run's time against its budget. A detail: terminal only. */
void ls_progress_clock(double budget_s);
void ls_progress_step(int done, int total, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The line ls_progress_step shows (tests). */
void ls_progress_line(char *buf, size_t len, int done, int total, double phase_s, double run_s,
                      double budget, const char *what);

/* Formats into err (if non-NULL) like snprintf; returns -1 for convenience. */
int ls_seterr(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
