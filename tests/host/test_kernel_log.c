/* A pasted kernel log's NVRM lines (import/kernel_log.c) and its findings
   (analyze/rules_kernel.c): each layout's prefix read into time, uptime and host, the
   driver's messages of several lines joined, each finding with a twin that stays quiet,
   and the real pastes of tests/fixtures/real/kernel-* (README.md there names each). */
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
#include "import/import.h"
#include "import/kernel_log.h"
#include "model/doc.h"
#include "model/xid.h"

static json_t *import_str(const char *text)
{
    return ls_test_import_text(text, LS_FMT_KERNEL_LOG);
}

static const json_t *klog(const json_t *doc)
{
    const json_t *k = json_array_get(json_object_get(doc, "kernel_logs"), 0);
    assert_non_null(k);
    return k;
}

static const json_t *event(const json_t *doc, size_t i)
{
    const json_t *e = json_array_get(json_object_get(klog(doc), "events"), i);
    assert_non_null(e);
    return e;
}

/* The findings of doc; the one of rule (or NULL) in *f. */
static json_t *findings_of(const json_t *doc, const char *rule, const json_t **f)
{
    json_t *found = ls_findings(doc);
    *f = ls_test_finding(found, rule);
    return found;
}

/* rule fires with severity and node_action. */
static void fires(const json_t *doc, const char *rule, const char *sev, const char *action)
{
    ls_test_fires(doc, rule, sev, action, NULL);
}

static void absent(const json_t *doc, const char *rule)
{
    const json_t *f;
    json_t *found = findings_of(doc, rule, &f);
    if (f)
        fail_msg("%s fired: %s", rule, ls_json_str(f, "message", ""));
    json_decref(found);
}

static void dmesg_prefix(void **state)
{
    (void)state;
    json_t *doc = import_str("[  903.609564] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, "
                             "name=python, GPU has fallen off the bus.\n");
    const json_t *e = event(doc, 0);
    assert_string_equal(ls_json_str(e, "since_boot", ""), "903.609564");
    assert_null(json_object_get(e, "time"));
    assert_null(json_object_get(e, "host"));
    assert_string_equal(ls_json_str(e, "bus_id", ""), "00000000:3b:00.0");
    assert_int_equal(ls_json_int(e, "xid", 0), 79);
    assert_int_equal(ls_json_int(e, "pid", 0), 1234);
    assert_string_equal(ls_json_str(e, "process", ""), "python");
    assert_string_equal(ls_json_str(e, "text", ""), "GPU has fallen off the bus.");
    fires(doc, "xid", "error", "reboot");
    json_decref(doc);
}

static void dmesg_ctime_prefix(void **state)
{
    (void)state;
    json_t *doc = import_str("[Mon Jun  5 10:12:01 2023] NVRM: Xid (PCI:0000:3b:00): 79, "
                             "pid=1234, GPU has fallen off the bus.\n");
    const json_t *e = event(doc, 0);
    assert_string_equal(ls_json_str(e, "time", ""), "Mon Jun  5 10:12:01 2023");
    assert_null(json_object_get(e, "since_boot"));
    assert_null(json_object_get(e, "process"));
    json_decref(doc);
}

static void syslog_prefix(void **state)
{
    (void)state;
    json_t *doc = import_str("Jun  5 10:12:01 node12 kernel: [123.456] NVRM: Xid "
                             "(PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off "
                             "the bus.\n");
    const json_t *e = event(doc, 0);
    assert_string_equal(ls_json_str(e, "time", ""), "Jun  5 10:12:01");
    assert_string_equal(ls_json_str(e, "host", ""), "node12");
    assert_string_equal(ls_json_str(e, "since_boot", ""), "123.456");
    assert_string_equal(json_string_value(json_array_get(json_object_get(klog(doc), "hosts"), 0)),
                        "node12");
    json_decref(doc);
    doc = import_str("2023-06-05T10:12:01+0000 node12 kernel: NVRM: Xid (PCI:0000:3b:00): 48, "
                     "pid=1, DBE (double bit error)\n"); /* journalctl -o short-iso */
    e = event(doc, 0);
    assert_string_equal(ls_json_str(e, "time", ""), "2023-06-05T10:12:01+0000");
    assert_string_equal(ls_json_str(e, "host", ""), "node12");
    json_decref(doc);
}

static void journal_prefix(void **state)
{
    (void)state; /* journalctl -k --no-hostname: no host; an old driver's bus without PCI: */
    json_t *doc = import_str("Mar 29 15:38:59 kernel: NVRM: Xid (0000:01:00): 13, Graphics "
                             "Exception\n"
                             "NVRM: Xid (PCI:0000:02:00 GPU-I:05 GPU-CI:01): 31, pid='<unknown>', "
                             "name=<unknown>, MMU Fault\n"
                             "kernel: NVRM: Xid (PCI:...): 145, RLW_RXPIPE Nonfatal\n");
    const json_t *e = event(doc, 0);
    assert_string_equal(ls_json_str(e, "time", ""), "Mar 29 15:38:59");
    assert_null(json_object_get(e, "host"));
    assert_string_equal(ls_json_str(e, "bus_id", ""), "00000000:01:00.0");
    e = event(doc, 1); /* a MIG instance: the bus alone, the instance apart; unknown pid */
    assert_string_equal(ls_json_str(e, "bus_id", ""), "00000000:02:00.0");
    assert_string_equal(ls_json_str(e, "mig", ""), "GPU-I:05 GPU-CI:01");
    assert_null(json_object_get(e, "pid"));
    assert_null(json_object_get(e, "process"));
    assert_string_equal(ls_json_str(e, "text", ""), "MMU Fault");
    e = event(doc, 2); /* a bus a post masked: unknown, not guessed */
    assert_null(json_object_get(e, "bus_id"));
    assert_int_equal(json_array_size(json_object_get(klog(doc), "gpus")), 2);
    json_decref(doc);
}

/* The API mismatch in three layouts: one message, the two versions, the module's the
   driver's. */
static void mismatch_layouts(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "Jun 30 11:07:05 gpu-0 kernel: NVRM: API mismatch: the client has the version "
        "535.54.03, but#012NVRM: this kernel module has the version 530.30.02.  Please#012NVRM: "
        "make sure that this kernel module and all NVIDIA driver#012NVRM: components have the "
        "same version.\n",
        "[ 12.01] NVRM: API mismatch: the client has the version 535.54.03, but\n"
        "         NVRM: this kernel module has the version 530.30.02.  Please\n"
        "         NVRM: make sure that this kernel module and all NVIDIA driver\n"
        "         NVRM: components have the same version.\n",
        "[ 12.01] NVRM: API mismatch: the client 'kwin' (pid 1005)\n"
        "[ 12.01] NVRM: has the version 535.54.03, but this kernel module has\n"
        "[ 12.01] NVRM: the version 530.30.02.  Please make sure that this\n"
        "[ 12.01] NVRM: kernel module and all NVIDIA driver components\n"
        "[ 12.01] NVRM: have the same version.\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        json_t *doc = import_str(texts[i]);
        assert_int_equal(ls_json_int(klog(doc), "nvrm_messages", 0), 1);
        const json_t *f = json_array_get(json_object_get(klog(doc), "failures"), 0);
        assert_string_equal(ls_json_str(f, "kind", ""), "api_mismatch");
        assert_string_equal(ls_json_str(f, "client_version", ""), "535.54.03");
        assert_string_equal(ls_json_str(f, "module_version", ""), "530.30.02");
        assert_string_equal(ls_json_str(json_object_get(doc, "software"), "driver", ""),
                            "530.30.02");
        fires(doc, "driver_mismatch", "error", "reboot");
        json_decref(doc);
    }
}

/* The healthy twin of every finding: the driver's load lines alone import quietly and
   give the driver's version. */
static void load_lines_quiet(void **state)
{
    (void)state;
    json_t *doc = import_str(
        "[    6.252567] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 "
        "01:15:15 UTC 2023\n"
        "[    6.860482] NVRM: GPU at 0000:01:00.0 has software scheduler ENABLED with policy "
        "BEST_EFFORT.\n");
    assert_string_equal(ls_json_str(json_object_get(doc, "software"), "driver", ""), "535.104.05");
    assert_int_equal(json_array_size(json_object_get(klog(doc), "events")), 0);
    assert_int_equal(json_array_size(json_object_get(klog(doc), "failures")), 0);
    assert_null(json_object_get(klog(doc), "incomplete"));
    json_t *found = ls_findings(doc);
    assert_int_equal(json_array_size(found), 0);
    json_decref(found);
    json_decref(doc);
}

static void no_nvrm_refused(void **state)
{
    (void)state;
    assert_int_equal(ls_kernel_log_detect("[ 14.52] nvidia: loading out-of-tree module taints "
                                          "kernel.\n[ 14.76] nvidia-modeset: Loading NVIDIA "
                                          "Kernel Mode Setting Driver\n"),
                     0);
    assert_int_equal(ls_kernel_log_detect("NVRM version: NVIDIA UNIX x86_64 Kernel Module\n"), 0);
    assert_int_equal(ls_kernel_log_detect("x NVRM: y\n"), 1);
    assert_int_equal(ls_kernel_log_detect("4,1290,8420102,-;NVRM: Xid (PCI:0000:3b:00): 79, x\n"),
                     1); /* /dev/kmsg */
    assert_int_equal(ls_kernel_log_detect("xNVRM: y\n"), 0);
}

/* Application bucket: Xid 13/31/43 stay info with node action none; Xid 48 on the same
   bus is an error asking for a reset. */
static void app_bucket_quiet(void **state)
{
    (void)state;
    json_t *doc = import_str("[1.0] NVRM: Xid (PCI:0000:cb:00): 13, pid=7, name=a, Graphics SM "
                             "Warp Exception\n"
                             "[2.0] NVRM: Xid (PCI:0000:cb:00): 31, pid=8, name=b, MMU Fault\n"
                             "[3.0] NVRM: Xid (PCI:0000:cb:00): 43, pid=9, Ch 00000008\n");
    ls_test_quiet(doc);
    fires(doc, "xid", "info", "none");
    json_decref(doc);
    doc = import_str("[1.0] NVRM: Xid (PCI:0000:cb:00): 48, pid=7, DBE (double bit error) ECC "
                     "error\n");
    fires(doc, "xid", "error", "reset");
    json_decref(doc);
}

/* Xid 154 takes the action its text names; Xid 45 alone is info, caused by an NVLink
   error it takes that one's reset. An XID not in the catalog is watched. */
static void xid_actions(void **state)
{
    (void)state;
    json_t *doc = import_str("NVRM: Xid (PCI:0000:01:00): 154, GPU recovery action changed from "
                             "0x0 (None) to 0x2 (Node Reboot Required)\n");
    fires(doc, "xid", "error", "reboot");
    json_decref(doc);
    doc = import_str("NVRM: Xid (PCI:0000:01:00): 45, pid=3, name=p, Ch 00000001\n");
    ls_test_quiet(doc);
    json_decref(doc);
    doc = import_str("NVRM: Xid (PCI:0000:01:00): 45, pid=3, name=p, Ch 00000001 caused by "
                     "previous Xid 149\n");
    assert_int_equal(ls_json_int(event(doc, 0), "cause_xid", 0), 149);
    fires(doc, "xid", "error", "reset");
    json_decref(doc);
    doc = import_str("NVRM: Xid (PCI:0000:01:00): 137, PRIV Error\n");
    fires(doc, "xid", "warning", "watch");
    json_decref(doc);
}

/* One finding per bus and XID with its count; the document's GPU index when an import
   beside it gave the bus one, in any printed form. */
static void counted_and_indexed(void **state)
{
    (void)state;
    json_t *doc = ls_import_doc_new();
    json_array_append_new(ls_json_array_at(doc, "gpus"),
                          json_pack("{s:i, s:s}", "index", 3, "pci_bus_id", "00000000:3B:00.0"));
    char err[256];
    const char *text = "[1.0] NVRM: Xid (PCI:0000:3b:00): 74, pid=1, NVLink: fatal error\n"
                       "[2.0] NVRM: Xid (PCI:0000:3b:00): 74, pid=2, NVLink: fatal error\n"
                       "[3.0] NVRM: Xid (PCI:0000:5e:00): 74, pid=2, NVLink: fatal error\n";
    assert_true(ls_import_text(doc, text, "dmesg.txt", NULL, NULL, err, sizeof err) >= 0);
    json_t *found = ls_findings(doc);
    int n = 0;
    size_t i;
    const json_t *f;
    json_array_foreach(found, i, f) {
        if (strcmp(ls_json_str(f, "rule", ""), "xid"))
            continue;
        n++;
        const char *msg = ls_json_str(f, "message", "");
        if (strstr(msg, "3b:00")) {
            assert_non_null(strstr(msg, "GPU3"));
            assert_non_null(strstr(msg, "2 times"));
            assert_int_equal(json_integer_value(json_array_get(json_object_get(f, "gpus"), 0)), 3);
        } else {
            assert_non_null(strstr(msg, "PCI 00000000:5e:00.0"));
            assert_null(json_object_get(f, "gpus"));
        }
    }
    assert_int_equal(n, 2);
    json_decref(found);
    json_decref(doc);
}

/* The driver's failure lines and their twins. */
static void off_bus(void **state)
{
    (void)state;
    json_t *doc = import_str("[ 1843.30] NVRM: The NVIDIA GPU 0000:b3:00.0\n"
                             "           NVRM: (PCI ID: 10de:26b5) installed in this system has\n"
                             "           NVRM: fallen off the bus and is not responding to "
                             "commands.\n"
                             "[ 1843.43] NVRM: The NVIDIA probe routine failed for 1 device(s).\n");
    assert_int_equal(ls_json_int(klog(doc), "nvrm_messages", 0), 2);
    fires(doc, "gpu_off_bus", "error", "reboot");
    absent(doc, "driver_init_failed"); /* the probe failing is the same event */
    json_decref(doc);
    /* with its Xid 79: one finding, the xid */
    doc = import_str("Okt 06 17:59:27 balrog kernel: NVRM: Xid (PCI:0000:01:00): 79, pid=1122, "
                     "GPU has fallen off the bus.\n"
                     "Okt 06 17:59:27 balrog kernel: NVRM: GPU 0000:01:00.0: GPU has fallen off "
                     "the bus.\n");
    assert_string_equal(ls_json_str(event(doc, 0), "host", ""), "balrog");
    assert_int_equal(json_array_size(json_object_get(klog(doc), "gpus")), 1); /* one bus */
    fires(doc, "xid", "error", "reboot");
    absent(doc, "gpu_off_bus");
    json_decref(doc);
}

static void init_failed(void **state)
{
    (void)state;
    json_t *doc = import_str(
        "[  903.60] NVRM: RmInitAdapter: Cannot initialize GSP firmware RM\n"
        "[  903.61] NVRM: GPU 0000:98:00.0: RmInitAdapter failed! (0x62:0x65:1792)\n"
        "[  903.62] NVRM: GPU 0000:98:00.0: rm_init_adapter failed, device minor number 0\n");
    fires(doc, "driver_init_failed", "error", "reboot");
    const json_t *f;
    json_t *found = findings_of(doc, "driver_init_failed", &f);
    assert_non_null(strstr(ls_json_str(f, "message", ""), "PCI 00000000:98:00.0"));
    assert_non_null(strstr(ls_json_str(f, "message", ""), "Cannot initialize GSP firmware"));
    assert_int_equal(json_array_size(found), 1); /* the bus-less line folded in */
    json_decref(found);
    json_decref(doc);
    doc = import_str("[1.0] NVRM: The NVIDIA probe routine was not called for 3 device(s).\n");
    fires(doc, "driver_init_failed", "error", "reboot");
    json_decref(doc);
    /* an Xid message that stops before its number: cut, no event (the driver prints the
       number on the same line) */
    doc = import_str("[ 32.84] NVRM: nvAssertFailedNoLog: Assertion failed: 0 @ kernel_gsp.c:1476\n"
                     "[ 33.92] NVRM: Xid (PC\n");
    assert_non_null(strstr(ls_json_str(klog(doc), "incomplete", ""), "before its number"));
    assert_int_equal(json_array_size(json_object_get(klog(doc), "events")), 0);
    json_decref(doc);
}

/* The GSP's boot failing at one of its steps (the driver's kgspBootstrap / _kgspBootGspRm
   lines) is a GPU the driver could not set up, as "RmInitAdapter failed" says; the same
   lines in the RmMsg prefix's form "NVRM FUNCTION: ..." (the debug printer's prefix, no
   colon after NVRM) are the driver's lines too, and a last line cut inside that prefix
   is a cut paste. /proc's "NVRM version: ..." stays no driver message. */
static void gsp_boot_failed(void **state)
{
    (void)state;
    static const char *const steps[] =
        {"Timeout waiting for GSP target mask release. This error may be caused by several "
         "reasons.",
         "Timeout waiting for lockdown release. It's also possible that bootrom may have failed.",
         "GSP-FMC reported an error while attempting to boot GSP: 0xb",
         "unexpected WPR2 already up, cannot proceed with booting GSP"};
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        char text[512];
        snprintf(text, sizeof text, "[ 7.1] NVRM: GPU0 kgspBootstrap_GH100: %s\n", steps[i]);
        json_t *doc = import_str(text);
        fires(doc, "driver_init_failed", "error", "reboot");
        absent(doc, "gsp_timeout");
        json_decref(doc);
        snprintf(text, sizeof text,
                 "[ 7.1] NVRM _threadNodeCheckTimeout: currentTime: 3d08\n"
                 "[ 7.2] NVRM kgspBootstrap_GH100: %s\n",
                 steps[i]);
        doc = import_str(text);
        assert_int_equal(ls_json_int(klog(doc), "nvrm_messages", 0), 2);
        fires(doc, "driver_init_failed", "error", "reboot");
        assert_null(json_object_get(klog(doc), "incomplete"));
        json_decref(doc);
    }
    json_t *doc = import_str("[ 7.1] NVRM kgspBootstrap_GH100: Timeout waiting for GSP target "
                             "mask release.\n"
                             "[ 7.2] NVRM kfspDumpDebugState_GH100: FSP microcode v4.76\n"
                             "[ 7.3] NVRM k");
    assert_non_null(strstr(ls_json_str(klog(doc), "incomplete", ""), "cut before its message"));
    json_decref(doc);
    assert_int_equal(ls_kernel_log_detect("NVRM version: NVIDIA UNIX x86_64 Kernel Module  "
                                          "535.104.05  Sat Aug 19 01:15:15 UTC 2023\n"),
                     0);
    assert_int_equal(ls_kernel_log_detect("[ 7.1] NVRMfoo: x\n[ 7.2] NVRM 12: x\n"), 0);
}

/* nvidia-smi's loop notice "GPU <bus>: Detected Critical Xid Error" (NVML's critical-Xid
   event, no number): an Xid event of that GPU whose number is unknown, watched, never a
   drain on its own; beside the kernel's NVRM: Xid line of the same GPU both are kept; a
   sentence quoting the words without the GPU's bus id is no notice. */
static void smi_xid_notice(void **state)
{
    (void)state;
    json_t *doc = import_str("GPU 00000000:04:00.0: Detected Critical Xid Error\n"
                             "Traceback (most recent call last):\n");
    assert_true(json_is_true(json_object_get(event(doc, 0), "xid_unknown")));
    assert_null(json_object_get(event(doc, 0), "xid"));
    assert_string_equal(ls_json_str(event(doc, 0), "bus_id", ""), "00000000:04:00.0");
    fires(doc, "xid", "warning", "watch");
    const json_t *f;
    json_t *found = findings_of(doc, "xid", &f);
    assert_non_null(strstr(ls_json_str(f, "message", ""), "collect the kernel log"));
    json_decref(found);
    json_decref(doc);
    doc = import_str("[ 10.0] NVRM: Xid (PCI:0000:04:00): 79, pid=1, name=python, GPU has fallen "
                     "off the bus.\n"
                     "GPU 00000000:04:00.0: Detected Critical Xid Error\n");
    assert_int_equal(json_array_size(json_object_get(klog(doc), "events")), 2);
    fires(doc, "xid", "error", "reboot"); /* the numbered one decides */
    json_decref(doc);
    assert_int_equal(ls_kernel_log_detect("nvidia-smi said Detected Critical Xid Error\n"), 0);
    assert_int_equal(ls_kernel_log_detect("MyGPU 0000:04:00.0: Detected Critical Xid Error\n"), 0);
}

static void gsp_timeout(void **state)
{
    (void)state;
    json_t *doc = import_str("[ 24.30] NVRM: GPU6 _kgspIsHeartbeatTimedOut: Heartbeat timed "
                             "out, currentTimeMs 8 heartbeat 1 diff 6070 timeout 5200\n");
    fires(doc, "gsp_timeout", "error", "reset");
    const json_t *f;
    json_t *found = findings_of(doc, "gsp_timeout", &f);
    assert_non_null(strstr(ls_json_str(f, "message", ""), "GPU6"));
    json_decref(found);
    json_decref(doc);
    /* the same message every few seconds is one record per GPU, counted */
    doc = import_str("[ 24.30] NVRM: GPU6 _kgspIsHeartbeatTimedOut: Heartbeat timed out, "
                     "currentTimeMs 8 diff 6070\n"
                     "[ 29.30] NVRM: GPU6 _kgspIsHeartbeatTimedOut: Heartbeat timed out, "
                     "currentTimeMs 13 diff 11070\n"
                     "[ 29.31] NVRM: GPU7 _kgspIsHeartbeatTimedOut: Heartbeat timed out, "
                     "currentTimeMs 13 diff 11070\n");
    const json_t *fails = json_object_get(klog(doc), "failures");
    assert_int_equal(json_array_size(fails), 2);
    assert_int_equal(ls_json_int(json_array_get(fails, 0), "count", 0), 2);
    found = ls_findings(doc);
    assert_int_equal(json_array_size(found), 2);
    json_decref(found);
    json_decref(doc);
}

/* A line cut mid-way: what is intact kept, the paste incomplete; whole, complete. */
/* "GPU at PCI:...: GPU-uuid" and the serial the driver prints under it (an empty serial
   line is no serial). */
static void uuid_and_serial(void **state)
{
    (void)state;
    json_t *doc = import_str("[1.0] NVRM: GPU at PCI:0000:db:00: GPU-4a28de72\n"
                             "[1.0] NVRM: GPU Board Serial Number: 1564720004631\n"
                             "[1.1] NVRM: Xid (PCI:0000:db:00): 31, pid=1, Ch 00000008\n"
                             "[2.0] NVRM: GPU at PCI:0000:3d:00: GPU-77\n"
                             "[2.0] NVRM: GPU Board Serial Number:\n");
    const json_t *g = json_array_get(json_object_get(klog(doc), "gpus"), 0);
    assert_string_equal(ls_json_str(g, "bus_id", ""), "00000000:db:00.0");
    assert_string_equal(ls_json_str(g, "uuid", ""), "GPU-4a28de72");
    assert_string_equal(ls_json_str(g, "serial", ""), "1564720004631");
    g = json_array_get(json_object_get(klog(doc), "gpus"), 1);
    assert_null(json_object_get(g, "serial"));
    const json_t *f; /* the finding names the GPU as the driver did, for its ticket */
    json_t *found = findings_of(doc, "xid", &f);
    assert_non_null(strstr(ls_json_str(f, "message", ""), "(GPU-4a28de72, serial 1564720004631)"));
    json_decref(found);
    json_decref(doc);
}

static void cut_last_line(void **state)
{
    (void)state;
    const char *whole = "[1.0] NVRM: Xid (PCI:0000:db:00): 31, pid=13641, Ch 00000008, MMU\n"
                        "[2.0] NVRM: Xid (PCI:0000:db:00): 31, pid=14323, Ch 00000008, MMU\n";
    json_t *doc = import_str(whole);
    assert_null(json_object_get(klog(doc), "incomplete"));
    json_decref(doc);
    doc = import_str("[1.0] NVRM: Xid (PCI:0000:db:00): 31, pid=13641, Ch 00000008, MMU\n"
                     "[2.0] NVRM: Xid (PCI:0000:db:00): 31, pid=35907\n");
    assert_non_null(json_object_get(klog(doc), "incomplete"));
    const json_t *e = event(doc, 1);
    assert_int_equal(ls_json_int(e, "xid", 0), 31);
    assert_null(json_object_get(e, "pid")); /* maybe cut: not kept */
    assert_true(json_is_true(json_object_get(e, "cut")));
    json_decref(doc);
    doc = import_str("Dec  2 11:49:53 w4 kernel: NVRM: GPU 0000:0a:00.0: RmInitAdapter "
                     "failed! (0x24:0x72:1568)\nDec\n");
    assert_non_null(json_object_get(klog(doc), "incomplete"));
    fires(doc, "driver_init_failed", "error", "reboot");
    json_decref(doc);
}

/* The catalog moved to model/ keeps health's reading: the action column, 154 by its
   text, the application bucket. */
static void catalog(void **state)
{
    (void)state;
    const char *m;
    enum ls_action a;
    assert_int_equal(ls_xid_lookup(79, &m, &a), 0);
    assert_int_equal(a, LS_ACT_REBOOT);
    assert_int_equal(ls_xid_lookup(99999, &m, &a), -1);
    assert_int_equal(a, LS_ACT_WATCH);
    assert_int_equal(ls_xid_action(154, "to 0x1 (GPU Reset Required)"), LS_ACT_RESET);
    /* 136, the driver's ALI_TRAINING_FAIL ("NVLink: Link training failed for link N"):
       NVIDIA's catalog, RESET_GPU (gaps15; before, not in the catalog: watch) */
    assert_int_equal(ls_xid_lookup(136, &m, &a), 0);
    assert_int_equal(a, LS_ACT_RESET);
    assert_non_null(strstr(m, "training"));
    assert_true(ls_xid_is_app(13) && ls_xid_is_app(31) && ls_xid_is_app(43));
    assert_false(ls_xid_is_app(79));
    /* health's scan: a MIG instance's line gives the bus alone (its GPU is then found) */
    json_t *events = json_array();
    ls_xid_scan("x NVRM: Xid (PCI:0000:01:00 GPU-I:05): 94, pid=7, Contained\n"
                "NVRM: Xid (0000:02:00): 79, GPU has fallen off the bus.\n",
                events);
    assert_int_equal(json_array_size(events), 2);
    assert_string_equal(ls_json_str(json_array_get(events, 0), "bus_id", ""), "0000:01:00");
    assert_string_equal(ls_json_str(json_array_get(events, 0), "text", ""), "pid=7, Contained");
    assert_string_equal(ls_json_str(json_array_get(events, 1), "bus_id", ""), "0000:02:00");
    json_decref(events);
}

/* The real pastes: what their lines hold. */
/* nv.c's module init finds no NVIDIA PCI device ("No NVIDIA GPU found.", before 5xx "No
   NVIDIA graphics adapter found!"): about the node, not a GPU it failed to set up. Twin: a
   module that loads and names its GPU stays quiet. */
static void no_gpu_found(void **state)
{
    (void)state;
    json_t *doc = import_str("[  441.170986] NVRM: No NVIDIA graphics adapter found!\n"
                             "[  441.171021] NVRM: NVIDIA init module failed!\n");
    fires(doc, "driver_init_failed", "error", "isolate");
    const json_t *f;
    json_t *found = findings_of(doc, "driver_init_failed", &f);
    const char *msg = ls_json_str(f, "message", "");
    assert_non_null(strstr(msg, "the node: the driver found no NVIDIA GPU"));
    assert_null(strstr(msg, "a GPU whose bus id"));
    json_decref(found);
    json_decref(doc);
    doc = import_str("[    4.1] NVRM: No NVIDIA GPU found.\n");
    fires(doc, "driver_init_failed", "error", "isolate");
    json_decref(doc);
    doc = import_str("[    4.1] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.161.07  Sat "
                     "Feb 17 22:55:48 UTC 2024\n"
                     "[    4.2] NVRM: GPU at PCI:0000:a1:00: GPU-979426f2-893a-7cbb-c4cf\n");
    ls_test_quiet(doc);
    absent(doc, "driver_init_failed");
    json_decref(doc);
}

/* Xid 63's line names what activates the retirement: a reboot (Dynamic Page Retirement,
   before A100) or a GPU reset (the Row Remapper). */
static void xid63_activation(void **state)
{
    (void)state;
    json_t *doc = import_str("[1.0] NVRM: Xid (PCI:0000:8a:00): 63, Dynamic Page Retirement: New "
                             "page retired, reboot to activate (0x00000000002ce8ac).\n");
    fires(doc, "xid", "error", "reboot");
    json_decref(doc);
    doc = import_str("[1.0] NVRM: Xid (PCI:0000:10:1c): 63, pid=1896, Row Remapper: New row "
                     "marked for remapping, reset gpu to activate.\n");
    fires(doc, "xid", "error", "reset");
    json_decref(doc);
}

/* NVRM lines pasted under another tool's output: the tool's reader takes the text and the
   kernel log is read too (an Xid names the node behind a failed run); a text without NVRM
   lines gets no kernel log. */
static void beside_other_tools(void **state)
{
    (void)state;
    const char *rows =
        "#       size         count      type   redop    root     time   algbw   busbw #wrong "
        "    time   algbw   busbw #wrong\n"
        "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)       "
        "     (us)  (GB/s)  (GB/s)\n"
        "     1048576        262144     float     sum      -1    58.14   18.04   31.57      0 "
        "   57.87   18.12   31.71      0\n";
    char text[1024];
    snprintf(text, sizeof text, "%s%s", rows,
             "[Mon Jun  3 17:38:12 2025] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, "
             "name=all_reduce_perf, GPU has fallen off the bus.\n");
    json_t *doc = ls_test_import_text(text, LS_FMT_NCCL_TESTS);
    assert_int_equal(json_array_size(json_object_get(doc, "kernel_logs")), 1);
    ls_test_fires(doc, "xid", "error", "reboot", "Xid 79");
    json_decref(doc);
    doc = ls_test_import_text(rows, LS_FMT_NCCL_TESTS);
    assert_null(json_object_get(doc, "kernel_logs"));
    json_decref(doc);
}

static void real_pastes(void **state)
{
    (void)state;
    json_t *doc = ls_import_doc_new();
    ls_test_import(doc, "real/kernel-gpuop1146-syslog-rminitadapter-cut.txt", LS_FMT_KERNEL_LOG);
    const json_t *f = json_array_get(json_object_get(klog(doc), "failures"), 0);
    assert_string_equal(ls_json_str(f, "host", ""), "worker4");
    assert_string_equal(ls_json_str(f, "bus_id", ""), "00000000:0a:00.0");
    assert_int_equal(ls_json_int(f, "count", 0), 6);
    json_decref(doc);
    doc = ls_import_doc_new();
    ls_test_import(doc, "real/kernel-pytorch51382-ctime-xid43-31-cut.txt", LS_FMT_KERNEL_LOG);
    const json_t *g = json_array_get(json_object_get(klog(doc), "gpus"), 1);
    assert_string_equal(ls_json_str(g, "uuid", ""), "GPU-4a28de72-2645-de9a-eb35-a394cef3f4da");
    ls_test_quiet(doc);
    json_decref(doc);
}

/* The driver's status NV_ERR_RESET_REQUIRED in its assertion line (nvAssertOkFailedNoLog:
   "Assertion failed: <status string> [<status name>] (0x<code>) returned from <expr> @
   <file>:<line>"): the GPU needs a reset; another status in the same form, and a bare
   assertion, stay quiet. */
static void reset_required(void **state)
{
    (void)state;
    json_t *doc = import_str("[373871.35] NVRM: nvAssertOkFailedNoLog: Assertion failed: Reset "
                             "required [NV_ERR_RESET_REQUIRED] (0x00000062) returned from status "
                             "@ kernel_channel.c:2827\n");
    fires(doc, "reset_required", "error", "reset");
    json_decref(doc);
    doc = import_str("[   32.84] NVRM: nvAssertFailedNoLog: Assertion failed: 0 @ "
                     "kernel_gsp.c:1476\n"
                     "[   33.10] NVRM: nvAssertOkFailedNoLog: Assertion failed: Invalid argument "
                     "[NV_ERR_INVALID_ARGUMENT] (0x0000001F) returned from status @ mem.c:12\n");
    absent(doc, "reset_required");
    json_t *found = ls_findings(doc);
    assert_int_equal(json_array_size(found), 0);
    json_decref(found);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dmesg_prefix),
        cmocka_unit_test(dmesg_ctime_prefix),
        cmocka_unit_test(syslog_prefix),
        cmocka_unit_test(journal_prefix),
        cmocka_unit_test(mismatch_layouts),
        cmocka_unit_test(load_lines_quiet),
        cmocka_unit_test(no_nvrm_refused),
        cmocka_unit_test(app_bucket_quiet),
        cmocka_unit_test(xid_actions),
        cmocka_unit_test(counted_and_indexed),
        cmocka_unit_test(off_bus),
        cmocka_unit_test(init_failed),
        cmocka_unit_test(gsp_timeout),
        cmocka_unit_test(gsp_boot_failed),
        cmocka_unit_test(smi_xid_notice),
        cmocka_unit_test(cut_last_line),
        cmocka_unit_test(catalog),
        cmocka_unit_test(uuid_and_serial),
        cmocka_unit_test(real_pastes),
        cmocka_unit_test(no_gpu_found),
        cmocka_unit_test(xid63_activation),
        cmocka_unit_test(reset_required),
        cmocka_unit_test(beside_other_tools),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
