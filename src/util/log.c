#include "log.h"
#include "sanitize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int quiet_warnings;

void ls_log_quiet(int quiet)
{
    quiet_warnings = quiet;
}

/* One line: text from a document or a log (a GPU name, an entry id, a path) reaches the
   terminal with its control characters shown as \xNN, never as escapes or a new line. */
static void vline(const char *prefix, const char *fmt, va_list ap)
{
    char text[4096], shown[4 * sizeof text];
    vsnprintf(text, sizeof text, fmt, ap);
    fputs("linkscope: ", stderr);
    fputs(prefix, stderr);
    fputs(ls_term_escape(text, shown, sizeof shown), stderr);
    fputc('\n', stderr);
}

void ls_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vline("error: ", fmt, ap);
    va_end(ap);
}

void ls_warn(const char *fmt, ...)
{
    if (quiet_warnings)
        return;
    va_list ap;
    va_start(ap, fmt);
    vline("warning: ", fmt, ap);
    va_end(ap);
}

void ls_info(const char *fmt, ...)
{
    if (quiet_warnings)
        return;
    va_list ap;
    va_start(ap, fmt);
    vline("", fmt, ap);
    va_end(ap);
}

static int progress_shown;
static int progress_mode = -1; /* not set: $LINKSCOPE_PROGRESS, else auto */
static struct timespec progress_t0;

int ls_progress_mode_parse(const char *text)
{
    static const char *const names[] = {[LS_PROGRESS_AUTO] = "auto",
                                        [LS_PROGRESS_ALWAYS] = "always",
                                        [LS_PROGRESS_NEVER] = "never"};
    for (int m = 0; text && m < 3; m++)
        if (strcmp(text, names[m]) == 0)
            return m;
    return -1;
}

void ls_progress_set_mode(enum ls_progress_mode mode)
{
    progress_mode = (int)mode;
}

static int mode_now(void)
{
    if (progress_mode < 0) {
        int m = ls_progress_mode_parse(getenv("LINKSCOPE_PROGRESS"));
        progress_mode = m < 0 ? LS_PROGRESS_AUTO : m;
    }
    return progress_mode;
}

/* the line rewritten in place on a terminal */
static int in_place(void)
{
    return mode_now() == LS_PROGRESS_AUTO && isatty(STDERR_FILENO);
}

void ls_progress_log_line(char *buf, size_t len, long long wall_s, double since_s, const char *text)
{
    time_t t = (time_t)wall_s;
    struct tm tm;
    char when[32] = "?";
    if (gmtime_r(&t, &tm))
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(buf, len, "linkscope: %s +%.1f s %s", when, since_s, text);
}

static void vprogress(int detail, const char *fmt, va_list ap)
{
    if (in_place()) {
        fputs("\r\033[K", stderr);
        vfprintf(stderr, fmt, ap);
        fflush(stderr);
        progress_shown = 1;
        return;
    }
    if (detail || mode_now() == LS_PROGRESS_NEVER)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (progress_t0.tv_sec == 0 && progress_t0.tv_nsec == 0)
        progress_t0 = now; /* the first line is +0.0 s */
    char text[256], line[320];
    vsnprintf(text, sizeof text, fmt, ap);
    ls_progress_log_line(line, sizeof line, (long long)time(NULL),
                         (double)(now.tv_sec - progress_t0.tv_sec) +
                             (now.tv_nsec - progress_t0.tv_nsec) / 1e9,
                         text);
    fprintf(stderr, "%s\n", line);
    fflush(stderr);
}

void ls_progress(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprogress(0, fmt, ap);
    va_end(ap);
}

void ls_progress_detail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprogress(1, fmt, ap);
    va_end(ap);
}

void ls_progress_done(void)
{
    if (progress_shown && in_place())
        fputs("\r\033[K", stderr);
    progress_shown = 0;
}

int ls_seterr(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}
