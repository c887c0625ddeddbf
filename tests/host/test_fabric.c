/* The NVSwitch fabric's texts: Fabric Manager's log, journal and systemctl lines
   (import/fabric_manager.c), the NVSwitch driver's SXid lines in a kernel log
   (import/kernel_log.c, model/sxid.c and its catalog data/sxid.tsv), nvidia-smi -q's Fabric
   section (import/smi_query_health.c), and their rules fabric_manager, sxid,
   fabric_not_ready and fabric_health (analyze/rules_fabric.c): each form read, each finding with
   its node action and a healthy twin that stays quiet. */
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
#include "import/kernel_log.h"
#include "model/doc.h"
#include "model/sxid.h"

static json_t *import_as(const char *text, enum ls_import_format want)
{
    return ls_test_import_text(text, (int)want);
}

static const json_t *first(const json_t *doc, const char *list)
{
    const json_t *o = json_array_get(json_object_get(doc, list), 0);
    assert_non_null(o);
    return o;
}

/* rule fires with severity and node_action; its message holds has (unless NULL). */
static void fm_log_healthy(void **state)
{
    (void)state;
    json_t *doc = import_as("[Mar 04 2024 10:01:02] [INFO] [tid 1834] Fabric Manager version "
                            "535.161.08 is "
                            "running with the following configuration options\n"
                            "[Mar 04 2024 10:01:09] [INFO] [tid 1834] Connected to 1 node.\n"
                            "[Mar 04 2024 10:01:11] [INFO] [tid 1834] Successfully configured all "
                            "the available "
                            "NVSwitches to route GPU NVLink traffic. NVLink Peer-to-Peer support "
                            "will be enabled "
                            "once the GPUs are successfully registered with the NVLink fabric.\n",
                            LS_FMT_FABRIC_MANAGER);
    const json_t *fm = first(doc, "fabric_managers");
    assert_string_equal(ls_json_str(fm, "version", ""), "535.161.08");
    assert_true(json_is_true(json_object_get(fm, "started")));
    assert_int_equal(json_array_size(json_object_get(fm, "failures")), 0);
    ls_test_quiet(doc);
    json_decref(doc);
}

static void fm_version_mismatch(void **state)
{
    (void)state;
    json_t *doc = import_as("Nov 05 13:55:26 node1 nv-fabricmanager[104230]: fabric manager NVIDIA "
                            "GPU driver interface version 550.127.05 doesn't match with driver "
                            "version 550.120. Please update with the matching NVIDIA driver "
                            "package.\n"
                            "Nov 05 13:55:26 node1 systemd[1]: nvidia-fabricmanager.service: "
                            "Control process exited, code=exited, status=1/FAILURE\n",
                            LS_FMT_FABRIC_MANAGER);
    const json_t *fm = first(doc, "fabric_managers");
    assert_string_equal(ls_json_str(fm, "version", ""), "550.127.05");
    assert_string_equal(ls_json_str(fm, "driver", ""), "550.120");
    assert_string_equal(ls_json_str(json_object_get(doc, "software"), "driver", ""), "550.120");
    assert_string_equal(json_string_value(json_array_get(json_object_get(fm, "hosts"), 0)),
                        "node1");
    ls_test_fires(doc, "fabric_manager", "error", "isolate", "550.127.05");
    json_decref(doc);
}

static void systemctl_states(void **state)
{
    (void)state;
    json_t *doc = import_as("● nvidia-fabricmanager.service - NVIDIA fabric manager service\n"
                            "     Loaded: loaded (/usr/lib/systemd/system/"
                            "nvidia-fabricmanager.service; enabled; preset: enabled)\n"
                            "     Active: active (running) since Fri 2025-05-16 15:10:10 UTC\n",
                            LS_FMT_FABRIC_MANAGER);
    assert_string_equal(ls_json_str(first(doc, "fabric_managers"), "service", ""), "running");
    ls_test_quiet(doc);
    json_decref(doc);
    doc = import_as("× nvidia-fabricmanager.service - NVIDIA fabric manager service\n"
                    "     Active: failed (Result: exit-code) since Fri 2026-01-30 11:58:43 UTC\n",
                    LS_FMT_FABRIC_MANAGER);
    assert_string_equal(ls_json_str(first(doc, "fabric_managers"), "service", ""), "failed");
    ls_test_fires(doc, "fabric_manager", "error", "isolate", "failed state");
    json_decref(doc);
    doc = import_as("○ nvidia-fabricmanager.service - NVIDIA fabric manager service\n"
                    "     Active: inactive (dead)\n",
                    LS_FMT_FABRIC_MANAGER);
    assert_string_equal(ls_json_str(first(doc, "fabric_managers"), "service", ""), "inactive");
    ls_test_fires(doc, "fabric_manager", "error", "isolate", "not running");
    json_decref(doc);
}

/* A failure followed by a start: it runs now (info, none). */
static void fm_recovered(void **state)
{
    (void)state;
    json_t *doc = import_as("Jan 05 14:40:01 h20 systemd[1]: nvidia-fabricmanager.service: Control "
                            "process exited, "
                            "code=exited, status=1/FAILURE\n"
                            "Jan 05 14:45:28 h20 nv-fabricmanager[1120]: Successfully configured "
                            "all the available "
                            "NVSwitches to route GPU NVLink traffic.\n"
                            "Jan 05 14:45:28 h20 systemd[1]: Started nvidia-fabricmanager.service "
                            "- NVIDIA fabric "
                            "manager service.\n",
                            LS_FMT_FABRIC_MANAGER);
    assert_true(json_is_true(json_object_get(first(doc, "fabric_managers"), "recovered")));
    ls_test_fires(doc, "fabric_manager", "info", "none", "started after");
    json_decref(doc);
    /* the restart's failure printed above the journal it came after (nvtrust#128): the
       start the journal shows was followed by a stop, so it does not run now */
    doc = import_as("# systemctl restart nvidia-fabricmanager.service\n"
                    "Job for nvidia-fabricmanager.service failed because the control process "
                    "exited with error code.\n"
                    "Jan 05 14:45:28 h20 systemd[1]: Started nvidia-fabricmanager.service - "
                    "NVIDIA fabric manager service.\n"
                    "Jan 05 15:32:16 h20 systemd[1]: Stopping nvidia-fabricmanager.service - "
                    "NVIDIA fabric manager service...\n",
                    LS_FMT_FABRIC_MANAGER);
    assert_null(json_object_get(first(doc, "fabric_managers"), "recovered"));
    ls_test_fires(doc, "fabric_manager", "error", "isolate", NULL);
    json_decref(doc);
}

/* Fabric Manager's own NVSwitch error lines carry their SXid, bus, physical id and port. */
static void fm_switch_errors(void **state)
{
    (void)state;
    json_t *doc = import_as("[Jul 21 2023 07:17:22] [ERROR] [tid 2109] detected NVSwitch "
                            "non-fatal error 12021 on NVSwitch pci bus id 00000000:88:00.0 "
                            "physical id 2 port 31\n",
                            LS_FMT_FABRIC_MANAGER);
    const json_t *e = json_array_get(json_object_get(first(doc, "fabric_managers"), "sxids"), 0);
    assert_non_null(e);
    assert_int_equal(ls_json_int(e, "sxid", 0), 12021);
    assert_false(json_is_true(json_object_get(e, "fatal")));
    assert_string_equal(ls_json_str(e, "bus_id", ""), "00000000:88:00.0");
    assert_int_equal(ls_json_int(e, "physical_id", -1), 2);
    assert_int_equal(ls_json_int(e, "port", -1), 31);
    ls_test_fires(doc, "sxid", "warning", "watch", "port 31");
    json_decref(doc);
    doc = import_as("[Jul 21 2023 07:17:22] [ERROR] [tid 2109] detected NVSwitch fatal error "
                    "12028 on NVSwitch pci bus id 00000000:88:00.0 physical id 2 port 31\n",
                    LS_FMT_FABRIC_MANAGER);
    ls_test_fires(doc, "sxid", "error", "reboot", "egress non-posted PRIV");
    json_decref(doc);
}

/* The NVSwitch driver's SXid lines: the headline read, its Severity / Data lines folded. */
static void kernel_sxid_lines(void **state)
{
    (void)state;
    json_t *doc = import_as("[   25.948274] nvidia-nvswitch1: SXid (PCI:0000:02:00.0): 22013, "
                            "Non-fatal, Link 00 "
                            "Minion Link DLREQ interrupt\n"
                            "[   25.950244] nvidia-nvswitch1: SXid (PCI:0000:02:00.0): 22013, "
                            "Severity 0 Engine "
                            "instance 00 Sub-engine instance 00\n"
                            "[   25.952303] nvidia-nvswitch1: SXid (PCI:0000:02:00.0): 22013, Data "
                            "{0x00000000, "
                            "0x00000000}\n"
                            "[   25.955391] nvidia-nvswitch1: SXid (PCI:0000:02:00.0): 22013, "
                            "Non-fatal, Link 01 "
                            "Minion Link DLREQ interrupt\n",
                            LS_FMT_KERNEL_LOG);
    const json_t *sx = json_object_get(first(doc, "kernel_logs"), "sxids");
    assert_int_equal(json_array_size(sx), 2);
    const json_t *e = json_array_get(sx, 0);
    assert_string_equal(ls_json_str(e, "switch", ""), "nvidia-nvswitch1");
    assert_string_equal(ls_json_str(e, "bus_id", ""), "00000000:02:00.0");
    assert_string_equal(ls_json_str(e, "since_boot", ""), "25.948274");
    assert_int_equal(ls_json_int(e, "link", -1), 0);
    assert_false(json_is_true(json_object_get(e, "fatal")));
    ls_test_fires(doc, "sxid", "warning", "watch", "2 times on links 0, 1");
    json_decref(doc);
    doc = import_as("Jan 25 10:34:54 node7 kernel: nvidia-nvswitch3: SXid (PCI:0000:c5:00.0): "
                    "20034, Fatal, Link 24 LTSSM Fault Up\n",
                    LS_FMT_KERNEL_LOG);
    e = json_array_get(json_object_get(first(doc, "kernel_logs"), "sxids"), 0);
    assert_string_equal(ls_json_str(e, "host", ""), "node7");
    assert_true(json_is_true(json_object_get(e, "fatal")));
    ls_test_fires(doc, "sxid", "error", "reboot", "node7 NVSwitch 00000000:c5:00.0");
    json_decref(doc);
}

/* SXid lines beside NVRM lines: both read; the NVRM log alone has no sxids key. */
static void kernel_sxid_with_xid(void **state)
{
    (void)state;
    json_t *doc = import_as("[ 90.1] NVRM: Xid (PCI:0000:3b:00): 74, pid=12, NVLink: fatal error\n"
                            "[ 90.2] nvidia-nvswitch0: SXid (PCI:0000:86:00.0): 12028, "
                            "Non-fatal, Link 33 egress non-posted PRIV error\n",
                            LS_FMT_KERNEL_LOG);
    const json_t *k = first(doc, "kernel_logs");
    assert_int_equal(json_array_size(json_object_get(k, "events")), 1);
    assert_int_equal(json_array_size(json_object_get(k, "sxids")), 1);
    ls_test_fires(doc, "sxid", "warning", "watch", "non-fatal"); /* the line's word wins */
    ls_test_fires(doc, "xid", "error", "reset", NULL);
    json_decref(doc);
    doc = import_as("[ 90.1] NVRM: Xid (PCI:0000:3b:00): 13, pid=12, Graphics Exception\n",
                    LS_FMT_KERNEL_LOG);
    assert_null(json_object_get(first(doc, "kernel_logs"), "sxids"));
    json_decref(doc);
}

static void sxid_catalog(void **state)
{
    (void)state;
    const char *meaning;
    enum ls_sxid_severity sev;
    enum ls_action a;
    assert_int_equal(ls_sxid_lookup(11012, &meaning, &sev, &a), 0);
    assert_int_equal(sev, LS_SXID_NON_FATAL);
    assert_int_equal(a, LS_ACT_WATCH);
    assert_int_equal(ls_sxid_lookup(12028, &meaning, &sev, &a), 0);
    assert_int_equal(sev, LS_SXID_FATAL);
    assert_int_equal(a, LS_ACT_REBOOT);
    assert_non_null(strstr(meaning, "PRIV"));
    assert_int_equal(ls_sxid_lookup(99999, &meaning, &sev, &a), -1);
    assert_null(meaning);
    assert_int_equal(a, LS_ACT_WATCH);
    /* the line's word decides over the catalog; a catalog row without a severity: watch */
    assert_int_equal(ls_sxid_action(12028, LS_SXID_NON_FATAL), LS_ACT_WATCH);
    assert_int_equal(ls_sxid_action(20034, LS_SXID_FATAL), LS_ACT_REBOOT);
    assert_int_equal(ls_sxid_action(20034, LS_SXID_UNKNOWN), LS_ACT_WATCH);
    assert_int_equal(ls_sxid_action(12028, LS_SXID_UNKNOWN), LS_ACT_REBOOT);
    ls_sxid_event_t e;
    assert_int_equal(ls_sxid_parse("nvidia-nvswitch2: SXid (PCI:0000:c4:00.0): 10002, Severity "
                                   "5 Engine instance 00 Sub-engine instance 00",
                                   &e),
                     0);
    assert_true(e.detail);
    assert_int_equal(e.severity, LS_SXID_UNKNOWN);
    assert_int_equal(ls_sxid_parse("nvidia-nvswitch2: SXid (PCI:0000:c4:00.0): , cut", &e), -1);
    assert_int_equal(ls_sxid_parse("NVRM: Xid (PCI:0000:3b:00): 79, x", &e), -1);
}

/* nvidia-smi -q's Fabric section under a GPU line. */
static json_t *smi_fabric(const char *state, const char *status, const char *summary)
{
    char text[2048];
    snprintf(text, sizeof text,
             "GPU 00000000:18:00.0\n"
             "    Product Name                          : NVIDIA H100 80GB HBM3\n"
             "    Fabric\n"
             "        State                             : %s\n"
             "        Status                            : %s\n"
             "        CliqueId                          : 0\n"
             "        ClusterUUID                       : 00000000-0000-0000-0000-000000000000\n"
             "        Health\n"
             "            Bandwidth                     : N/A\n"
             "            Summary                       : %s\n"
             "    Processes                             : None\n",
             state, status, summary);
    return import_as(text, LS_FMT_SMI_QUERY);
}

static void smi_fabric_section(void **state)
{
    (void)state;
    json_t *doc = smi_fabric("Completed", "Success", "N/A"); /* the healthy twin */
    const json_t *f = json_object_get(first(doc, "gpus"), "fabric");
    assert_string_equal(ls_json_str(f, "state", ""), "Completed");
    assert_string_equal(ls_json_str(f, "status", ""), "Success");
    assert_string_equal(ls_json_str(f, "clique_id", ""), "0");
    assert_string_equal(ls_json_str(json_object_get(f, "health"), "summary", ""), "N/A");
    ls_test_quiet(doc);
    json_decref(doc);
    doc = smi_fabric("In Progress", "N/A", "N/A");
    ls_test_fires(doc, "fabric_not_ready", "error", "isolate", "In Progress");
    json_decref(doc);
    doc = smi_fabric("Completed", "Insufficient Resources", "N/A");
    ls_test_fires(doc, "fabric_not_ready", "error", "isolate", "Insufficient Resources");
    json_decref(doc);
    doc = smi_fabric("Completed", "Success", "Unhealthy"); /* registered, its health not */
    ls_test_fires(doc, "fabric_health", "warning", "watch", "Unhealthy");
    json_t *found = ls_findings(doc);
    assert_null(ls_test_finding(found, "fabric_not_ready"));
    json_decref(found);
    json_decref(doc);
    /* an imported -q's "Limited Capacity" summary: the same rule (gaps15) */
    doc = smi_fabric("Completed", "Success", "Limited Capacity");
    ls_test_fires(doc, "fabric_health", "warning", "watch", "Limited Capacity");
    json_decref(doc);
    doc = smi_fabric("Completed", "Success", "Healthy");
    ls_test_quiet(doc);
    json_decref(doc);
    doc = smi_fabric("Not Supported", "N/A", "N/A"); /* no fabric to register with */
    ls_test_quiet(doc);
    json_decref(doc);
    doc = smi_fabric("N/A", "N/A", "N/A");
    ls_test_quiet(doc);
    json_decref(doc);
}

/* The Fabric section pasted alone at the margin (`nvidia-smi -q | grep -A4 Fabric`, no GPU
   line): read as that GPU's section, the same judgment as under a GPU line. */
static void smi_fabric_at_margin(void **state)
{
    (void)state;
    static const char *const forms[][3] = {{"Completed", "Insufficient Resources", "error"},
                                           {"Completed", "Success", NULL},
                                           {"Not Supported", "N/A", NULL}};
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "Fabric\n"
                 "    State                             : %s\n"
                 "    Status                            : %s\n"
                 "    CliqueId                          : 0\n"
                 "    ClusterUUID                       : 00000000-0000-0000-0000-000000000000\n",
                 forms[i][0], forms[i][1]);
        json_t *doc = import_as(text, LS_FMT_SMI_QUERY);
        const json_t *f = json_object_get(first(doc, "gpus"), "fabric");
        assert_string_equal(ls_json_str(f, "status", ""), forms[i][1]);
        if (forms[i][2])
            ls_test_fires(doc, "fabric_not_ready", forms[i][2], "isolate", forms[i][1]);
        else
            ls_test_silent(doc, "fabric_not_ready");
        json_decref(doc);
    }
}

/* Fabric Manager's journal lines inside a kernel log: both read. */
static void fm_in_kernel_log(void **state)
{
    (void)state;
    json_t *doc =
        import_as("Mar 29 15:38:59 node3 kernel: NVRM: Xid (PCI:0000:3b:00): 13, pid=9, Graphics "
                  "Exception\n"
                  "Mar 29 15:39:02 node3 nv-fabricmanager[812]: fabric manager NVIDIA GPU driver "
                  "interface version 550.90.07 don't match with driver version 550.107.02. Please "
                  "update with matching NVIDIA driver package.\n",
                  LS_FMT_KERNEL_LOG);
    assert_int_equal(json_array_size(json_object_get(first(doc, "kernel_logs"), "events")), 1);
    assert_string_equal(ls_json_str(first(doc, "fabric_managers"), "version", ""), "550.90.07");
    ls_test_fires(doc, "fabric_manager", "error", "isolate", "node3");
    json_decref(doc);
}

/* A failed Fabric Manager beside GPUs the document names: an SXM part keeps the node's
   verdict, PCIe cards (no NVSwitch to manage) make it none; a name that only contains a
   card's word ("A100" holds "A10") is not one. */
static void fm_beside_gpus(void **state)
{
    (void)state;
    static const char *const names[][2] = {{"NVIDIA A100-SXM4-80GB", "isolate"},
                                           {"NVIDIA H100 80GB HBM3", "isolate"},
                                           {"NVIDIA A10", "none"},
                                           {"NVIDIA GeForce RTX 4090", "none"},
                                           {"NVIDIA H100 NVL", "none"},
                                           {"NVIDIA GB200", "none"}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        json_t *doc = import_as("Unit nvidia-fabricmanager.service could not be found.\n",
                                LS_FMT_FABRIC_MANAGER);
        json_array_append_new(ls_json_array_at(doc, "gpus"),
                              json_pack("{s:i, s:s}", "index", 0, "name", names[i][0]));
        ls_test_fires(doc, "fabric_manager", strcmp(names[i][1], "none") ? "error" : "info",
                      names[i][1], NULL);
        json_decref(doc);
    }
}

/* NV_WARN_NOTHING_TO_DO: watch; the NVLink Subnet Manager named only where the start script
   did not say the system is before NVLink 5. */
static void fm_no_nvswitch(void **state)
{
    (void)state;
    json_t *doc = import_as("Sep 18 03:19:01 h nvidia-fabricmanager-start.sh[4753]: Detected "
                            "Pre-NVL5 system\n"
                            "Sep 18 03:19:01 h nvidia-fabricmanager-start.sh[4756]: request to "
                            "query NVSwitch device information from NVSwitch driver failed with "
                            "error:WARNING Nothing to do [NV_WARN_NOTHING_TO_DO]\n",
                            LS_FMT_FABRIC_MANAGER);
    assert_true(json_is_false(json_object_get(first(doc, "fabric_managers"), "nvlink5")));
    ls_test_fires(doc, "fabric_manager", "warning", "watch", "not needed");
    json_t *found = ls_findings(doc);
    assert_null(
        strstr(ls_json_str(ls_test_finding(found, "fabric_manager"), "message", ""), "nvlsm"));
    json_decref(found);
    json_decref(doc);
    doc = import_as("h nv-fabricmanager[4177]: request to query NVSwitch device information from "
                    "NVSwitch driver failed with error:WARNING Nothing to do "
                    "[NV_WARN_NOTHING_TO_DO]\n",
                    LS_FMT_FABRIC_MANAGER);
    ls_test_fires(doc, "fabric_manager", "warning", "watch", "nvlsm");
    json_decref(doc);
}

/* Fabric Manager's multicast team errors (NVLS) after a clean start: reboot; another ERROR
   line: watch. */
static void fm_multicast(void **state)
{
    (void)state;
    json_t *doc = import_as("[Oct 31 2023 20:45:27] [INFO] [tid 5] Successfully configured all "
                            "the available NVSwitches to route GPU NVLink traffic.\n"
                            "[Oct 31 2023 21:04:55] [ERROR] [tid 7] failed to find the GPU handle "
                            "1276 in the multicast team request setup 4285.\n",
                            LS_FMT_FABRIC_MANAGER);
    ls_test_fires(doc, "fabric_manager", "error", "reboot", "NVLS");
    json_decref(doc);
    doc = import_as("[Oct 31 2023 21:04:55] [ERROR] [tid 7] something else went wrong\n",
                    LS_FMT_FABRIC_MANAGER);
    ls_test_fires(doc, "fabric_manager", "warning", "watch", "logged an error");
    json_decref(doc);
}

/* systemctl status nvidia-fabricmanager and nvidia-smi -q's Fabric section in one paste: both
   read (the service runs, the GPU is still not registered). */
/* The lines another reader gets of a mixed paste: a last line without its '\n' is kept
   with one (the copy's room counts it: fuzz_import found the byte it overran by). */
static void fm_others_last_line(void **state)
{
    (void)state;
    char *rest = ls_fabric_manager_others("[INFO] Fabric Manager started\nabc");
    assert_non_null(rest);
    assert_string_equal(rest, "abc\n");
    free(rest);
    rest = ls_fabric_manager_others("x");
    assert_non_null(rest);
    assert_string_equal(rest, "x\n");
    free(rest);
}

static void fm_with_smi_fabric(void **state)
{
    (void)state;
    json_t *doc = import_as("$ systemctl status nvidia-fabricmanager\n"
                            "\u25cf nvidia-fabricmanager.service - NVIDIA fabric manager service\n"
                            "     Loaded: loaded "
                            "(/usr/lib/systemd/system/nvidia-fabricmanager.service; enabled)\n"
                            "     Active: active (running) since Fri 2025-05-16 15:10:10 UTC; "
                            "13min ago\n"
                            "   Main PID: 29850 (nv-fabricmanage)\n"
                            "     CGroup: /system.slice/nvidia-fabricmanager.service\n"
                            "             \u2514\u250029850 /usr/bin/nv-fabricmanager -c "
                            "/etc/fabricmanager.cfg\n"
                            "$ nvidia-smi -q | grep -A3 Fabric\n"
                            "    Fabric\n"
                            "        State                             : In Progress\n"
                            "        Status                            : N/A\n"
                            "        CliqueId                          : N/A\n",
                            LS_FMT_FABRIC_MANAGER);
    assert_string_equal(ls_json_str(first(doc, "fabric_managers"), "service", ""), "running");
    assert_string_equal(ls_json_str(json_object_get(first(doc, "gpus"), "fabric"), "state", ""),
                        "In Progress");
    ls_test_fires(doc, "fabric_not_ready", "error", "isolate", "In Progress");
    json_t *found = ls_findings(doc);
    assert_null(ls_test_finding(found, "fabric_manager"));
    json_decref(found);
    json_decref(doc);
}

/* Newer systemd's wording and FM's own journal lines without a level. */
static void fm_journal_variants(void **state)
{
    (void)state;
    json_t *doc = import_as("Feb 02 10:00:01 n1 systemd[1]: Failed to start "
                            "nvidia-fabricmanager.service - NVIDIA fabric manager service.\n",
                            LS_FMT_FABRIC_MANAGER);
    ls_test_fires(doc, "fabric_manager", "error", "isolate", "failed to start");
    json_decref(doc);
    doc = import_as("     Active: activating (auto-restart) (Result: exit-code) since Mon\n"
                    "   Main PID: 9 (code=exited, status=1/FAILURE)\n"
                    "nvidia-fabricmanager.service: Main process exited, code=exited, "
                    "status=1/FAILURE\n",
                    LS_FMT_FABRIC_MANAGER);
    ls_test_fires(doc, "fabric_manager", "error", "isolate", "failed state");
    json_decref(doc);
    doc = import_as("Feb 02 10:00:01 n1 nv-fabricmanager[812]: Fabric Manager failed to open "
                    "the NVSwitch device nodes\n",
                    LS_FMT_FABRIC_MANAGER);
    ls_test_fires(doc, "fabric_manager", "warning", "watch", "logged an error");
    json_decref(doc);
    doc = import_as("Feb 02 10:00:01 n1 nv-fabricmanager[812]: Connected to 1 node.\n",
                    LS_FMT_FABRIC_MANAGER);
    ls_test_quiet(doc);
    json_decref(doc);
}

static void detect(void **state)
{
    (void)state;
    assert_int_equal(ls_fabric_manager_detect("[May 16 2025 15:10:21] [INFO] [tid 30042] x\n"), 1);
    assert_int_equal(ls_fabric_manager_detect("Unit nvidia-fabricmanager.service could not be "
                                              "found.\n"),
                     1);
    assert_int_equal(ls_fabric_manager_detect("[INFO] fabric\n[tid 3] x\n"), 0);
    assert_int_equal(ls_fabric_manager_detect("CUDA error 802: is nvidia-fabricmanager running?\n"),
                     0);
    assert_int_equal(ls_kernel_log_detect("[ 1.0] nvidia-nvswitch0: SXid (PCI:0000:86:00.0): "
                                          "12028, Non-fatal, Link 33\n"),
                     1);
    assert_int_equal(ls_kernel_log_detect("[ 1.0] nvidia-nvswitch0: using MSI\n"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fm_log_healthy),
        cmocka_unit_test(fm_version_mismatch),
        cmocka_unit_test(systemctl_states),
        cmocka_unit_test(fm_recovered),
        cmocka_unit_test(fm_switch_errors),
        cmocka_unit_test(kernel_sxid_lines),
        cmocka_unit_test(kernel_sxid_with_xid),
        cmocka_unit_test(sxid_catalog),
        cmocka_unit_test(smi_fabric_section),
        cmocka_unit_test(smi_fabric_at_margin),
        cmocka_unit_test(detect),
        cmocka_unit_test(fm_in_kernel_log),
        cmocka_unit_test(fm_beside_gpus),
        cmocka_unit_test(fm_no_nvswitch),
        cmocka_unit_test(fm_multicast),
        cmocka_unit_test(fm_with_smi_fabric),
        cmocka_unit_test(fm_others_last_line),
        cmocka_unit_test(fm_journal_variants),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
