/* The host side of the measuring half: NUMA nodes, their CPUs and a GPU's node from a
   fake sysfs tree, node-bound allocation, and telemetry without NVML. */
#define _GNU_SOURCE /* cpu_set_t macros, before any system header */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "measure/numa.h"

#include <string.h>

#include "helpers.h"
#include "sample/telemetry.h"
#include "model/doc.h"

static void nodes_and_cpus_from_sysfs(void **state)
{
    (void)state;
    const char *root = ls_fixture("sysfs/two-socket");
    int nodes[LS_MAX_NODES];
    assert_int_equal(ls_numa_nodes(root, nodes, LS_MAX_NODES), 2);
    assert_int_equal(nodes[0], 0);
    assert_int_equal(nodes[1], 1);
    cpu_set_t set;
    assert_int_equal(ls_numa_node_cpus(root, 1, &set), 0);
    assert_int_equal(CPU_COUNT(&set), 32); /* 16-31,48-63 */
    assert_true(CPU_ISSET(16, &set) && CPU_ISSET(63, &set));
    assert_false(CPU_ISSET(0, &set) || CPU_ISSET(32, &set));
    assert_int_equal(ls_numa_node_cpus(root, 7, &set), -1);
    assert_int_equal(ls_numa_of_pci(root, "0000:86:00.0"), 1);
    assert_int_equal(ls_numa_of_pci(root, "0000:03:00.0"), 0);
    assert_int_equal(ls_numa_of_pci(root, "0000:ff:00.0"), -1);
    /* nothing there at all: node 0 */
    assert_int_equal(ls_numa_nodes("/nonexistent", nodes, LS_MAX_NODES), 1);
    assert_int_equal(nodes[0], 0);
}

static void node_bound_memory_is_usable(void **state)
{
    (void)state;
    int bound = -1;
    size_t len = 4u << 20;
    unsigned char *p = ls_numa_alloc(len, 0, &bound);
    assert_non_null(p);
    assert_true(bound == 0 || bound == 1); /* the kernel may refuse mbind in a container */
    assert_int_equal(p[0], 0x5a);          /* touched */
    assert_int_equal(p[len - 1], 0x5a);
    ls_numa_free(p, len);
}

/* The huge-page share of a host buffer, from /proc/self/smaps: the line of the mapping
   that holds the address (at its start or inside it), not the next mapping's
   ("Anonymous:" starts with a hex digit). */
static void huge_pages_from_smaps(void **state)
{
    (void)state;
    const char *smaps = "7f0000000000-7f0020000000 rw-p 00000000 00:00 0 \n"
                        "Size:             524288 kB\n"
                        "Anonymous:        524288 kB\n"
                        "AnonHugePages:    520192 kB\n"
                        "VmFlags: rd wr mr mw me ac hg\n"
                        "7f0020000000-7f0020001000 rw-p 00000000 00:00 0 \n"
                        "Size:                  4 kB\n"
                        "Anonymous:             4 kB\n"
                        "7f0030000000-7f0030200000 rw-p 00000000 00:00 0 \n"
                        "AnonHugePages:      2048 kB\n";
    assert_float_equal(ls_smaps_huge_share(smaps, (void *)0x7f0000000000ul), 520192.0 / 524288,
                       1e-9);
    assert_float_equal(ls_smaps_huge_share(smaps, (void *)0x7f0010000000ul), 520192.0 / 524288,
                       1e-9);
    assert_float_equal(ls_smaps_huge_share(smaps, (void *)0x7f0020000000ul), 0, 0);
    assert_float_equal(ls_smaps_huge_share(smaps, (void *)0x7f0030000000ul), 1, 1e-9);
    assert_float_equal(ls_smaps_huge_share(smaps, (void *)0x1000ul), -1, 0);
    /* live: linkscope's own node-bound buffer is listed (0 kB where THP is off) */
    int bound = -1;
    size_t len = 8u << 20;
    void *p = ls_numa_alloc(len, 0, &bound);
    assert_non_null(p);
    double share = ls_numa_huge_share(p);
    assert_true(share >= 0 && share <= 1);
    ls_numa_free(p, len);
}

static void telemetry_without_nvml_says_so(void **state)
{
    (void)state;
    char err[256] = "";
    if (ls_telemetry_available(err, sizeof err)) {
        skip(); /* a machine with a driver: covered by the GPU tests */
        return;
    }
    int gpus[2] = {0, 1}, nvml[2] = {-1, -1};
    ls_telemetry_t *t = ls_telemetry_start(gpus, nvml, 2, 10, LS_TELEMETRY_PCIE);
    assert_non_null(t);
    json_t *e = json_object();
    ls_telemetry_stop(t, e);
    json_t *tele = json_object_get(e, "telemetry");
    assert_non_null(tele);
    assert_int_equal(ls_json_int(tele, "samples", -1), 0);
    assert_true(json_is_false(json_object_get(tele, "available")));
    assert_true(strlen(ls_json_str(tele, "error", "")) > 0);
    assert_null(json_object_get(e, "flags")); /* nothing seen, nothing flagged */
    json_decref(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nodes_and_cpus_from_sysfs),
        cmocka_unit_test(node_bound_memory_is_usable),
        cmocka_unit_test(huge_pages_from_smaps),
        cmocka_unit_test(telemetry_without_nvml_says_so),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
