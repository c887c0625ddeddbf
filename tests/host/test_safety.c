/* src/util/sanitize.c and the writer's edges (docs/safety.md): terminal escapes and
   control characters removed at the boundary and shown escaped on a terminal, CSV
   formulas recognized, Markdown cells HTML-escaped; the input size limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"
#include "util/fileio.h"
#include "util/sanitize.h"
#include "util/strindex.h"

static void clean(const char *in, const char *want)
{
    char *s = strdup(in);
    assert_int_equal(ls_text_needs_sanitize(in), strcmp(in, want) != 0);
    ls_sanitize_text(s);
    assert_string_equal(s, want);
    free(s);
}

static void boundary(void **state)
{
    (void)state;
    clean("NVIDIA H200", "NVIDIA H200");
    clean("\033]0;pwned\007H200", "H200");                     /* OSC ended by BEL */
    clean("\033]8;;http://x\033\\link\033]8;;\033\\", "link"); /* OSC ended by ST */
    clean("\033[8mhidden\033[0m", "hidden");                   /* CSI */
    clean("\033Pdcs\033\\a\033(Bb\033c", "ab");                /* DCS, charset, RIS */
    clean("a\nb\rc\td", "a b c d");                            /* raw newlines */
    clean("a\001b\177c", "abc");                               /* C0, DEL */
    clean("a\xc2\x9b"
          "31mb",
          "a31mb"); /* C1 CSI as UTF-8 */
    clean("a\x9b"
          "b\xff",
          "ab"); /* not UTF-8 */
    clean("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80");
    clean("\xe0\x80\xaf", ""); /* overlong */
    clean("tail\033", "tail");
    clean("\033]unterminated", "");
}

static void terminal(void **state)
{
    (void)state;
    char out[64];
    assert_string_equal(ls_term_escape("a\033[8mb\n", out, sizeof out), "a\\x1b[8mb\\x0a");
    assert_string_equal(ls_term_escape("\xc2\x9b"
                                       "x",
                                       out, sizeof out),
                        "\\x9bx");
    assert_string_equal(ls_term_escape("GPU0->GPU1 \xe2\x86\x92", out, sizeof out),
                        "GPU0->GPU1 \xe2\x86\x92");
    assert_string_equal(ls_term_escape("abcdef", out, 4), "abc"); /* truncated, terminated */
    /* table cells keep the heatmap's colours, nothing else */
    assert_string_equal(ls_term_escape_keep_colour("\033[30;48;5;46m 1.0\033[0m", out, sizeof out),
                        "\033[30;48;5;46m 1.0\033[0m");
    assert_string_equal(ls_term_escape_keep_colour("\033]0;t\007\033[2J", out, sizeof out),
                        "\\x1b]0;t\\x07\\x1b[2J");
}

static void csv(void **state)
{
    (void)state;
    const char *formulas[] = {"=1+1", "+cmd", "-cmd|' /C calc'!A0", "@SUM(A1)", "\tx", "\rx",
                              "-",    "+"};
    for (size_t i = 0; i < sizeof formulas / sizeof formulas[0]; i++)
        assert_true(ls_csv_is_formula(formulas[i]));
    const char *data[] = {"", "-3.5", "+2", "1e3", "NVIDIA H200", "GPU0", "-1e-3"};
    for (size_t i = 0; i < sizeof data / sizeof data[0]; i++)
        assert_false(ls_csv_is_formula(data[i]));
}

static void markdown(void **state)
{
    (void)state;
    char out[128];
    assert_string_equal(ls_md_escape("<img src=x onerror=alert(1)>", out, sizeof out),
                        "&lt;img src=x onerror=alert(1)&gt;");
    assert_string_equal(ls_md_escape("a|b&c\nd\033e", out, sizeof out), "a\\|b&amp;c de");
}

static void input_limit(void **state)
{
    (void)state;
    char err[512];
    const char *path = ls_tmp_path("safety-big");
    char *data = calloc(1, (1u << 20) + 2);
    memset(data, 'x', (1u << 20) + 1);
    assert_int_equal(ls_write_file_atomic(path, data, (1u << 20) + 1, err, sizeof err), 0);
    setenv("LINKSCOPE_MAX_INPUT_MB", "1", 1);
    assert_int_equal(ls_max_input_bytes(), 1u << 20);
    assert_null(ls_read_file(path, NULL, err, sizeof err));
    assert_non_null(strstr(err, "larger than the 1 MiB input limit"));
    unsetenv("LINKSCOPE_MAX_INPUT_MB");
    size_t len = 0;
    char *back = ls_read_file(path, &len, err, sizeof err);
    assert_non_null(back);
    assert_int_equal(len, (1u << 20) + 1);
    /* the file just read is an input: writing over it is refused */
    assert_int_equal(ls_write_file_atomic(path, "y", 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "one of the inputs"));
    ls_inputs_forget(path);
    assert_int_equal(ls_write_file_atomic(path, "y", 1, err, sizeof err), 0);
    free(back);
    free(data);
}

/* compare and check's hash index: every position of a key, in order, none for others */
static void string_index(void **state)
{
    (void)state;
    const char *keys[] = {"a", "b", "a", "c", "a", ""};
    ls_strindex_t ix;
    assert_int_equal(ls_strindex_build(&ix, keys, 6), 0);
    size_t got[8], n = 0;
    for (size_t i = ls_strindex_first(&ix, "a"); i != LS_STRINDEX_NONE;
         i = ls_strindex_next(&ix, i))
        got[n++] = i;
    assert_int_equal(n, 3);
    assert_int_equal(got[0], 0);
    assert_int_equal(got[1], 2);
    assert_int_equal(got[2], 4);
    assert_int_equal(ls_strindex_first(&ix, "c"), 3);
    assert_int_equal(ls_strindex_first(&ix, ""), 5);
    assert_int_equal(ls_strindex_first(&ix, "d"), LS_STRINDEX_NONE);
    ls_strindex_free(&ix);
    assert_int_equal(ls_strindex_build(&ix, keys, 0), 0);
    assert_int_equal(ls_strindex_first(&ix, "a"), LS_STRINDEX_NONE);
    ls_strindex_free(&ix);
}

/* 1 when dir holds a writer's temporary file (".NAME.tmp.PID.XXXXXX"). */
static int temp_present(const char *dir, const char *base)
{
    char prefix[256];
    snprintf(prefix, sizeof prefix, ".%s.tmp.", base);
    DIR *d = opendir(dir);
    struct dirent *e;
    int found = 0;
    while (d && (e = readdir(d)))
        found |= strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    if (d)
        closedir(d);
    return found;
}

/* SIGTERM while the temporary file exists (caught during the write or its fsync):
   the process dies of the signal and the temporary file is gone; the target was never
   created. Tries a few times: a write that ends before it is seen proves nothing. */
static void temp_removed_on_sigterm(void **state)
{
    (void)state;
    char dir[512], path[600];
    snprintf(dir, sizeof dir, "%s", ls_tmp_path("safety-sig"));
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/out.json", dir);
    size_t len = 256u << 20;
    int caught = 0;
    for (int attempt = 0; attempt < 5 && !caught; attempt++) {
        unlink(path);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            char *data = malloc(len), err[512];
            if (!data)
                _exit(3);
            memset(data, 'x', len);
            ls_write_file_atomic(path, data, len, err, sizeof err);
            _exit(0);
        }
        struct timespec tick = {0, 200000}; /* 0.2 ms */
        int status = 0;
        while (waitpid(pid, &status, WNOHANG) == 0) {
            if (temp_present(dir, "out.json")) {
                kill(pid, SIGTERM);
                waitpid(pid, &status, 0);
                caught = WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM;
                break;
            }
            nanosleep(&tick, NULL);
        }
        if (caught) {
            assert_false(temp_present(dir, "out.json"));
            assert_int_equal(access(path, F_OK), -1); /* no half-written target */
        }
    }
    if (!caught)
        print_message("the writes ended before a signal could reach them: nothing checked\n");
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(boundary),
        cmocka_unit_test(terminal),
        cmocka_unit_test(csv),
        cmocka_unit_test(markdown),
        cmocka_unit_test(input_limit),
        cmocka_unit_test(string_index),
        cmocka_unit_test(temp_removed_on_sigterm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
