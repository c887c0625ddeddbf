/* CUDA error lines of a paste (import/cuda_error.c) and their finding
   (analyze/rules_cuda_errors.c): the catalog's lookups by code, name and string, each
   form tools print read, healthy texts staying quiet or refused, pastes mixed with NCCL's
   log, a kernel log and nvidia-smi, and the node action of each class. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "helpers.h"
#include "analyze/analyze.h"
#include "import/import.h"
#include "model/cuda_errors.h"
#include "model/doc.h"
#include "model/xid.h"

/* text imported (fmt the format it must be taken as). */
static json_t *import_as(const char *text, enum ls_import_format want)
{
    return ls_test_import_text(text, (int)want);
}

static json_t *import_str(const char *text)
{
    return import_as(text, LS_FMT_CUDA_ERROR);
}

static const json_t *error_at(const json_t *doc, size_t i)
{
    const json_t *e = json_array_get(json_object_get(doc, "cuda_errors"), i);
    assert_non_null(e);
    return e;
}

static size_t errors(const json_t *doc)
{
    return json_array_size(json_object_get(doc, "cuda_errors"));
}

/* The cuda_error finding of doc fires with severity sev and node_action action ("" for
   none carried); its message in msg when msg is not NULL. */
static void fires(const json_t *doc, const char *sev, const char *action, const char *says)
{
    ls_test_fires(doc, "cuda_error", sev, action, says);
}

static void catalog_lookups(void **state)
{
    (void)state;
    const ls_cuda_error_t *r = ls_cuda_error_by_code(802);
    assert_non_null(r);
    assert_string_equal(r->runtime, "cudaErrorSystemNotReady");
    assert_string_equal(r->driver, "CUDA_ERROR_SYSTEM_NOT_READY");
    assert_string_equal(r->string, "system not yet initialized");
    assert_int_equal(r->action, LS_ACT_ISOLATE);
    assert_ptr_equal(ls_cuda_error_by_name("cudaErrorSystemNotReady", 23), r);
    assert_ptr_equal(ls_cuda_error_by_name("CUDA_ERROR_SYSTEM_NOT_READY", 27), r);
    assert_null(ls_cuda_error_by_name("cudaErrorNoSuchThing", 20));
    assert_null(ls_cuda_error_by_code(600)); /* cudaErrorNotReady: not an error */
    /* 401, NCCL's NVLS binding without the fabric manager (fresh11): whose fault, the text
       alone does not say: a warning without a node action */
    r = ls_cuda_error_by_code(401);
    assert_non_null(r);
    assert_string_equal(r->string, "the operation cannot be performed in the present state");
    assert_int_equal(r->action, -1);
    size_t at, len;
    /* the longest string wins: "out of memory" is inside neither, "no CUDA-capable
       device is detected" is one string */
    r = ls_cuda_error_in_text("x: no CUDA-capable device is detected", LS_CE_STRINGS, 0, &at, &len);
    assert_int_equal(r->code, 100);
    assert_int_equal(at, 3);
    r = ls_cuda_error_in_text("RuntimeError: No CUDA GPUs are available", LS_CE_ALSO, 0, &at, &len);
    assert_int_equal(r->code, 100);
    /* a short string is not read below min_len */
    assert_null(ls_cuda_error_in_text("ValueError: out of memory", LS_CE_STRINGS, 24, &at, &len));
    r = ls_cuda_error_in_text("x", LS_CE_STRINGS, 0, &at, &len);
    assert_null(r);
    r = ls_cuda_error_in_text("RuntimeError: No CUDA GPUs are available", LS_CE_ALSO, 0, &at, &len);
    assert_int_equal(r->code, 100);
    /* every row has its enum, string, class and words */
    for (size_t i = 0; (r = ls_cuda_error_at(i)); i++) {
        assert_true(r->code > 0);
        assert_true(r->runtime[0] && r->string[0] && r->cls[0]);
        assert_true(r->meaning[0] && r->cause[0] && r->next[0]);
        assert_ptr_equal(ls_cuda_error_by_code(r->code), r); /* one row per code */
        if (!strcmp(r->cls, "application"))
            assert_true(r->action == LS_ACT_NONE && r->severity == 0);
    }
}

static void pytorch_forms(void **state)
{
    (void)state;
    json_t *doc = import_str(
        "Traceback (most recent call last):\n"
        "  File \"train.py\", line 10, in <module>\n"
        "RuntimeError: CUDA error: system not yet initialized\n"
        "CUDA kernel errors might be asynchronously reported at some other "
        "API call, so the stacktrace below might be incorrect.\n"
        "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.\n"
        "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n");
    assert_int_equal(errors(doc), 1);
    const json_t *e = error_at(doc, 0);
    assert_int_equal(ls_json_int(e, "code", 0), 802);
    assert_string_equal(ls_json_str(e, "name", ""), "cudaErrorSystemNotReady");
    assert_string_equal(ls_json_str(e, "form", ""), "cuda_error_text");
    assert_int_equal(ls_json_int(e, "line", 0), 3);
    assert_int_equal(ls_json_int(e, "count", 0), 1);
    fires(doc, "error", "isolate", "nvidia-fabricmanager");
    json_decref(doc);

    doc = import_str("/usr/lib/python3/dist-packages/torch/cuda/__init__.py:107: UserWarning: "
                     "CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you "
                     "run some cuda functions before calling NumCudaDevices() that might have "
                     "already set an error? Error 802: system not yet initialized (Triggered "
                     "internally at ../c10/cuda/CUDAFunctions.cpp:109.)\n");
    e = error_at(doc, 0);
    assert_int_equal(ls_json_int(e, "code", 0), 802);
    assert_string_equal(ls_json_str(e, "form", ""), "torch_init_warning");
    assert_string_equal(ls_json_str(e, "call", ""), "cudaGetDeviceCount");
    assert_string_equal(ls_json_str(e, "where", ""), "../c10/cuda/CUDAFunctions.cpp:109");
    json_decref(doc);

    doc = import_str("[rank3]: torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to "
                     "allocate 20.00 MiB (GPU 1; 79.15 GiB total capacity; 78.1 GiB already "
                     "allocated)\n"
                     "RuntimeError: No CUDA GPUs are available\n"
                     "RuntimeError: Found no NVIDIA driver on your system. Please check that "
                     "you have an NVIDIA GPU and installed a driver\n"
                     "UserWarning: CUDA initialization: The NVIDIA driver on your system is "
                     "too old (found version 11040).\n");
    assert_int_equal(errors(doc), 3);
    e = error_at(doc, 0);
    assert_int_equal(ls_json_int(e, "code", 0), 2);
    assert_int_equal(ls_json_int(e, "gpu", -1), 1);
    assert_int_equal(ls_json_int(e, "rank", -1), 3);
    assert_int_equal(ls_json_int(error_at(doc, 1), "code", 0), 100);
    e = error_at(doc, 2);
    assert_int_equal(ls_json_int(e, "code", 0), 35);
    assert_int_equal(ls_json_int(e, "count", 0), 2);
    json_decref(doc);
}

static void samples_and_other_tools(void **state)
{
    (void)state;
    json_t *doc = import_str(
        "CUDA error at ../../../Common/helper_cuda.h:888 code=802(cudaErrorSystemNotReady) "
        "\"cudaGetDeviceCount(&device_count)\"\n");
    const json_t *e = error_at(doc, 0);
    assert_int_equal(ls_json_int(e, "code", 0), 802);
    assert_string_equal(ls_json_str(e, "form", ""), "cuda_samples");
    assert_string_equal(ls_json_str(e, "call", ""), "cudaGetDeviceCount(&device_count)");
    assert_string_equal(ls_json_str(e, "where", ""), "../../../Common/helper_cuda.h:888");
    json_decref(doc);

    doc = import_str("./deviceQuery Starting...\n\ncudaGetDeviceCount returned 802\n"
                     "-> system not yet initialized\nResult = FAIL\n");
    assert_int_equal(errors(doc), 1); /* the "->" line is the same error */
    e = error_at(doc, 0);
    assert_string_equal(ls_json_str(e, "form", ""), "returned_code");
    assert_string_equal(ls_json_str(e, "call", ""), "cudaGetDeviceCount");
    assert_int_equal(ls_json_int(e, "count", 0), 1);
    json_decref(doc);

    doc = import_str("2023-01-01 I cuda_driver.cc:271] failed call to cuInit: "
                     "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\n"
                     "E failed call to cuInit: UNKNOWN ERROR (303)\n"
                     "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: "
                     "CUDA_ERROR_SYSTEM_NOT_READY: system not yet initialized\n"
                     "cupy_backends.cuda.api.runtime.CUDARuntimeError: "
                     "cudaErrorInsufficientDriver: CUDA driver version is insufficient for "
                     "CUDA runtime version\n");
    assert_int_equal(errors(doc), 4);
    assert_string_equal(ls_json_str(error_at(doc, 0), "form", ""), "driver_name");
    assert_string_equal(ls_json_str(error_at(doc, 0), "call", ""), "cuInit");
    assert_int_equal(ls_json_int(error_at(doc, 1), "code", 0), 303);
    assert_int_equal(ls_json_int(error_at(doc, 2), "code", 0), 802);
    assert_int_equal(ls_json_int(error_at(doc, 3), "code", 0), 35);
    assert_string_equal(ls_json_str(error_at(doc, 3), "form", ""), "runtime_name");
    json_decref(doc);
}

/* XLA's allocator running out (JAX, TensorFlow on XLA) and a kernel's assert as the
   device prints it: the catalog's 2 and 710, the program's; glibc's host assert, which
   has no block and thread, is not read. */
static void xla_and_device_asserts(void **state)
{
    (void)state;
    json_t *doc = import_str("jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of "
                             "memory while trying to allocate 6291456 bytes.\n"
                             "/pytorch/aten/src/THC/THCTensorIndex.cu:362: void "
                             "indexSelectLargeIndex(...): block: [12,0,0], thread: [96,0,0] "
                             "Assertion `srcIndex < srcSelectDimSize` failed.\n");
    assert_int_equal(errors(doc), 2);
    assert_int_equal(ls_json_int(error_at(doc, 0), "code", 0), 2);
    assert_int_equal(ls_json_int(error_at(doc, 1), "code", 0), 710);
    assert_string_equal(ls_json_str(error_at(doc, 1), "form", ""), "device_assert");
    fires(doc, "info", "none", NULL);
    json_decref(doc);
    doc = ls_import_doc_new();
    char err[512];
    enum ls_import_format fmt;
    assert_int_equal(ls_import_text(doc, "prog: main.c:12: main: Assertion `n > 0' failed.\n",
                                    "pasted.txt", NULL, &fmt, err, sizeof err),
                     -1);
    assert_int_equal(fmt, LS_FMT_UNKNOWN);
    json_decref(doc);
}

/* CUDA before 10.1 numbered errors otherwise (48 "no kernel image", 39 ECC): the text
   printed with the code finds the error; the code is kept as printed. */
static void old_numbering(void **state)
{
    (void)state;
    json_t *doc = import_str("THCudaCheck FAIL file=THCTensorMath.cu line=244 error=48 : no "
                             "kernel image is available for execution on the device\n"
                             "RuntimeError: cuda runtime error (39) : uncorrectable ECC error "
                             "encountered at THCCachingHostAllocator.cpp:265\n");
    const json_t *e = error_at(doc, 0);
    assert_int_equal(ls_json_int(e, "code", 0), 209);
    assert_int_equal(ls_json_int(e, "printed_code", 0), 48);
    e = error_at(doc, 1);
    assert_int_equal(ls_json_int(e, "code", 0), 214);
    assert_int_equal(ls_json_int(e, "printed_code", 0), 39);
    fires(doc, "error", "reset", "ECC");
    json_decref(doc);
}

/* Texts with no CUDA error stay unknown; an application's error alone stays quiet. */
static void healthy_twins(void **state)
{
    (void)state;
    const char *none[] = {
        "./deviceQuery Starting...\nDetected 1 CUDA Capable device(s)\nResult = PASS\n",
        "Traceback (most recent call last):\nValueError: out of memory in my parser\n",
        "CUDA kernel errors might be asynchronously reported at some other API call\n",
        "invalid argument\nunknown error\n", /* short strings without CUDA: not read */
    };
    for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
        json_t *doc = ls_import_doc_new();
        char err[512];
        enum ls_import_format fmt;
        assert_int_equal(ls_import_text(doc, none[i], "pasted.txt", NULL, &fmt, err, sizeof err),
                         -1);
        assert_int_equal(fmt, LS_FMT_UNKNOWN);
        assert_non_null(strstr(err, "unknown format"));
        json_decref(doc);
    }
    json_t *doc = import_str("RuntimeError: CUDA error: device-side assert triggered\n"
                             "RuntimeError: CUDA error: an illegal memory access was "
                             "encountered\n");
    ls_test_quiet(doc);
    fires(doc, "info", "none", "not the node's");
    json_decref(doc);
}

/* A program's own CUDA check in nccl-tests' wording ("CUDA failure FILE:LINE 'STRING'",
   cudaGetErrorString's text in quotes): read where the quoted text is a catalog string
   whole; other quoted words after "failure" are no CUDA error. In a text nccl-tests'
   reader takes, the same line stays its entry_failed (mixed_pastes). */
static void program_cuda_checks(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int code;
    } read[] = {
        {"Enabling P2P for GPU 0\nCUDA failure test.cu:20 'peer mapping resources exhausted'\n",
         711},
        {"CUDA failure alloc.cu:12 'out of memory'\n",
         2}, /* "Cuda failure" first: old nccl-tests */
        {"CUDA failure main.cpp:88 'CUDA driver version is insufficient for CUDA runtime "
         "version'\n",
         35},
        /* XLA quoting NCCL's last WARN: "Last NCCL warning(error) log entry (may be
           unrelated) 'Cuda failure 'out of memory''" */
        {"XlaRuntimeError: INTERNAL: nccl_utils.cc:297: NCCL operation ncclCommInitRank(&comm, "
         "nranks, id, rank) failed: unhandled cuda error. Last NCCL warning(error) log entry "
         "(may be unrelated) 'Cuda failure 'out of memory''.\n",
         2},
    };
    for (size_t i = 0; i < sizeof read / sizeof *read; i++) {
        json_t *doc = import_str(read[i].text);
        assert_int_equal(errors(doc), 1);
        assert_int_equal(ls_json_int(error_at(doc, 0), "code", 0), read[i].code);
        assert_string_equal(ls_json_str(error_at(doc, 0), "form", ""), "cuda_failure_check");
        json_decref(doc);
    }
    json_t *doc = import_str(read[0].text);
    assert_string_equal(ls_json_str(error_at(doc, 0), "where", ""), "test.cu:20");
    json_decref(doc);
    const char *none[] = {
        "CUDA failure main.cpp:88 'out of memory in my parser'\n",
        "Cuda failure: could not open 'config.json'\n",
        "cuda failure rate 'unknown error budget'\n",
    };
    for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
        doc = ls_import_doc_new();
        char err[512];
        enum ls_import_format fmt;
        assert_int_equal(ls_import_text(doc, none[i], "pasted.txt", NULL, &fmt, err, sizeof err),
                         -1);
        json_decref(doc);
    }
}

/* The node action per class: hardware reset, fabric isolate, mismatch reboot, busy watch,
   a driver the text cannot blame on the node none carried, unknown to the catalog a
   warning without one. */
static void actions_per_class(void **state)
{
    (void)state;
    static const struct {
        const char *line, *sev, *action;
    } cases[] = {
        {"RuntimeError: CUDA error: uncorrectable NVLink error detected during the execution\n",
         "error", "reset"},
        {"RuntimeError: CUDA error: system not yet initialized\n", "error", "isolate"},
        {"Error 803: system has unsupported display driver / cuda driver combination\n", "error",
         "reboot"},
        {"RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable\n", "warning",
         "watch"},
        {"cudaGetDeviceCount returned 35\n", "error", ""},
        {"cudaGetDeviceCount returned 999\n", "error", ""},
        {"RuntimeError: CUDA error: out of memory\n", "info", "none"},
        {"RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasGemmEx`\n",
         "warning", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        json_t *doc = import_str(cases[i].line);
        fires(doc, cases[i].sev, cases[i].action, NULL);
        json_decref(doc);
    }
}

/* Pasted with other logs: each reader reads its part. */
static void mixed_pastes(void **state)
{
    (void)state;
    json_t *doc = import_as("host1:123:456 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
                            "host1:123:456 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
                            "host1:123:456 [0] transport/nvls.cc:254 NCCL WARN Cuda failure 1 "
                            "'invalid argument'\n"
                            "[rank0]: RuntimeError: CUDA error: an illegal memory access was "
                            "encountered\n",
                            LS_FMT_NCCL_LOG);
    assert_int_equal(errors(doc), 2); /* the WARN line is nccl_log's, its CUDA error ours */
    assert_string_equal(ls_json_str(error_at(doc, 0), "form", ""), "nccl_cuda_failure");
    assert_int_equal(ls_json_int(error_at(doc, 0), "code", 0), 1);
    assert_int_equal(ls_json_int(error_at(doc, 1), "code", 0), 700);
    assert_non_null(json_object_get(doc, "nccl_logs"));
    json_decref(doc);

    doc = import_as("[  903.609564] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU "
                    "has fallen off the bus.\n"
                    "RuntimeError: CUDA error: unspecified launch failure\n",
                    LS_FMT_KERNEL_LOG);
    assert_int_equal(ls_json_int(error_at(doc, 0), "code", 0), 719);
    json_t *found = ls_findings(doc);
    assert_non_null(ls_test_finding(found, "xid")); /* the hardware's verdict is the Xid's */
    assert_non_null(ls_test_finding(found, "cuda_error"));
    json_decref(found);
    json_decref(doc);

    doc = import_str("RuntimeError: CUDA error: system not yet initialized\n"
                     "Failed to initialize NVML: Driver/library version mismatch\n");
    assert_non_null(json_object_get(doc, "smi"));
    json_decref(doc);

    /* nccl-tests' own failure line stays nccl-tests' */
    doc = import_as("# nThread 1 nGpus 8 minBytes 8 maxBytes 134217728 step: 2(factor) warmup "
                    "iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n"
                    "test: Test CUDA failure common.cu:941 'system not yet initialized'\n"
                    " .. test pid 54340: Test failure common.cu:891\n",
                    LS_FMT_NCCL_TESTS);
    assert_int_equal(errors(doc), 0);
    json_decref(doc);
}

/* NCCL's CUDACHECK text on its WARN lines: the CUDA error under the WARN, with the
   catalog's node action; both wordings (with and without the code), once per error. */
static void nccl_cuda_failures(void **state)
{
    (void)state;
    json_t *doc = import_as("[2025-03-31 12:11:36] h:1:2 [1] transport/nvls.cc:254 NCCL WARN Cuda "
                            "failure 802 'system not yet initialized'\n\n"
                            "[2025-03-31 12:11:36] h:1:3 [3] transport/nvls.cc:254 NCCL WARN Cuda "
                            "failure 802 'system not yet initialized'\n",
                            LS_FMT_NCCL_LOG);
    assert_int_equal(errors(doc), 1);
    assert_int_equal(ls_json_int(error_at(doc, 0), "code", 0), 802);
    assert_int_equal(ls_json_int(error_at(doc, 0), "count", 0), 2);
    fires(doc, "error", "isolate", "system not yet initialized");
    json_decref(doc);

    /* NCCL before 2.19: no code; the catalog's string names it */
    doc = import_as("h:1:2 [0] enqueue.cc:215 NCCL WARN Cuda failure 'out of memory'\n",
                    LS_FMT_NCCL_LOG);
    assert_int_equal(ls_json_int(error_at(doc, 0), "code", 0), 2);
    json_decref(doc);

    /* a code the catalog lacks keeps its code and NCCL's text */
    doc = import_as("h:1:2 [0] misc.cc:1 NCCL WARN Cuda failure 9999 'a future error'\n",
                    LS_FMT_NCCL_LOG);
    assert_int_equal(ls_json_int(error_at(doc, 0), "code", 0), 9999);
    assert_string_equal(ls_json_str(error_at(doc, 0), "text", ""), "a future error");
    json_decref(doc);

    /* a paste cut inside the quoted text keeps the code's error; without a code, a cut
       text names none */
    doc = import_as("h:1:2 [0] p2p.cc:1 NCCL WARN Cuda failure 217 'peer access is not supp\n",
                    LS_FMT_NCCL_LOG);
    assert_int_equal(errors(doc), 1);
    assert_int_equal(ls_json_int(error_at(doc, 0), "code", 0), 217);
    json_decref(doc);
    doc = import_as("h:1:2 [0] enqueue.cc:215 NCCL WARN Cuda failure 'out of mem\n",
                    LS_FMT_NCCL_LOG);
    assert_int_equal(errors(doc), 0);
    json_decref(doc);

    /* other WARN lines, and a "Cuda failure" without NCCL's quotes, name no CUDA error */
    doc = import_as("h:1:2 [0] misc/socket.cc:578 NCCL WARN socketPollConnect: connect returned "
                    "Connection refused\n"
                    "h:1:2 [0] init.cc:1 NCCL WARN Cuda failure in the proxy\n",
                    LS_FMT_NCCL_LOG);
    assert_int_equal(errors(doc), 0);
    json_decref(doc);
}

/* NCCL's last WARN as a framework prints it (ncclGetLastError() after "Last error:", on
   its line or the next, or straight under PyTorch's interpretation, a launcher's rank
   prefix before each): the same CUDACHECK / CUCHECK words, so the same CUDA error; any
   other last error names none. */
static void nccl_last_error(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int code; /* 0: no CUDA error */
    } cases[] = {
        {"torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1691, unhandled "
         "cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3\n"
         "ncclUnhandledCudaError: Call to CUDA function failed.\nLast error:\n"
         "Cuda failure 802 'system not yet initialized'\n",
         802},
        {"RuntimeError: NCCL error in: NCCLUtils.hpp:121, unhandled cuda error, NCCL version "
         "2.10.3\nncclUnhandledCudaError: Call to CUDA function failed.\n"
         "Last error: Cuda failure 'out of memory'\n",
         2},
        {"RuntimeError: NCCL error in: NCCLUtils.hpp:275, unhandled cuda error, NCCL version "
         "2.18.1\nncclUnhandledCudaError: Call to CUDA function failed.\n"
         "Cuda failure 'peer mapping resources exhausted'\n",
         711},
        /* torchrun's "[rankN]: " before every line (fresh55) */
        {"[rank2]: torch.distributed.DistBackendError: NCCL error in: NCCLUtils.cpp:77, "
         "unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.2\n"
         "[rank2]: ncclUnhandledCudaError: Call to CUDA function failed.\n[rank2]: Last error:\n"
         "[rank2]: Cuda failure 802 'system not yet initialized'\n",
         802},
        {"RuntimeError: NCCL error in: NCCLUtils.hpp:275, unhandled system error, NCCL version "
         "2.18.1\nncclSystemError: System call (e.g. socket, malloc) or external library call "
         "failed or device error.\nLast error:\nsocketPollConnect: Connect to 10.0.0.2<3456> "
         "returned 113(No route to host) errno 115(Operation now in progress)\n",
         0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        json_t *doc = import_as(cases[i].text, LS_FMT_NCCL_LOG);
        assert_int_equal(errors(doc), cases[i].code ? 1 : 0);
        if (cases[i].code) {
            assert_int_equal(ls_json_int(error_at(doc, 0), "code", 0), cases[i].code);
            assert_string_equal(ls_json_str(error_at(doc, 0), "form", ""), "nccl_cuda_failure");
        }
        json_decref(doc);
    }
    json_t *doc = import_as(cases[0].text, LS_FMT_NCCL_LOG);
    fires(doc, "error", "isolate", "system not yet initialized"); /* 802: the fabric manager */
    json_decref(doc);
}

static void real_pastes(void **state)
{
    (void)state;
    json_t *doc = ls_import_doc_new();
    ls_test_import(doc, "real/cudaerr-pytorch35710-thc-802.txt", LS_FMT_CUDA_ERROR);
    const json_t *e = error_at(doc, 0);
    assert_int_equal(ls_json_int(e, "code", 0), 802);
    assert_int_equal(ls_json_int(e, "count", 0), 2); /* THCudaCheck and the RuntimeError */
    fires(doc, "error", "isolate", NULL);
    json_decref(doc);
    doc = ls_import_doc_new();
    ls_test_import(doc, "real/cudaerr-nctk234-namd-803.txt", LS_FMT_CUDA_ERROR);
    assert_int_equal(ls_json_int(error_at(doc, 0), "count", 0), 3);
    fires(doc, "error", "reboot", NULL);
    json_decref(doc);
}

/* PyTorch's warnings that its build has no kernel for a GPU (torch/cuda/__init__.py's
   _check_cubins and _check_capability): the condition of cudaErrorNoKernelImageForDevice
   (209), a build mismatch: info, node action none, under a journal's prefix too; a line
   that only names a capability is no error. */
static void torch_arch_warnings(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "torch/cuda/__init__.py:209: UserWarning:\n"
        "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current "
        "PyTorch installation.\n"
        "The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_80 sm_90.\n",
        "Found GPU0 GeForce GTX 770 which is of cuda capability 3.0.\n"
        "    PyTorch no longer supports this GPU because it is too old.\n"
        "    The minimum cuda capability supported by this library is 3.7.\n",
        "Oct 04 13:19:39 llm webui[394]: NVIDIA B200 with CUDA capability sm_100 is not "
        "compatible with the current PyTorch installation.\n"
        "Oct 04 13:19:39 llm webui[394]: The current PyTorch install supports CUDA capabilities "
        "sm_50 sm_90.\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        json_t *doc = import_str(texts[i]);
        assert_int_equal(errors(doc), 1);
        assert_int_equal(ls_json_int(error_at(doc, 0), "code", 0), 209);
        assert_string_equal(ls_json_str(error_at(doc, 0), "form", ""), "torch_arch_warning");
        fires(doc, "info", "none", "no kernel");
        ls_test_quiet(doc);
        json_decref(doc);
    }
    assert_int_not_equal(ls_import_detect("GPU 0 has CUDA capability sm_90\n"), LS_FMT_CUDA_ERROR);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(catalog_lookups),
        cmocka_unit_test(pytorch_forms),
        cmocka_unit_test(samples_and_other_tools),
        cmocka_unit_test(xla_and_device_asserts),
        cmocka_unit_test(old_numbering),
        cmocka_unit_test(healthy_twins),
        cmocka_unit_test(program_cuda_checks),
        cmocka_unit_test(actions_per_class),
        cmocka_unit_test(mixed_pastes),
        cmocka_unit_test(nccl_cuda_failures),
        cmocka_unit_test(nccl_last_error),
        cmocka_unit_test(real_pastes),
        cmocka_unit_test(torch_arch_warnings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
