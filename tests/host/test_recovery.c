/* The driver's GPU recovery action (model/recovery.c): NVML's codes, the words nvidia-smi
   -q and Xid 154 print, and the one action linkscope plan (rule recovery_action, on an
   imported -q) and linkscope health give each. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "health/health.h"
#include "helpers.h"
#include "import/import.h"
#include "model/recovery.h"

static void codes(void **state)
{
    (void)state;
    assert_int_equal(ls_recovery_of_code(0)->action, LS_ACT_NONE);
    assert_int_equal(ls_recovery_of_code(1)->action, LS_ACT_RESET);
    assert_int_equal(ls_recovery_of_code(2)->action, LS_ACT_REBOOT);
    assert_int_equal(ls_recovery_of_code(3)->action, LS_ACT_ISOLATE);
    assert_int_equal(ls_recovery_of_code(4)->action, LS_ACT_RESET);
    assert_null(ls_recovery_of_code(9)); /* a later driver's: unknown, not guessed */
    assert_string_equal(ls_recovery_of_code(2)->words, "Node Reboot Required");
}

/* Words, any case; "Drain and Reset" is not a plain reset, "N/A" names none. */
static void words(void **state)
{
    (void)state;
    assert_int_equal(ls_recovery_of_words("None")->code, 0);
    assert_int_equal(ls_recovery_of_words("GPU Reset Required")->code, 1);
    assert_int_equal(ls_recovery_of_words("node reboot required")->code, 2);
    assert_int_equal(ls_recovery_of_words("Drain P2P")->code, 3);
    assert_int_equal(ls_recovery_of_words("Drain and Reset")->code, 4);
    /* the short words -q prints in posts people made ("GPU Recovery Action: Reset", "... is
       `Reboot`"): the same codes as the driver's long names */
    assert_int_equal(ls_recovery_of_words("Reset")->code, 1);
    assert_int_equal(ls_recovery_of_words("Reboot")->code, 2);
    assert_null(ls_recovery_of_words("N/A"));
    assert_null(ls_recovery_of_words("Nonexistent"));
}

/* Xid 154: the action it changed TO, not FROM. */
static void xid154(void **state)
{
    (void)state;
    assert_int_equal(ls_xid_action(154, "GPU recovery action changed from 0x0 (None) to 0x2 "
                                        "(Node Reboot Required)"),
                     LS_ACT_REBOOT);
    assert_int_equal(ls_xid_action(154, "GPU recovery action changed from 0x1 (GPU Reset "
                                        "Required) to 0x0 (None)"),
                     LS_ACT_NONE);
    assert_int_equal(ls_xid_action(154, "GPU recovery action changed from 0x0 (None) to 0x3 "
                                        "(Drain P2P)"),
                     LS_ACT_ISOLATE);
    assert_int_equal(ls_xid_action(154, "GPU recovery action changed"), LS_ACT_WATCH);
}

/* An -q block of drivers from 570 with its GPU Reset Status and GPU Recovery Action. */
static json_t *query(const char *reset_required, const char *action)
{
    char text[1024];
    snprintf(text, sizeof text,
             "==============NVSMI LOG==============\n\n"
             "Driver Version                            : 570.124.06\n\n"
             "GPU 00000000:18:00.0\n"
             "    Product Name                          : NVIDIA H100 80GB HBM3\n"
             "    GPU Reset Status\n"
             "        Reset Required                    : %s\n"
             "        Drain and Reset Recommended       : No\n"
             "    GPU Recovery Action                   : %s\n",
             reset_required, action);
    return ls_test_import_text(text, LS_FMT_SMI_QUERY);
}

static void plan_rule(void **state)
{
    (void)state;
    json_t *doc = query("No", "Node Reboot Required");
    ls_test_fires(doc, "recovery_action", "error", "reboot", "Node Reboot Required");
    json_decref(doc);
    doc = query("No", "Drain P2P");
    ls_test_fires(doc, "recovery_action", "error", "isolate", "peer-to-peer");
    json_decref(doc);
    doc = query("Yes", "N/A"); /* 550-565: the reset status alone */
    ls_test_fires(doc, "recovery_action", "error", "reset", "Reset Required Yes");
    json_decref(doc);
    doc = query("No", "Some Later Action");
    ls_test_fires(doc, "recovery_action", "warning", "watch", "does not know");
    json_decref(doc);
}

/* Healthy forms stay quiet: None, No, the 570 deprecation notice, N/A. */
static void quiet(void **state)
{
    (void)state;
    const char *pairs[][2] = {{"No", "None"},
                              {"Requested functionality has been deprecated", "None"},
                              {"N/A", "N/A"}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        json_t *doc = query(pairs[i][0], pairs[i][1]);
        ls_test_silent(doc, "recovery_action");
        ls_test_quiet(doc);
        json_decref(doc);
    }
}

/* linkscope health on a recorded state: the words plan reads as no ask ("N/A", "Not
   Supported") are no ask there either, a known action is the table's. */
static const char *health_action(const char *words)
{
    static char action[32];
    json_t *g = json_pack("{s:i, s:s, s:s, s:s}", "index", 0, "name", "NVIDIA H100 80GB HBM3",
                          "pci_bus_id", "00000000:18:00.0", "recovery_action", words);
    json_t *st = json_pack("{s:{s:b}, s:[o], s:s, s:n}", "driver", "ok", 1, "gpus", g, "root",
                           "/nonexistent-root", "kernel_log");
    json_t *found = ls_health_rules(st);
    size_t i;
    const json_t *f;
    action[0] = '\0';
    json_array_foreach(found, i, f) {
        if (!strcmp(json_string_value(json_object_get(f, "rule")), "recovery_action"))
            snprintf(action, sizeof action, "%s", json_string_value(json_object_get(f, "action")));
    }
    json_decref(found);
    json_decref(st);
    return action;
}

static void health_rule(void **state)
{
    (void)state;
    assert_string_equal(health_action("N/A"), "");
    assert_string_equal(health_action("Not Supported"), "");
    assert_string_equal(health_action("None"), "");
    assert_string_equal(health_action("Drain P2P"), "isolate");
    assert_string_equal(health_action("Some Later Action"), "watch");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(codes),     cmocka_unit_test(words), cmocka_unit_test(xid154),
        cmocka_unit_test(plan_rule), cmocka_unit_test(quiet), cmocka_unit_test(health_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
