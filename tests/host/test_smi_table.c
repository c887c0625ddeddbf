/* Plain nvidia-smi output and its failure texts (import/smi_table.c, analyze/rules_smi.c):
   each driver's layout read from a real paste (tests/fixtures/real/smi-table-*, the
   sidecars name each source) value by value against its lines; N/A left absent, ERR!
   named, cut pastes kept and flagged; the failure texts alone imported with their
   finding; a healthy twin for every finding stays quiet. */
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
#include "model/doc.h"
#include "util/fileio.h"

#define MIB (1024LL * 1024LL)

static json_t *import_real_as(const char *file, int fmt);

static json_t *import_real(const char *file)
{
    return import_real_as(file, LS_FMT_SMI_TABLE);
}

static json_t *import_str(const char *text)
{
    json_t *doc = ls_import_doc_new();
    char err[512];
    enum ls_import_format fmt;
    if (ls_import_text(doc, text, "pasted.txt", NULL, &fmt, err, sizeof err) < 0)
        fail_msg("%s", err);
    assert_int_equal(fmt, LS_FMT_SMI_TABLE);
    char why[256];
    if (ls_doc_validate(doc, why, sizeof why) != 0)
        fail_msg("%s", why);
    return doc;
}

/* The real paste's text with `from` replaced by `to` (once): a twin derived from it. */
static json_t *import_derived(const char *file, const char *from, const char *to)
{
    char rel[256], err[256];
    snprintf(rel, sizeof rel, "real/%s", file);
    char *text = ls_read_file(ls_fixture(rel), NULL, err, sizeof err);
    assert_non_null(text);
    char *at = strstr(text, from);
    if (!at)
        fail_msg("%s: no '%s'", file, from);
    size_t n = strlen(text) + strlen(to) + 1;
    char *out = malloc(n);
    snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    json_t *doc = import_str(out);
    free(out);
    free(text);
    return doc;
}

static const json_t *gpu(const json_t *doc, int index)
{
    return ls_test_gpu(doc, index);
}

static const json_t *smi(const json_t *doc)
{
    const json_t *s = json_array_get(json_object_get(doc, "smi"), 0);
    assert_non_null(s);
    return s;
}

static int incomplete(const json_t *doc)
{
    return json_is_true(
        json_object_get(json_array_get(json_object_get(doc, "imports"), 0), "incomplete"));
}

static const char *missing(const json_t *doc)
{
    return ls_json_str(json_array_get(json_object_get(doc, "imports"), 0), "missing", "");
}

static double num(const json_t *obj, const char *key)
{
    const json_t *v = json_object_get(obj, key);
    if (!json_is_number(v))
        fail_msg("%s absent", key);
    return json_number_value(v);
}

static int has_err(const json_t *g, const char *what)
{
    size_t i;
    const json_t *v;
    json_array_foreach(json_object_get(g, "smi_err"), i, v) {
        if (!strcmp(json_string_value(v), what))
            return 1;
    }
    return 0;
}

/* No finding above info. */
static void quiet(const json_t *doc)
{
    json_t *f = ls_findings(doc);
    size_t i;
    const json_t *x;
    json_array_foreach(f, i, x) {
        if (strcmp(ls_json_str(x, "severity", ""), "info") != 0)
            fail_msg("%s: %s", ls_json_str(x, "rule", ""), ls_json_str(x, "message", ""));
    }
    json_decref(f);
}

/* The finding of rule (its severity checked); returns its message (static copy). */
static const char *fires(const json_t *doc, const char *rule, const char *severity)
{
    static char message[1024];
    json_t *f = ls_findings(doc);
    const json_t *x = ls_test_finding(f, rule);
    if (!x)
        fail_msg("%s did not fire", rule);
    assert_string_equal(ls_json_str(x, "severity", ""), severity);
    snprintf(message, sizeof message, "%s", ls_json_str(x, "message", ""));
    json_decref(f);
    return message;
}

static void silent(const json_t *doc, const char *rule)
{
    json_t *f = ls_findings(doc);
    if (ls_test_finding(f, rule))
        fail_msg("%s fired: %s", rule, ls_json_str(ls_test_finding(f, rule), "message", ""));
    json_decref(f);
}

/* ---- layouts ----------------------------------------------------------------------- */

/* 525-550 wide layout, NVIDIA/nccl#1264: "|   0  NVIDIA H100 80GB HBM3          Off |
   00000000:18:00.0 Off |                    0 |", "| N/A   28C    P0             88W /
   700W |       0MiB /  81559MiB |      0%      Default |", "Disabled". */
static void wide_550(void **state)
{
    (void)state;
    json_t *doc = import_real("smi-table-nccl1264-8xh100-550-cut.txt");
    const json_t *g = gpu(doc, 0);
    assert_string_equal(ls_json_str(g, "name", ""), "NVIDIA H100 80GB HBM3");
    assert_string_equal(ls_json_str(g, "pci_bus_id", ""), "00000000:18:00.0");
    assert_true(json_is_false(json_object_get(g, "persistence_mode")));
    assert_int_equal(num(json_object_get(g, "ecc"), "volatile_uncorrected"), 0);
    assert_true(json_is_true(json_object_get(json_object_get(g, "ecc"), "enabled")));
    assert_null(json_object_get(g, "fan_pct")); /* N/A */
    assert_int_equal(num(g, "temperature_c"), 28);
    assert_string_equal(ls_json_str(g, "perf_state", ""), "P0");
    assert_int_equal(num(json_object_get(g, "power"), "draw_w"), 88);
    assert_int_equal(num(json_object_get(g, "power"), "limit_w"), 700);
    assert_int_equal(num(g, "memory_used_bytes"), 0);
    assert_int_equal(num(g, "memory_total_bytes"), 81559 * MIB);
    assert_int_equal(num(g, "utilization_pct"), 0);
    assert_string_equal(ls_json_str(g, "compute_mode", ""), "Default");
    assert_string_equal(ls_json_str(g, "mig_mode", ""), "Disabled");
    /* GPU 1: its first line whole, its second cut after "83W /": nothing of it kept */
    g = gpu(doc, 1);
    assert_string_equal(ls_json_str(g, "pci_bus_id", ""), "00000000:2a:00.0");
    assert_null(json_object_get(g, "power"));
    assert_null(json_object_get(g, "temperature_c"));
    assert_true(incomplete(doc));
    assert_non_null(strstr(missing(doc), "inside GPU 1's rows"));
    const json_t *sw = json_object_get(doc, "software");
    assert_string_equal(ls_json_str(sw, "driver", ""), "550.54.15");
    assert_string_equal(ls_json_str(sw, "cuda_driver", ""), "12.4");
    quiet(doc);
    json_decref(doc);
}

/* Narrow layout up to 520, jax-ml/jax#13559: names cut to the column ("NVIDIA
   A100-SXM..."): the printed part kept as name_cut, the name unknown. */
static void narrow_515_cut_names(void **state)
{
    (void)state;
    json_t *doc = import_real("smi-table-jax13559-2xa100-515-cut-names.txt");
    for (int i = 0; i < 2; i++) {
        const json_t *g = gpu(doc, i);
        assert_null(json_object_get(g, "name"));
        assert_string_equal(ls_json_str(g, "name_cut", ""), "NVIDIA A100-SXM");
        assert_true(json_is_true(json_object_get(g, "persistence_mode")));
        assert_int_equal(num(json_object_get(g, "power"), "draw_w"), 59);
        assert_int_equal(num(json_object_get(g, "power"), "limit_w"), 350);
        assert_int_equal(num(g, "memory_total_bytes"), 81920 * MIB);
        assert_string_equal(ls_json_str(g, "mig_mode", ""), "Disabled");
    }
    assert_string_equal(ls_json_str(gpu(doc, 1), "pci_bus_id", ""), "00000000:47:00.0");
    assert_string_equal(ls_json_str(smi(doc), "driver", ""), "515.43.04");
    assert_true(incomplete(doc)); /* "| Processes:" is the last line */
    assert_non_null(strstr(missing(doc), "Processes table is cut"));
    quiet(doc);
    json_decref(doc);
}

/* Driver 610: "KMD Version" and "CUDA UMD Version" (sgl-project/sglang#27487). */
static void kmd_610(void **state)
{
    (void)state;
    json_t *doc = import_real("smi-table-sglang27487-8xb200-610.txt");
    const json_t *sw = json_object_get(doc, "software");
    assert_string_equal(ls_json_str(sw, "driver", ""), "610.43.02");
    assert_string_equal(ls_json_str(sw, "cuda_driver", ""), "13.3");
    assert_string_equal(ls_json_str(gpu(doc, 1), "name", ""), "NVIDIA B200");
    assert_int_equal(num(json_object_get(gpu(doc, 1), "power"), "limit_w"), 1000);
    assert_int_equal(num(gpu(doc, 0), "memory_total_bytes"), 183359 * MIB);
    assert_int_equal(json_integer_value(json_object_get(smi(doc), "gpus_shown")), 2);
    quiet(doc);
    json_decref(doc);
}

/* Driver 325 (cBio/cbio-cluster#39): "NVIDIA-SMI 5.325.15", memory in "MB" (MiB), perf,
   power and utilization N/A on GeForce, the 2014 "Compute processes:" title. */
static void old_325(void **state)
{
    (void)state;
    json_t *doc = import_real("smi-table-cbio39-325-titan-old.txt");
    const json_t *g = gpu(doc, 2);
    assert_string_equal(ls_json_str(g, "name", ""), "GeForce GTX TITAN");
    assert_string_equal(ls_json_str(g, "pci_bus_id", ""), "00000000:84:00.0");
    assert_int_equal(num(g, "memory_total_bytes"), 6143 * MIB);
    assert_int_equal(num(g, "fan_pct"), 30);
    assert_null(json_object_get(g, "perf_state"));
    assert_null(json_object_get(g, "power"));
    assert_null(json_object_get(g, "utilization_pct"));
    assert_null(json_object_get(g, "ecc"));
    assert_string_equal(ls_json_str(smi(doc), "smi_version", ""), "5.325.15");
    assert_string_equal(ls_json_str(json_object_get(doc, "software"), "driver", ""), "325.15");
    assert_null(json_object_get(json_object_get(doc, "software"), "cuda_driver"));
    assert_non_null(strstr(missing(doc), "Processes table is cut"));
    quiet(doc);
    json_decref(doc);
}

/* Driver 384's Processes table (fireice-uk/xmr-stak-nvidia#39): pid, type, name,
   memory; the row cut after its name is not read. */
static void processes_384(void **state)
{
    (void)state;
    json_t *doc = import_real("smi-table-xmrstak39-titanxp-384-procs.txt");
    const json_t *procs = json_object_get(gpu(doc, 0), "processes");
    assert_int_equal(json_array_size(procs), 1);
    const json_t *p = json_array_get(procs, 0);
    assert_int_equal(num(p, "pid"), 1568);
    assert_string_equal(ls_json_str(p, "type", ""), "G");
    assert_string_equal(ls_json_str(p, "name", ""), "/usr/lib/xorg/Xorg");
    assert_int_equal(num(p, "memory_bytes"), 1850 * MIB);
    assert_string_equal(ls_json_str(gpu(doc, 0), "name", ""), "TITAN Xp");
    assert_non_null(strstr(missing(doc), "Processes table is cut"));
    quiet(doc); /* a display server on a card is no finding */
    json_decref(doc);
}

/* The 450+ process columns (GI, CI) and a whole table: a complete paste. */
static void processes_gi_ci_complete(void **state)
{
    (void)state;
    json_t *doc = import_derived("smi-table-piper20-p4-550-procs.txt", "| Processes:\n",
                                 "| Processes:                                                     "
                                 "                         "
                                 "|\n"
                                 "|  GPU   GI   CI        PID   Type   Process name                "
                                 "              GPU "
                                 "Memory |\n"
                                 "|        ID   ID                                                 "
                                 "              Usage    "
                                 "  |\n"
                                 "|================================================================"
                                 "========================"
                                 "=|\n"
                                 "|    0   N/A  N/A      2154      C   python3 piper server        "
                                 "               7716MiB "
                                 "|\n"
                                 "+----------------------------------------------------------------"
                                 "------------------------"
                                 "-+\n");
    const json_t *p = json_array_get(json_object_get(gpu(doc, 0), "processes"), 0);
    assert_int_equal(num(p, "pid"), 2154);
    assert_string_equal(ls_json_str(p, "type", ""), "C");
    assert_string_equal(ls_json_str(p, "name", ""), "python3 piper server");
    assert_null(json_object_get(p, "gi")); /* N/A: not a MIG device */
    assert_int_equal(num(p, "memory_bytes"), 7716 * MIB);
    assert_false(incomplete(doc));
    quiet(doc);
    json_decref(doc);
}

/* The Processes table pasted alone, in the 450+ layout (GI CI columns) and the older one
   (GPU PID Type Process name): its processes read on the GPUs they name, the document
   incomplete (no GPU table), nothing judged of the GPUs; the title without its column
   header is no table. */
static void processes_alone(void **state)
{
    (void)state;
    static const char gi_ci[] = "+-----------------------------------------------------------------"
                                "----------------------+\n"
                                "| Processes:                                                      "
                                "                      |\n"
                                "|  GPU   GI   CI        PID   Type   Process name                 "
                                "           GPU Memory |\n"
                                "|        ID   ID                                                  "
                                "           Usage      |\n"
                                "|================================================================="
                                "======================|\n"
                                "|    3   N/A  N/A      6195      C   python                       "
                                "             30438MiB |\n"
                                "+-----------------------------------------------------------------"
                                "----------------------+\n";
    json_t *doc = import_str(gi_ci);
    assert_true(incomplete(doc));
    assert_non_null(strstr(missing(doc), "only the Processes table"));
    const json_t *p = json_array_get(json_object_get(gpu(doc, 3), "processes"), 0);
    assert_int_equal(num(p, "pid"), 6195);
    assert_int_equal(num(p, "memory_bytes"), 30438 * MIB);
    quiet(doc);
    json_decref(doc);
    static const char old[] =
        "+-----------------------------------------------------------------------------+\n"
        "| Processes:                                                       GPU Memory |\n"
        "|  GPU       PID   Type   Process name                             Usage      |\n"
        "|=============================================================================|\n"
        "|  No running processes found                                                 |\n"
        "+-----------------------------------------------------------------------------+\n";
    doc = import_str(old);
    assert_true(incomplete(doc));
    assert_true(json_is_true(json_object_get(smi(doc), "processes_none")));
    assert_int_equal(json_array_size(json_object_get(doc, "gpus")), 0);
    quiet(doc);
    json_decref(doc);
    assert_int_equal(ls_import_detect("| Processes: |\n|  no header here  |\n"), LS_FMT_UNKNOWN);
    assert_int_equal(ls_import_detect("Processes:\n  GPU  PID  Process name\n"), LS_FMT_UNKNOWN);
}

/* The MIG devices table alone (XuehaiPan/nvitop#8): its devices, MIG on for GPUs 1, 2. */
static void mig_devices(void **state)
{
    (void)state;
    json_t *doc = import_real("smi-table-nvitop8-mig-devices.txt");
    const json_t *devs = json_object_get(smi(doc), "mig_devices");
    assert_int_equal(json_array_size(devs), 4);
    const json_t *d = json_array_get(devs, 1);
    assert_int_equal(num(d, "gpu"), 1);
    assert_int_equal(num(d, "gi"), 5);
    assert_int_equal(num(d, "mig_dev"), 1);
    assert_int_equal(num(d, "memory_used_bytes"), 9826 * MIB);
    assert_int_equal(num(d, "memory_total_bytes"), 19968 * MIB);
    assert_string_equal(ls_json_str(gpu(doc, 2), "mig_mode", ""), "Enabled");
    assert_true(incomplete(doc));
    assert_non_null(strstr(missing(doc), "MIG devices table is cut"));
    quiet(doc);
    json_decref(doc);
}

/* Rows pasted without the header (Azure/azhpc-diagnostics#77): the layout of every
   driver since 450; N/A (fan) absent, ERR! (power draw) named, the cap kept. */
static void rows_without_header(void **state)
{
    (void)state;
    json_t *doc = import_real("smi-table-azhpc77-power-err-rows.txt");
    const json_t *g = gpu(doc, 1);
    assert_string_equal(ls_json_str(g, "pci_bus_id", ""), "00008ed0:00:00.0");
    assert_true(has_err(g, "power_draw"));
    assert_null(json_object_get(json_object_get(g, "power"), "draw_w"));
    assert_int_equal(num(json_object_get(g, "power"), "limit_w"), 250);
    assert_null(json_object_get(g, "fan_pct"));
    assert_non_null(strstr(missing(doc), "no 'NVIDIA-SMI"));
    json_decref(doc);
}

/* A row cut inside its memory cell (kata-containers#10457): the cells before it kept,
   N/A power draw absent. */
static void cut_row_na(void **state)
{
    (void)state;
    json_t *doc = import_real("smi-table-kata10457-a5000-535.txt");
    const json_t *g = gpu(doc, 0);
    assert_string_equal(ls_json_str(g, "name", ""), "NVIDIA RTX A5000");
    assert_null(json_object_get(json_object_get(g, "power"), "draw_w"));
    assert_int_equal(num(json_object_get(g, "power"), "limit_w"), 230);
    assert_null(json_object_get(g, "memory_total_bytes"));
    assert_true(json_is_false(json_object_get(json_object_get(g, "ecc"), "enabled"))); /* Off */
    assert_non_null(strstr(missing(doc), "inside GPU 0's rows"));
    json_decref(doc);
}

/* Markdown and terminals: leading blanks lost, a quote mark, a row wrapped in two. */
static void mangled(void **state)
{
    (void)state;
    json_t *doc = import_derived("smi-table-jax13559-2xa100-515-cut-names.txt",
                                 "| N/A   28C    P0    59W / 350W |      0MiB / 81920MiB |      0% "
                                 "     Default |\n"
                                 "|                               |                      |         "
                                 "    Disabled |\n"
                                 "+-------------------------------+----------------------+---------"
                                 "-------------+\n"
                                 "|   1",
                                 "> | N/A   28C    P0    59W /\n"
                                 "350W |      0MiB / 81920MiB |      0%      Default |\n"
                                 "|                               |                      |         "
                                 "    Disabled |\n"
                                 "+-------------------------------+----------------------+---------"
                                 "-------------+\n"
                                 "|   1");
    const json_t *g = gpu(doc, 0);
    assert_int_equal(num(json_object_get(g, "power"), "limit_w"), 350);
    assert_int_equal(num(g, "memory_total_bytes"), 81920 * MIB);
    assert_string_equal(ls_json_str(g, "mig_mode", ""), "Disabled");
    assert_int_equal(num(gpu(doc, 1), "temperature_c"), 28);
    json_decref(doc);
}

/* ---- failure texts ------------------------------------------------------------------ */

static json_t *import_real_as(const char *file, int fmt)
{
    char rel[256];
    snprintf(rel, sizeof rel, "real/%s", file);
    json_t *doc = ls_import_doc_new();
    ls_test_import(doc, rel, fmt);
    return doc;
}

static void failure_in(const char *file, int fmt, const char *kind, const char *rule)
{
    json_t *doc = import_real_as(file, fmt);
    assert_int_equal(json_array_size(json_object_get(doc, "gpus")), 0);
    const json_t *f = json_array_get(json_object_get(smi(doc), "failures"), 0);
    assert_string_equal(ls_json_str(f, "kind", ""), kind);
    assert_false(incomplete(doc));
    fires(doc, rule, "error");
    json_decref(doc);
}

static void failure_alone(const char *file, const char *kind, const char *rule)
{
    failure_in(file, LS_FMT_SMI_TABLE, kind, rule);
}

static void failure_texts(void **state)
{
    (void)state;
    failure_alone("smi-table-ameli5-smi-failed.txt", "no_driver", "driver_unreachable");
    failure_alone("smi-table-mattshma108-smi-failed.txt", "no_driver", "driver_unreachable");
    /* nvidia-smi's line with the syslog's NVRM lines under it: read as the kernel log it
       also is, the nvidia-smi line with it; both say what they say */
    failure_in("smi-table-oskm862-no-devices.txt", LS_FMT_KERNEL_LOG, "no_devices", "no_gpus");
    failure_alone("smi-table-owod81-gpu-lost.txt", "device_handle", "gpu_lost");
    failure_alone("smi-table-nvdocker1553-handle-unknown.txt", "device_handle", "gpu_lost");
    json_t *doc = import_real("smi-table-opengpu47-version-mismatch.txt");
    const json_t *f = json_array_get(json_object_get(smi(doc), "failures"), 0);
    assert_string_equal(ls_json_str(f, "reason", ""), "Driver/library version mismatch");
    assert_string_equal(ls_json_str(smi(doc), "nvml_library_version", ""), "570.124");
    const char *m = fires(doc, "driver_unreachable", "error");
    assert_non_null(strstr(m, "NVML 570.124 does not match"));
    json_decref(doc);
    doc = import_real("smi-table-owod81-gpu-lost.txt");
    f = json_array_get(json_object_get(smi(doc), "failures"), 0);
    assert_string_equal(ls_json_str(f, "bus_id", ""), "00000000:02:00.0");
    assert_non_null(strstr(ls_json_str(f, "reason", ""), "GPU is lost"));
    assert_non_null(strstr(fires(doc, "gpu_lost", "error"), "NVML_ERROR_GPU_IS_LOST"));
    json_decref(doc);
}

/* "Failed to initialize NVML: Unknown Error" (a container detached from its GPUs by the
   host's systemd, NVIDIA's notice nvidia-docker#1730) and another reason, said as such. */
static void nvml_init_reasons(void **state)
{
    (void)state;
    json_t *doc = import_str("root@098b49afe624:/# nvidia-smi\nFailed to initialize NVML: Unknown "
                             "Error\n");
    assert_non_null(strstr(fires(doc, "driver_unreachable", "error"), "recreate the container"));
    json_decref(doc);
    doc = import_str("Failed to initialize NVML: Insufficient Permissions\n");
    const char *m = fires(doc, "driver_unreachable", "error");
    assert_non_null(strstr(m, "(Insufficient Permissions)"));
    assert_null(strstr(m, "recreate the container"));
    json_decref(doc);
}

/* Driver 570+ prints the index before the bus id; the table of the other GPUs follows
   (the form of a session log's "Unable to determine the device handle for GPU1:
   0000:34:00.0: Unknown Error", derived here with the table of sglang#27487). */
static void handle_with_index_and_table(void **state)
{
    (void)state;
    json_t *doc = import_derived("smi-table-sglang27487-8xb200-610.txt",
                                 "Sun Jun  7 08:16:57 2026\n",
                                 "Unable to determine the device handle for GPU1: 0000:34:00.0: "
                                 "Unknown Error\n");
    const json_t *f = json_array_get(json_object_get(smi(doc), "failures"), 0);
    assert_int_equal(num(f, "gpu"), 1);
    assert_string_equal(ls_json_str(f, "bus_id", ""), "00000000:34:00.0");
    assert_string_equal(ls_json_str(f, "reason", ""), "Unknown Error");
    assert_non_null(strstr(fires(doc, "gpu_lost", "error"), "GPU1 (00000000:34:00.0)"));
    assert_string_equal(ls_json_str(gpu(doc, 0), "name", ""), "NVIDIA B200");
    json_decref(doc);
}

/* The Windows build's wording, "Unable to detect the device handle" (Easy-GPU-PV#276):
   the same failure; its twin, the same GPU's line with a reason that is not its state. */
static void handle_detect_wording(void **state)
{
    (void)state;
    json_t *doc = import_str("Unable to detect the device handle for GPU0000:B1:00.0: Unknown "
                             "Error\n");
    const json_t *f = json_array_get(json_object_get(smi(doc), "failures"), 0);
    assert_string_equal(ls_json_str(f, "bus_id", ""), "00000000:b1:00.0");
    fires(doc, "gpu_lost", "error");
    json_decref(doc);
    doc = import_str("Unable to detect the device handle for GPU0000:B1:00.0: Insufficient "
                     "Permissions\n");
    silent(doc, "gpu_lost");
    json_decref(doc);
}

/* A handle refused for a reason that is not the GPU's state: a warning, not gpu_lost. */
static void handle_permissions(void **state)
{
    (void)state;
    json_t *doc = import_str("Unable to determine the device handle for GPU 0000:3B:00.0: "
                             "Insufficient Permissions\n");
    silent(doc, "gpu_lost");
    fires(doc, "gpu_read_error", "warning");
    json_decref(doc);
}

/* The node action each finding carries: where NVML's text names what the node needs
   (a lost GPU: reboot; an unknown error on a handle or ERR! cells: a reset first; a module
   that no longer matches its library: reboot), and none where the text may be a
   container's (the driver not reached, no GPU found) or a handle refused for permissions. */
static const char *action_of(const json_t *doc, const char *rule)
{
    static char action[32];
    json_t *f = ls_findings(doc);
    const json_t *x = ls_test_finding(f, rule);
    if (!x)
        fail_msg("%s did not fire", rule);
    snprintf(action, sizeof action, "%s", ls_json_str(x, "node_action", "(none)"));
    json_decref(f);
    return action;
}

static void node_actions(void **state)
{
    (void)state;
    static const struct {
        const char *file, *rule, *action;
    } cases[] = {
        {"smi-table-owod81-gpu-lost.txt", "gpu_lost", "reboot"},
        {"smi-table-nvdocker1553-handle-unknown.txt", "gpu_lost", "reset"},
        {"smi-table-gpuop559-a40-err-row.txt", "gpu_lost", "reset"},
        {"smi-table-opengpu47-version-mismatch.txt", "driver_unreachable", "reboot"},
        {"smi-table-ameli5-smi-failed.txt", "driver_unreachable", "(none)"},
        {"smi-table-azhpc77-power-err-rows.txt", "gpu_read_error", "(none)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        json_t *doc = import_real(cases[i].file);
        const char *got = action_of(doc, cases[i].rule);
        if (strcmp(got, cases[i].action) != 0)
            fail_msg("%s: %s node_action %s, not %s", cases[i].file, cases[i].rule, got,
                     cases[i].action);
        json_decref(doc);
    }
    json_t *doc = import_str("Failed to initialize NVML: Unknown Error\n");
    assert_string_equal(action_of(doc, "driver_unreachable"), "(none)");
    json_decref(doc);
    doc = import_str("Unable to determine the device handle for GPU 0000:3B:00.0: "
                     "Insufficient Permissions\n");
    assert_string_equal(action_of(doc, "gpu_read_error"), "(none)");
    json_decref(doc);
    /* NVML's "GPU is lost" as other programs print it (Slurm's gpu/nvml plugin, pynvml):
       the GPU is lost, which one the line does not say; a line naming no NVML call is not
       read; a retyped lower-case "gpu" in nvidia-smi's sentence reads as nvidia-smi's */
    static const char *const lost[] =
        {"slurmstepd: error: NVML: Failed to get usage(15): GPU is lost\n",
         "    raise NVMLError(ret)\nNVMLError_GpuIsLost: GPU is lost\n"};
    for (size_t i = 0; i < sizeof lost / sizeof *lost; i++) {
        doc = import_str(lost[i]);
        assert_string_equal(action_of(doc, "gpu_lost"), "reboot");
        json_decref(doc);
    }
    char err[256];
    doc = ls_doc_new();
    assert_true(ls_import_text(doc, "the job said: GPU is lost\n", "x.txt", NULL, NULL, err,
                               sizeof err) < 0);
    json_decref(doc);
    doc = import_str("Unable to determine the device handle for gpu 0000:08:00.0: Unknown Error\n");
    assert_string_equal(action_of(doc, "gpu_lost"), "reset");
    json_decref(doc);
}

/* ---- ERR! cells and their twins ----------------------------------------------------- */

/* gpu-operator#559: GPU 0 answers ERR! for its name and most cells: lost; its twin, the
   same row as GPU 1 reads, stays quiet. */
static void err_row_and_twin(void **state)
{
    (void)state;
    json_t *doc = import_real("smi-table-gpuop559-a40-err-row.txt");
    const json_t *g = gpu(doc, 0);
    assert_null(json_object_get(g, "name"));
    static const char *const cells[] = {"name",       "fan",         "temperature",
                                        "perf_state", "power_draw",  "power_limit",
                                        "ecc",        "utilization", "mig_mode"};
    for (size_t i = 0; i < sizeof cells / sizeof *cells; i++)
        if (!has_err(g, cells[i]))
            fail_msg("GPU 0: %s not named ERR!", cells[i]);
    assert_int_equal(num(g, "memory_total_bytes"), 46068 * MIB); /* read beside the ERR!s */
    assert_string_equal(ls_json_str(gpu(doc, 1), "name", ""), "NVIDIA A40");
    assert_non_null(strstr(fires(doc, "gpu_lost", "error"), "00000000:19:00.0"));
    json_decref(doc);
    doc = import_derived("smi-table-gpuop559-a40-err-row.txt",
                         "|   0  ERR!                On   | 00000000:19:00.0 Off |                 "
                         "ERR! |\n"
                         "|ERR!  ERR! ERR!    ERR! / ERR! |      0MiB / 46068MiB |    ERR!      "
                         "Default |\n"
                         "|                               |                      |                 "
                         "ERR! |",
                         "|   0  NVIDIA A40          On   | 00000000:19:00.0 Off |                 "
                         "   0 |\n"
                         "|  0%   25C    P8    12W / 300W |      0MiB / 46068MiB |      0%      "
                         "Default |\n"
                         "|                               |                      |                 "
                         " N/A |");
    silent(doc, "gpu_lost");
    silent(doc, "gpu_read_error");
    quiet(doc);
    json_decref(doc);
}

/* The same row with its name read (dcgm-exporter#313's A10G: name, memory, compute mode
   read; fan, temperature, perf and MIG mode ERR!): NVML reaches the GPU, its queries
   fail: gpu_read_error at error with reset, not gpu_lost; two ERR! cells stay info. */
static void err_row_name_reads(void **state)
{
    (void)state;
    static const char *const from =
        "|   0  ERR!                On   | 00000000:19:00.0 Off |                 ERR! |\n"
        "|ERR!  ERR! ERR!    ERR! / ERR! |      0MiB / 46068MiB |    ERR!      Default |\n"
        "|                               |                      |                 ERR! |";
    json_t *doc = import_derived("smi-table-gpuop559-a40-err-row.txt", from,
                                 "|   0  NVIDIA A40          On   | 00000000:19:00.0 N/A |         "
                                 "         N/A |\n"
                                 "|ERR!  ERR! ERR!     N/A /  N/A |      0MiB / 46068MiB |     N/A "
                                 "     Default |\n"
                                 "|                               |                      |         "
                                 "        ERR! |");
    assert_non_null(strstr(fires(doc, "gpu_read_error", "error"), "00000000:19:00.0"));
    silent(doc, "gpu_lost");
    json_decref(doc);
    doc = import_derived("smi-table-gpuop559-a40-err-row.txt", from,
                         "|   0  NVIDIA A40          On   | 00000000:19:00.0 Off |                 "
                         "   0 |\n"
                         "|ERR!  ERR!  P8    12W / 300W |      0MiB / 46068MiB |      0%      "
                         "Default |\n"
                         "|                               |                      |                 "
                         " N/A |");
    fires(doc, "gpu_read_error", "info");
    silent(doc, "gpu_lost");
    json_decref(doc);
}

/* A row whose bus id reads ERR! is still its GPU's block: named, and lost with the rest. */
static void err_bus_id(void **state)
{
    (void)state;
    json_t *doc = import_derived("smi-table-gpuop559-a40-err-row.txt", "| 00000000:19:00.0 Off |",
                                 "| ERR!             Off |");
    const json_t *g = gpu(doc, 0);
    assert_true(has_err(g, "pci_bus_id"));
    assert_null(json_object_get(g, "pci_bus_id"));
    assert_non_null(strstr(fires(doc, "gpu_lost", "error"), "bus id not read"));
    assert_string_equal(ls_json_str(gpu(doc, 1), "name", ""), "NVIDIA A40");
    json_decref(doc);
}

/* One ERR! cell of a GPU that otherwise reads: information; its twin reads the draw. */
static void err_cell_and_twin(void **state)
{
    (void)state;
    json_t *doc = import_real("smi-table-azhpc77-power-err-rows.txt");
    fires(doc, "gpu_read_error", "info");
    silent(doc, "gpu_lost");
    json_decref(doc);
    doc = import_derived("smi-table-azhpc77-power-err-rows.txt", "ERR! / 250W", " 38W / 250W");
    silent(doc, "gpu_read_error");
    quiet(doc);
    json_decref(doc);
}

/* ecc (the existing rule) on a volatile uncorrected count in the table, and its twin. */
static void ecc_count_and_twin(void **state)
{
    (void)state;
    json_t *doc = import_derived("smi-table-jax13559-2xa100-515-cut-names.txt",
                                 "| 00000000:47:00.0 Off |                    0 |",
                                 "| 00000000:47:00.0 Off |                    2 |");
    assert_int_equal(num(json_object_get(gpu(doc, 1), "ecc"), "volatile_uncorrected"), 2);
    assert_non_null(strstr(fires(doc, "ecc", "error"), "GPU1 has 2 uncorrected"));
    json_decref(doc);
    doc = import_real("smi-table-jax13559-2xa100-515-cut-names.txt");
    silent(doc, "ecc");
    json_decref(doc);
}

/* Twins of the failure texts: the node's table when the driver answers. */
static void failure_twins(void **state)
{
    (void)state;
    json_t *doc = import_real("smi-table-k8sdp324-a6000-515.txt");
    silent(doc, "driver_unreachable");
    silent(doc, "no_gpus");
    silent(doc, "gpu_lost");
    quiet(doc);
    json_decref(doc);
}

/* A healthy 8-GPU table, whole (banner to the Processes table's closing rule), at 0%
   and idle P0: imported complete, no finding above info. Built from nccl#1264's rows. */
static void healthy_8gpu_whole(void **state)
{
    (void)state;
    static const char *const bus[8] = {"18", "2A", "3A", "5D", "9A", "AB", "BA", "DB"};
    char text[8192];
    size_t used = (size_t)snprintf(text, sizeof text,
                                   "+--------------------------------------------------------------"
                                   "-------------------------"
                                   "--+\n"
                                   "| NVIDIA-SMI 550.54.15              Driver Version: 550.54.15  "
                                   "    CUDA Version: 12.4     "
                                   "|\n"
                                   "|-----------------------------------------+--------------------"
                                   "----+--------------------"
                                   "--+\n"
                                   "| GPU  Name                 Persistence-M | Bus-Id          "
                                   "Disp.A | Volatile Uncorr. ECC "
                                   "|\n"
                                   "| Fan  Temp   Perf          Pwr:Usage/Cap |           "
                                   "Memory-Usage | GPU-Util  Compute M. "
                                   "|\n"
                                   "|                                         |                    "
                                   "    |               MIG M. "
                                   "|\n"
                                   "|=========================================+===================="
                                   "====+===================="
                                   "==|\n");
    for (int i = 0; i < 8; i++)
        used += (size_t)snprintf(text + used, sizeof text - used,
                                 "|   %d  NVIDIA H100 80GB HBM3          Off |   00000000:%s:00.0 "
                                 "Off |                "
                                 "    0 |\n"
                                 "| N/A   28C    P0             88W /  700W |       0MiB /  "
                                 "81559MiB |      0%%      "
                                 "Default |\n"
                                 "|                                         |                      "
                                 "  |             "
                                 "Disabled |\n"
                                 "+-----------------------------------------+----------------------"
                                 "--+----------------"
                                 "------+\n",
                                 i, bus[i]);
    snprintf(text + used, sizeof text - used,
             "\n+----------------------------------------------------------------------------------"
             "--"
             "-----+\n"
             "| Processes:                                                                         "
             "  "
             "   |\n"
             "|  GPU   GI   CI        PID   Type   Process name                              GPU "
             "Memory |\n"
             "|        ID   ID                                                               Usage "
             "     |\n"
             "|===================================================================================="
             "=="
             "===|\n"
             "|  No running processes found                                                        "
             "  "
             "   |\n"
             "+------------------------------------------------------------------------------------"
             "--"
             "---+\n");
    json_t *doc = import_str(text);
    assert_int_equal(json_array_size(json_object_get(doc, "gpus")), 8);
    assert_false(incomplete(doc));
    assert_true(json_is_true(json_object_get(smi(doc), "processes_none")));
    assert_string_equal(ls_json_str(gpu(doc, 7), "pci_bus_id", ""), "00000000:db:00.0");
    quiet(doc);
    json_t *f = ls_findings(doc);
    assert_int_equal(json_array_size(f), 0); /* not even cut_paste */
    json_decref(f);
    json_decref(doc);
}

/* What it is not: -q text, prose naming nvidia-smi, a table header alone (nothing read:
   one line, no document). */
static void not_this_format(void **state)
{
    (void)state;
    assert_int_not_equal(ls_import_detect("==============NVSMI LOG==============\n\nDriver Version "
                                          ": 550.54.15\nAttached GPUs : 1\nGPU 00000000:18:00.0\n"
                                          "    Persistence Mode : Enabled\n"),
                         LS_FMT_SMI_TABLE);
    assert_int_equal(ls_import_detect("I ran nvidia-smi and it showed my GPUs.\n"), LS_FMT_UNKNOWN);
    json_t *doc = ls_import_doc_new();
    char err[512];
    assert_int_equal(ls_import_text(doc,
                                    "| GPU  Name        Persistence-M| Bus-Id        Disp.A | "
                                    "Volatile Uncorr. ECC |\n",
                                    "hdr.txt", NULL, NULL, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "hdr.txt: plain nvidia-smi text"));
    assert_null(json_object_get(doc, "smi"));
    json_decref(doc);
}

/* A table cut in its column header (microsoft/WSL#11277's paste): no GPU row, marked cut,
   not a machine without GPUs. Twin: the same header with its GPU rows is whole up to them. */
static void header_only_cut(void **state)
{
    (void)state;
    const char *head = "+--------------------------------------------------------------------------"
                       "---------------+\n"
                       "| NVIDIA-SMI 550.54.10              Driver Version: 551.61         CUDA "
                       "Version: 12.4     |\n"
                       "|-----------------------------------------+------------------------+-------"
                       "---------------+\n"
                       "| GPU  Name                 Persistence-M | Bus-Id          Disp.A | "
                       "Volatile Uncorr. ECC |\n"
                       "| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | "
                       "GPU-Util  Compute M. |\n";
    json_t *doc = import_str(head);
    assert_true(incomplete(doc));
    assert_non_null(strstr(missing(doc), "before its first GPU row"));
    json_t *found = ls_findings(doc);
    assert_null(ls_test_finding(found, "no_gpus"));
    json_decref(found);
    json_decref(doc);
    char whole[2048];
    snprintf(whole, sizeof whole, "%s%s", head,
             "|                                         |                        |               "
             "MIG M. |\n"
             "|=========================================+========================+================="
             "=====|\n"
             "|   0  NVIDIA GeForce RTX 4070 ...    On  |   00000000:01:00.0  On |                 "
             " N/A |\n"
             "|  0%   38C    P8             10W /  220W |    1177MiB /  12282MiB |      2%      "
             "Default |\n"
             "|                                         |                        |                 "
             " N/A |\n"
             "+-----------------------------------------+------------------------+-----------------"
             "-----+\n");
    doc = import_str(whole);
    assert_null(strstr(missing(doc), "first GPU row"));
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wide_550),
        cmocka_unit_test(narrow_515_cut_names),
        cmocka_unit_test(kmd_610),
        cmocka_unit_test(old_325),
        cmocka_unit_test(processes_384),
        cmocka_unit_test(processes_gi_ci_complete),
        cmocka_unit_test(processes_alone),
        cmocka_unit_test(mig_devices),
        cmocka_unit_test(rows_without_header),
        cmocka_unit_test(cut_row_na),
        cmocka_unit_test(mangled),
        cmocka_unit_test(failure_texts),
        cmocka_unit_test(node_actions),
        cmocka_unit_test(nvml_init_reasons),
        cmocka_unit_test(handle_with_index_and_table),
        cmocka_unit_test(header_only_cut),
        cmocka_unit_test(handle_permissions),
        cmocka_unit_test(handle_detect_wording),
        cmocka_unit_test(err_row_and_twin),
        cmocka_unit_test(err_row_name_reads),
        cmocka_unit_test(err_bus_id),
        cmocka_unit_test(err_cell_and_twin),
        cmocka_unit_test(ecc_count_and_twin),
        cmocka_unit_test(failure_twins),
        cmocka_unit_test(healthy_8gpu_whole),
        cmocka_unit_test(not_this_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
