/* A set of outputs replaced together (ls_outputs_*, src/util/fileio.c; report --format
   csv DIR): a failure on any member, or SIGTERM while the set is written, leaves every old
   file whole and no temporary file; a commit replaces them all (docs/safety.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
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

static const char *const names[] = {"a.csv", "b.csv", "c.csv"};

/* A fresh folder holding a.csv, b.csv, c.csv with the text "old NAME". */
static void old_set(char *dir, size_t len, const char *tag)
{
    snprintf(dir, len, "%s", ls_tmp_path(tag));
    mkdir(dir, 0700);
    for (int i = 0; i < 3; i++) {
        char path[700], text[64], err[512];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        snprintf(text, sizeof text, "old %s", names[i]);
        assert_int_equal(ls_write_file_atomic(path, text, strlen(text), err, sizeof err), 0);
    }
}

/* The text of dir/name ("" when absent), in buf. */
static const char *text_of(const char *dir, const char *name, char *buf, size_t len)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    size_t got = f ? fread(buf, 1, len - 1, f) : 0;
    if (f)
        fclose(f);
    buf[got] = '\0';
    return buf;
}

/* 1 when every file of the set reads "WORD NAME" (word "old" or "new"). */
static int set_is(const char *dir, const char *word)
{
    int all = 1;
    for (int i = 0; i < 3; i++) {
        char want[64], buf[64];
        snprintf(want, sizeof want, "%s %s", word, names[i]);
        all &= !strcmp(text_of(dir, names[i], buf, sizeof buf), want);
    }
    return all;
}

/* 1 when dir holds a writer's temporary file (".NAME.tmp.PID.XXXXXX"). */
static int temps_present(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int found = 0;
    while (d && (e = readdir(d)))
        found |= strstr(e->d_name, ".tmp.") != NULL;
    if (d)
        closedir(d);
    return found;
}

/* Adds a.csv, b.csv, then c.csv (its text "new c.csv", or big bytes when big > 0). */
static int add_new(ls_outputs_t *set, const char *dir, size_t big, char *err, size_t errlen)
{
    for (int i = 0; i < 3; i++) {
        char path[700], text[64];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        snprintf(text, sizeof text, "new %s", names[i]);
        char *data = i == 2 && big ? malloc(big) : NULL;
        if (data)
            memset(data, 'x', big);
        int rc = ls_outputs_add(set, path, data ? data : text, data ? big : strlen(text), err,
                                errlen);
        free(data);
        if (rc)
            return rc;
    }
    return 0;
}

/* A commit replaces the whole set, no temporary file left; the old mode kept. */
static void commit_replaces_all(void **state)
{
    (void)state;
    char dir[600], err[512], path[700];
    old_set(dir, sizeof dir, "set-commit");
    snprintf(path, sizeof path, "%s/b.csv", dir);
    chmod(path, 0640);
    ls_outputs_t *set = ls_outputs_new();
    assert_int_equal(add_new(set, dir, 0, err, sizeof err), 0);
    assert_true(set_is(dir, "old")); /* staged: nothing replaced yet */
    assert_true(temps_present(dir));
    assert_int_equal(ls_outputs_commit(set, err, sizeof err), 0);
    assert_true(set_is(dir, "new"));
    assert_false(temps_present(dir));
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);
}

/* The third member is a folder: refused; the two staged before it are removed and the
   old set is whole (before, the first two files were already replaced). */
static void failed_member_keeps_old_set(void **state)
{
    (void)state;
    char dir[600], err[512] = "", path[700];
    old_set(dir, sizeof dir, "set-fail");
    snprintf(path, sizeof path, "%s/c.csv", dir);
    unlink(path);
    mkdir(path, 0700);
    ls_outputs_t *set = ls_outputs_new();
    assert_int_equal(add_new(set, dir, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "is a folder"));
    ls_outputs_free(set);
    char buf[64];
    assert_string_equal(text_of(dir, "a.csv", buf, sizeof buf), "old a.csv");
    assert_string_equal(text_of(dir, "b.csv", buf, sizeof buf), "old b.csv");
    assert_false(temps_present(dir));
    rmdir(path);
}

/* An input of this process, a path given twice, and stdout are refused as members. */
static void members_refused(void **state)
{
    (void)state;
    char dir[600], err[512], path[700];
    old_set(dir, sizeof dir, "set-refused");
    snprintf(path, sizeof path, "%s/b.csv", dir);
    size_t len;
    char *back = ls_read_file(path, &len, err, sizeof err);
    assert_non_null(back);
    ls_outputs_t *set = ls_outputs_new();
    assert_int_equal(add_new(set, dir, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "one of the inputs"));
    ls_outputs_free(set);
    ls_inputs_forget(path);
    free(back);
    assert_true(set_is(dir, "old"));
    set = ls_outputs_new();
    snprintf(path, sizeof path, "%s/a.csv", dir);
    assert_int_equal(ls_outputs_add(set, path, "x", 1, err, sizeof err), 0);
    assert_int_equal(ls_outputs_add(set, path, "y", 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "named twice"));
    assert_int_equal(ls_outputs_add(set, "-", "y", 1, err, sizeof err), -1);
    ls_outputs_free(set);
    assert_true(set_is(dir, "old"));
    assert_false(temps_present(dir));
}

/* A special file in the set (/dev/null) is written through at the commit. */
static void device_member(void **state)
{
    (void)state;
    char dir[600], err[512], path[700];
    old_set(dir, sizeof dir, "set-device");
    snprintf(path, sizeof path, "%s/a.csv", dir);
    ls_outputs_t *set = ls_outputs_new();
    assert_int_equal(ls_outputs_add(set, "/dev/null", "z", 1, err, sizeof err), 0);
    assert_int_equal(ls_outputs_add(set, path, "new a.csv", 9, err, sizeof err), 0);
    assert_int_equal(ls_outputs_commit(set, err, sizeof err), 0);
    char buf[64];
    assert_string_equal(text_of(dir, "a.csv", buf, sizeof buf), "new a.csv");
}

/* SIGTERM while the set's last (256 MiB) member is written: the process dies of it, the
   two members staged before are removed with it, the old set is whole. Tries a few
   times: a set written before the signal is seen proves nothing. */
static void sigterm_keeps_old_set(void **state)
{
    (void)state;
    char dir[600];
    int caught = 0;
    for (int attempt = 0; attempt < 5 && !caught; attempt++) {
        old_set(dir, sizeof dir, "set-sig");
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            char err[512];
            ls_outputs_t *set = ls_outputs_new();
            if (add_new(set, dir, 256u << 20, err, sizeof err) == 0)
                ls_outputs_commit(set, err, sizeof err);
            _exit(0);
        }
        struct timespec tick = {0, 200000}; /* 0.2 ms */
        int status = 0;
        while (waitpid(pid, &status, WNOHANG) == 0) {
            DIR *d = opendir(dir);
            struct dirent *e;
            int seen = 0;
            while (d && (e = readdir(d)))
                seen |= !strncmp(e->d_name, ".c.csv.tmp.", 11);
            if (d)
                closedir(d);
            if (seen) {
                kill(pid, SIGTERM);
                waitpid(pid, &status, 0);
                caught = WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM;
                break;
            }
            nanosleep(&tick, NULL);
        }
        if (caught) {
            assert_true(set_is(dir, "old"));
            assert_false(temps_present(dir));
        }
    }
    if (!caught)
        print_message("the sets were written before a signal could reach them: nothing checked\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(commit_replaces_all),   cmocka_unit_test(failed_member_keeps_old_set),
        cmocka_unit_test(members_refused),       cmocka_unit_test(device_member),
        cmocka_unit_test(sigterm_keeps_old_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
