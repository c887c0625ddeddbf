/* The NVSwitch fabric's texts in the forms a blind measure found refused or misread
   (docs/analysis.md "The NVSwitch fabric"): Fabric Manager's own lines without their date
   and tid ("[ERROR] ..."), after a host's tag ("10.0.0.7: fabric manager config file
   item: ..."), under a journal prefix whose tag was cut ("Jul 20 16:15:36 edge-...:  ..."),
   systemctl status cut after its header (systemd 250's unit glyphs), nvidia-smi -q's
   Fabric section under a grep -C3 (rule fabric_health apart from fabric_not_ready), and
   DCGM's host engine log refused in one line. Each form with a healthy twin. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "analyze/analyze.h"
#include "import/fabric_manager.h"
#include "import/import.h"
#include "model/doc.h"

static json_t *import_as(const char *text, enum ls_import_format want)
{
    return ls_test_import_text(text, (int)want);
}

static const char *fm_str(const json_t *doc, const char *key)
{
    return ls_json_str(json_array_get(json_object_get(doc, "fabric_managers"), 0), key, "");
}

/* "[ERROR] message": FM's level tag without its date and tid, its wording after it. */
static void level_without_date(void **state)
{
    (void)state;
    json_t *doc = import_as("[ERROR] not all local fabric manager instances finished their "
                            "configuration\n"
                            "[ERROR] failed to configure all the available GPUs or NVSwitches\n",
                            LS_FMT_FABRIC_MANAGER);
    ls_test_fires(doc, "fabric_manager", "error", "isolate", "did not configure");
    json_decref(doc);
    doc = import_as("[INFO] Connected to 1 node.\n" /* the twin: it came up */
                    "[INFO] Successfully configured all the available NVSwitches to route GPU "
                    "NVLink traffic.\n",
                    LS_FMT_FABRIC_MANAGER);
    ls_test_quiet(doc);
    json_decref(doc);
    /* a level tag without FM's wording is another tool's */
    assert_int_equal(ls_fabric_manager_detect("[ERROR] could not open the config file\n"), 0);
    assert_int_equal(ls_fabric_manager_detect("[INFO] Connected to 1 node.\n"), 0);
}

/* "HOST: fabric manager ...": FM's lower-case opening after a launcher's or host's tag. */
static void host_tagged(void **state)
{
    (void)state;
    json_t *doc = import_as("10.0.0.7: fabric manager config file item: "
                            "FABRIC_NODE_CONFIG_FILE has an invalid value\n",
                            LS_FMT_FABRIC_MANAGER);
    ls_test_fires(doc, "fabric_manager", "error", "isolate", "invalid value");
    json_decref(doc);
    doc = import_as("10.0.0.7: [INFO] Successfully configured all the available NVSwitches "
                    "to route GPU NVLink traffic.\n",
                    LS_FMT_FABRIC_MANAGER);
    ls_test_quiet(doc);
    json_decref(doc);
    /* prose that names it is no line of its */
    assert_int_equal(ls_fabric_manager_detect("Note: the Fabric Manager is not needed here\n"), 0);
    assert_int_equal(ls_fabric_manager_detect("I think the fabric manager crashed\n"), 0);
}

/* The NVLink5 start script's lines in a journal whose host and tag were cut. */
static void journal_tag_cut(void **state)
{
    (void)state;
    json_t *doc = import_as("Jul 20 16:15:36 edge-...:  Polling for at least one Infiniband "
                            "device before starting Fabric Manager...\n"
                            "Jul 20 16:15:36 edge-...:  Detected NVL5+ system\n"
                            "Jul 20 16:15:36 edge-...:  Kernel module \"ib_umad\" has not been "
                            "loaded, fabric manager cannot be started\n",
                            LS_FMT_FABRIC_MANAGER);
    ls_test_fires(doc, "fabric_manager", "error", "isolate", "ib_umad");
    assert_true(json_is_true(
        json_object_get(json_array_get(json_object_get(doc, "fabric_managers"), 0), "nvlink5")));
    json_decref(doc);
    doc = import_as("Jul 20 16:15:36 edge-...:  Polling for at least one Infiniband device "
                    "before starting Fabric Manager...\n"
                    "Jul 20 16:15:36 edge-...:  Detected NVL5+ system\n"
                    "Jul 20 16:15:41 edge-...: Started NVIDIA fabric manager service.\n",
                    LS_FMT_FABRIC_MANAGER);
    ls_test_quiet(doc);
    json_decref(doc);
    /* a journal line about something else */
    assert_int_equal(ls_fabric_manager_detect("Jul 20 16:15:36 edge-1: Started cron.\n"), 0);
    /* nor is the kernel's, naming the switches */
    assert_int_equal(ls_fabric_manager_detect("Jul 20 16:15:36 edge-1 kernel: nvidia-nvswitch0: "
                                              "NVSwitch training failed\n"),
                     0);
}

/* FM's version-mismatch message cut before the driver's version (its opening words are
   printed by no other message of FM's): the mismatch, its driver version unknown, the
   paste marked cut; the same words broken over two lines are not cut; a healthy start
   naming its own version stays quiet. */
static void mismatch_message_cut(void **state)
{
    (void)state;
    json_t *doc = import_as("Feb 24 09:28:18 h1 systemd[1]: Starting NVIDIA fabric manager "
                            "service...\n"
                            "Feb 24 09:28:28 h1 nv-fabricmanager[1507]: fabric manager NVIDIA GPU "
                            "driver interface version 535.183.01 don'",
                            LS_FMT_FABRIC_MANAGER);
    ls_test_fires(doc, "fabric_manager", "error", "isolate", "version not in the text");
    assert_string_equal(fm_str(doc, "version"), "535.183.01");
    const json_t *imp = json_array_get(json_object_get(doc, "imports"), 0);
    assert_true(json_is_true(json_object_get(imp, "incomplete")));
    json_decref(doc);
    doc = import_as("[ERROR] fabric manager NVIDIA GPU driver interface version 590.48.01 don't\n"
                    "match with driver version 580.126.09. Please update with matching NVIDIA "
                    "driver package.\n",
                    LS_FMT_FABRIC_MANAGER);
    ls_test_fires(doc, "fabric_manager", "error", "isolate", "590.48.01");
    imp = json_array_get(json_object_get(doc, "imports"), 0);
    assert_false(json_is_true(json_object_get(imp, "incomplete")));
    json_decref(doc);
    doc = import_as("Feb 24 09:28:28 h1 nv-fabricmanager[1507]: Fabric Manager version is : "
                    "535.183.01\n"
                    "Feb 24 09:28:29 h1 nv-fabricmanager[1507]: Successfully configured all the "
                    "available NVSwitches to route GPU NVLink traffic.\n",
                    LS_FMT_FABRIC_MANAGER);
    ls_test_quiet(doc);
    json_decref(doc);
}

/* systemctl status cut after its first line: systemd 250's glyph says the state. */
static void unit_glyphs(void **state)
{
    (void)state;
    json_t *doc = import_as("# systemctl status nvidia-fabricmanager.service\n"
                            "\u00d7 nvidia-fabricmanager.service - NVIDIA fabric manager s\n",
                            LS_FMT_FABRIC_MANAGER);
    ls_test_fires(doc, "fabric_manager", "error", "isolate", "failed state");
    assert_string_equal(fm_str(doc, "service"), "failed");
    json_decref(doc);
    doc = import_as("\u25cb nvidia-fabricmanager.service - NVIDIA fabric manager service\n",
                    LS_FMT_FABRIC_MANAGER);
    ls_test_fires(doc, "fabric_manager", "error", "isolate", "not running");
    assert_string_equal(fm_str(doc, "service"), "inactive");
    json_decref(doc);
    /* the black circle is active, activating or (before systemd 250) any state: unknown */
    doc = import_as("\u25cf nvidia-fabricmanager.service - NVIDIA fabric manager service\n",
                    LS_FMT_FABRIC_MANAGER);
    ls_test_quiet(doc);
    assert_string_equal(fm_str(doc, "service"), "");
    json_decref(doc);
}

static const char *const grep_c3 = "# nvidia-smi -q | grep -E -C3 \"ClusterUUID|CliqueId\"\n"
                                   "    Fabric\n"
                                   "        State                             : Completed\n"
                                   "        Status                            : Success\n"
                                   "        CliqueId                          : 2\n"
                                   "        ClusterUUID                       : "
                                   "dc6e40c4-d722-4357-9ba6-5291dd461278\n"
                                   "        Health\n"
                                   "            Summary                       : %s\n"
                                   "            Bandwidth                     : Full\n"
                                   "--\n";

/* nvidia-smi -q's Fabric section under a grep -C3: a registered GPU whose fabric health is
   Unhealthy is fabric_health (watch), not fabric_not_ready. */
static void fabric_health_under_grep(void **state)
{
    (void)state;
    char text[1024];
    snprintf(text, sizeof text, grep_c3, "Unhealthy");
    json_t *doc = import_as(text, LS_FMT_SMI_QUERY);
    ls_test_fires(doc, "fabric_health", "warning", "watch", "Unhealthy");
    ls_test_silent(doc, "fabric_not_ready");
    json_decref(doc);
    snprintf(text, sizeof text, grep_c3, "Healthy");
    doc = import_as(text, LS_FMT_SMI_QUERY);
    ls_test_quiet(doc);
    json_decref(doc);
}

/* DCGM's host engine log: refused in one line that says what its NvSwitch lines mean. */
static void dcgm_log_refused(void **state)
{
    (void)state;
    json_t *doc = ls_import_doc_new();
    char err[512];
    assert_true(
        ls_import_text(doc,
                       "2024-04-02 12:54:06.828 ERROR [1264985:1264994] [[NvSwitch]] "
                       "Not attached to NvSwitches. Aborting [/x/DcgmNvSwitchManager.cpp:"
                       "967] [DcgmNs::DcgmNvSwitchManager::ReadNvSwitchStatusAllSwitches]\n",
                       "hostengine.log", NULL, NULL, err, sizeof err) < 0);
    assert_non_null(strstr(err, "DCGM host engine log"));
    assert_non_null(strstr(err, "not that a switch or a GPU failed"));
    assert_null(strchr(err, '\n'));
    assert_null(json_object_get(doc, "fabric_managers"));
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(level_without_date),       cmocka_unit_test(host_tagged),
        cmocka_unit_test(journal_tag_cut),          cmocka_unit_test(unit_glyphs),
        cmocka_unit_test(fabric_health_under_grep), cmocka_unit_test(dcgm_log_refused),
        cmocka_unit_test(mismatch_message_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
