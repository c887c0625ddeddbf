/* -o run-%N.json: one document per node under srun (util/pathpat.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <unistd.h>

#include "util/pathpat.h"

static void node_names_expanded(void **state)
{
    (void)state;
    char out[64];
    assert_int_equal(ls_expand_node("run-%N.json", "gpu17.cluster.example", out, sizeof out), 0);
    assert_string_equal(out, "run-gpu17.json");
    assert_int_equal(ls_expand_node("d/%N-%N-100%%.json", "a", out, sizeof out), 0);
    assert_string_equal(out, "d/a-a-100%.json");
    assert_int_equal(ls_expand_node("plain.json", "a", out, sizeof out), 0);
    assert_string_equal(out, "plain.json");
    assert_int_equal(ls_expand_node("run-%N.json", "a-very-long-host-name", out, 12), -1);
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    host[strcspn(host, ".")] = '\0';
    assert_int_equal(ls_expand_node("%N", NULL, out, sizeof out), 0);
    assert_string_equal(out, host);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(node_names_expanded)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
