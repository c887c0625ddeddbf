/* NICs as inventory (issue 18) on the sysfs fixture tree (tests/fixtures/sysfs,
   make-two-socket.sh): board id, PCIe generation and width, NUMA node, the GPUs by link
   word from each NIC, GPUDirect RDMA readiness (peermem, dma-buf), and what NCCL logs
   say about the NICs (net devices, [RO], GDR). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "discover/discover.h"
#include "discover/nics.h"
#include "helpers.h"
#include "import/nccl_log.h"
#include "model/doc.h"
#include "model/nic_view.h"
#include "util/fileio.h"
#include "util/log.h"

static json_t *discover_tree(void)
{
    json_t *doc = ls_doc_new();
    ls_discover_opts_t opts = {ls_fixture("sysfs/two-socket"), 0, 0};
    ls_discover(doc, &opts);
    return doc;
}

static const json_t *nic(const json_t *doc, size_t i)
{
    return json_array_get(json_object_get(doc, "nics"), i);
}

static void board_id_and_pcie_link(void **state)
{
    (void)state;
    json_t *doc = discover_tree();
    const char *boards[] = {"MT_0000000838", "MT_0000000359", "MT_0000000834"};
    const int gen[] = {5, 4, 4}, width[] = {16, 8, 16}, gen_max[] = {5, 4, 5}, numa[] = {0, 0, 1};
    for (size_t i = 0; i < 3; i++) {
        const json_t *pcie = json_object_get(nic(doc, i), "pcie");
        assert_string_equal(ls_json_str(nic(doc, i), "board_id", ""), boards[i]);
        assert_int_equal(ls_json_int(pcie, "gen", 0), gen[i]);
        assert_int_equal(ls_json_int(pcie, "width", 0), width[i]);
        assert_int_equal(ls_json_int(pcie, "gen_max", 0), gen_max[i]);
        assert_int_equal(ls_json_int(pcie, "width_max", 0), 16);
        assert_int_equal(ls_json_int(nic(doc, i), "numa_node", -9), numa[i]);
    }
    json_decref(doc);
}

static void pcie_speed_words(void **state)
{
    (void)state;
    assert_int_equal(ls_pcie_gen_of_speed("2.5 GT/s"), 1);
    assert_int_equal(ls_pcie_gen_of_speed("8 GT/s"), 3);
    assert_int_equal(ls_pcie_gen_of_speed("32.0 GT/s PCIe"), 5);
    assert_int_equal(ls_pcie_gen_of_speed("64.0 GT/s PCIe"), 6);
    assert_int_equal(ls_pcie_gen_of_speed("Unknown"), 0);
    assert_int_equal(ls_pcie_gen_of_speed("12 GT/s"), 0);
}

/* gpus_by_link[word] of a NIC as "0,1" */
static void gpus_text(const json_t *doc, size_t n, const char *word, char *buf, size_t len)
{
    size_t i;
    const json_t *g;
    buf[0] = '\0';
    json_array_foreach(json_object_get(json_object_get(nic(doc, n), "gpus_by_link"), word), i, g) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%lld", i ? "," : "", (long long)json_integer_value(g));
    }
}

static void gpus_grouped_by_link_word(void **state)
{
    (void)state;
    json_t *doc = discover_tree();
    char buf[64];
    /* the same words as gpu_nic_links (test_discover_sysfs.c), grouped per NIC */
    const char *expect[][3] = {{"0", "PIX", "0,1"}, {"0", "PXB", "2"}, {"0", "NODE", "3"},
                               {"0", "SYS", "4,5"}, {"1", "PHB", "3"}, {"1", "NODE", "0,1,2"},
                               {"2", "PIX", "4"},   {"2", "PHB", "5"}, {"2", "SYS", "0,1,2,3"}};
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        gpus_text(doc, (size_t)atoi(expect[i][0]), expect[i][1], buf, sizeof buf);
        if (strcmp(buf, expect[i][2]) != 0)
            fail_msg("NIC%s %s: got '%s', expected '%s'", expect[i][0], expect[i][1], buf,
                     expect[i][2]);
    }
    json_decref(doc);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A root with only /proc: osrelease, modules and the NVIDIA driver's version line. */
static const char *fake_proc(const char *name, const char *kernel, const char *modules,
                             const char *nvidia)
{
    static char dir[512];
    char path[700];
    snprintf(dir, sizeof dir, "%s", ls_tmp_path(name));
    const char *dirs[] =
        {"", "/proc", "/proc/sys", "/proc/sys/kernel", "/proc/driver", "/proc/driver/nvidia"};
    for (size_t i = 0; i < 6; i++) {
        snprintf(path, sizeof path, "%s%s", dir, dirs[i]);
        mkdir(path, 0755);
    }
    snprintf(path, sizeof path, "%s/proc/sys/kernel/osrelease", dir);
    write_file(path, kernel);
    snprintf(path, sizeof path, "%s/proc/modules", dir);
    write_file(path, modules);
    if (nvidia) {
        snprintf(path, sizeof path, "%s/proc/driver/nvidia/version", dir);
        write_file(path, nvidia);
    }
    return dir;
}

static void gpudirect_readiness(void **state)
{
    (void)state;
    json_t *doc = discover_tree();
    const json_t *gdr = json_object_get(json_object_get(doc, "software"), "gpudirect_rdma");
    assert_string_equal(ls_json_str(gdr, "ready", ""), "nvidia_peermem");
    assert_true(json_is_true(json_object_get(gdr, "kernel_dmabuf")));
    assert_true(json_is_true(json_object_get(gdr, "nvidia_open")));
    json_decref(doc);

    const char *open = "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.124.06\n";
    const char *closed = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05\n";
    const char *mods = "nvidia 11661312 2 - Live 0x0\n";
    json_t *g = ls_gpudirect_json(fake_proc("dmabuf", "6.5.0-1\n", mods, open), 2);
    assert_string_equal(ls_json_str(g, "ready", ""), "dma-buf");
    assert_true(json_is_true(json_object_get(g, "possible")));
    assert_true(json_is_null(json_object_get(g, "module")));
    json_decref(g);
    g = ls_gpudirect_json(fake_proc("oldkernel", "5.4.0-150-generic\n", mods, open), 2);
    assert_string_equal(ls_json_str(g, "ready", ""), "no");
    assert_false(json_is_true(json_object_get(g, "possible")));
    json_decref(g);
    g = ls_gpudirect_json(fake_proc("closed", "6.5.0\n", mods, closed), 2);
    assert_string_equal(ls_json_str(g, "ready", ""), "no");
    json_decref(g);
    g = ls_gpudirect_json(fake_proc("nodriver", "6.5.0\n", mods, NULL), 2);
    assert_string_equal(ls_json_str(g, "ready", ""), "unknown"); /* never guessed */
    assert_true(json_is_null(json_object_get(g, "nvidia_open")));
    json_decref(g);
}

/* An NCCL log imported into the fixture machine's document: mlx5_0 and mlx5_1 used,
   relaxed ordering on, GDR disabled for mlx5_0, used for mlx5_1 by its connections. */
static void nccl_view_of_the_nics(void **state)
{
    (void)state;
    json_t *doc = discover_tree();
    const char *log = "n1:1:2 [0] NCCL INFO NCCL version 2.28.9+cuda13.0\n"
                      "n1:1:2 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; "
                      "OOB ib0:10.0.0.1<0>\n"
                      "n1:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'\n"
                      "n1:1:2 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via "
                      "NET/IB/1/GDRDMA\n"
                      "n1:1:2 [0] NCCL INFO Connected all rings, use ring PXN 0 GDR 1\n";
    char err[256];
    assert_int_equal(ls_import_nccl_log(doc, log, "nccl.log", err, sizeof err), 0);
    const json_t *v0 = json_object_get(nic(doc, 0), "nccl"),
                 *v1 = json_object_get(nic(doc, 1), "nccl");
    assert_non_null(v0);
    assert_non_null(v1);
    assert_null(json_object_get(nic(doc, 2), "nccl")); /* mlx5_2: not in the log */
    assert_false(json_is_true(json_object_get(v0, "gdr")));
    assert_true(json_is_true(json_object_get(v1, "gdr")));
    assert_true(json_is_true(json_object_get(v0, "relaxed_ordering")));
    assert_string_equal(ls_json_str(v1, "link_layer", ""), "RoCE");
    assert_int_equal(ls_json_int(v1, "port", 0), 1);
    json_decref(doc);

    /* the seed-002 shape: "GDR 1" for the ring and no per-HCA line */
    doc = discover_tree();
    const char *ring = "n1:1:2 [0] NCCL INFO NET/IB : Using [0]mlx5_2:1/IB ; OOB ib0:10.0.0.1<0>\n"
                       "n1:1:2 [0] NCCL INFO Connected all rings, use ring PXN 0 GDR 1\n";
    assert_int_equal(ls_import_nccl_log(doc, ring, "ring.log", err, sizeof err), 0);
    const json_t *v2 = json_object_get(nic(doc, 2), "nccl");
    assert_true(json_is_true(json_object_get(v2, "gdr")));
    assert_false(json_is_true(json_object_get(v2, "relaxed_ordering")));
    json_decref(doc);
}

/* A collective linkscope ran: its captured log's facts on the entry (nccl/sweep_nccl.c
   calls ls_nccl_net_text), GDRDMA connections over HCA 0. */
static void nccl_view_from_a_measured_entry(void **state)
{
    (void)state;
    json_t *doc = discover_tree();
    json_t *e = json_pack("{s:s, s:s, s:[{s:s, s:b}]}", "family", "nccl", "id",
                          "nccl-all_reduce-default", "transports", "via", "NET/IB/0/GDRDMA",
                          "gdrdma", 1);
    ls_nccl_net_text("h:1:2 [0] NCCL INFO NET/IB : Using [0]mlx5_2:1/IB [RO]; OOB ib0:10.0.0.1<0>\n"
                     "h:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA\n",
                     e);
    ls_doc_add_measurement(doc, e);
    ls_nics_from_nccl(doc);
    const json_t *v = json_object_get(nic(doc, 2), "nccl");
    assert_non_null(v);
    assert_true(json_is_true(json_object_get(v, "gdr")));
    assert_true(json_is_true(json_object_get(v, "relaxed_ordering")));
    assert_string_equal(ls_json_str(v, "log", ""), "nccl-all_reduce-default");
    assert_null(json_object_get(nic(doc, 0), "nccl"));
    json_decref(doc);
}

int main(void)
{
    ls_log_quiet(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(board_id_and_pcie_link),
        cmocka_unit_test(pcie_speed_words),
        cmocka_unit_test(gpus_grouped_by_link_word),
        cmocka_unit_test(gpudirect_readiness),
        cmocka_unit_test(nccl_view_of_the_nics),
        cmocka_unit_test(nccl_view_from_a_measured_entry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
