/* The command table's flags (src/cli/commands.h), walked command by command: each flag
   drives the dispatcher's prologue (src/cli/prologue.c) the same way for every command
   that has it, and a command without it is left alone.
   LS_CMD_GPU: with no GPU visible, a command line that measures is refused in one line,
   "no usable GPU: ...", exit 3, before the command runs; one that does not (run --dry-run
   --from, tp without --measure) passes. LS_CMD_WRITES: the document's -o refused where it
   is a folder, refused beside --into, in one line and exit 2; a new file passes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "cli/commands.h"
#include "cli/optparse.h"
#include "util/log.h"

/* What each command needs beside the options tested to be a command line its parser
   takes (tp's checks are part of its parser: a model, a size, a source; nccl names a
   collective). */
static int line(const ls_command_t *c, char **argv, const char *const *more)
{
    static const char *const tp[] = {"--model", "llama3-8b", "--tp", "2", "--prompt", "1", NULL};
    int argc = 0;
    argv[argc++] = (char *)c->name;
    for (const char *const *w = strcmp(c->name, "tp") ? NULL : tp; w && *w; w++)
        argv[argc++] = (char *)*w;
    if (!strcmp(c->name, "nccl"))
        argv[argc++] = "all_reduce";
    int measure = 0;
    for (; more && *more; more++) {
        measure |= !strcmp(*more, "--measure");
        argv[argc++] = (char *)*more;
    }
    if (!strcmp(c->name, "tp") && !measure) { /* a source: tp refuses a line without one */
        argv[argc++] = "--link";
        argv[argc++] = "bw=1,lat=1";
    }
    argv[argc] = NULL;
    return argc;
}

/* fn's stderr (one call) into text; the number of lines. */
static int stderr_of(int (*fn)(const ls_command_t *, int, char **), const ls_command_t *c, int argc,
                     char **argv, int *rc, char *text, size_t size)
{
    const char *path = ls_tmp_path("stderr.txt");
    fflush(stderr);
    int saved = dup(2), fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    assert_true(saved >= 0 && fd >= 0);
    dup2(fd, 2);
    *rc = fn(c, argc, argv);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(text, 1, size - 1, f);
    fclose(f);
    text[n] = '\0';
    int lines = 0;
    for (size_t k = 0; k < n; k++)
        lines += text[k] == '\n';
    return lines;
}

static void every_measuring_command_without_a_gpu_says_so_and_exits_3(void **state)
{
    (void)state;
    static const char *const tp_measure[] = {"--measure", "--gpus", "0,1", NULL};
    int n, flagged = 0;
    const ls_command_t *cmds = ls_commands(&n);
    for (int i = 0; i < n; i++) {
        char *argv[24], text[2048];
        int rc, argc = line(&cmds[i], argv, strcmp(cmds[i].name, "tp") ? NULL : tp_measure);
        int lines = stderr_of(ls_check_gpu, &cmds[i], argc, argv, &rc, text, sizeof text);
        if (!(cmds[i].flags & LS_CMD_GPU)) { /* left to the command */
            assert_int_equal(rc, 0);
            assert_int_equal(lines, 0);
            continue;
        }
        assert_int_equal(rc, LS_EXIT_NOGPU);
        assert_int_equal(lines, 1);
        assert_non_null(strstr(text, "no usable GPU: "));
        flagged++;
    }
    /* run, the four families, burn, tp */
    assert_true(flagged >= 7);
}

static void a_command_line_that_measures_nothing_needs_no_gpu(void **state)
{
    (void)state;
    static const char *const dry[] = {"--dry-run", "--from", "topo.txt", NULL};
    static const char *const extra[] = {"extra", NULL};
    char *argv[24], text[2048];
    int rc;
    const ls_command_t *run = ls_find_command("run"), *tp = ls_find_command("tp");
    assert_int_equal(stderr_of(ls_check_gpu, run, line(run, argv, dry), argv, &rc, text, 2048), 0);
    assert_int_equal(rc, 0);
    assert_int_equal(stderr_of(ls_check_gpu, tp, line(tp, argv, NULL), argv, &rc, text, 2048), 0);
    assert_int_equal(rc, 0);
    /* a line the parser refuses is the command's to refuse (exit 2, its own line) */
    assert_int_equal(stderr_of(ls_check_gpu, run, line(run, argv, extra), argv, &rc, text, 2048),
                     0);
    assert_int_equal(rc, 0);
}

static void every_writing_command_checks_its_document_before_it_runs(void **state)
{
    (void)state;
    char dir[] = "/tmp/ls-flags-XXXXXX", fresh[64];
    assert_non_null(mkdtemp(dir));
    snprintf(fresh, sizeof fresh, "%s/new.json", dir);
    const char *const folder[] = {"-o", dir, NULL},
                      *const both[] = {"-o", fresh, "--into", fresh, NULL},
                      *const good[] = {"-o", fresh, NULL};
    int n, flagged = 0;
    const ls_command_t *cmds = ls_commands(&n);
    for (int i = 0; i < n; i++) {
        const ls_opt_t *doc = ls_cmd_row(&cmds[i], NULL, LS_OPT_DOC);
        char *argv[24], text[2048];
        int rc, lines;
        if (!(cmds[i].flags & LS_CMD_WRITES)) {
            assert_null(doc); /* a document row the dispatcher would not check */
            continue;
        }
        assert_non_null(doc); /* the flag without its row would check nothing */
        lines = stderr_of(ls_check_document, &cmds[i], line(&cmds[i], argv, folder), argv, &rc,
                          text, sizeof text);
        assert_int_equal(rc, LS_EXIT_USAGE);
        assert_int_equal(lines, 1);
        assert_non_null(strstr(text, "a file, not a folder"));
        if (ls_cmd_row(&cmds[i], "into", 0)) {
            lines = stderr_of(ls_check_document, &cmds[i], line(&cmds[i], argv, both), argv, &rc,
                              text, sizeof text);
            assert_int_equal(rc, LS_EXIT_USAGE);
            assert_int_equal(lines, 1);
            assert_non_null(strstr(text, "-o and --into exclude each other"));
        }
        lines = stderr_of(ls_check_document, &cmds[i], line(&cmds[i], argv, good), argv, &rc, text,
                          sizeof text);
        assert_int_equal(rc, 0);
        assert_int_equal(lines, 0);
        flagged++;
    }
    /* run, the four families, burn, nccl, import, tp */
    assert_true(flagged >= 9);
    rmdir(dir);
}

static void the_dispatcher_reads_the_document_and_into_paths_from_the_table(void **state)
{
    (void)state;
    char text[2048], *argv[24];
    int rc;
    /* run's -o is expanded (%N) by its own function and still checked; nccl's -o is its
       operator when it names one (-o max), else the document */
    static const char *const run_o[] = {"-o", "/nonexistent/%N.json", NULL},
                             *const op[] = {"-o", "max", "--into", "/tmp/x.json", NULL};
    const ls_command_t *run = ls_find_command("run"), *nccl = ls_find_command("nccl");
    stderr_of(ls_check_document, run, line(run, argv, run_o), argv, &rc, text, sizeof text);
    assert_int_equal(rc, LS_EXIT_USAGE);
    assert_non_null(strstr(text, "/nonexistent/"));
    stderr_of(ls_check_document, nccl, line(nccl, argv, op), argv, &rc, text, sizeof text);
    assert_int_equal(rc, 0);
}

/* `linkscope help` names exactly the commands flagged LS_CMD_GPU, in its line for them. */
static void help_names_the_measuring_commands(void **state)
{
    (void)state;
    const char *path = ls_tmp_path("help.txt");
    fflush(stdout);
    int saved = dup(1), fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    assert_true(saved >= 0 && fd >= 0);
    dup2(fd, 1);
    assert_int_equal(cmd_help(1, (char *[]){"help", NULL}), 0);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    close(fd);
    char text[8192], *at;
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    at = strstr(text, "need a GPU where they measure:");
    assert_non_null(at);
    char *end = strstr(at, "\nGPU numbers"); /* the line (wrapped) ends there */
    assert_non_null(end);
    *end = '\0';
    int n;
    const ls_command_t *cmds = ls_commands(&n);
    for (int i = 0; i < n; i++) {
        char word[40];
        snprintf(word, sizeof word, " %s,", cmds[i].name);
        int listed = strstr(at, word) != NULL;
        snprintf(word, sizeof word, " %s", cmds[i].name);
        size_t len = strlen(word);
        listed |= strlen(at) >= len && !strcmp(at + strlen(at) - len, word); /* the last */
        assert_int_equal(listed, !!(cmds[i].flags & LS_CMD_GPU));
    }
}

int main(void)
{
    /* no GPU visible to CUDA, before anything asks it (a build without CUDA has none) */
    setenv("CUDA_VISIBLE_DEVICES", "", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_measuring_command_without_a_gpu_says_so_and_exits_3),
        cmocka_unit_test(a_command_line_that_measures_nothing_needs_no_gpu),
        cmocka_unit_test(every_writing_command_checks_its_document_before_it_runs),
        cmocka_unit_test(the_dispatcher_reads_the_document_and_into_paths_from_the_table),
        cmocka_unit_test(help_names_the_measuring_commands),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
