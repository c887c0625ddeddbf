#define _XOPEN_SOURCE 600 /* posix_openpt, grantpt, unlockpt, ptsname */
/* Progress: the line says the item, elapsed and time left at the pace so far, and the
   run against its budget; nothing at all when stderr is not a terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
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
    assert_string_equal(buf, "[4/12] nccl all_reduce, 8388608 bytes | 0:30, ~1:30 left | run 1:15 of 2:00 budget");
    ls_progress_line(buf, sizeof buf, 0, 5, 0, 0, 0, "p2p");
    assert_string_equal(buf, "[1/5] p2p | 0:00");
}

/* Runs the progress calls with stderr on fd; returns what was written. */
static char *written_to(int wfd, int rfd)
{
    int saved = dup(STDERR_FILENO);
    dup2(wfd, STDERR_FILENO);
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

static void nothing_on_a_pipe(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    char *out = written_to(p[1], p[0]);
    assert_string_equal(out, "");
    free(out);
}

static void a_line_on_a_terminal(void **state)
{
    (void)state;
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) || unlockpt(master)) {
        skip(); /* no pseudo-terminal here */
    }
    int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
    assert_true(slave >= 0);
    char *out = written_to(slave, master);
    assert_non_null(strstr(out, "[1/4] size 8 | 0:00"));
    assert_non_null(strstr(out, "[2/4] size 32"));
    assert_non_null(strstr(out, "\r\033[K")); /* rewritten in place */
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(line_says_item_elapsed_and_left), cmocka_unit_test(nothing_on_a_pipe),
                                       cmocka_unit_test(a_line_on_a_terminal)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
