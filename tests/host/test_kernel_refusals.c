/* The driver refusing a GPU at load (import/kernel_log.c "unsupported", rule
   driver_init_failed with node action isolate), in the forms of open-gpu-kernel-modules'
   osapi.c and of the drivers before 4xx: the PCI ID and the release read, the probe
   failure after it folded in as its consequence (tests/fixtures/real/fresh15-kernel-
   nvtrust55-*, README.md there names the source). */
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

static const json_t *failure(const json_t *doc, size_t i)
{
    const json_t *k = json_array_get(json_object_get(doc, "kernel_logs"), 0);
    const json_t *f = json_array_get(json_object_get(k, "failures"), i);
    assert_non_null(f);
    return f;
}

/* nvtrust#55: an H100 refused by 550.90.07 (the paste's first copy starts mid-line). */
static void h100_refused_by_release(void **state)
{
    (void)state;
    json_t *doc = ls_import_doc_new();
    ls_test_import(doc, "real/fresh15-kernel-nvtrust55-h100-not-supported-by-driver-release.txt",
                   LS_FMT_KERNEL_LOG);
    const json_t *f = failure(doc, 1);
    assert_string_equal(ls_json_str(f, "kind", ""), "unsupported");
    assert_string_equal(ls_json_str(f, "bus_id", ""), "00000000:01:00.0");
    assert_string_equal(ls_json_str(f, "pci_id", ""), "10de:2330");
    assert_string_equal(ls_json_str(f, "release", ""), "550.90.07");
    ls_test_fires(doc, "driver_init_failed", "error", "isolate",
                  "PCI ID 10de:2330, not supported by the 550.90.07 driver release");
    assert_int_equal(ls_test_count(doc, "driver_init_failed"), 1);
    ls_test_silent(doc, "gpu_off_bus");
    ls_test_silent(doc, "driver_mismatch");
    json_decref(doc);
}

/* The form before 4xx ("by the 304.116 / NVIDIA Linux driver release"), then the probe
   failing for that device: one finding, the probe failure its consequence. */
static void old_form_with_probe_failure(void **state)
{
    (void)state;
    json_t *doc =
        ls_test_import_text("[ 2288.712311] NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:1292)\n"
                            "[ 2288.712311] NVRM: installed in this system is not supported by the "
                            "304.116\n"
                            "[ 2288.712311] NVRM: NVIDIA Linux driver release.  Please see "
                            "'Appendix\n"
                            "[ 2288.712311] NVRM: A - Supported NVIDIA GPU Products' in this "
                            "release's\n"
                            "[ 2288.712311] NVRM: README, available on the Linux driver download "
                            "page\n"
                            "[ 2288.712311] NVRM: at www.nvidia.com.\n"
                            "[ 2288.712320] nvidia: probe of 0000:01:00.0 failed with error -1\n"
                            "[ 2288.712331] NVRM: The NVIDIA probe routine failed for 1 "
                            "device(s).\n"
                            "[ 2288.712332] NVRM: None of the NVIDIA graphics adapters were "
                            "initialized!\n",
                            LS_FMT_KERNEL_LOG);
    assert_string_equal(ls_json_str(failure(doc, 0), "release", ""), "304.116");
    ls_test_fires(doc, "driver_init_failed", "error", "isolate", "PCI ID 10de:1292");
    assert_int_equal(ls_test_count(doc, "driver_init_failed"), 1);
    json_decref(doc);
}

/* The open module refusing a GPU without GSP firmware (osapi.c). */
static void open_module_needs_gsp(void **state)
{
    (void)state;
    json_t *doc =
        ls_test_import_text("NVRM: The NVIDIA GPU 0000:41:00.0 (PCI ID: 10de:1db6)\n"
                            "NVRM: installed in this system is not supported by open\n"
                            "NVRM: nvidia.ko because it does not include the required GPU\n"
                            "NVRM: System Processor (GSP).\n"
                            "NVRM: Please see the 'Open Linux Kernel Modules' and 'GSP\n"
                            "NVRM: Firmware' sections in the driver README, available on\n"
                            "NVRM: the Linux graphics driver download page at\n"
                            "NVRM: www.nvidia.com.\n",
                            LS_FMT_KERNEL_LOG);
    assert_string_equal(ls_json_str(failure(doc, 0), "release", ""), "open nvidia.ko");
    ls_test_fires(doc, "driver_init_failed", "error", "isolate", "not supported by open nvidia.ko");
    json_decref(doc);
}

/* The same refusal after `dmesg | grep nvidia`: only its third line and the last
   ("www.nvidia.com.") hold the word, so only they are left (fresh50); still the open
   module refusing a GPU, whose bus id is gone with the first line. */
static void open_module_refusal_grepped(void **state)
{
    (void)state;
    json_t *doc =
        ls_test_import_text("               NVRM: nvidia.ko because it does not include the "
                            "required GPU\n"
                            "               NVRM: www.nvidia.com.\n"
                            "[79742.397145] nvidia: probe of 0000:04:00.0 failed with error -1\n",
                            LS_FMT_KERNEL_LOG);
    assert_string_equal(ls_json_str(failure(doc, 0), "release", ""), "open nvidia.ko");
    ls_test_fires(doc, "driver_init_failed", "error", "isolate", "not supported by open nvidia.ko");
    json_decref(doc);
}

/* Healthy twin: the driver loading and naming its GPU says nothing of a refusal. */
static void loaded_quiet(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text("[    5.123456] NVRM: loading NVIDIA UNIX x86_64 Kernel "
                                      "Module  550.90.07  Fri May 31 "
                                      "09:35:42 UTC 2024\n"
                                      "[    9.654321] NVRM: GPU at PCI:0000:01:00: "
                                      "GPU-4a28de72-1c2f-7e1a-2b6c-0d3f9e8a7b61\n",
                                      LS_FMT_KERNEL_LOG);
    ls_test_silent(doc, "driver_init_failed");
    ls_test_quiet(doc);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(h100_refused_by_release),
        cmocka_unit_test(old_form_with_probe_failure),
        cmocka_unit_test(open_module_needs_gsp),
        cmocka_unit_test(open_module_refusal_grepped),
        cmocka_unit_test(loaded_quiet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
