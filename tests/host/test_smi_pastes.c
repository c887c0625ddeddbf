/* nvidia-smi pastes in the layouts people post them in (issue 22, corpus-smi): each
   text here is synthetic, written from nvidia-smi's printed format, with a twin that
   differs in the one fact a rule reads, so that the rule fires on the condition and the
   healthy twin stays quiet.

   - nvlink -s "NVML: Unable to retrieve NVLink information as all links are inActive"
     under a GPU line: an error on an SXM part, a card without a bridge (info) on a
     PCIe part that wires NVLink, nothing on a PCIe part without NVLink;
   - nvlink -s link lines without their GPU line: one GPU, the -i N of the command;
   - nvidia-smi -q pasted as a Markdown code block (every line indented) and -q -d
     sections under a GPU line without Product Name;
   - nvbandwidth's SUM lines alone (a `grep SUM`): refused saying so. */
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

static json_t *import_text(const char *text, enum ls_import_format want)
{
    char err[512];
    assert_int_equal(ls_import_detect(text), want);
    json_t *doc = ls_import_doc_new();
    enum ls_import_format fmt;
    if (ls_import_text(doc, text, "paste.txt", NULL, &fmt, err, sizeof err) < 0)
        fail_msg("%s", err);
    assert_int_equal(ls_doc_validate(doc, err, sizeof err), 0);
    return doc;
}

/* The number of findings of rule at severity sev ("error", "warning", "info"). */
static int count(const json_t *findings, const char *rule, const char *sev)
{
    int n = 0;
    size_t i;
    const json_t *f;
    json_array_foreach(findings, i, f) {
        n += strcmp(ls_json_str(f, "rule", ""), rule) == 0 &&
             strcmp(ls_json_str(f, "severity", ""), sev) == 0;
    }
    return n;
}

static int loud(const json_t *findings)
{
    int n = 0;
    size_t i;
    const json_t *f;
    json_array_foreach(findings, i, f) {
        n += strcmp(ls_json_str(f, "severity", ""), "info") != 0;
    }
    return n;
}

/* Two GPUs of one model: GPU 0 with four links up, GPU 1 whose NVML reads none. */
static char *all_inactive_beside_active(const char *model)
{
    static char text[1024];
    snprintf(text, sizeof text,
             "GPU 0: %s (UUID: GPU-00000000-0000-0000-0000-000000000000)\n"
             "\t Link 0: 26.562 GB/s\n\t Link 1: 26.562 GB/s\n\t Link 2: 26.562 GB/s\n\t Link 3: "
             "26.562 GB/s\n"
             "GPU 1: %s (UUID: GPU-11111111-1111-1111-1111-111111111111)\n"
             "NVML: Unable to retrieve NVLink information as all links are inActive\n",
             model, model);
    return text;
}

static void all_inactive_on_an_sxm_part_is_an_error(void **state)
{
    (void)state;
    json_t *doc = import_text(all_inactive_beside_active("NVIDIA H100 80GB HBM3"),
                              LS_FMT_SMI_NVLINK);
    json_t *f = ls_findings(doc);
    assert_int_equal(count(f, "nvlink_inactive", "error"), 1);
    json_decref(f);
    json_decref(doc);
    /* alone (no other GPU shown): an SXM part's links down are still an error */
    doc = import_text("GPU 2: NVIDIA H100 80GB HBM3 (UUID: GPU-x)\n"
                      "NVML: Unable to retrieve NVLink information as all links are inactive\n",
                      LS_FMT_SMI_NVLINK);
    f = ls_findings(doc);
    assert_int_equal(count(f, "nvlink_inactive", "error"), 1);
    json_decref(f);
    json_decref(doc);
}

/* The twin: a PCIe card that wires NVLink through a bridge, without the bridge. */
static void all_inactive_on_a_bridged_pcie_part_is_no_bridge(void **state)
{
    (void)state;
    json_t *doc = import_text(all_inactive_beside_active("NVIDIA RTX A6000"), LS_FMT_SMI_NVLINK);
    json_t *f = ls_findings(doc);
    assert_int_equal(loud(f), 0);
    assert_int_equal(count(f, "nvlink_unwired", "info"), 1);
    json_decref(f);
    json_decref(doc);
}

/* A PCIe part with no NVLink at all: nothing to say. */
static void all_inactive_on_a_part_without_nvlink_says_nothing(void **state)
{
    (void)state;
    json_t *doc = import_text("GPU 0: NVIDIA GeForce RTX 5090 (UUID: GPU-x)\n"
                              "NVML: Unable to retrieve NVLink information as all links are "
                              "inActive\n",
                              LS_FMT_SMI_NVLINK);
    json_t *f = ls_findings(doc);
    assert_int_equal(json_array_size(f), 0);
    json_decref(f);
    json_decref(doc);
}

/* A part the datasheet does not know: a warning beside active links (the bridge is
   the likely reason, the text cannot tell), nothing when no GPU has links up. */
static void all_inactive_on_an_unknown_part_is_a_warning_beside_active_links(void **state)
{
    (void)state;
    json_t *doc = import_text(all_inactive_beside_active("NVIDIA Example GPU"), LS_FMT_SMI_NVLINK);
    json_t *f = ls_findings(doc);
    assert_int_equal(count(f, "nvlink_inactive", "warning"), 1);
    assert_int_equal(count(f, "nvlink_inactive", "error"), 0);
    json_decref(f);
    json_decref(doc);
    doc = import_text("GPU 0: NVIDIA Example GPU (UUID: GPU-x)\n"
                      "NVML: Unable to retrieve NVLink information as all links are inActive\n",
                      LS_FMT_SMI_NVLINK);
    f = ls_findings(doc);
    assert_int_equal(loud(f), 0);
    json_decref(f);
    json_decref(doc);
}

/* `nvidia-smi nvlink -s -i 3` cut to its link lines: GPU 3, its name unknown, noted. */
static void link_lines_without_their_gpu_line(void **state)
{
    (void)state;
    json_t *doc = import_text("$ nvidia-smi nvlink -s -i 3\n"
                              "         Link 0: 25 GB/s\n         Link 1: 25 GB/s\n"
                              "         Link 2: <inactive>\n         Link 3: 25 GB/s\n",
                              LS_FMT_SMI_NVLINK);
    json_t *gpus = json_object_get(doc, "gpus");
    assert_int_equal(json_array_size(gpus), 1);
    json_t *g = json_array_get(gpus, 0);
    assert_int_equal(ls_json_int(g, "index", -1), 3);
    assert_null(json_object_get(g, "name"));
    assert_int_equal(json_array_size(json_object_get(g, "nvlinks")), 4);
    assert_true(json_is_true(
        json_object_get(json_array_get(json_object_get(doc, "imports"), 0), "incomplete")));
    json_t *f = ls_findings(doc);
    /* one of four down on a GPU whose part is unknown: the plain count */
    assert_int_equal(count(f, "nvlink_inactive", "error"), 1);
    json_decref(f);
    json_decref(doc);
    /* a health check's rewording ("Link 4: Inactive") is not nvidia-smi's text */
    assert_int_not_equal(ls_import_detect("         Link 4: Inactive\n         Link 5: Inactive\n"),
                         LS_FMT_SMI_NVLINK);
}

/* Azure's node health checks quote nvlink -s of one GPU in their own words ("GPU 0 has
   nvlinks inactive: Link 4: Inactive", the next links on lines of their own; "GPU 2 has
   all nvlinks inactive"): that GPU's inactive links, its name and active links unknown,
   so nothing is judged of them alone (an H100 PCIe's bridges leave 6 of 18 ports
   unwired: inactive by design). */
static void health_check_message(void **state)
{
    (void)state;
    json_t *doc = import_text("ERROR:  nhc:  Health check failed:  check_nvlink_status: GPU 0 has "
                              "nvlinks inactive:     Link 4: Inactive\n"
                              "         Link 5: Inactive\n"
                              "         Link 16: Inactive. FaultCode: NHC2016\n"
                              "ERROR:  nhc:  Health check failed:  GPU 2 has all nvlinks "
                              "inactive\n",
                              LS_FMT_SMI_NVLINK);
    const json_t *gpus = json_object_get(doc, "gpus");
    assert_int_equal(json_array_size(gpus), 2);
    const json_t *g = json_array_get(gpus, 0);
    assert_int_equal(ls_json_int(g, "index", -1), 0);
    assert_null(json_object_get(g, "name"));
    const json_t *links = json_object_get(g, "nvlinks");
    assert_int_equal(json_array_size(links), 3);
    assert_int_equal(ls_json_int(json_array_get(links, 2), "link", -1), 16);
    assert_true(json_is_false(json_object_get(json_array_get(links, 2), "active")));
    assert_true(json_is_true(json_object_get(json_array_get(gpus, 1), "nvlinks_all_inactive")));
    json_t *f = ls_findings(doc);
    assert_int_equal(loud(f), 0);
    json_decref(f);
    json_decref(doc);
    /* another tool's "GPU 0 has ..." words are not the check's */
    assert_int_not_equal(ls_import_detect("GPU 0 has nvlinks enabled\n"), LS_FMT_SMI_NVLINK);
}

/* A GPU or link number too long for an int names none: sscanf's overflow (undefined) read
   "GPU 4294967297" as GPU 1 and "Link 99999999999" as link 1215752191. */
static void nvlink_numbers_past_an_int_name_none(void **state)
{
    (void)state;
    assert_int_not_equal(ls_import_detect("GPU 4294967297 has all nvlinks inactive\n"),
                         LS_FMT_SMI_NVLINK);
    assert_int_not_equal(ls_import_detect("GPU 4294967296: NVIDIA H100 (UUID: GPU-1)\n"
                                          "\t Link 0: 26.562 GB/s\n"),
                         LS_FMT_SMI_NVLINK);
    json_t *doc = import_text("GPU 1 has nvlinks inactive: Link 99999999999: Inactive\n"
                              "         Link 5: Inactive\n",
                              LS_FMT_SMI_NVLINK);
    const json_t *g = json_array_get(json_object_get(doc, "gpus"), 0);
    assert_int_equal(ls_json_int(g, "index", -1), 1);
    const json_t *links = json_object_get(g, "nvlinks");
    assert_int_equal(json_array_size(links), 1);
    assert_int_equal(ls_json_int(json_array_get(links, 0), "link", -1), 5);
    json_decref(doc);
}

/* -q pasted as a Markdown code block: every line four spaces in. */
static const char indented_query[] = "    ==============NVSMI LOG==============\n"
                                     "    \n"
                                     "    Driver Version                            : 555.42.02\n"
                                     "    Attached GPUs                             : 1\n"
                                     "    GPU 00000000:12:00.0\n"
                                     "        Product Name                          : NVIDIA "
                                     "A100-PCIE-40GB\n"
                                     "        GPU Link Info\n"
                                     "            PCIe Generation\n"
                                     "                Max                           : 4\n"
                                     "                Current                       : 4\n"
                                     "            Link Width\n"
                                     "                Max                           : 16x\n"
                                     "                Current                       : 8x\n"
                                     "        Processes                             : None\n";

static void query_pasted_as_a_code_block(void **state)
{
    (void)state;
    json_t *doc = import_text(indented_query, LS_FMT_SMI_QUERY);
    json_t *g = json_array_get(json_object_get(doc, "gpus"), 0);
    assert_string_equal(ls_json_str(g, "pci_bus_id", ""), "00000000:12:00.0");
    assert_string_equal(ls_json_str(g, "name", ""), "NVIDIA A100-PCIE-40GB");
    assert_int_equal(ls_json_int(json_object_get(g, "pcie"), "width_current", -1), 8);
    assert_string_equal(ls_json_str(json_object_get(doc, "software"), "driver", ""), "555.42.02");
    json_t *f = ls_findings(doc);
    assert_int_equal(count(f, "pcie_downtrained", "warning"), 1);
    json_decref(f);
    json_decref(doc);
}

/* `nvidia-smi -q -d PERFORMANCE`: GPU lines, no Product Name; a throttle reason read
   (the twin: the same with it Not Active stays quiet). */
static void query_sections_under_a_gpu_line_without_a_name(void **state)
{
    (void)state;
    const char *fmt = "$ nvidia-smi -q -d PERFORMANCE\n"
                      "GPU 00000000:8A:00.0\n"
                      "    Performance State                     : P0\n"
                      "    Clocks Event Reasons\n"
                      "        Idle                              : Not Active\n"
                      "        SW Power Cap                      : Not Active\n"
                      "        HW Slowdown                       : %s\n"
                      "            HW Thermal Slowdown           : %s\n"
                      "            HW Power Brake Slowdown       : Not Active\n"
                      "        SW Thermal Slowdown               : Not Active\n";
    char text[1024];
    snprintf(text, sizeof text, fmt, "Active", "Active");
    json_t *doc = import_text(text, LS_FMT_SMI_QUERY);
    json_t *g = json_array_get(json_object_get(doc, "gpus"), 0);
    assert_string_equal(ls_json_str(g, "pci_bus_id", ""), "00000000:8a:00.0");
    assert_null(json_object_get(g, "name"));
    json_t *f = ls_findings(doc);
    assert_true(loud(f) >= 1);
    json_decref(f);
    json_decref(doc);
    snprintf(text, sizeof text, fmt, "Not Active", "Not Active");
    doc = import_text(text, LS_FMT_SMI_QUERY);
    f = ls_findings(doc);
    assert_int_equal(loud(f), 0);
    json_decref(f);
    json_decref(doc);
}

/* A middle piece of a GPU block without its GPU line, over the sections -q prints
   between the memory use and the ECC counters (Encoder Stats, FBC Stats, the older
   drivers' "Ecc Mode", ECC Errors' Volatile and Aggregate) and cut inside a key: read as
   one GPU's sections, not refused; the counts under Volatile are the volatile ones. */
static void query_excerpt_encoder_ecc_sections(void **state)
{
    (void)state;
    const char *text = "        Display Clock Setting       : Not Active\n"
                       "    Compute Mode                    : Default\n"
                       "    Encoder Stats\n"
                       "        Active Sessions             : 0\n"
                       "        Average FPS                 : 0\n"
                       "    FBC Stats\n"
                       "        Active Sessions             : 0\n"
                       "        Average Latency             : 0\n"
                       "    Ecc Mode\n"
                       "        Current                     : Enabled\n"
                       "        Pending                     : Enabled\n"
                       "    ECC Errors\n"
                       "        Volatile\n"
                       "            DRAM Correctable        : 5\n"
                       "            DRAM Uncorrectable      : 0\n"
                       "        Aggregate\n"
                       "            DRAM Correctable        :\n";
    json_t *doc = import_text(text, LS_FMT_SMI_QUERY);
    json_t *ecc = json_object_get(json_array_get(json_object_get(doc, "gpus"), 0), "ecc");
    assert_true(json_is_true(json_object_get(ecc, "enabled")));
    assert_int_equal(ls_json_int(ecc, "volatile_corrected", -1), 5);
    assert_int_equal(ls_json_int(ecc, "volatile_uncorrected", -1), 0);
    assert_null(json_object_get(ecc, "aggregate_corrected")); /* cut: no value */
    json_decref(doc);
}

/* Readings no GPU gives (a clock of 1e64 MHz, a negative or infinite ECC count, as a
   fuzzer wrote them): not kept, nothing undefined; the twin's plain ones are. */
static void query_readings_out_of_range_are_not_kept(void **state)
{
    (void)state;
    const char *fmt = "==============NVSMI LOG==============\n"
                      "GPU 00000000:68:00.0\n"
                      "    Product Name                          : NVIDIA A100-SXM4-80GB\n"
                      "    Max Clocks\n"
                      "        SM                                : %s MHz\n"
                      "    ECC Errors\n"
                      "        Volatile\n"
                      "            DRAM Uncorrectable            : %s\n";
    char text[1024];
    snprintf(text, sizeof text, fmt,
             "14900000000000000000000000000000000000000000000000000000000000000", "-inf");
    json_t *doc = import_text(text, LS_FMT_SMI_QUERY);
    json_t *g = json_array_get(json_object_get(doc, "gpus"), 0);
    assert_null(json_object_get(json_object_get(g, "clocks"), "sm_max_mhz"));
    assert_int_equal(ls_json_int(json_object_get(g, "ecc"), "volatile_uncorrected", -1), -1);
    json_decref(doc);
    snprintf(text, sizeof text, fmt, "1410", "2");
    doc = import_text(text, LS_FMT_SMI_QUERY);
    g = json_array_get(json_object_get(doc, "gpus"), 0);
    assert_int_equal(ls_json_int(json_object_get(g, "clocks"), "sm_max_mhz", -1), 1410);
    assert_int_equal(ls_json_int(json_object_get(g, "ecc"), "volatile_uncorrected", -1), 2);
    json_decref(doc);
}

/* nvidia-smi -q's fields NVML could not read for the GPU's own error ("Unknown Error"):
   one is gpu_read_error (info), three of a GPU whose name reads gpu_read_error (error,
   reset: the GPU is reached, its queries fail), the name among them gpu_lost, as the
   table's ERR! cells; "Not Supported" and "N/A" are the field's own answer and stay quiet. */
static void query_unknown_error_values(void **state)
{
    (void)state;
    const char *fmt = "==============NVSMI LOG==============\n"
                      "GPU 00000000:00:16.0\n"
                      "    Product Name                          : %s\n"
                      "    Product Brand                         : %s\n"
                      "    Serial Number                         : %s\n"
                      "    VBIOS Version                         : %s\n";
    const char *values[][4] = {{"NVIDIA A10G", "Unknown Error", "1234", "94.02"},
                               {"NVIDIA A10G", "Unknown Error", "Unknown Error", "Unknown Error"},
                               {"Unknown Error", "Unknown Error", "Unknown Error", "1234"},
                               {"NVIDIA A10G", "Not Supported", "N/A", "94.02"}};
    const char *rule[] = {"gpu_read_error", "gpu_read_error", "gpu_lost", NULL};
    const char *other[] = {"gpu_lost", "gpu_lost", "gpu_read_error", "gpu_lost"};
    const char *sev[] = {"info", "error", "error", NULL};
    for (int i = 0; i < 4; i++) {
        char text[1024];
        snprintf(text, sizeof text, fmt, values[i][0], values[i][1], values[i][2], values[i][3]);
        json_t *doc = import_text(text, LS_FMT_SMI_QUERY);
        json_t *f = ls_findings(doc);
        if (rule[i]) {
            const json_t *x = ls_test_finding(f, rule[i]);
            assert_non_null(x);
            assert_string_equal(ls_json_str(x, "severity", ""), sev[i]);
            if (i)
                assert_string_equal(ls_json_str(x, "node_action", ""), "reset");
        } else
            assert_null(
                json_object_get(json_array_get(json_object_get(doc, "gpus"), 0), "smi_err"));
        assert_null(ls_test_finding(f, other[i]));
        json_decref(f);
        json_decref(doc);
    }
}

/* nvbandwidth piped through `grep SUM`: totals only, refused in one line saying so; the
   twin, a SUM line under its matrix, imports the pairs. */
static void nvbandwidth_sum_lines_alone(void **state)
{
    (void)state;
    const char *sums = "SUM host_to_device_memcpy_ce 845.90\nSUM device_to_device_memcpy_read_ce "
                       "9222.82\n";
    assert_int_equal(ls_import_detect(sums), LS_FMT_NVBANDWIDTH);
    json_t *doc = ls_import_doc_new();
    char err[512] = "";
    assert_true(ls_import_text(doc, sums, "sums.txt", NULL, NULL, err, sizeof err) < 0);
    assert_non_null(strstr(err, "looks like nvbandwidth's SUM lines alone (2 per-test totals"));
    assert_null(strchr(err, '\n'));
    json_decref(doc);
    doc = import_text("memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)\n"
                      "           0         1\n"
                      " 0       N/A    370.90\n"
                      " 1    370.38       N/A\n"
                      "\n"
                      "SUM device_to_device_memcpy_read_ce 741.28\n",
                      LS_FMT_NVBANDWIDTH);
    assert_int_equal(json_array_size(json_object_get(doc, "measurements")), 2);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(all_inactive_on_an_sxm_part_is_an_error),
        cmocka_unit_test(all_inactive_on_a_bridged_pcie_part_is_no_bridge),
        cmocka_unit_test(all_inactive_on_a_part_without_nvlink_says_nothing),
        cmocka_unit_test(all_inactive_on_an_unknown_part_is_a_warning_beside_active_links),
        cmocka_unit_test(link_lines_without_their_gpu_line),
        cmocka_unit_test(health_check_message),
        cmocka_unit_test(query_pasted_as_a_code_block),
        cmocka_unit_test(query_sections_under_a_gpu_line_without_a_name),
        cmocka_unit_test(query_readings_out_of_range_are_not_kept),
        cmocka_unit_test(query_unknown_error_values),
        cmocka_unit_test(query_excerpt_encoder_ecc_sections),
        cmocka_unit_test(nvbandwidth_sum_lines_alone),
        cmocka_unit_test(nvlink_numbers_past_an_int_name_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
