/* NVIDIA k8s-device-plugin's Xid lines (import/kernel_log.c plugin_xid, rule xid): the
   Xid events NVML gave the plugin, in its forms across versions, read as Xid events of the
   GPU by UUID and judged with the catalog's action; one the kernel's NVRM lines name too
   joins their group through the log's "GPU at" line (tests/fixtures/real/fresh15-kernel-
   k8sdp189-*, README.md there names the source). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "helpers.h"
#include "analyze/analyze.h"
#include "import/import.h"
#include "model/doc.h"

static const json_t *event(const json_t *doc, size_t i)
{
    const json_t *k = json_array_get(json_object_get(doc, "kernel_logs"), 0);
    const json_t *e = json_array_get(json_object_get(k, "events"), i);
    assert_non_null(e);
    return e;
}

/* k8s-device-plugin#189: the form before 0.12 (", the device will go unhealthy."). */
static void plugin_xid69(void **state)
{
    (void)state;
    json_t *doc = ls_import_doc_new();
    ls_test_import(doc, "real/fresh15-kernel-k8sdp189-plugin-xid69-unhealthy.txt",
                   LS_FMT_KERNEL_LOG);
    const json_t *e = event(doc, 0);
    assert_int_equal(ls_json_int(e, "xid", 0), 69);
    assert_string_equal(ls_json_str(e, "uuid", ""), "GPU-7540a9b3-eeb9-1214-1526-f93c9ea826a8");
    assert_string_equal(ls_json_str(e, "source", ""), "k8s-device-plugin");
    ls_test_fires(doc, "xid", "warning", "watch",
                  "GPU-7540a9b3-eeb9-1214-1526-f93c9ea826a8: Xid 69");
    ls_test_silent(doc, "gpu_off_bus");
    ls_test_silent(doc, "gpu_lost");
    json_decref(doc);
}

/* 0.12 on, under klog's prefix ("; marking device as unhealthy."), beside the kernel's
   own line of the same event: one group, named by the bus the "GPU at" line gives. */
static void klog_form_joins_nvrm(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text("[  100.000001] NVRM: GPU at PCI:0000:3b:00: "
                                      "GPU-4a28de72-1c2f-7e1a-2b6c-0d3f9e8a7b61\n"
                                      "[ 9031.451212] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, "
                                      "name=python, GPU has fallen "
                                      "off the bus.\n"
                                      "I1204 10:11:12.345678       1 health.go:164] "
                                      "XidCriticalError: Xid=79 on "
                                      "Device=GPU-4a28de72-1c2f-7e1a-2b6c-0d3f9e8a7b61; marking "
                                      "device as unhealthy.\n",
                                      LS_FMT_KERNEL_LOG);
    assert_string_equal(ls_json_str(event(doc, 1), "text", ""),
                        "k8s-device-plugin: marking device as unhealthy.");
    ls_test_fires(doc, "xid", "error", "reboot", "PCI 00000000:3b:00.0");
    ls_test_fires(doc, "xid", "error", "reboot", "2 times");
    assert_int_equal(ls_test_count(doc, "xid"), 1);
    json_decref(doc);
}

/* "on GPU=" of some versions and an event NVML gave without a device ("All devices will
   go unhealthy."): two groups, the second about every GPU. */
static void gpu_form_and_all_devices(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text("2019/03/02 08:01:02 XidCriticalError: Xid=48 on "
                                      "GPU=GPU-0d3f9e8a-7b61-4a28-de72-"
                                      "1c2f7e1a2b6c, the device will go unhealthy.\n"
                                      "2019/03/02 08:01:03 XidCriticalError: Xid=48, All devices "
                                      "will go unhealthy.\n",
                                      LS_FMT_KERNEL_LOG);
    assert_string_equal(ls_json_str(event(doc, 0), "uuid", ""),
                        "GPU-0d3f9e8a-7b61-4a28-de72-1c2f7e1a2b6c");
    assert_true(json_is_true(json_object_get(event(doc, 1), "all_devices")));
    assert_int_equal(ls_test_count(doc, "xid"), 2);
    ls_test_fires(doc, "xid", "error", "reset", "GPU-0d3f9e8a");
    json_decref(doc);
}

/* Healthy twins: the plugin's start-up lines are no Xid (not a kernel log), and an
   application Xid it logs stays an info. */
static void plugin_quiet(void **state)
{
    (void)state;
    assert_int_not_equal(ls_import_detect(
                             "2020/08/10 19:00:01 Starting to serve on /var/lib/kubelet/"
                             "device-plugins/nvidia.sock\n"
                             "2020/08/10 19:00:01 Registered device plugin with Kubelet\n"),
                         LS_FMT_KERNEL_LOG);
    json_t *doc = ls_test_import_text("I1204 10:11:12.345678       1 health.go:164] "
                                      "XidCriticalError: Xid=13 on "
                                      "Device=GPU-4a28de72-1c2f-7e1a-2b6c-0d3f9e8a7b61; marking "
                                      "device as unhealthy.\n",
                                      LS_FMT_KERNEL_LOG);
    ls_test_fires(doc, "xid", "info", "none", "application");
    ls_test_quiet(doc);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plugin_xid69),
        cmocka_unit_test(klog_form_joins_nvrm),
        cmocka_unit_test(gpu_form_and_all_devices),
        cmocka_unit_test(plugin_quiet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
