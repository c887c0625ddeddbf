/* linkscope's discovery against nvidia-smi, field by field: name, bus id, memory, clocks,
   power limits, PCIe, persistence, ECC (--query-gpu), link types, CPU and NUMA affinity
   (topo -m), P2P read/write status (topo -p2p r|w) and NVLinks (nvlink -s). On H100/H200
   also the expected facts on H100/H200 SXM: PCIe Gen5 x16, 18 active links at 26.562 GB/s,
   NV18 between every pair.
   Skipped (77) where nvidia-smi or a GPU is missing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/busid.h"
#include "discover/cudadev.h"
#include "discover/discover.h"
#include "discover/nvml.h"
#include "helpers.h"
#include "measure/gpu.h"
#include "model/doc.h"
#include "util/log.h"

static json_t *doc;
static int compared, mismatches;

static void check(int ok, const char *what, const char *ours, const char *smi)
{
    compared++;
    if (!ok)
        mismatches++;
    printf("  %-44s linkscope %-22s nvidia-smi %-22s %s\n", what, ours, smi, ok ? "ok" : "MISMATCH");
}

/* Runs a command and returns its whole output (static buffer), ANSI escapes removed. */
static char *run(const char *cmd)
{
    static char out[1 << 18];
    FILE *p = popen(cmd, "r");
    size_t n = 0;
    if (!p)
        return NULL;
    n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    if (pclose(p) != 0)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (out[i] == 0x1b && out[i + 1] == '[') { /* ESC [ ... letter */
            i += 2;
            while (i < n && !isalpha((unsigned char)out[i]))
                i++;
            continue;
        }
        out[o++] = out[i];
    }
    out[o] = '\0';
    return out;
}

static json_t *gpu(int i) { return json_array_get(json_object_get(doc, "gpus"), (size_t)i); }

static const char *link_type(int a, int b)
{
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(doc, "links"), i, l)
    {
        if (ls_json_int(l, "a", -1) == a && ls_json_int(l, "b", -1) == b)
            return ls_json_str(l, "type", "?");
    }
    return "?";
}

static const char *link_p2p(int a, int b, const char *key)
{
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(doc, "links"), i, l)
    {
        if (ls_json_int(l, "a", -1) == a && ls_json_int(l, "b", -1) == b)
            return ls_json_str(l, key, "?");
    }
    return "?";
}

static void check_num(const char *what, double ours, const char *smi, double tolerance)
{
    char o[32];
    snprintf(o, sizeof o, "%g", ours);
    char *end;
    double s = strtod(smi, &end);
    check(end != smi && fabs(ours - s) <= tolerance, what, o, smi);
}

/* --query-gpu: one CSV row per GPU. */
static void compare_query(void)
{
    const char *fields = "index,name,pci.bus_id,memory.total,clocks.max.sm,clocks.max.memory,"
                         "clocks.applications.graphics,clocks.applications.memory,power.limit,"
                         "power.default_limit,pcie.link.gen.max,pcie.link.width.max,persistence_mode,"
                         "ecc.mode.current";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "nvidia-smi --query-gpu=%s --format=csv,noheader,nounits", fields);
    char *out = run(cmd);
    assert_non_null(out);
    printf("nvidia-smi --query-gpu=%s\n", fields);
    char *save = NULL;
    for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *f[16];
        int n = 0;
        char *s2 = NULL;
        for (char *t = strtok_r(line, ",", &s2); t && n < 16; t = strtok_r(NULL, ",", &s2)) {
            while (*t == ' ')
                t++;
            f[n++] = t;
        }
        if (n < 14)
            continue;
        int i = atoi(f[0]);
        json_t *g = gpu(i);
        assert_non_null(g);
        char what[64], bus[32];
        printf(" GPU %d\n", i);
        check(strcmp(ls_json_str(g, "name", ""), f[1]) == 0, "name", ls_json_str(g, "name", "-"), f[1]);
        ls_busid_normalize(f[2], bus, sizeof bus);
        check(strcmp(ls_json_str(g, "pci_bus_id", ""), bus) == 0, "pci bus id", ls_json_str(g, "pci_bus_id", "-"), f[2]);
        check_num("memory.total MiB", (double)(ls_json_int(g, "memory_total_bytes", 0) / (1024 * 1024)), f[3], 0.5);
        json_t *clk = json_object_get(g, "clocks");
        check_num("clocks.max.sm MHz", ls_json_num(clk, "sm_max_mhz", -1), f[4], 0.5);
        check_num("clocks.max.memory MHz", ls_json_num(clk, "mem_max_mhz", -1), f[5], 0.5);
        check_num("clocks.applications.graphics MHz", ls_json_num(clk, "sm_app_mhz", -1), f[6], 0.5);
        check_num("clocks.applications.memory MHz", ls_json_num(clk, "mem_app_mhz", -1), f[7], 0.5);
        json_t *pw = json_object_get(g, "power");
        check_num("power.limit W", ls_json_num(pw, "limit_w", -1), f[8], 0.5);
        check_num("power.default_limit W", ls_json_num(pw, "default_limit_w", -1), f[9], 0.5);
        json_t *pcie = json_object_get(g, "pcie");
        check_num("pcie.link.gen.max", ls_json_num(pcie, "gen_max", -1), f[10], 0);
        check_num("pcie.link.width.max", ls_json_num(pcie, "width_max", -1), f[11], 0);
        snprintf(what, sizeof what, "%s", json_is_true(json_object_get(g, "persistence_mode")) ? "Enabled" : "Disabled");
        check(strcmp(what, f[12]) == 0, "persistence_mode", what, f[12]);
        snprintf(what, sizeof what, "%s",
                 json_is_true(json_object_get(json_object_get(g, "ecc"), "enabled")) ? "Enabled" : "Disabled");
        check(strcmp(what, f[13]) == 0, "ecc.mode.current", what, f[13]);
    }
}

/* topo -m and topo -p2p r|w: a matrix whose rows start with GPU<n>. */
static void compare_matrix(const char *cmd, const char *key)
{
    char *out = run(cmd);
    assert_non_null(out);
    int ngpus = (int)json_array_size(json_object_get(doc, "gpus"));
    int nnics = (int)json_array_size(json_object_get(doc, "nics"));
    printf("%s\n", cmd);
    char *save = NULL;
    for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        /* The header row starts with white space ("\tGPU0\tGPU1\tCPU Affinity..."); with
           one GPU its second word is "CPU", not a link type, so test the indent first. */
        if (isspace((unsigned char)line[0]))
            continue;
        char *tok[128];
        int n = 0;
        char *s2 = NULL;
        for (char *t = strtok_r(line, " \t", &s2); t && n < 128; t = strtok_r(NULL, " \t", &s2))
            tok[n++] = t;
        if (n < 2 || strncmp(tok[0], "GPU", 3) != 0 || !isdigit((unsigned char)tok[0][3]))
            continue;
        if (strncmp(tok[1], "GPU", 3) == 0 || strncmp(tok[1], "NIC", 3) == 0 ||
            strcmp(tok[1], "CPU") == 0)
            continue; /* a header row that was not indented */
        int a = atoi(tok[0] + 3);
        for (int b = 0; b < ngpus && b + 1 < n; b++) {
            if (a == b)
                continue;
            char what[64];
            const char *ours = key ? link_p2p(a, b, key) : link_type(a, b);
            snprintf(what, sizeof what, "%s GPU%d-GPU%d", key ? key : "link", a, b);
            check(strcmp(ours, tok[1 + b]) == 0, what, ours, tok[1 + b]);
        }
        if (!key && n >= 1 + ngpus + nnics + 2) {
            json_t *g = gpu(a);
            const char *cpu = tok[1 + ngpus + nnics], *numa = tok[2 + ngpus + nnics];
            check(strcmp(ls_json_str(g, "cpu_affinity", ""), cpu) == 0, "CPU affinity",
                  ls_json_str(g, "cpu_affinity", "-"), cpu);
            check(strcmp(ls_json_str(g, "numa_affinity", ""), numa) == 0, "NUMA affinity",
                  ls_json_str(g, "numa_affinity", "-"), numa);
        }
    }
}

/* nvlink -s: "GPU 0: NAME (UUID: ...)" then "\t Link 3: 26.562 GB/s" or "<inactive>". */
static void compare_nvlinks(void)
{
    char *out = run("nvidia-smi nvlink -s");
    assert_non_null(out);
    printf("nvidia-smi nvlink -s\n");
    int g = -1, active[64] = {0};
    double rate[64] = {0};
    char *save = NULL;
    for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        while (isspace((unsigned char)*line))
            line++;
        if (strncmp(line, "GPU ", 4) == 0)
            g = atoi(line + 4);
        else if (g >= 0 && g < 64 && strncmp(line, "Link ", 5) == 0) {
            char *colon = strchr(line, ':');
            double r = colon ? strtod(colon + 1, NULL) : 0;
            if (r > 0) {
                active[g]++;
                rate[g] = r;
            }
        }
    }
    for (int i = 0; i <= g && i < 64; i++) {
        json_t *links = json_object_get(gpu(i), "nvlinks");
        size_t k;
        json_t *l;
        int ours = 0;
        double our_rate = 0;
        json_array_foreach(links, k, l)
        {
            if (json_is_true(json_object_get(l, "active"))) {
                ours++;
                our_rate = ls_json_num(l, "gbps", 0);
            }
        }
        char what[64], o[32], s[32];
        snprintf(what, sizeof what, "GPU%d active NVLinks", i);
        snprintf(o, sizeof o, "%d", ours);
        snprintf(s, sizeof s, "%d", active[i]);
        check(ours == active[i], what, o, s);
        snprintf(what, sizeof what, "GPU%d NVLink GB/s per link", i);
        snprintf(o, sizeof o, "%.3f", our_rate);
        snprintf(s, sizeof s, "%.3f", rate[i]);
        check(active[i] == 0 || fabs(our_rate - rate[i]) < 0.0015, what, o, s);
    }
}

static int active_nvlinks(const json_t *g)
{
    size_t k;
    json_t *l;
    int n = 0;
    json_array_foreach(json_object_get(g, "nvlinks"), k, l)
    {
        n += json_is_true(json_object_get(l, "active"));
    }
    return n;
}

/* Facts the issue names for the 2 x H200 machine (and any HGX H100/H200). */
static void hopper_expectations(void)
{
    int n = (int)json_array_size(json_object_get(doc, "gpus"));
    for (int i = 0; i < n; i++) {
        json_t *g = gpu(i);
        const char *name = ls_json_str(g, "name", "");
        /* SXM boards on an HGX baseboard (not the PCIe or NVL cards with bridges) */
        if (strcmp(name, "NVIDIA H200") != 0 && !strstr(name, "H100 80GB HBM3"))
            continue;
        json_t *pcie = json_object_get(g, "pcie");
        assert_int_equal(ls_json_int(pcie, "gen_max", 0), 5);
        assert_int_equal(ls_json_int(pcie, "width_max", 0), 16);
        assert_float_equal(ls_json_num(pcie, "theoretical_gbps", 0), 63.015, 0.01);
        /* A GPU alone in its machine (the 1 x H200 VM) has its NVLinks inactive, as
           nvidia-smi nvlink -s says and compare_nvlinks checked: no NVLink figure then. */
        if (active_nvlinks(g) > 0)
            assert_float_equal(ls_json_num(g, "nvlink_theoretical_gbps", 0), 18 * 26.562, 0.05);
        else
            printf("GPU%d: no active NVLink (alone in this machine): NVLink expectations skipped\n", i);
        assert_true(ls_json_num(g, "hbm_theoretical_gbps", 0) > 3000);
        /* Hopper runs host-to-device and device-to-host copies at once: CUDA reports
           two copy engines or more (cudaDevAttrAsyncEngineCount), which bidir_low reads */
        assert_true(ls_json_int(json_object_get(g, "cuda"), "async_engines", 0) >= 2);
        for (int j = 0; j < n; j++)
            if (j != i)
                assert_string_equal(link_type(i, j), "NV18");
    }
}

/* The live and counter functions the telemetry sampler uses. */
static void live_values(void)
{
    int n = ls_nvml_count();
    for (int i = 0; i < n; i++) {
        ls_nvml_live_t live;
        assert_int_equal(ls_nvml_live(i, &live), 0);
        assert_true(live.mem_mhz > 0);
        assert_true(live.power_w > 0);
        ls_nvlink_errors_t e;
        unsigned long long tx = 0, rx = 0;
        double ptx = -1, prx = -1;
        int erc = ls_nvml_nvlink_errors(i, &e), brc = ls_nvml_nvlink_bytes(i, &tx, &rx);
        int prc = ls_nvml_pcie_throughput(i, &ptx, &prx);
        printf("GPU%d live: sm %u MHz mem %u MHz app %u/%u power %.1f W temp %d C throttle 0x%llx; "
               "nvlink errors rc %d crc_flit %llu crc_data %llu replay %llu recovery %llu; nvlink "
               "bytes rc %d tx %llu rx %llu; pcie rc %d tx %.6f rx %.6f GB/s\n",
               i, live.sm_mhz, live.mem_mhz, live.sm_app_mhz, live.mem_app_mhz, live.power_w, live.temp_c,
               live.throttle_mask, erc, e.crc_flit, e.crc_data, e.replay, e.recovery, brc, tx, rx, prc, ptx, prx);
    }
}

static void inventory_agrees_with_nvidia_smi(void **state)
{
    (void)state;
    compare_query();
    compare_matrix("nvidia-smi topo -m", NULL);
    compare_matrix("nvidia-smi topo -p2p r", "p2p_read");
    compare_matrix("nvidia-smi topo -p2p w", "p2p_write");
    compare_nvlinks();
    live_values();
    printf("%d fields compared, %d mismatches\n", compared, mismatches);
    assert_true(compared > 10);
    assert_int_equal(mismatches, 0);
    hopper_expectations();
}

int main(void)
{
    char err[256];
    setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
    if (system("command -v nvidia-smi >/dev/null 2>&1") != 0) {
        printf("skipped: no nvidia-smi\n");
        return LS_TEST_SKIP;
    }
    if (ls_gpu_count(err, sizeof err) <= 0) {
        printf("skipped: %s\n", err);
        return LS_TEST_SKIP;
    }
    (void)ls_cudadev_anchor; /* keep the CUDA backend linked */
    const volatile int *anchor = &ls_cudadev_anchor;
    (void)*anchor;
    doc = ls_doc_new();
    ls_discover_opts_t opts = {NULL, 1, 1};
    ls_discover(doc, &opts);
    char *text = ls_doc_dumps(doc);
    const char *dump = getenv("LS_INVENTORY_DUMP");
    if (dump && *dump) {
        FILE *f = fopen(dump, "w");
        if (f) {
            fputs(text, f);
            fclose(f);
        }
    }
    free(text);
    const struct CMUnitTest tests[] = {cmocka_unit_test(inventory_agrees_with_nvidia_smi)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    json_decref(doc);
    return rc;
}
