/* Discovery on a fake 2-socket tree (tests/fixtures/sysfs/two-socket, built by
   make-two-socket.sh): PCI paths, nvidia-smi link classes pair by pair, NUMA, NICs,
   GPUDirect RDMA, host facts, and a missing tree degrading with warnings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/busid.h"
#include "discover/discover.h"
#include "discover/nics.h"
#include "discover/sysfs.h"
#include "model/theory.h"
#include "helpers.h"
#include "model/doc.h"
#include "model/topo.h"
#include "util/log.h"

static const char *tree(void)
{
    return ls_fixture("sysfs/two-socket");
}

static json_t *discover_fake(const char *root)
{
    json_t *doc = ls_doc_new();
    ls_discover_opts_t opts = {root, 0, 0};
    ls_discover(doc, &opts);
    return doc;
}

static const char *link_word(const json_t *doc, const char *array, const char *ka, int a,
                             const char *kb, int b)
{
    size_t i;
    const json_t *l;
    json_array_foreach(json_object_get(doc, array), i, l) {
        if (ls_json_int(l, ka, -1) == a && ls_json_int(l, kb, -1) == b)
            return ls_json_str(l, "type", "?");
    }
    return "missing";
}

static void gpus_found_in_bus_order(void **state)
{
    (void)state;
    ls_pci_dev_t gpus[LS_MAX_GPUS];
    int n = ls_sysfs_gpus(tree(), gpus, LS_MAX_GPUS);
    assert_int_equal(n, 6); /* not the ASPEED VGA, not the NVSwitch-like bridge */
    const char *expect[] = {"0000:03:00.0", "0000:04:00.0", "0000:08:00.0",
                            "0000:21:00.0", "0000:83:00.0", "0000:85:00.0"};
    for (int i = 0; i < 6; i++)
        assert_string_equal(gpus[i].bus_id, expect[i]);
    /* GPU2 hangs below two switches */
    assert_string_equal(gpus[2].host_bridge, "pci0000:00");
    assert_int_equal(gpus[2].depth, 6);
    assert_string_equal(gpus[2].path[0], "0000:00:01.0");
    assert_string_equal(gpus[2].path[5], "0000:08:00.0");
    assert_int_equal(gpus[4].numa_node, 1);
    assert_string_equal(gpus[4].cpulist, "16-31,48-63");
}

static void gpu_pairs_classified_like_nvidia_smi(void **state)
{
    (void)state;
    json_t *doc = discover_fake(tree());
    /* expected[a][b] for GPU0..5 */
    const char *expected[6][6] = {
        {"X", "PIX", "PXB", "NODE", "SYS", "SYS"}, {"PIX", "X", "PXB", "NODE", "SYS", "SYS"},
        {"PXB", "PXB", "X", "NODE", "SYS", "SYS"}, {"NODE", "NODE", "NODE", "X", "SYS", "SYS"},
        {"SYS", "SYS", "SYS", "SYS", "X", "PHB"},  {"SYS", "SYS", "SYS", "SYS", "PHB", "X"},
    };
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 6; b++) {
            if (a == b)
                continue;
            const char *got = link_word(doc, "links", "a", a, "b", b);
            if (strcmp(got, expected[a][b]) != 0)
                fail_msg("GPU%d-GPU%d: got %s, expected %s", a, b, got, expected[a][b]);
        }
    assert_int_equal(json_array_size(json_object_get(doc, "links")), 30);
    json_decref(doc);
}

static void gpu_nic_pairs_classified(void **state)
{
    (void)state;
    json_t *doc = discover_fake(tree());
    /* NIC0 mlx5_0 socket 0 switch, NIC1 mlx5_1 second host bridge socket 0, NIC2 socket 1 */
    const char *expected[6][3] = {
        {"PIX", "NODE", "SYS"}, {"PIX", "NODE", "SYS"}, {"PXB", "NODE", "SYS"},
        {"NODE", "PHB", "SYS"}, {"SYS", "SYS", "PIX"},  {"SYS", "SYS", "PHB"},
    };
    for (int g = 0; g < 6; g++)
        for (int n = 0; n < 3; n++) {
            const char *got = link_word(doc, "gpu_nic_links", "gpu", g, "nic", n);
            if (strcmp(got, expected[g][n]) != 0)
                fail_msg("GPU%d-NIC%d: got %s, expected %s", g, n, got, expected[g][n]);
        }
    json_decref(doc);
}

static void gpu_objects_carry_numa_and_paths(void **state)
{
    (void)state;
    json_t *doc = discover_fake(tree());
    json_t *gpus = json_object_get(doc, "gpus");
    assert_int_equal(json_array_size(gpus), 6);
    json_t *g0 = json_array_get(gpus, 0), *g4 = json_array_get(gpus, 4);
    assert_string_equal(ls_json_str(g0, "label", ""), "GPU0");
    assert_string_equal(ls_json_str(g0, "pci_bus_id", ""), "00000000:03:00.0");
    assert_int_equal(ls_json_int(g0, "numa_node", -9), 0);
    assert_string_equal(ls_json_str(g0, "cpu_affinity", ""), "0-15,32-47");
    assert_string_equal(ls_json_str(g0, "numa_affinity", ""), "0");
    assert_int_equal(ls_json_int(g4, "numa_node", -9), 1);
    assert_string_equal(ls_json_str(g4, "numa_affinity", ""), "1");
    json_t *path = json_object_get(g0, "pci_path");
    assert_int_equal(json_array_size(path), 4);
    assert_string_equal(json_string_value(json_array_get(path, 1)), "0000:01:00.0");
    /* the document still validates */
    char err[256];
    assert_int_equal(ls_doc_validate(doc, err, sizeof err), 0);
    json_decref(doc);
}

static void nics_ports_and_gpudirect(void **state)
{
    (void)state;
    json_t *doc = discover_fake(tree());
    json_t *nics = json_object_get(doc, "nics");
    assert_int_equal(json_array_size(nics), 3);
    json_t *n0 = json_array_get(nics, 0), *n1 = json_array_get(nics, 1),
           *n2 = json_array_get(nics, 2);
    assert_string_equal(ls_json_str(n0, "name", ""), "mlx5_0");
    assert_string_equal(ls_json_str(n0, "label", ""), "NIC0");
    assert_string_equal(ls_json_str(n0, "pci_bus_id", ""), "00000000:05:00.0");
    assert_string_equal(ls_json_str(n0, "firmware", ""), "28.39.1002");
    assert_int_equal(ls_json_int(n0, "numa_node", -9), 0);
    json_t *p0 = json_array_get(json_object_get(n0, "ports"), 0);
    assert_string_equal(ls_json_str(p0, "state", ""), "ACTIVE");
    assert_float_equal(ls_json_num(p0, "rate_gbps", 0), 400.0, 1e-9);
    assert_string_equal(ls_json_str(p0, "link_layer", ""), "InfiniBand");
    assert_string_equal(ls_json_str(json_array_get(json_object_get(n1, "ports"), 0), "link_layer",
                                    ""),
                        "Ethernet");
    json_t *ports2 = json_object_get(n2, "ports");
    assert_int_equal(json_array_size(ports2), 2);
    assert_string_equal(ls_json_str(json_array_get(ports2, 1), "state", ""), "DOWN");
    assert_int_equal(ls_json_int(n2, "numa_node", -9), 1);
    json_t *gdr = json_object_get(json_object_get(doc, "software"), "gpudirect_rdma");
    assert_string_equal(ls_json_str(gdr, "module", ""), "nvidia_peermem");
    assert_true(json_is_true(json_object_get(gdr, "possible")));
    json_decref(doc);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void no_peermem_means_no_gpudirect(void **state)
{
    (void)state;
    char dir[512], proc[600], modules[640];
    snprintf(dir, sizeof dir, "%s", ls_tmp_path("nopeer"));
    snprintf(proc, sizeof proc, "%s/proc", dir);
    snprintf(modules, sizeof modules, "%s/modules", proc);
    mkdir(dir, 0755);
    mkdir(proc, 0755);
    write_file(modules, "nvidia 11661312 2 - Live 0x0\nnvidia_peermemx 1 0 - Live 0x0\n");
    assert_null(ls_gpudirect_module(dir));
    assert_string_equal(ls_gpudirect_module(tree()), "nvidia_peermem");
}

static void host_facts_from_tree(void **state)
{
    (void)state;
    json_t *doc = discover_fake(tree());
    json_t *host = json_object_get(doc, "host");
    assert_string_equal(ls_json_str(host, "hostname", ""), "fakehost-2s");
    assert_string_equal(ls_json_str(host, "kernel", ""), "6.8.0-fake");
    assert_string_equal(ls_json_str(host, "cpu_model", ""), "Intel(R) Xeon(R) Platinum 8480+");
    assert_int_equal(ls_json_int(host, "numa_nodes", 0), 2);
    assert_int_equal(ls_json_int(host, "cpus", 0), 64);
    json_t *n1 = json_array_get(json_object_get(host, "numa"), 1);
    assert_int_equal(ls_json_int(n1, "node", -1), 1);
    assert_string_equal(ls_json_str(n1, "cpus", ""), "16-31,48-63");
    json_decref(doc);
}

static int has_warning(const json_t *doc, const char *needle)
{
    size_t i;
    const json_t *w;
    json_array_foreach(json_object_get(json_object_get(doc, "software"), "warnings"), i, w) {
        if (strstr(json_string_value(w), needle))
            return 1;
    }
    return 0;
}

static void missing_tree_degrades_with_warnings(void **state)
{
    (void)state;
    json_t *doc = json_object();
    ls_discover_opts_t opts = {"/nonexistent/linkscope-root", 0, 0};
    assert_int_equal(ls_discover(doc, &opts), 0);
    assert_true(
        has_warning(doc, "sysfs: cannot read /nonexistent/linkscope-root/sys/bus/pci/devices"));
    assert_true(has_warning(doc, "host: nothing readable"));
    assert_int_equal(json_array_size(json_object_get(doc, "gpus")), 0);
    assert_int_equal(json_array_size(json_object_get(doc, "nics")), 0);
    assert_false(json_is_true(json_object_get(json_object_get(doc, "software"), "nvml")));
    json_decref(doc);
}

static void env_variables_recorded(void **state)
{
    (void)state;
    setenv("NCCL_LINKSCOPE_TEST", "7", 1);
    setenv("CUDA_LINKSCOPE_TEST", "x=y", 1);
    json_t *doc = discover_fake(tree());
    json_t *env = json_object_get(doc, "env");
    assert_string_equal(ls_json_str(env, "NCCL_LINKSCOPE_TEST", ""), "7");
    assert_string_equal(ls_json_str(env, "CUDA_LINKSCOPE_TEST", ""), "x=y");
    assert_null(json_object_get(env, "HOME"));
    unsetenv("NCCL_LINKSCOPE_TEST");
    unsetenv("CUDA_LINKSCOPE_TEST");
    json_decref(doc);
}

static void cpulists_and_bus_ids(void **state)
{
    (void)state;
    assert_int_equal(ls_cpulist_count("0-15,32-47"), 32);
    assert_int_equal(ls_cpulist_count("3"), 1);
    assert_int_equal(ls_cpulist_count("0-3,x"), -1);
    assert_int_equal(ls_cpulist_count("5-2"), -1);
    /* out of any real range: refused, not an overflowing count */
    assert_int_equal(ls_cpulist_count("0-99999999999999999999"), -1);
    assert_int_equal(ls_cpulist_count("0-2147483647"), -1);
    char buf[32];
    assert_int_equal(ls_busid_normalize("00000000:3B:00.0", buf, sizeof buf), 0);
    assert_string_equal(buf, "00000000:3b:00.0");
    assert_int_equal(ls_busid_normalize("0000:3b:00.0", buf, sizeof buf), 0);
    assert_string_equal(buf, "00000000:3b:00.0");
    assert_true(ls_busid_equal("0000:00:06.0", "00000000:00:06.0"));
    assert_false(ls_busid_equal("0000:00:06.0", "0000:00:07.0"));
    assert_int_equal(ls_busid_normalize("00:06", buf, sizeof buf), -1);
    assert_int_equal(ls_busid_normalize("0000:00:20.0", buf, sizeof buf), -1);
}

static void theoretical_peaks(void **state)
{
    (void)state;
    /* H200: 3201 MHz x 2 x 6144 bit / 8 = 4916.7 GB/s (4.92 TB/s) */
    assert_float_equal(ls_hbm_theoretical_gbps(3201, 6144), 4916.736, 1e-2);
    /* V100 PCIe 877 MHz, 4096 bit (seed 000) */
    assert_float_equal(ls_hbm_theoretical_gbps(877, 4096), 898.048, 1e-3);
    /* PCIe Gen5 x16: 32 GT/s x 16 x 128/130 / 8 = 63.015 GB/s; Gen3 x16 15.754; Gen2 x8 4 */
    assert_float_equal(ls_pcie_theoretical_gbps(5, 16), 63.0153846, 1e-4);
    assert_float_equal(ls_pcie_theoretical_gbps(3, 16), 15.7538461, 1e-4);
    assert_float_equal(ls_pcie_theoretical_gbps(2, 8), 4.0, 1e-9);
    assert_float_equal(ls_pcie_theoretical_gbps(0, 16), 0.0, 0);
    assert_float_equal(ls_nvlink_rate_by_version(4) * 18, 478.125, 1e-3);
    assert_int_equal(ls_nvlink_generation(6), 4); /* what H200 reports */
    assert_int_equal(ls_nvlink_generation(7), 5);
    assert_int_equal(ls_nvlink_generation(99), 0);
}

static void classify_edge_cases(void **state)
{
    (void)state;
    ls_pci_dev_t a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    /* a virtual machine: GPUs straight on the root bus of one host bridge */
    assert_int_equal(ls_pci_split_path("/sys/devices/pci0000:00/0000:00:05.0", &a), 0);
    assert_int_equal(ls_pci_split_path("/sys/devices/pci0000:00/0000:00:06.0", &b), 0);
    assert_int_equal(ls_pci_classify(&a, &b), LS_LINK_PHB);
    /* unknown path */
    b.depth = 0;
    assert_int_equal(ls_pci_classify(&a, &b), LS_LINK_NONE);
    /* different host bridges, NUMA unknown on both: NODE */
    assert_int_equal(ls_pci_split_path("/sys/devices/pci0000:80/0000:80:01.0/0000:81:00.0", &b), 0);
    a.numa_node = b.numa_node = -1;
    assert_int_equal(ls_pci_classify(&a, &b), LS_LINK_NODE);
    assert_int_equal(ls_pci_split_path("/sys/devices/platform/foo", &b), -1);
}

/* The document linkscope inventory --json wrote on the 2 x H200 machine reads back
   with its inventory and topology (tests/fixtures/discover/h200x2-inventory.json). */
static void real_h200_document_reads_back(void **state)
{
    (void)state;
    char err[512];
    json_t *doc = ls_doc_read(ls_fixture("discover/h200x2-inventory.json"), err, sizeof err);
    if (!doc)
        fail_msg("%s", err);
    ls_topo_t *topo = malloc(sizeof *topo);
    assert_non_null(topo);
    assert_int_equal(ls_topo_from_doc(doc, topo), 0);
    assert_int_equal(topo->ngpus, 2);
    assert_int_equal(topo->gpu_gpu[0][1].type, LS_LINK_NV);
    assert_int_equal(topo->gpu_gpu[0][1].nvlinks, 18);
    assert_int_equal(topo->p2p_read[1][0], LS_P2P_OK);
    json_t *g1 = json_array_get(json_object_get(doc, "gpus"), 1);
    assert_float_equal(ls_json_num(g1, "nvlink_theoretical_gbps", 0), 478.116, 1e-3);
    assert_float_equal(ls_json_num(json_object_get(g1, "pcie"), "theoretical_gbps", 0), 63.015,
                       1e-3);
    assert_int_equal(json_array_size(json_object_get(g1, "nvlinks")), 18);
    free(topo);
    json_decref(doc);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A GPU whose local_cpulist is longer than 63 characters (a 4-socket box with
   hyperthreads lists many ranges): cpu_affinity keeps all of it. */
static void long_cpu_affinity_kept_whole(void **state)
{
    (void)state;
    const char *cpus = "0-3,8-11,16-19,24-27,32-35,40-43,48-51,56-59,64-67,72-75,80-83,88-91,"
                       "96-99,104-107,112-115,120-123";
    char root[256], dev[512], path[640];
    snprintf(root, sizeof root, "%s", ls_tmp_path("longcpus"));
    snprintf(dev, sizeof dev, "%s/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0", root);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' '%s/sys/bus/pci/devices'", dev, root);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/class", dev);
    write_text(path, "0x030200\n");
    snprintf(path, sizeof path, "%s/vendor", dev);
    write_text(path, "0x10de\n");
    snprintf(path, sizeof path, "%s/numa_node", dev);
    write_text(path, "0\n");
    snprintf(path, sizeof path, "%s/local_cpulist", dev);
    write_text(path, cpus);
    snprintf(path, sizeof path, "%s/sys/bus/pci/devices/0000:01:00.0", root);
    assert_int_equal(symlink("../../../devices/pci0000:00/0000:00:01.0/0000:01:00.0", path), 0);
    ls_log_quiet(1);
    json_t *doc = discover_fake(root);
    ls_log_quiet(0);
    const json_t *g0 = json_array_get(json_object_get(doc, "gpus"), 0);
    assert_non_null(g0);
    assert_true(strlen(cpus) > 63);
    assert_string_equal(ls_json_str(g0, "cpu_affinity", ""), cpus);
    json_decref(doc);
}

/* A root of "/" is the real tree: links resolve (here /proc/self -> /proc/PID). */
static void root_slash_is_the_real_tree(void **state)
{
    (void)state;
    char out[256], plain[256];
    assert_int_equal(ls_sysfs_resolve("/", "/proc/self", out, sizeof out), 0);
    assert_int_equal(strncmp(out, "/proc/", 6), 0);
    assert_int_equal(ls_sysfs_resolve("", "/proc/self", plain, sizeof plain), 0);
    assert_string_equal(out, plain);
    /* a link out of a given tree is refused */
    char link[256];
    snprintf(link, sizeof link, "%s", ls_tmp_path("outlink"));
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/sys' && ln -sf /proc '%s/sys/out'", link, link);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(ls_sysfs_resolve(link, "/sys/out", out, sizeof out), -1);
}

int main(void)
{
    ls_log_quiet(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gpus_found_in_bus_order),
        cmocka_unit_test(gpu_pairs_classified_like_nvidia_smi),
        cmocka_unit_test(gpu_nic_pairs_classified),
        cmocka_unit_test(gpu_objects_carry_numa_and_paths),
        cmocka_unit_test(nics_ports_and_gpudirect),
        cmocka_unit_test(no_peermem_means_no_gpudirect),
        cmocka_unit_test(host_facts_from_tree),
        cmocka_unit_test(missing_tree_degrades_with_warnings),
        cmocka_unit_test(env_variables_recorded),
        cmocka_unit_test(cpulists_and_bus_ids),
        cmocka_unit_test(theoretical_peaks),
        cmocka_unit_test(classify_edge_cases),
        cmocka_unit_test(real_h200_document_reads_back),
        cmocka_unit_test(long_cpu_affinity_kept_whole),
        cmocka_unit_test(root_slash_is_the_real_tree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
