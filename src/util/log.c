#include "log.h"
#include "sanitize.h"

#include <stdio.h>
#include <unistd.h>

static int quiet_warnings;

void ls_log_quiet(int quiet) { quiet_warnings = quiet; }

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
