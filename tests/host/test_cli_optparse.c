/* The table-driven option parser (src/cli/optparse.c): the spellings it reads, the one
   wording of its refusals, and the options block it writes for a usage. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/optparse.h"
#include "cli/options.h"
#include "util/log.h"

typedef struct {
    int json, quiet, fail_on, count;
    const char *out, *color;
} args_t;

static int add_count(const char *cmd, const char *v, void *args)
{
    if (!v || strcmp(v, "bad") == 0)
        return ls_usage_error(cmd, "--count: '%s' is bad", v ? v : "");
    ((args_t *)args)->count += atoi(v);
    return 0;
}

static const char *const *color_words(void)
{
    static const char *const words[] = {"auto", "never", NULL};
    return words;
}

static const ls_opt_t rows[] = {
    {.name = "json",
     .short_name = 'j',
     .kind = LS_OPT_FLAG,
     .off = offsetof(args_t, json),
     .help = "JSON"},
    {.short_name = 'o',
     .kind = LS_OPT_STRING,
     .arg = "FILE",
     .off = offsetof(args_t, out),
     .help = "write to FILE,\ntwo lines"},
    {.name = "count", .kind = LS_OPT_CALL, .arg = "N", .call = add_count, .help = "add N"},
    {.name = "color",
     .kind = LS_OPT_STRING,
     .arg = "WHEN",
     .off = offsetof(args_t, color),
     .words = color_words,
     .help = "when"},
    {.name = "quiet",
     .short_name = 'q',
     .kind = LS_OPT_FLAG,
     .off = offsetof(args_t, quiet),
     .flags = LS_OPT_HIDDEN},
    {.name = "a-very-long-option-name",
     .kind = LS_OPT_FLAG,
     .off = offsetof(args_t, json),
     .help = "long"},
    LS_OPT_FAIL_ON_ROW(args_t),
    {.kind = LS_OPT_END},
};

static const ls_cmd_opts_t spec = {.head = "usage: t\n",
                                   .opts = rows,
                                   .tail = "end\n",
                                   .column = 12,
                                   .args_size = sizeof(args_t)};

/* Parses the words of line (argv[0] "t"); rc, and stderr into err. */
static int parse(const char *line, args_t *a, char **pos, int *npos, char *err, size_t errlen)
{
    static char buf[512];
    char *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "t %s", line);
    for (char *w = strtok(buf, " "); w && argc < 31; w = strtok(NULL, " "))
        argv[argc++] = w;
    *a = (args_t){.fail_on = LS_FAIL_ON_DEFAULT};
    fflush(stderr);
    FILE *tmp = tmpfile();
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    int rc = ls_opt_parse("t", &spec, argc, argv, a, pos, npos);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(err, 1, errlen - 1, tmp);
    err[n] = 0;
    fclose(tmp);
    return rc;
}

static void the_spellings_of_a_value_and_a_flag(void **state)
{
    (void)state;
    args_t a;
    char *pos[32], err[512];
    int npos;
    assert_int_equal(parse("--json -o x.json --count 2 --count=3 one -qj two", &a, pos, &npos, err,
                           sizeof err),
                     0);
    assert_int_equal(a.json, 1);
    assert_int_equal(a.quiet, 1); /* hidden rows are still accepted */
    assert_string_equal(a.out, "x.json");
    assert_int_equal(a.count, 5);
    assert_int_equal(npos, 2);
    assert_string_equal(pos[0], "one");
    assert_string_equal(pos[1], "two");
    assert_string_equal(err, "");
    assert_int_equal(parse("-oglued.json -- --json -", &a, pos, &npos, err, sizeof err), 0);
    assert_string_equal(a.out, "glued.json");
    assert_int_equal(a.json, 0); /* after "--" an argument, like "-" */
    assert_int_equal(npos, 2);
    assert_string_equal(pos[0], "--json");
    assert_string_equal(pos[1], "-");
    assert_int_equal(parse("-o -", &a, pos, &npos, err, sizeof err),
                     0); /* a value may start with - */
    assert_string_equal(a.out, "-");
    assert_int_equal(parse("--fail-on never", &a, pos, &npos, err, sizeof err), 0);
    assert_int_equal(a.fail_on, LS_FAIL_NEVER);
}

static void one_wording_for_every_refusal(void **state)
{
    (void)state;
    args_t a;
    char *pos[32], err[512];
    int npos;
    static const struct {
        const char *line, *said;
    } cases[] = {
        {"--nosuch", "linkscope t: unknown option '--nosuch' (see 'linkscope t --help')\n"},
        {"-x", "linkscope t: unknown option '-x' (see 'linkscope t --help')\n"},
        {"-jx", "linkscope t: unknown option '-x' (see 'linkscope t --help')\n"},
        {"--json=1", "linkscope t: unknown option '--json=1' (see 'linkscope t --help')\n"},
        {"--jso",
         "linkscope t: unknown option '--jso' (see 'linkscope t --help')\n"}, /* no prefixes */
        {"--count", "linkscope t: --count needs a value (see 'linkscope t --help')\n"},
        {"-o", "linkscope t: -o needs a value (see 'linkscope t --help')\n"},
        {"--count bad", "linkscope t: --count: 'bad' is bad (see 'linkscope t --help')\n"},
        {"--fail-on loud",
         "linkscope t: --fail-on: expected info, warning, error or never, got 'loud' "
         "(see 'linkscope t --help')\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(parse(cases[i].line, &a, pos, &npos, err, sizeof err), LS_EXIT_USAGE);
        assert_string_equal(err, cases[i].said);
    }
}

static void the_usage_block_comes_from_the_rows(void **state)
{
    (void)state;
    ls_buf_t b = {0};
    ls_opt_usage(&b, "t", &spec);
    char *text = ls_buf_take(&b);
    assert_string_equal(text, "usage: t\n"
                              "  --json    JSON\n"
                              "  -o FILE   write to FILE,\n"
                              "            two lines\n"
                              "  --count N add N\n"
                              "  --color WHEN\n"
                              "            when\n"
                              "  --a-very-long-option-name\n"
                              "            long\n"
                              "  --fail-on LEVEL   exit 1 when a finding at or above LEVEL exists: "
                              "info,\n"
                              "                    warning, error (default) or never\n"
                              "end\n");
    free(text);
}

static void the_completion_offers_the_visible_rows_and_their_words(void **state)
{
    (void)state;
    const char *const *words;
    const char *expect[] = {"--json",   "-o", "--count", "--color", "--a-very-long-option-name",
                            "--fail-on"};
    int i = 0;
    for (const char *o; (o = ls_opt_offered("t", &spec, i, &words)); i++) {
        assert_true(i < 6);
        assert_string_equal(o, expect[i]);
        if (!strcmp(o, "--color"))
            assert_string_equal(words[1], "never");
        else if (!strcmp(o, "--fail-on"))
            assert_string_equal(words[3], "never");
        else
            assert_null(words);
    }
    assert_int_equal(i, 6); /* --quiet is hidden */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_spellings_of_a_value_and_a_flag),
        cmocka_unit_test(one_wording_for_every_refusal),
        cmocka_unit_test(the_usage_block_comes_from_the_rows),
        cmocka_unit_test(the_completion_offers_the_visible_rows_and_their_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
