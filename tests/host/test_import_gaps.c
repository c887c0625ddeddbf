/* Forms the fresh12 blind measure found unread (gaps12): launcher tags before every line
   (Ray, SkyPilot, vLLM), a topo -m whose first row is cut, cuda-samples' simpleP2P, a
   topo -m with NIC rows but no NIC columns, nvidia-smi -q without its banner, NVRM lines
   quoted inside gpud's scan. Texts written here from the tools' printed formats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "import/import.h"
#include "import/import_util.h"
#include "import/line_numbers.h"
#include "import/topo_text.h"
#include "model/topo.h"
#include "model/doc.h"
#include "util/log.h"

/* ---- launcher tags ---------------------------------------------------------------- */

static void test_worker_prefixes_stripped(void **state)
{
    (void)state;
    const char *text = "(pid=2918546) host:1:1 [0] NCCL INFO Bootstrap : Using eth0\n"
                       "(RayWorker pid=77, ip=10.0.0.7) second line\n"
                       "(head, rank=0, pid=17266) \n"
                       "\033[36m(worker1, rank=1, pid=16369, ip=10.164.0.58)\033[0m fourth\n"
                       "(VllmWorker rank=0 pid=123) fifth\n"
                       "untagged line (pid=5) stays\n";
    char *out = ls_strip_worker_prefixes(text);
    assert_non_null(out);
    assert_string_equal(out, "host:1:1 [0] NCCL INFO Bootstrap : Using eth0\n"
                             "second line\n"
                             "\n"
                             "fourth\n"
                             "fifth\n"
                             "untagged line (pid=5) stays\n");
    free(out);
}

static void test_worker_prefixes_need_a_pid(void **state)
{
    (void)state;
    /* parentheses that are no launcher's tag: a pid word missing, not a number, or the
       tag not followed by a blank */
    assert_null(ls_strip_worker_prefixes("(rank=0) text\n(pid=x) text\n(pid=1)text\n"));
    assert_null(ls_strip_worker_prefixes("GPU0 X NV12\n"));
    assert_null(ls_strip_worker_prefixes("(a (pid=1)) text\n"));
}

static void test_plain_text_numbers_then_tags(void **state)
{
    (void)state;
    char *out = ls_import_plain_text("1 (pid=3) a\n2 (pid=3) b\n3 (pid=3) c\n");
    assert_non_null(out);
    assert_string_equal(out, "a\nb\nc\n");
    free(out);
    assert_null(ls_import_plain_text("no tag\n"));
}

/* SkyPilot's tag before a topo -m whose first row the paste cuts: read, noted cut. */
static void test_topo_tagged_first_row_cut(void **state)
{
    (void)state;
    const char *text = "(head, rank=0, pid=17266) --- nvidia-smi topo -m ---\n"
                       "(head, rank=0, pid=17266) \n"
                       "(head, rank=0, pid=17266)       GPU0    GPU1    GPU2    GPU3    CPU "
                       "Affinity    "
                       "NUMA Affinity\n"
                       "(head, rank=0, pid=17266) GPU0   X      NV12    NV12\n";
    json_t *doc = ls_test_import_text(text, LS_FMT_TOPO);
    assert_int_equal(json_array_size(json_object_get(doc, "gpus")), 4);
    const json_t *imp = json_array_get(json_object_get(doc, "imports"), 0);
    assert_true(json_is_true(json_object_get(imp, "incomplete")));
    json_decref(doc);
}

/* A topo -p2p row short of the header's cells is checked only as far as it goes (the
   cut-first-row check is topo -m's; fuzz_topo_text found an over-read here). */
static void test_topo_p2p_short_row(void **state)
{
    (void)state;
    ls_import_detect("\tGPU0\tGPU1\tGPU2\n GPU0\tX\tOK\n GPU1\tOK\tX\tOK\n");
    ls_import_detect("\tGPU0\tGPU1\tGPU2\n GPU0\tX\n");
}

/* A short row that is not the paste's last line is no topo -m (the header's own check). */
static void test_topo_short_row_inside_not_detected(void **state)
{
    (void)state;
    assert_int_equal(ls_import_detect("  GPU0 GPU1 GPU2 CPU Affinity\nGPU0 X NV1\nmore text\n"),
                     LS_FMT_UNKNOWN);
}

/* ---- simpleP2P -------------------------------------------------------------------- */

#define SP_HEAD                                                                                    \
    "[./simpleP2P] - Starting...\n"                                                                \
    "Checking for multiple GPUs...\n"                                                              \
    "CUDA-capable device count: 2\n"                                                               \
    "\n"                                                                                           \
    "Checking GPU(s) for support of peer to peer memory access...\n"                               \
    "> Peer access from NVIDIA H100 80GB HBM3 (GPU0) -> NVIDIA H100 80GB HBM3 (GPU1) : Yes\n"      \
    "> Peer access from NVIDIA H100 80GB HBM3 (GPU1) -> NVIDIA H100 80GB HBM3 (GPU0) : Yes\n"      \
    "Enabling peer access between GPU0 and GPU1...\n"                                              \
    "Allocating buffers (64MB on GPU0, GPU1 and CPU Host)...\n"                                    \
    "Creating event handles...\n"                                                                  \
    "cudaMemcpyPeer / cudaMemcpy between GPU0 and GPU1: 25.12GB/s\n"                               \
    "Preparing host buffer and memcpy to GPU0...\n"                                                \
    "Run kernel on GPU1, taking source data from GPU0 and writing to GPU1...\n"                    \
    "Run kernel on GPU0, taking source data from GPU1 and writing to GPU0...\n"                    \
    "Copy data back to host from GPU0 and verify results...\n"

static const json_t *simple_record(const json_t *doc)
{
    const json_t *r = json_array_get(json_object_get(doc, "simple_p2p"), 0);
    assert_non_null(r);
    return r;
}

static void test_simple_p2p_passed_quiet(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text(SP_HEAD "Disabling peer access...\nShutting down...\n"
                                              "Test passed\n",
                                      LS_FMT_SIMPLE_P2P);
    const json_t *r = simple_record(doc);
    assert_string_equal(ls_json_str(r, "result", ""), "passed");
    assert_true(ls_json_num(r, "memcpy_gibps", 0) == 25.12);
    assert_int_equal(ls_json_int(r, "verification_errors", -1), 0);
    assert_string_equal(ls_json_str(ls_test_gpu(doc, 1), "name", ""), "NVIDIA H100 80GB HBM3");
    const json_t *l = json_array_get(json_object_get(doc, "links"), 0);
    assert_true(json_is_true(json_object_get(l, "cuda_peer_access")));
    ls_test_quiet(doc);
    ls_test_silent(doc, "p2p_corrupt");
    json_decref(doc);
}

static void test_simple_p2p_verification_error(void **state)
{
    (void)state;
    json_t *doc =
        ls_test_import_text(SP_HEAD
                            "Verification error @ element 1: val = 0.000000, ref = 4.000000\n"
                            "Verification error @ element 2: val = 0.000000, ref = 8.000000\n"
                            "Disabling peer access...\nShutting down...\nTest failed!\n",
                            LS_FMT_SIMPLE_P2P);
    const json_t *r = simple_record(doc);
    assert_int_equal(ls_json_int(r, "verification_errors", 0), 2);
    assert_string_equal(ls_json_str(r, "result", ""), "failed");
    ls_test_fires(doc, "p2p_corrupt", "error", "isolate",
                  "2 wrong elements printed, element 1 read 0.000000 where 4.000000");
    json_decref(doc);
}

/* A paste cut above the peer-access lines (from the kernel lines down, stopping inside
   the check): still simpleP2P, its pair from the kernel lines, the wrong elements judged,
   the missing result noted. */
static void test_simple_p2p_cut_above(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text("Run kernel on GPU1, taking source data from GPU0 and "
                                      "writing to GPU1...\n"
                                      "Run kernel on GPU0, taking source data from GPU1 and "
                                      "writing to GPU0...\n"
                                      "Copy data back to host from GPU0 and verify results...\n"
                                      "Verification error @ element 0: val = nan, ref = 0.000000\n"
                                      "Verification error @ element 1: val = nan, ref = 4.000000\n",
                                      LS_FMT_SIMPLE_P2P);
    const json_t *r = simple_record(doc);
    assert_int_equal(ls_json_int(r, "verification_errors", 0), 2);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(r, "gpus"), 1)), 1);
    ls_test_fires(doc, "p2p_corrupt", "error", "isolate", NULL);
    json_decref(doc);
    /* the check's line alone without its reference value is no simpleP2P */
    assert_int_not_equal(ls_import_detect("Verification error @ element 3\nsomething else\n"),
                         LS_FMT_SIMPLE_P2P);
}

/* Hostile forms: a pair outside the machine view names no GPU pair, an access line
   without a name before "(GPUn)" names no GPU (never "(GPU1) : Yes"). */
static void test_simple_p2p_hostile_pair(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text("[./simpleP2P] - Starting...\n"
                                      "> Peer access from A (GPU0) -> (GPU1) : Yes\n"
                                      "Enabling peer access between GPU0 and GPU999...\n"
                                      "cudaMemcpyPeer / cudaMemcpy between GPU-1 and GPU70: "
                                      "1.00GB/s\n"
                                      "Test failed!\n",
                                      LS_FMT_SIMPLE_P2P);
    const json_t *r = simple_record(doc);
    assert_null(json_object_get(r, "gpus"));
    assert_string_equal(ls_json_str(ls_test_gpu(doc, 0), "name", ""), "A");
    assert_null(json_object_get(ls_test_gpu(doc, 1), "name"));
    ls_test_fires(doc, "p2p_corrupt", "error", "isolate", NULL);
    json_decref(doc);
}

/* The failed result alone (the paste skipped the error lines) is the same evidence: the
   sample fails only on a wrong element. */
static void test_simple_p2p_failed_without_lines(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text(SP_HEAD "Disabling peer access...\nTest failed!\n",
                                      LS_FMT_SIMPLE_P2P);
    ls_test_fires(doc, "p2p_corrupt", "error", "isolate", "wrong-element lines not in the paste");
    json_decref(doc);
}

/* AMD's HIP port of the sample: the same lines in HIP's words ("HIP-capable device count",
   "hipMemcpyPeer / hipMemcpy"): refused in one line that names it, nothing written; the
   CUDA sample (SP_HEAD) is read. */
static void test_simple_p2p_hip_port_refused(void **state)
{
    (void)state;
    static const char *const hip[] = {
        "Checking for multiple GPUs...\nHIP-capable device count: 2\n\n"
        "Checking GPU(s) for support of peer to peer memory access...\n"
        "> Peer access from  (GPU0) ->  (GPU1) : Yes\n",
        "hipMemcpyPeer / hipMemcpy between GPU0 and GPU1: 28.13GB/s\n"
        "Run kernel on GPU1, taking source data from GPU0 and writing to GPU1...\nTest passed\n",
        "Checking GPU(s) for support of peer to peer memory access...\n"
        "> Peer access from AMD Instinct MI250X (GPU0) -> AMD Instinct MI250X (GPU1) : Yes\n",
    };
    for (size_t i = 0; i < sizeof hip / sizeof hip[0]; i++) {
        json_t *doc = ls_import_doc_new();
        char err[512];
        enum ls_import_format fmt;
        assert_int_equal(ls_import_text(doc, hip[i], "hip.txt", NULL, &fmt, err, sizeof err), -1);
        assert_int_equal(fmt, LS_FMT_SIMPLE_P2P);
        assert_non_null(strstr(err, "HIP's port of simpleP2P"));
        assert_null(strchr(err, '\n'));
        assert_null(json_object_get(doc, "simple_p2p"));
        json_decref(doc);
    }
}

/* The 2016-era form: capability lines, no peer access, the test waived. */
static void test_simple_p2p_waived_no_access(void **state)
{
    (void)state;
    json_t *doc =
        ls_test_import_text("[./simpleP2P] - Starting...\n"
                            "CUDA-capable device count: 2\n"
                            "> GPU0 = \"      Tesla K80\" IS  capable of Peer-to-Peer (P2P)\n"
                            "> GPU1 = \"      Tesla K80\" IS  capable of Peer-to-Peer (P2P)\n"
                            "Checking GPU(s) for support of peer to peer memory access...\n"
                            "> Peer access from Tesla K80 (GPU0) -> Tesla K80 (GPU1) : No\n"
                            "> Peer access from Tesla K80 (GPU1) -> Tesla K80 (GPU0) : No\n"
                            "Two or more GPUs with SM 2.0 or higher capability are required for "
                            "./simpleP2P.\n"
                            "Peer to Peer access is not available amongst GPUs in the system, "
                            "waiving test.\n",
                            LS_FMT_SIMPLE_P2P);
    const json_t *r = simple_record(doc);
    assert_string_equal(ls_json_str(r, "result", ""), "waived");
    assert_string_equal(ls_json_str(ls_test_gpu(doc, 0), "name", ""), "Tesla K80");
    ls_test_silent(doc, "p2p_corrupt");
    ls_test_fires(doc, "p2p_unavailable", "warning", "", NULL);
    json_decref(doc);
}

/* A paste that stops before the result: read, marked incomplete, nothing judged of the
   verification it does not show. */
static void test_simple_p2p_cut(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text(SP_HEAD, LS_FMT_SIMPLE_P2P);
    const json_t *imp = json_array_get(json_object_get(doc, "imports"), 0);
    assert_true(json_is_true(json_object_get(imp, "incomplete")));
    assert_non_null(strstr(ls_json_str(imp, "missing", ""), "inside the verification"));
    ls_test_silent(doc, "p2p_corrupt");
    json_decref(doc);
}

/* ---- topo -m: NIC rows whose columns the header lacks ----------------------------- */

#define NARROW_HEAD                                                                                \
    "        GPU0    GPU1    CPU Affinity    NUMA Affinity\n"                                      \
    "GPU0     X      NV8     0-31,64-95      0\n"                                                  \
    "GPU1    NV8      X      32-63,96-127    1\n"

static const char *gpu_nic_type(const json_t *doc, int gpu, int nic)
{
    size_t i;
    const json_t *l;
    json_array_foreach(json_object_get(doc, "gpu_nic_links"), i, l) {
        if (ls_json_int(l, "gpu", -1) == gpu && ls_json_int(l, "nic", -1) == nic)
            return ls_json_str(l, "type", "");
    }
    return "";
}

static void test_topo_nic_rows_without_columns(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text(NARROW_HEAD
                                      "NIC0    PIX     SYS\n"
                                      "NIC1    SYS     PIX\n"
                                      "\nNIC Legend:\n\n  NIC0: mlx5_0\n  NIC1: mlx5_1\n",
                                      LS_FMT_TOPO);
    assert_int_equal(json_array_size(json_object_get(doc, "gpus")), 2);
    assert_int_equal(json_array_size(json_object_get(doc, "nics")), 2);
    assert_string_equal(gpu_nic_type(doc, 0, 0), "PIX");
    assert_string_equal(gpu_nic_type(doc, 1, 0), "SYS");
    assert_string_equal(gpu_nic_type(doc, 1, 1), "PIX");
    assert_string_equal(ls_json_str(json_array_get(json_object_get(doc, "nics"), 1), "name", ""),
                        "mlx5_1");
    const json_t *imp = json_array_get(json_object_get(doc, "imports"), 0);
    assert_true(json_is_true(json_object_get(imp, "incomplete")));
    assert_non_null(strstr(ls_json_str(imp, "missing", ""), "without a column in the header"));
    ls_test_quiet(doc);
    json_decref(doc);
}

/* Still refused: a NIC row that would be misnamed (NIC3 as the first NIC), an X in a NIC
   row (its own column is not there: no such row), and the strict reader (linkscope's own
   topology text, not a paste). */
static void test_topo_nic_rows_refused_where_unsure(void **state)
{
    (void)state;
    const char *bad[] = {NARROW_HEAD "NIC3    PIX     SYS\n", NARROW_HEAD "NIC0    X       SYS\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *doc = ls_import_doc_new();
        char err[512] = "";
        assert_true(ls_import_text(doc, bad[i], "pasted.txt", NULL, NULL, err, sizeof err) < 0);
        assert_non_null(strstr(err, "is not a column of the header"));
        json_decref(doc);
    }
    ls_topo_t *topo = calloc(1, sizeof *topo);
    char err[256];
    assert_int_equal(ls_topo_parse_text(NARROW_HEAD "NIC0    PIX     SYS\n", topo, err, sizeof err),
                     -1);
    free(topo);
}

/* ---- nvidia-smi -q -d SECTION without the banner (driver 610's head) ---------------- */

static void test_smi_q_perf_610_head(void **state)
{
    (void)state;
    json_t *doc =
        ls_test_import_text("Timestamp                                              : Mon Jan  5 "
                            "10:00:00 2026\n"
                            "Driver Version                                         : 610.10.01 "
                            "[Deprecated; will "
                            "be removed in CUDA 14.0. Use KMD Version instead]\n"
                            "CUDA Version                                           : 13.3 "
                            "[Deprecated]\n"
                            "KMD Version                                            : 610.10.01\n"
                            "CUDA UMD Version                                       : 13.3\n"
                            "\n"
                            "Attached GPUs                                          : 1\n"
                            "GPU 00000000:41:00.0\n"
                            "    Performance State                                  : P0\n"
                            "    Clocks Event Reasons\n"
                            "        Idle                                           : Not Active\n"
                            "        SW Power Cap                                   : Not Active\n"
                            "        HW Slowdown                                    : Active\n"
                            "        SW Thermal Slowdown                            : Not Active\n",
                            LS_FMT_SMI_QUERY);
    const json_t *g = ls_test_gpu(doc, 0);
    assert_string_equal(ls_json_str(g, "pci_bus_id", ""), "00000000:41:00.0");
    assert_string_equal(ls_json_str(json_object_get(doc, "software"), "driver", ""), "610.10.01");
    ls_test_fires(doc, "throttling", "warning", "", "hw_slowdown");
    json_decref(doc);
}

/* ---- NVRM lines quoted inside another tool's output -------------------------------- */

static void test_kernel_nvrm_quoted(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text("scanning dmesg\n"
                                      "[XID found] (5 minutes ago) \"NVRM: Xid (PCI:0000:3b:00): "
                                      "79, pid=1234, name=python, "
                                      "GPU has fallen off the bus.\"\n"
                                      "scanned dmesg file -- found 1 issue(s)\n",
                                      LS_FMT_KERNEL_LOG);
    const json_t *k = json_array_get(json_object_get(doc, "kernel_logs"), 0);
    const json_t *e = json_array_get(json_object_get(k, "events"), 0);
    assert_int_equal(ls_json_int(e, "xid", 0), 79);
    assert_string_equal(ls_json_str(e, "bus_id", ""), "00000000:3b:00.0");
    assert_string_equal(ls_json_str(e, "text", ""), "GPU has fallen off the bus.");
    ls_test_fires(doc, "xid", "error", "reboot", NULL);
    json_decref(doc);
}

/* A word glued before NVRM (no blank, bracket, colon or quote) is still no NVRM line. */
static void test_kernel_nvrm_glued_not_read(void **state)
{
    (void)state;
    assert_int_equal(ls_import_detect("xNVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off.\n"),
                     LS_FMT_UNKNOWN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worker_prefixes_stripped),
        cmocka_unit_test(test_worker_prefixes_need_a_pid),
        cmocka_unit_test(test_plain_text_numbers_then_tags),
        cmocka_unit_test(test_topo_tagged_first_row_cut),
        cmocka_unit_test(test_topo_short_row_inside_not_detected),
        cmocka_unit_test(test_topo_p2p_short_row),
        cmocka_unit_test(test_simple_p2p_passed_quiet),
        cmocka_unit_test(test_simple_p2p_verification_error),
        cmocka_unit_test(test_simple_p2p_failed_without_lines),
        cmocka_unit_test(test_simple_p2p_waived_no_access),
        cmocka_unit_test(test_simple_p2p_cut),
        cmocka_unit_test(test_simple_p2p_cut_above),
        cmocka_unit_test(test_simple_p2p_hostile_pair),
        cmocka_unit_test(test_simple_p2p_hip_port_refused),
        cmocka_unit_test(test_topo_nic_rows_without_columns),
        cmocka_unit_test(test_topo_nic_rows_refused_where_unsure),
        cmocka_unit_test(test_smi_q_perf_610_head),
        cmocka_unit_test(test_kernel_nvrm_quoted),
        cmocka_unit_test(test_kernel_nvrm_glued_not_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
