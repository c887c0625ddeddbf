/* A framework's own log with no line another reader takes (import/framework_log.c):
   TensorFlow's, glog's and vLLM's line forms detected from three lines, TensorFlow's GPU
   list kept, error lines counted and named as not judged, and plan's one info finding
   saying the text was read only in part (never a warning: nothing was judged). A CUDA
   error or NCCL line in the same log is its own reader's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "helpers.h"
#include "import/framework_log.h"
#include "import/import.h"
#include "model/doc.h"

static const char tf2[] =
    "2023-10-19 17:12:10.627003: I tensorflow/stream_executor/platform/default/dso_loader.cc:49] "
    "Successfully opened dynamic library libcudnn.so.8\n"
    "2023-10-19 17:12:10.626520: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1720] Found "
    "device 0 with properties: \n"
    "pciBusID: 0000:00:04.0 name: Tesla T4 computeCapability: 7.5\n"
    "2023-10-19 17:12:10.628514: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1862] Adding "
    "visible gpu devices: 0\n"
    "2023-10-19 17:12:11.100000: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1406] Created "
    "TensorFlow device (/job:localhost/replica:0/task:0/device:GPU:0 with 13792 MB memory) -> "
    "physical GPU (device: 0, name: Tesla T4, pci bus id: 0000:00:04.0, compute capability: "
    "7.5)\n";

static const char vllm[] =
    "INFO 06-22 02:54:36 [backends.py:193] Compiling a graph for general shape takes 14.65 s\n"
    "(VllmWorker rank=1 pid=2211) INFO 06-22 02:54:47 [gpu_worker.py:232] Available KV cache "
    "memory: 26.91 GiB\n"
    "ERROR 06-22 02:55:02 [core.py:172] EngineCore failed to start.\n"
    "Traceback (most recent call last):\n"
    "  File \"/usr/lib/python3.12/runpy.py\", line 198, in _run_module_as_main\n"
    "INFO 08-20 02:39:37 metrics.py:411] Avg prompt throughput: 871.4 tokens/s\n";

static const char glog[] = "I0826 11:51:18.218294 140208701863744 session.cc:119] a\n"
                           "W0826 11:51:18.218295 140208701863744 session.cc:120] b\n"
                           "E0826 11:51:18.218296 140208701863744 session.cc:121] c\n";

static const json_t *first_log(const json_t *doc)
{
    return json_array_get(json_object_get(doc, "framework_logs"), 0);
}

/* Three lines of one form are a framework log; two are not; Python's plain logging is
   no framework form. */
static void detected_from_three_lines(void **state)
{
    (void)state;
    assert_true(ls_framework_log_detect(tf2));
    assert_true(ls_framework_log_detect(vllm));
    assert_true(ls_framework_log_detect(glog));
    assert_false(ls_framework_log_detect("INFO 06-22 02:54:36 [a.py:1] x\n"
                                         "INFO 06-22 02:54:37 [a.py:2] y\n"));
    assert_false(ls_framework_log_detect("INFO:root:a\nINFO:root:b\nINFO:root:c\nINFO:root:d\n"));
    assert_false(ls_framework_log_detect("I0826 11:51:18 x\nI0826 11:51:19 y\nI0826 11:51:20 z\n"));
}

/* TensorFlow's GPUs: index, name and bus id from both device lines. */
static void tensorflow_gpus_kept(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text(tf2, LS_FMT_FRAMEWORK_LOG);
    const json_t *g = ls_test_gpu(doc, 0);
    assert_string_equal(json_string_value(json_object_get(g, "name")), "Tesla T4");
    assert_string_equal(json_string_value(json_object_get(g, "pci_bus_id")), "00000000:00:04.0");
    assert_int_equal(json_array_size(json_object_get(doc, "gpus")), 1);
    assert_string_equal(json_string_value(json_object_get(first_log(doc), "framework")),
                        "TensorFlow");
    assert_int_equal(json_integer_value(json_object_get(first_log(doc), "error_lines")), 0);
    ls_test_quiet(doc);
    ls_test_fires(doc, "cut_paste", "info", "", "read only in part");
    json_decref(doc);
}

/* vLLM's forms (its worker prefix, the older "file.py:N]"), the ERROR line and the
   traceback counted and named in the note; still nothing above info. */
static void vllm_errors_named(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text(vllm, LS_FMT_FRAMEWORK_LOG);
    const json_t *log = first_log(doc);
    assert_string_equal(json_string_value(json_object_get(log, "framework")), "vLLM");
    assert_int_equal(json_integer_value(json_object_get(log, "lines")), 4);
    assert_int_equal(json_integer_value(json_object_get(log, "error_lines")), 2);
    ls_test_fires(doc, "cut_paste", "info", "", "its 2 error lines");
    ls_test_quiet(doc);
    assert_int_equal(json_array_size(json_object_get(doc, "gpus")), 0);
    json_decref(doc);
}

/* The same log with a CUDA error line or an NCCL WARN is that reader's. */
static void other_readers_win(void **state)
{
    (void)state;
    char text[2048];
    snprintf(text, sizeof text,
             "%sRuntimeError: CUDA error: an illegal memory access was "
             "encountered\n",
             vllm);
    assert_int_equal(ls_import_detect(text), LS_FMT_CUDA_ERROR);
    snprintf(text, sizeof text,
             "%snode1:2211:2290 [1] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
             "node1:2211:2290 [1] NCCL INFO comm 0x5 rank 1 nranks 2 cudaDev 1 "
             "busId 1b000 - Init COMPLETE\n",
             vllm);
    assert_int_not_equal(ls_import_detect(text), LS_FMT_FRAMEWORK_LOG);
}

/* A device number past the machine view (LS_MAX_GPUS) names no GPU: the document stays
   one linkscope reads back (ls_doc_validate refuses gpus[].index 64 and up). */
static void device_past_view_not_kept(void **state)
{
    (void)state;
    static const char big[] =
        "2023-10-19 17:12:10.626520: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1720] "
        "Found device 100 with properties: \n"
        "pciBusID: 0000:00:04.0 name: Tesla T4 computeCapability: 7.5\n"
        "2023-10-19 17:12:10.628514: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1862] "
        "Adding visible gpu devices: 100\n"
        "2023-10-19 17:12:11.100000: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1406] "
        "Created TensorFlow device (/job:localhost/replica:0/task:0/device:GPU:0 with 13792 MB "
        "memory) -> physical GPU (device: 99999999999, name: Tesla T4, pci bus id: "
        "0000:00:04.0)\n";
    json_t *doc = ls_test_import_text(big, LS_FMT_FRAMEWORK_LOG);
    assert_int_equal(json_array_size(json_object_get(doc, "gpus")), 0);
    char err[256];
    assert_int_equal(ls_doc_validate(doc, err, sizeof err), 0);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(detected_from_three_lines), cmocka_unit_test(tensorflow_gpus_kept),
        cmocka_unit_test(vllm_errors_named),         cmocka_unit_test(other_readers_win),
        cmocka_unit_test(device_past_view_not_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
