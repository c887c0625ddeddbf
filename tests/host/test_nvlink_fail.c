/* The driver's NVLink bring-up failure lines without an Xid (model/nvlink_fail.c): each
   message of the driver's source matched, the lines about NVLink disabled by configuration
   or absent quiet; import's failures[] record and plan's rule nvlink_discovery_failed
   (analyze/rules_kernel.c); linkscope health's rule of the same name on the same lines
   (health/rules.c) with the same action. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "analyze/analyze.h"
#include "health/health.h"
#include "import/import.h"
#include "model/doc.h"
#include "model/nvlink_fail.h"

#define GH100_LINE                                                                                 \
    "Jul 09 10:42:47 node7 kernel: NVRM: knvlinkDiscoverPostRxDetLinks_GH100: Getting peer1's "    \
    "postRxDetLinkMask failed!\n"

/* Lines a healthy node or a PCIe card prints: NVLink disabled or absent, links trained. */
static const char quiet_log[] =
    "[    5.4] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  570.124.06\n"
    "[    6.1] NVRM: knvlinkCheckTrainingIsComplete_IMPL: Input mask contains a GPU on which "
    "NVLink is disabled.\n"
    "[    6.2] NVRM: knvlinkStatePreInitLocked_IMPL: NVLink MINION is not supported on this "
    "platform, disabling.\n"
    "[    6.3] NVRM: MIG NVLink P2P is not supported.\n"
    "[    6.4] nvidia-nvlink: Nvlink Core is being initialized, major device number 508\n";

/* Every message the header lists is matched; the quiet lines are not. */
static void matcher(void **state)
{
    (void)state;
    static const char *const fails[] = {
        "knvlinkDiscoverPostRxDetLinks_GB100: Getting peer0's postRxDetLinkMask failed!",
        "knvlinkUpdatePostRxDetectLinkMask_IMPL: Failed to update Rx Detect Link mask!",
        "knvlinkPreTrainLinksToActiveAli_IMPL: Failed to execute Pre Link Training ALI steps!",
        "knvlinkTrainLinksToActiveAli_IMPL: Failed to change ALI Links to active!",
        "knvlinkUpdateLinkConnectionStatus_IMPL: Failed to update Link connection status!",
        "_nvlink_core_set_link_state: Unable to set link state to ACTIVE for link GPU0:link3",
        "nvlink_core_train: Connection did not transition to INIT.",
    };
    for (size_t i = 0; i < sizeof fails / sizeof *fails; i++)
        assert_non_null(ls_nvlink_fail_says(fails[i]));
    assert_int_equal(ls_nvlink_fail_peer(fails[0]), 0);
    assert_int_equal(ls_nvlink_fail_peer(fails[1]), -1);
    json_t *events = json_array();
    ls_nvlink_fail_scan(quiet_log, events);
    assert_int_equal(json_array_size(events), 0);
    json_decref(events);
}

/* The one journal line: a failures[] record of the node (no bus printed), the rule fires
   about the node with the action the model gives; an Xid does not. */
static void plan_fires(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text(GH100_LINE, LS_FMT_KERNEL_LOG);
    const json_t *f =
        json_array_get(json_object_get(json_array_get(json_object_get(doc, "kernel_logs"), 0),
                                       "failures"),
                       0);
    assert_string_equal(ls_json_str(f, "kind", ""), "nvlink_train_failed");
    assert_int_equal(ls_json_int(f, "peer", -1), 1);
    assert_string_equal(ls_json_str(f, "host", ""), "node7");
    ls_test_fires(doc, "nvlink_discovery_failed", "error", ls_action_name(ls_nvlink_fail_action()),
                  "node7");
    ls_test_silent(doc, "xid");
    json_decref(doc);
}

/* The NVLink core library's own prefix ("nvidia-nvlink: ") is read too, and a bus the
   line names is the record's. */
static void core_library_line(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text("[  12.5] nvidia-nvlink: _nvlink_core_set_link_state: Unable "
                                      "to set link state to "
                                      "ACTIVE for link 0000:18:00.0:link5\n",
                                      LS_FMT_KERNEL_LOG);
    const json_t *f =
        json_array_get(json_object_get(json_array_get(json_object_get(doc, "kernel_logs"), 0),
                                       "failures"),
                       0);
    assert_string_equal(ls_json_str(f, "bus_id", ""), "00000000:18:00.0");
    ls_test_fires(doc, "nvlink_discovery_failed", "error", "reboot", NULL);
    json_decref(doc);
}

/* NVLink disabled by configuration, or absent: quiet. */
static void plan_quiet(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text(quiet_log, LS_FMT_KERNEL_LOG);
    ls_test_silent(doc, "nvlink_discovery_failed");
    ls_test_quiet(doc);
    json_decref(doc);
}

static json_t *health_of(const char *log)
{
    json_t *g = json_pack("{s:i, s:s, s:s}", "index", 2, "name", "NVIDIA H100 80GB HBM3",
                          "pci_bus_id", "00000000:18:00.0");
    json_t *st = json_pack("{s:{s:b}, s:[o], s:s, s:s}", "driver", "ok", 1, "gpus", g, "root",
                           "/nonexistent-root", "kernel_log", log);
    json_t *found = ls_health_rules(st);
    json_decref(st);
    return found;
}

/* health reads the same lines with the same action: the node's line twice is one finding
   counted twice; the core library's line with a bus is that GPU's; the quiet log quiet. */
static void health_agrees(void **state)
{
    (void)state;
    json_t *found = health_of(GH100_LINE GH100_LINE
                              "[  12.5] nvidia-nvlink: x: Unable to set link state to ACTIVE "
                              "for link 0000:18:00.0:link5\n");
    size_t i, n = 0;
    const json_t *f, *first = NULL, *gpu = NULL;
    json_array_foreach(found, i, f) {
        if (strcmp(ls_json_str(f, "rule", ""), "nvlink_discovery_failed"))
            continue;
        n++;
        assert_string_equal(ls_json_str(f, "action", ""), ls_action_name(ls_nvlink_fail_action()));
        if (!first)
            first = f;
        else
            gpu = f;
    }
    assert_int_equal(n, 2);
    assert_non_null(strstr(ls_json_str(first, "message", ""), "2 lines"));
    assert_int_equal(ls_json_int(gpu, "gpu", -1), 2);
    json_decref(found);
    found = health_of(quiet_log);
    assert_null(ls_test_finding(found, "nvlink_discovery_failed"));
    json_decref(found);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(matcher),           cmocka_unit_test(plan_fires),
        cmocka_unit_test(core_library_line), cmocka_unit_test(plan_quiet),
        cmocka_unit_test(health_agrees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
