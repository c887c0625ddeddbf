/* linkscope nccl's options through the table-driven parser (src/cli/nccl_args.c): the
   sweep's flags are kept as given (re-issued to each --variant child), spelled the
   short way where nccl-tests has one, and the document options go where they belong. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "cli/commands.h"
#include "cli/nccl_args.h"

static void the_sweep_flags_are_kept_for_the_children(void **state)
{
    (void)state;
    static opts_t o; /* zeroed, as the caller must */
    char *argv[] = {"nccl",     "all_reduce", "--minbytes", "8M",  "-e",
                    "16M",      "--iters=5",  "--op",       "max", "-o",
                    "out.json", "--into",     "doc.json",   NULL};
    /* -o with a word that is no operator is the output file; --into beside it is refused
       by the dispatcher (LS_CMD_WRITES), before the command runs */
    assert_int_equal(ls_nccl_parse_args(13, argv, &o), 0);
    assert_string_equal(o.output, "out.json");
    assert_int_equal(ls_check_document(ls_find_command("nccl"), 13, argv), 2);
    memset(&o, 0, sizeof o);
    char *ok[] = {"nccl", "all_reduce", "--minbytes", "8M",       "-e",         "16M", "--iters=5",
                  "--op", "max",        "--into",     "doc.json", "all_gather", NULL};
    assert_int_equal(ls_nccl_parse_args(12, ok, &o), 0);
    char stack_noise[256];
    memset(stack_noise, 'x', sizeof stack_noise); /* what a dangling spelling would now read */
    (void)stack_noise;
    const char *want[] = {"-b", "8M", "-e", "16M", "-n", "5", "--op", "max"};
    assert_int_equal(o.nraw, 8);
    for (int k = 0; k < 8; k++)
        assert_string_equal(o.raw[k], want[k]);
    assert_int_equal(o.sweep.min_bytes, 8u << 20);
    assert_int_equal(o.sweep.max_bytes, 16u << 20);
    assert_int_equal(o.sweep.iters, 5);
    assert_string_equal(o.sweep.redop, "max");
    assert_string_equal(o.into, "doc.json");
    assert_int_equal(o.ncolls, 2);
    assert_string_equal(o.colls[1], "all_gather");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_sweep_flags_are_kept_for_the_children),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
