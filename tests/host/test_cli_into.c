/* The --into prologue every writing command shares (src/cli/into.c), for every command
   of the table whose options take --into: the document is found through the command's
   own option table, read and locked before the command runs, handed to it, written
   back with the command's entry added and the others kept, and the lock let go; a
   path that cannot be read is refused in one place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "helpers.h"
#include "cli/commands.h"
#include "cli/measure_usage.h"
#include "cli/optparse.h"
#include "measure/family.h"
#include "model/doc.h"
#include "util/log.h"

/* The commands whose --into is opened by the command itself, and why (commands.c). */
static const char *const opens_itself[] = {"nccl", NULL}; /* under MPI at rank 0 only */

/* A command line the command's parser takes: tp's checks are part of its parser
   (optparse.h's check), and a line it refuses is left to the command. */
static int with_args(const char *name, char **argv, int argc)
{
    static char *tp[] = {"--model",  "llama3-8b", "--tp",   "2",
                         "--prompt", "1",         "--link", "bw=1,lat=1"};
    if (strcmp(name, "tp") != 0)
        return argc;
    for (size_t k = 0; k < sizeof tp / sizeof tp[0]; k++)
        argv[argc++] = tp[k];
    argv[argc] = NULL;
    return argc;
}

static int in_list(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(*list, name))
            return 1;
    return 0;
}

/* Whether another open of path can take its lock now. */
static int lock_free(const char *path)
{
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    int ok = flock(fd, LOCK_EX | LOCK_NB) == 0;
    close(fd);
    return ok;
}

static size_t entries(const char *path)
{
    json_t *doc = json_load_file(path, 0, NULL); /* not an input of the process: raw */
    assert_non_null(doc);
    size_t n = json_array_size(json_object_get(doc, "measurements"));
    json_decref(doc);
    return n;
}

/* A copy of the example document at path; its entry count. */
static size_t make_doc(const char *path)
{
    char err[256];
    json_t *doc = ls_doc_read(ls_fixture("../../examples/h200x2-run.json"), err, sizeof err);
    assert_non_null(doc);
    if (ls_doc_write(doc, path, err, sizeof err) != 0)
        fail_msg("%s", err);
    size_t n = json_array_size(json_object_get(doc, "measurements"));
    json_decref(doc);
    return n;
}

/* One command through the prologue: its entry added, the others kept. */
static void through_the_prologue(const ls_command_t *c, const char *path)
{
    size_t before = make_doc(path);
    char *argv[16] = {(char *)c->name, "--into", (char *)path, NULL};
    int argc = with_args(c->name, argv, 3);
    assert_string_equal(ls_into_path(c, argc, argv), path);
    assert_int_equal(ls_into_begin(c, argc, argv), 0);
    /* the dispatcher holds it locked before the command runs, unless it opens it itself */
    assert_int_equal(lock_free(path), !(c->flags & LS_CMD_INTO));
    json_t *doc = ls_into_take(c->name, path);
    assert_non_null(doc);
    assert_false(lock_free(path));
    json_t *entry = json_deep_copy(json_array_get(json_object_get(doc, "measurements"), 0));
    json_object_set_new(entry, "id", json_string("added-by-the-test"));
    ls_doc_add_measurement(doc, entry);
    char err[512];
    assert_int_equal(ls_doc_into_write(doc, path, err, sizeof err), 0);
    json_decref(doc);
    ls_into_end();
    assert_true(lock_free(path));
    assert_int_equal(entries(path), before + 1);
}

static void every_into_command_opens_locks_and_writes_the_same_way(void **state)
{
    (void)state;
    char dir[] = "/tmp/ls-into-XXXXXX", path[128];
    assert_non_null(mkdtemp(dir));
    int n, tested = 0;
    const ls_command_t *cmds = ls_commands(&n);
    for (int i = 0; i < n; i++) {
        /* a file of its own per command: one read is an input the process will not overwrite */
        snprintf(path, sizeof path, "%s/run-%s.json", dir, cmds[i].name);
        char *argv[16] = {(char *)cmds[i].name, "--into", path, NULL};
        if (!ls_into_path(&cmds[i], with_args(cmds[i].name, argv, 3), argv)) {
            assert_false(cmds[i].flags & LS_CMD_INTO); /* a flag without the option */
            continue;
        }
        /* every command with --into goes through the dispatcher, or says why not */
        assert_true((cmds[i].flags & LS_CMD_INTO) || in_list(cmds[i].name, opens_itself));
        through_the_prologue(&cmds[i], path);
        unlink(path);
        tested++;
    }
    /* burn, import, nccl, tp and the four measuring families at least */
    assert_true(tested >= 8);
    rmdir(dir);
}

static void an_unreadable_into_is_refused_before_the_command(void **state)
{
    (void)state;
    int n;
    const ls_command_t *cmds = ls_commands(&n);
    for (int i = 0; i < n; i++) {
        char *argv[16] = {(char *)cmds[i].name, "--into", "/nonexistent/run.json", NULL};
        if (!(cmds[i].flags & LS_CMD_INTO))
            continue;
        int argc = with_args(cmds[i].name, argv, 3);
        assert_int_equal(ls_into_begin(&cmds[i], argc, argv), LS_EXIT_USAGE);
        ls_into_end();
    }
    const ls_command_t *nccl = ls_find_command("nccl");
    assert_non_null(nccl);
    assert_null(ls_into_take("nccl", "/nonexistent/run.json"));
}

static void a_command_line_the_parser_refuses_is_left_to_the_command(void **state)
{
    (void)state;
    const ls_command_t *burn = ls_find_command("burn");
    assert_non_null(burn);
    char *argv[] = {"burn", "--no-such-option", "--into", "/nonexistent/run.json", NULL};
    assert_null(ls_into_path(burn, 4, argv));
    assert_int_equal(ls_into_begin(burn, 4, argv), 0); /* burn then says why, in one line */
    ls_into_end();
}

/* Every option a command's table marks as an output is checked by the dispatcher
   before the command runs: a folder that does not exist refused, a writable path passed. */
static void every_output_option_is_checked_before_the_command(void **state)
{
    (void)state;
    int n, checked = 0;
    const ls_command_t *cmds = ls_commands(&n);
    for (int i = 0; i < n; i++)
        for (const ls_opt_t *row = cmds[i].opts->opts; row->kind != LS_OPT_END; row++) {
            if (!(row->flags & (LS_OPT_OUTPUT | LS_OPT_OUTPUT_DIR)))
                continue;
            char opt[40];
            if (row->name)
                snprintf(opt, sizeof opt, "--%s", row->name);
            else
                snprintf(opt, sizeof opt, "-%c", row->short_name);
            char *bad[] = {(char *)cmds[i].name, opt, "/nonexistent/out", NULL};
            char *good[] = {(char *)cmds[i].name, opt,
                            row->flags & LS_OPT_OUTPUT_DIR ? "/tmp" : "/tmp/ls-out", NULL};
            assert_int_equal(ls_check_output_options(&cmds[i], 3, bad), LS_EXIT_USAGE);
            assert_int_equal(ls_check_output_options(&cmds[i], 3, good), 0);
            checked++;
        }
    /* -o of inventory, topo, baseline, the families' --csv, check's --junit, fleet's --html
       (a run document's -o, LS_OPT_DOC: test_cli_flags.c) */
    assert_true(checked >= 9);
}

/* The command table's one cap on measuring commands holds every family of the registry,
   each with its usage (a family past the cap would drop out of the table unseen). */
static void the_table_holds_every_family(void **state)
{
    (void)state;
    int nf;
    const ls_family_t *fams = ls_families(&nf);
    assert_true(nf <= LS_MEASURE_MAX_FAMILIES);
    for (int i = 0; i < nf; i++) {
        const ls_command_t *c = ls_find_command(fams[i].name);
        assert_non_null(c);
        ls_buf_t b = {0};
        ls_opt_usage(&b, c->name, c->opts);
        char *text = ls_buf_take(&b);
        char first[64];
        snprintf(first, sizeof first, "usage: linkscope %s ", fams[i].name);
        assert_true(strncmp(text, first, strlen(first)) == 0);
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_into_command_opens_locks_and_writes_the_same_way),
        cmocka_unit_test(an_unreadable_into_is_refused_before_the_command),
        cmocka_unit_test(a_command_line_the_parser_refuses_is_left_to_the_command),
        cmocka_unit_test(every_output_option_is_checked_before_the_command),
        cmocka_unit_test(the_table_holds_every_family),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
