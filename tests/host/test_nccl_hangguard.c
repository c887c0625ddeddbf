/* The last-resort guard: a process that stops beating is ended with one line and exit 1;
   one that keeps beating, or is disarmed, is left alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"
#include "nccl/hangguard.h"
#include "util/fileio.h"

static void sleep_s(double s)
{
    struct timespec t = {(time_t)s, (long)((s - (time_t)s) * 1e9)};
    nanosleep(&t, NULL);
}

/* Runs body in a child with stderr to a file; returns the exit status. */
static int in_child(void (*body)(void), const char *errfile)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 2);
        body();
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

static void hangs(void)
{
    ls_hang_guard_arm(0.5, "all_reduce");
    sleep_s(5); /* a blocked call */
}

static void keeps_beating(void)
{
    ls_hang_guard_arm(0.6, "all_reduce");
    for (int i = 0; i < 10; i++) {
        sleep_s(0.2);
        ls_hang_guard_beat(NULL);
    }
}

static void disarmed(void)
{
    ls_hang_guard_arm(0.3, "all_reduce");
    ls_hang_guard_disarm();
    sleep_s(1.0);
}

static void guard(void **s)
{
    (void)s;
    const char *errfile = ls_tmp_path("guard.err");
    assert_int_equal(in_child(hangs, errfile), 1);
    char err[256];
    char *text = ls_read_file(errfile, NULL, err, sizeof err);
    assert_non_null(text);
    assert_non_null(strstr(text, "nccl all_reduce: blocked inside NCCL or CUDA"));
    assert_int_equal(strchr(text, '\n') - text + 1, (long)strlen(text)); /* one line */
    free(text);
    assert_int_equal(in_child(keeps_beating, errfile), 0);
    assert_int_equal(in_child(disarmed, errfile), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(guard)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
