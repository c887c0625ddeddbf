/* nvlink_errors, one meaning everywhere (model/nvlink_errors.h): replays and recoveries are
   0 on a sound link, so any that rose over a window is an error with node action isolate,
   and any counted since the driver loaded (no window: maybe history) a warning with node
   action watch until a second reading shows it climb; CRC counts alone were
   corrected in the link layer. Judged on the counters since the driver loaded that a
   pasted `nvidia-smi nvlink -e` shows (analyze/rules_nvlink_counts.c), on counters that
   rose while linkscope measured (analyze/rules_gpus.c) and on linkscope health's window
   (health/rules.c). The texts are synthetic, in nvidia-smi nvlink -e's printed format. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "analyze/analyze.h"
#include "health/health.h"
#include "helpers.h"
#include "import/import.h"
#include "model/doc.h"
#include "model/nvlink_errors.h"

/* nvlink -e of one GPU with two links; link 1's counters given. */
static json_t *findings_of(int replay, int recovery, long long crc)
{
    char text[1024], err[256];
    snprintf(text, sizeof text,
             "GPU 0: Tesla V100-SXM2-32GB (UUID: GPU-00000000-0000-0000-0000-000000000001)\n"
             "\t Link 0: Replay Errors: 0\n\t Link 0: Recovery Errors: 0\n"
             "\t Link 0: CRC Errors: 0\n\n"
             "\t Link 1: Replay Errors: %d\n\t Link 1: Recovery Errors: %d\n"
             "\t Link 1: CRC Errors: %lld\n",
             replay, recovery, crc);
    json_t *doc = ls_import_doc_new();
    enum ls_import_format fmt;
    if (ls_import_text(doc, text, "nvlink-e.txt", NULL, &fmt, err, sizeof err) < 0)
        fail_msg("%s", err);
    json_t *f = ls_findings(doc);
    json_decref(doc);
    return f;
}

/* The one nvlink_errors finding of f (fails when there is not exactly one). */
static const json_t *the_finding(const json_t *f)
{
    const json_t *found = NULL, *x;
    size_t i;
    json_array_foreach(f, i, x) {
        if (!strcmp(ls_json_str(x, "rule", ""), "nvlink_errors")) {
            assert_null(found);
            found = x;
        }
    }
    assert_non_null(found);
    return found;
}

/* A count since the driver loaded is not a rise: watched, the next reading asked for. */
static void replays_on_one_link_watch(void **state)
{
    (void)state;
    json_t *f = findings_of(211, 0, 0);
    const json_t *x = the_finding(f);
    assert_string_equal(ls_json_str(x, "severity", ""), "warning");
    assert_string_equal(ls_json_str(x, "node_action", ""), "watch");
    assert_string_equal(ls_json_str(x, "subject", ""), "GPU0");
    const char *msg = ls_json_str(x, "message", "");
    assert_non_null(strstr(msg, "link 1: 211 replays; its other 1 link 0"));
    assert_non_null(strstr(msg, "point at those links' hardware"));
    assert_non_null(strstr(msg, "`nvidia-smi nvlink -e` again under NVLink load"));
    json_decref(f);
    f = findings_of(0, 1, 0); /* a recovery alone */
    assert_string_equal(ls_json_str(the_finding(f), "node_action", ""), "watch");
    json_decref(f);
}

/* A CRC counter at a 16-bit counter's ceiling is "at least"; beside replays it is the
   replays that decide. */
static void saturated_counter_said_at_least(void **state)
{
    (void)state;
    json_t *f = findings_of(2, 0, 65535);
    const char *msg = ls_json_str(the_finding(f), "message", "");
    assert_non_null(
        strstr(msg, "link 1: 2 replays, 65535 CRC (a counter's ceiling: at least that many)"));
    json_decref(f);
    f = findings_of(2, 0, 65534);
    assert_null(strstr(ls_json_str(the_finding(f), "message", ""), "ceiling"));
    json_decref(f);
}

/* CRC alone: information, no node action, whatever the count (no time base to rate it). */
static void crc_alone_is_information(void **state)
{
    (void)state;
    json_t *f = findings_of(0, 0, 65535);
    const json_t *x = the_finding(f);
    assert_string_equal(ls_json_str(x, "severity", ""), "info");
    assert_null(json_object_get(x, "node_action"));
    json_decref(f);
}

static void all_zero_is_quiet(void **state)
{
    (void)state;
    json_t *f = findings_of(0, 0, 0);
    size_t i;
    const json_t *x;
    json_array_foreach(f, i, x) {
        assert_string_not_equal(ls_json_str(x, "rule", ""), "nvlink_errors");
    }
    json_decref(f);
}

/* linkscope health on the same counters, risen over its window. */
static const char *health_action(int replay, int recovery, int crc)
{
    static char action[16];
    json_t *g = json_pack("{s:i, s:s, s:{s:f, s:i, s:i, s:i, s:i}}", "index", 0, "pci_bus_id",
                          "00000000:13:00.0", "nvlink_errors", "seconds", 2.0, "replay", replay,
                          "recovery", recovery, "crc_flit", 0, "crc_data", crc);
    json_t *st = json_pack("{s:{s:b}, s:[o], s:s, s:n}", "driver", "ok", 1, "gpus", g, "root",
                           "/nonexistent-root", "kernel_log");
    json_t *found = ls_health_rules(st);
    size_t i;
    const json_t *x;
    action[0] = '\0';
    json_array_foreach(found, i, x) {
        if (!strcmp(ls_json_str(x, "rule", ""), "nvlink_errors"))
            snprintf(action, sizeof action, "%s", ls_json_str(x, "action", ""));
    }
    json_decref(found);
    json_decref(st);
    return action;
}

static void health_judges_the_same(void **state)
{
    (void)state;
    assert_string_equal(health_action(1, 0, 0), "isolate");
    assert_string_equal(health_action(0, 1, 0), "isolate");
    assert_string_equal(health_action(0, 0, 40), "watch");
    assert_string_equal(health_action(0, 0, 0), "");
    assert_int_equal(ls_nvlink_errors_action(0, 0), LS_ACT_NONE);
    /* one rise isolates; the same count since the driver loaded is watched */
    assert_int_equal(ls_nvlink_errors_action(1, 0), LS_ACT_ISOLATE);
    assert_int_equal(ls_nvlink_count_action(1, 0), LS_ACT_WATCH);
    assert_int_equal(ls_nvlink_count_action(0, 0), LS_ACT_NONE);
    assert_true(ls_nvlink_counter_saturated(65535));
    assert_true(ls_nvlink_counter_saturated(4294967295LL));
    assert_false(ls_nvlink_counter_saturated(65536));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replays_on_one_link_watch),
        cmocka_unit_test(saturated_counter_said_at_least),
        cmocka_unit_test(crc_alone_is_information),
        cmocka_unit_test(all_zero_is_quiet),
        cmocka_unit_test(health_judges_the_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
