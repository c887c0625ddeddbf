/* p2pBandwidthLatencyTest pastes against the P2P rules (analyze/rules_p2p.c) where a
   figure alone would mislead: peer access missing by the platform's design against a GPU
   that reaches no peer; P2P no faster than staged where the latencies show the direct
   path; a bidirectional figure whose repeat from the other end is not low; pairs whose
   links are of no known kind not compared with each other. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analyze/analyze.h"
#include "helpers.h"
#include "import/import.h"
#include "model/doc.h"

/* The test's head for n GPUs (4 at most) named name, then the access lines: access[a][b]
   1 or 0. */
static void head(char *buf, size_t len, const char *name, int n, const int access[4][4])
{
    size_t used = (size_t)snprintf(buf, len, "[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]\n");
    for (int g = 0; g < n; g++)
        used += (size_t)snprintf(buf + used, len - used,
                                 "Device: %d, %s, pciBusID: %x, pciDeviceID: 0, pciDomainID:0\n", g,
                                 name, 0x1a + g * 0x10);
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            if (a != b)
                used += (size_t)snprintf(buf + used, len - used,
                                         "Device=%d %s Access Peer Device=%d\n", a,
                                         access[a][b] ? "CAN" : "CANNOT", b);
}

/* Two islands (0-1, 2-3) with no access between them: each GPU reaches a peer. */
static const int islands[4][4] = {{1, 1, 0, 0}, {1, 1, 0, 0}, {0, 0, 1, 1}, {0, 0, 1, 1}};
/* GPU 3 reaches no GPU; 0-2 reach each other. */
static const int one_alone[4][4] = {{1, 1, 1, 0}, {1, 1, 1, 0}, {1, 1, 1, 0}, {0, 0, 0, 1}};

/* p2p_unavailable on n GPUs named name with the access lines of access: at severity sev,
   its message holding word. */
static void unavailable(const char *name, const int access[4][4], const char *sev, const char *word)
{
    char text[4096];
    head(text, sizeof text, name, 4, access);
    json_t *doc = ls_test_import_text(text, LS_FMT_P2P_SAMPLE);
    ls_test_fires(doc, "p2p_unavailable", sev, "", word);
    json_decref(doc);
}

static void p2p_unavailable_by_design(void **state)
{
    (void)state;
    unavailable("Tesla V100-SXM2-16GB", islands, "info", "the platform's design");
    unavailable("Tesla V100-SXM2-16GB", one_alone, "warning", "0<->3");
    /* GeForce boards: the driver's policy, whichever GPU is left out */
    unavailable("NVIDIA GeForce RTX 4090", one_alone, "info", "GeForce");
    /* TITANs, the GeForce driver's other consumer brand: the same policy (fresh40's 8 x
       TITAN RTX with no pair of peers); data-center GPUs with none stay a warning */
    static const int none[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
    unavailable("TITAN RTX", none, "info", "TITAN");
    unavailable("Tesla V100-SXM2-16GB", none, "warning", "0<->1");
}

/* nvbandwidth's waived device-to-device testcase: by design on GeForce boards only. */
static void waived_by_design(void **state)
{
    (void)state;
    const char *fmt = "nvbandwidth Version: v0.8\n\nDevice 0: %s\nDevice 1: %s\n\n"
                      "Waiving device_to_device_memcpy_read_ce.\n\n";
    char text[1024];
    snprintf(text, sizeof text, fmt, "NVIDIA GeForce RTX 5090", "NVIDIA GeForce RTX 5090");
    json_t *doc = ls_test_import_text(text, LS_FMT_NVBANDWIDTH);
    ls_test_fires(doc, "p2p_unavailable", "info", "", "GeForce");
    json_decref(doc);

    snprintf(text, sizeof text, fmt, "NVIDIA GeForce RTX 5090", "NVIDIA RTX A6000");
    doc = ls_test_import_text(text, LS_FMT_NVBANDWIDTH);
    ls_test_fires(doc, "p2p_unavailable", "warning", "", "ACS");
    json_decref(doc);

    snprintf(text, sizeof text, fmt, "NVIDIA L40S", "NVIDIA L40S");
    doc = ls_test_import_text(text, LS_FMT_NVBANDWIDTH);
    ls_test_fires(doc, "p2p_unavailable", "warning", "", "ACS");
    json_decref(doc);
}

/* p2pBandwidthLatencyTest's matrices pasted with simpleP2P's run on the same pair: the
   matrices look healthy, simpleP2P's check of the data read over P2P fails. */
static void matrices_with_simple_p2p(void **state)
{
    (void)state;
    char text[8192];
    head(text, sizeof text, "NVIDIA GeForce RTX 4090", 2, islands);
    size_t used = strlen(text);
    snprintf(text + used, sizeof text - used,
             "Bidirectional P2P=Disabled Bandwidth Matrix (GB/s)\n"
             "   D\\D     0      1\n     0 916.96  30.98\n     1  30.75 922.65\n"
             "Bidirectional P2P=Enabled Bandwidth Matrix (GB/s)\n"
             "   D\\D     0      1\n     0 918.04  54.12\n     1  54.12 923.09\n"
             "[./simpleP2P] - Starting...\n"
             "Checking for multiple GPUs...\nCUDA-capable device count: 2\n"
             "Run kernel on GPU1, taking source data from GPU0 and writing to GPU1...\n"
             "Run kernel on GPU0, taking source data from GPU1 and writing to GPU0...\n"
             "Copy data back to host from GPU0 and verify results...\n"
             "Verification error @ element 1: val = 0.000000, ref = 4.000000\n"
             "Verification error @ element 2: val = 0.000000, ref = 8.000000\n"
             "Disabling peer access...\nShutting down...\nTest failed!\n");
    json_t *doc = ls_test_import_text(text, LS_FMT_P2P_SAMPLE);
    ls_test_fires(doc, "p2p_corrupt", "error", "isolate", "wrong");
    json_decref(doc);

    /* the matrices alone: nothing says the data is wrong */
    text[used] = '\0';
    snprintf(text + used, sizeof text - used,
             "Bidirectional P2P=Enabled Bandwidth Matrix (GB/s)\n"
             "   D\\D     0      1\n     0 918.04  54.12\n     1  54.12 923.09\n");
    doc = ls_test_import_text(text, LS_FMT_P2P_SAMPLE);
    ls_test_silent(doc, "p2p_corrupt");
    json_decref(doc);
}

/* Two GPUs with peer access, the one-way matrices (direct, staged) and, when latency is
   set, the two latency matrices: direct write lat_on us, staged lat_off us. */
static json_t *pair(double direct, double staged, double lat_on, double lat_off)
{
    char text[8192];
    head(text, sizeof text, "NVIDIA RTX A6000", 2, islands);
    size_t used = strlen(text);
    used += (size_t)snprintf(text + used, sizeof text - used,
                             "Unidirectional P2P=Disabled Bandwidth Matrix (GB/s)\n"
                             "   D\\D     0      1\n     0 700.00 %6.2f\n     1 %6.2f 700.00\n"
                             "Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)\n"
                             "   D\\D     0      1\n     0 700.00 %6.2f\n     1 %6.2f 700.00\n",
                             staged, staged, direct, direct);
    if (lat_on > 0)
        snprintf(text + used, sizeof text - used,
                 "P2P=Disabled Latency Matrix (us)\n"
                 "   GPU     0      1\n     0   1.00 %6.2f\n     1 %6.2f   1.00\n\n"
                 "   CPU     0      1\n     0   2.80   8.50\n     1   8.50   2.80\n"
                 "P2P=Enabled Latency (P2P Writes) Matrix (us)\n"
                 "   GPU     0      1\n     0   1.00 %6.2f\n     1 %6.2f   1.00\n\n"
                 "   CPU     0      1\n     0   2.80   2.30\n     1   2.30   2.80\n",
                 lat_off, lat_off, lat_on, lat_on);
    return ls_test_import_text(text, LS_FMT_P2P_SAMPLE);
}

static void p2p_no_gain_with_latency(void **state)
{
    (void)state;
    json_t *doc = pair(3.58, 3.51, 0.42, 18.2); /* the direct path shown, one limit */
    ls_test_fires(doc, "p2p_no_gain", "info", "", "takes the direct path");
    json_decref(doc);
    doc = pair(3.58, 3.51, 0, 0); /* no latencies: nothing shows the path */
    ls_test_fires(doc, "p2p_no_gain", "warning", "", "no faster than");
    json_decref(doc);
    doc = pair(11.5, 22.7, 1.1, 11.6); /* slower than staged: a fault whatever the path */
    ls_test_fires(doc, "p2p_no_gain", "warning", "", "slower than");
    json_decref(doc);
    doc = pair(3.58, 3.51, 9.0, 11.0); /* latencies alike: not shown */
    ls_test_fires(doc, "p2p_no_gain", "warning", "", "no faster than");
    json_decref(doc);
    doc = pair(24.6, 15.1, 1.1, 11.6); /* P2P gains: quiet */
    ls_test_silent(doc, "p2p_no_gain");
    json_decref(doc);
}

/* Two GPUs with the one-way matrix (25 each way) and the bidirectional one: ab measured
   from GPU0's end, ba from GPU1's. */
static json_t *bidir(double ab, double ba)
{
    char text[8192];
    head(text, sizeof text, "NVIDIA RTX A6000", 2, islands);
    size_t used = strlen(text);
    snprintf(text + used, sizeof text - used,
             "Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)\n"
             "   D\\D     0      1\n     0 700.00  25.00\n     1  25.00 700.00\n"
             "Bidirectional P2P=Enabled Bandwidth Matrix (GB/s)\n"
             "   D\\D     0      1\n     0 700.00 %6.2f\n     1 %6.2f 700.00\n",
             ab, ba);
    return ls_test_import_text(text, LS_FMT_P2P_SAMPLE);
}

static void bidir_low_repeats(void **state)
{
    (void)state;
    json_t *doc = bidir(20.0, 21.0); /* both repeats at 40% of the sum: the link */
    ls_test_fires(doc, "bidir_low", "warning", "", "is low too");
    assert_int_equal(ls_test_count(doc, "bidir_low"), 1); /* one finding for the pair */
    json_decref(doc);
    doc = bidir(20.0, 48.0); /* one low, its repeat not: not confirmed */
    ls_test_fires(doc, "bidir_low", "info", "", "rerun to confirm");
    json_decref(doc);
    doc = bidir(48.0, 49.0);
    ls_test_silent(doc, "bidir_low");
    json_decref(doc);
}

/* Four GPUs, every pair with peer access (the access lines are links of no known kind),
   the bidirectional matrix alone: one-link pairs at half the two-link pairs' figure, as a
   DGX-1's NVLink mesh gives, are not compared with them. */
static void bidir_unknown_links_not_compared(void **state)
{
    (void)state;
    static const int all[4][4] = {{1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}};
    char text[8192];
    head(text, sizeof text, "Tesla V100-SXM2-16GB", 4, all);
    size_t used = strlen(text);
    snprintf(text + used, sizeof text - used,
             "Bidirectional P2P=Enabled Bandwidth Matrix (GB/s)\n"
             "   D\\D     0      1      2      3\n"
             "     0 770.00  48.50  96.90  96.90\n"
             "     1  48.50 770.00  96.90  96.90\n"
             "     2  96.90  96.90 770.00  96.90\n"
             "     3  96.90  96.90  96.90 770.00\n");
    json_t *doc = ls_test_import_text(text, LS_FMT_P2P_SAMPLE);
    ls_test_silent(doc, "bidir_low");
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(p2p_unavailable_by_design),
        cmocka_unit_test(waived_by_design),
        cmocka_unit_test(matrices_with_simple_p2p),
        cmocka_unit_test(p2p_no_gain_with_latency),
        cmocka_unit_test(bidir_low_repeats),
        cmocka_unit_test(bidir_unknown_links_not_compared),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
