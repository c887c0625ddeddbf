#include "log.h"

#include <stdio.h>
#include <unistd.h>

static int quiet_warnings;

void ls_log_quiet(int quiet) { quiet_warnings = quiet; }

static void vline(const char *prefix, const char *fmt, va_list ap)
{
    fputs("linkscope: ", stderr);
    fputs(prefix, stderr);
    vfprintf(stderr, fmt, ap);
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

void ls_progress(const char *fmt, ...)
{
    if (!isatty(STDERR_FILENO))
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("\r\033[K", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fflush(stderr);
    progress_shown = 1;
}

void ls_progress_done(void)
{
    if (progress_shown && isatty(STDERR_FILENO))
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
