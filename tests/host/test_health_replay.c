/* linkscope health's pcie_replay rule (health/rules.c): the replays counted while health
   stood, judged against what a bit error rate of 1e-12 allows on the GPU's current link
   (DCGM's PCIe health watch); the count since the driver loaded alone is not judged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "health/health.h"
#include "helpers.h"
#include "model/doc.h"

/* A one-GPU state: its replays since the driver loaded, the growth over a window of
   `seconds` (count < 0: not read) and its current link (gen 0: not read). */
static json_t *state(int lifetime, int count, double seconds, int gen, int width)
{
    json_t *g = json_pack("{s:i, s:s, s:i}", "index", 0, "pci_bus_id", "00000000:13:00.0",
                          "pcie_replays", lifetime);
    if (count >= 0)
        json_object_set_new(g, "pcie_replay_growth",
                            json_pack("{s:f, s:i}", "seconds", seconds, "count", count));
    if (gen > 0)
        json_object_set_new(g, "pcie",
                            json_pack("{s:i, s:i}", "gen_current", gen, "width_current", width));
    return json_pack("{s:{s:b}, s:[o], s:s, s:n}", "driver", "ok", 1, "gpus", g, "root",
                     "/nonexistent-root", "kernel_log");
}

/* The pcie_replay finding of the state's rules, or NULL; its message in msg. */
static int replay_finding(json_t *st, char *msg, size_t len)
{
    json_t *found = ls_health_rules(st);
    size_t i;
    const json_t *f;
    int hit = 0;
    json_array_foreach(found, i, f) {
        if (!strcmp(ls_json_str(f, "rule", ""), "pcie_replay")) {
            hit = 1;
            snprintf(msg, len, "%s", ls_json_str(f, "message", ""));
            assert_string_equal(ls_json_str(f, "action", ""), "watch");
        }
    }
    json_decref(found);
    json_decref(st);
    return hit;
}

static void lifetime_count_alone_is_quiet(void **state_)
{
    (void)state_;
    char msg[256];
    /* the H200 of the device machine: 1 replay since the driver loaded, none in the window */
    assert_false(replay_finding(state(1, 0, 2, 5, 16), msg, sizeof msg));
    assert_false(replay_finding(state(100000, -1, 0, 5, 16), msg, sizeof msg));
}

/* Gen5 x16: 1e-12 x 32e9 x 60 x 16 = 30.72 a minute; in 2 s, ceil(1.02) = 2 allowed. */
static void growth_above_the_links_rate_is_watched(void **state_)
{
    (void)state_;
    char msg[256];
    assert_false(replay_finding(state(5, 2, 2, 5, 16), msg, sizeof msg));
    assert_true(replay_finding(state(5, 3, 2, 5, 16), msg, sizeof msg));
    assert_non_null(strstr(msg, "3 in 2 s, above the 2"));
    /* Gen1 x1 (an idle link): 0.15 a minute, 1 allowed in 60 s */
    assert_true(replay_finding(state(0, 2, 60, 1, 1), msg, sizeof msg));
    assert_false(replay_finding(state(0, 1, 60, 1, 1), msg, sizeof msg));
}

/* An unknown link is judged as the most any allows (Gen6 x16: 61.44 a minute). */
static void unknown_link_is_judged_at_the_most_allowed(void **state_)
{
    (void)state_;
    char msg[256];
    assert_false(replay_finding(state(0, 61, 60, 0, 0), msg, sizeof msg));
    assert_false(replay_finding(state(0, 62, 60, 0, 0), msg, sizeof msg)); /* ceil: 62 */
    assert_true(replay_finding(state(0, 63, 60, 0, 0), msg, sizeof msg));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lifetime_count_alone_is_quiet),
        cmocka_unit_test(growth_above_the_links_rate_is_watched),
        cmocka_unit_test(unknown_link_is_judged_at_the_most_allowed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
