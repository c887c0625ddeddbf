/* nvidia-container-cli's NVML version mismatch (import/kernel_log.c
   container_cli_mismatch, rule driver_mismatch): libnvidia-container's "<stage> error:
   nvml error: driver/library version mismatch", read in any of its stages and across a
   break the paste put in it, and joined with the driver's own API mismatch line
   (tests/fixtures/real/fresh15-kernel-dalle104-*, README.md there names the source). */
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

/* dalle-playground#104: docker's error (the poster broke the line after "initialization
   error: ") and dmesg's API mismatch, two files of one document: one finding, the
   versions from the kernel's line. */
static void beside_the_kernel_line(void **state)
{
    (void)state;
    json_t *doc = ls_import_doc_new();
    ls_test_import(doc, "real/fresh15-kernel-dalle104-container-cli-nvml-mismatch.txt",
                   LS_FMT_KERNEL_LOG);
    ls_test_import(doc, "real/fresh15-kernel-dalle104-container-cli-nvml-mismatch-dmesg.txt",
                   LS_FMT_KERNEL_LOG);
    const json_t *k = json_array_get(json_object_get(doc, "kernel_logs"), 0);
    const json_t *f = json_array_get(json_object_get(k, "failures"), 0);
    assert_string_equal(ls_json_str(f, "source", ""), "nvidia-container-cli");
    assert_string_equal(ls_json_str(f, "text", ""),
                        "nvidia-container-cli: initialization error: nvml error: "
                        "driver/library version mismatch");
    ls_test_fires(doc, "driver_mismatch", "error", "reboot",
                  "(515.48.07) and the loaded kernel module (510.73.05) differ (API mismatch), "
                  "2 times");
    ls_test_fires(doc, "driver_mismatch", "error", "reboot", "nvidia-container-cli's NVML");
    assert_int_equal(ls_test_count(doc, "driver_mismatch"), 1);
    ls_test_silent(doc, "gpu_lost");
    ls_test_silent(doc, "driver_init_failed");
    json_decref(doc);
}

/* Alone, at another stage of the hook, with NVML's string as NVML spells it. */
static void alone_other_stage(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text("docker: Error response from daemon: failed to create task "
                                      "for container: stderr: "
                                      "nvidia-container-cli: detection error: nvml error: "
                                      "Driver/library version mismatch: "
                                      "unknown.\n",
                                      LS_FMT_KERNEL_LOG);
    ls_test_fires(doc, "driver_mismatch", "error", "reboot", "a client of another version");
    json_decref(doc);
}

/* Twins: the hook's other errors are not a version mismatch, and are not read as one. */
static void other_errors_not_read(void **state)
{
    (void)state;
    assert_int_not_equal(ls_import_detect(
                             "stderr: nvidia-container-cli: initialization error: load library "
                             "failed: libnvidia-ml.so.1: cannot open shared object file: no such "
                             "file or directory: unknown\n"),
                         LS_FMT_KERNEL_LOG);
    assert_int_not_equal(ls_import_detect("nvidia-container-cli: initialization error: nvml "
                                          "error: driver not loaded: unknown\n"),
                         LS_FMT_KERNEL_LOG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(beside_the_kernel_line),
        cmocka_unit_test(alone_other_stage),
        cmocka_unit_test(other_errors_not_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
