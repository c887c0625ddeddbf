#define _XOPEN_SOURCE 600 /* posix_openpt, grantpt, unlockpt, ptsname */
/* Progress: the line says the item, elapsed and time left at the pace so far, and the
   run against its budget, rewritten in place on a terminal; where stderr is no terminal,
   one timestamped line per step and round (details none); --progress always and never. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
#include <termios.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/log.h"

static void line_says_item_elapsed_and_left(void **state)
{
    (void)state;
    char buf[256];
    /* 3 of 12 sizes done in 30 s: 9 more at 10 s each */
    ls_progress_line(buf, sizeof buf, 3, 12, 30, 75, 120, "nccl all_reduce, 8388608 bytes");
    assert_string_equal(buf, "[4/12] nccl all_reduce, 8388608 bytes | 0:30, ~1:30 left | run 1:15 "
                             "of 2:00 budget");
    ls_progress_line(buf, sizeof buf, 0, 5, 0, 0, 0, "p2p");
    assert_string_equal(buf, "[1/5] p2p | 0:00");
}

static void log_line_has_utc_time_and_elapsed(void **state)
{
    (void)state;
    char buf[256];
    ls_progress_log_line(buf, sizeof buf, 1796407262LL, 12.34, "measuring hbm ...");
    assert_string_equal(buf, "linkscope: 2026-12-04T18:01:02Z +12.3 s measuring hbm ...");
}

static void modes_parse(void **state)
{
    (void)state;
    assert_int_equal(ls_progress_mode_parse("auto"), LS_PROGRESS_AUTO);
    assert_int_equal(ls_progress_mode_parse("always"), LS_PROGRESS_ALWAYS);
    assert_int_equal(ls_progress_mode_parse("never"), LS_PROGRESS_NEVER);
    assert_int_equal(ls_progress_mode_parse("sometimes"), -1);
    assert_int_equal(ls_progress_mode_parse(NULL), -1);
}

/* Runs the progress calls of a run with stderr on fd: two steps (a step, a round) and
   details (a pair, series items); returns what was written. */
static char *written_to(int wfd, int rfd)
{
    int saved = dup(STDERR_FILENO);
    dup2(wfd, STDERR_FILENO);
    ls_progress("measuring %s ...", "p2p ce");
    ls_progress("p2p: ce uni, round %d (%d pairs at once)", 1, 4);
    ls_progress_detail("latency: ping-pong GPU%d <-> GPU%d", 0, 1);
    ls_progress_step(0, 4, "size %d", 8);
    ls_progress_step(1, 4, "size %d", 32);
    ls_progress_done();
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    close(wfd);
    char *out = calloc(1, 4096);
    size_t n = 0;
    ssize_t k;
    fcntl(rfd, F_SETFL, O_NONBLOCK);
    while (n < 4095 && (k = read(rfd, out + n, 4095 - n)) > 0)
        n += (size_t)k;
    close(rfd);
    return out;
}

static char *through_pipe(enum ls_progress_mode mode)
{
    ls_progress_set_mode(mode);
    int p[2];
    assert_int_equal(pipe(p), 0);
    return written_to(p[1], p[0]);
}

/* Two whole lines, a timestamp each, no details and nothing rewritten. */
static void assert_log_lines(const char *out)
{
    const char *second = strchr(out, '\n');
    assert_non_null(second);
    assert_int_equal(strncmp(out, "linkscope: 20", 13), 0);
    assert_non_null(strstr(out, "Z +0.0 s measuring p2p ce ...\n"));
    assert_int_equal(strncmp(second + 1, "linkscope: 20", 13), 0);
    assert_non_null(strstr(second, " s p2p: ce uni, round 1 (4 pairs at once)\n"));
    int lines = 0;
    for (const char *c = out; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 2);
    assert_null(strstr(out, "latency"));
    assert_null(strstr(out, "size 8"));
    assert_null(strchr(out, '\r'));
}

static void lines_on_a_pipe(void **state)
{
    (void)state;
    char *out = through_pipe(LS_PROGRESS_AUTO);
    assert_log_lines(out);
    free(out);
}

static void never_prints_nothing(void **state)
{
    (void)state;
    char *out = through_pipe(LS_PROGRESS_NEVER);
    assert_string_equal(out, "");
    free(out);
    ls_progress_set_mode(LS_PROGRESS_AUTO);
}

/* What the progress calls write to a pseudo-terminal in mode; NULL where none can be had. */
static char *through_terminal(enum ls_progress_mode mode)
{
    ls_progress_set_mode(mode);
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) || unlockpt(master))
        return NULL;
    struct termios raw;
    int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
    assert_true(slave >= 0);
    if (tcgetattr(slave, &raw) == 0) { /* no \n -> \r\n on the way */
        raw.c_oflag &= ~(tcflag_t)OPOST;
        tcsetattr(slave, TCSANOW, &raw);
    }
    return written_to(slave, master);
}

static void a_line_on_a_terminal(void **state)
{
    (void)state;
    char *out = through_terminal(LS_PROGRESS_AUTO);
    if (!out)
        skip(); /* no pseudo-terminal here */
    assert_non_null(strstr(out, "measuring p2p ce ..."));
    assert_non_null(strstr(out, "latency: ping-pong GPU0 <-> GPU1"));
    assert_non_null(strstr(out, "[1/4] size 8 | 0:00"));
    assert_non_null(strstr(out, "[2/4] size 32"));
    assert_non_null(strstr(out, "\r\033[K")); /* rewritten in place */
    assert_null(strstr(out, "linkscope: 20"));
    free(out);
}

static void always_lines_on_a_terminal(void **state)
{
    (void)state;
    char *out = through_terminal(LS_PROGRESS_ALWAYS);
    if (!out)
        skip();
    assert_log_lines(out);
    free(out);
    ls_progress_set_mode(LS_PROGRESS_AUTO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(line_says_item_elapsed_and_left),
                                       cmocka_unit_test(log_line_has_utc_time_and_elapsed),
                                       cmocka_unit_test(modes_parse),
                                       cmocka_unit_test(lines_on_a_pipe),
                                       cmocka_unit_test(never_prints_nothing),
                                       cmocka_unit_test(a_line_on_a_terminal),
                                       cmocka_unit_test(always_lines_on_a_terminal)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
