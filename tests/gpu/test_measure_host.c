/* Host copies on GPU 0: verified, above zero, below a PCIe 6.0 x16 link (121 GB/s a
   direction, so 242 for both). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "helpers.h"
#include "measure_gpu_common.h"

static void host_copies_verified(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new();
    ls_measure_opts_t o = {.gpus = {0}, .ngpus = 1, .samples = 3, .size = 64ull << 20};
    char err[256];
    assert_int_equal(ls_measure_host(doc, &o, err, sizeof err), 0);
    int n = check_entries(doc, "host", 0, 242);
    assert_true(n >= 6 && n % 6 == 0); /* 3 directions x pinned, pageable per node */
    int with_pcie, ran = pcie_windows(doc, "host", &with_pcie);
    assert_true(ran > 0); /* NVML is there on the GPU machine */
    assert_int_equal(with_pcie, ran); /* host copies cross PCIe: every window reads it */
    json_decref(doc);
}

/* Every GPU: those on different NUMA nodes run at the same time (one thread each, memory
   nodes rotated so none is shared at once); every copy still verified, every GPU with
   the same figures (3 directions x 2 memories) on every node. */
static void host_all_gpus(void **state)
{
    (void)state;
    int n = gpus_or_skip();
    if (n < 2)
        skip();
    json_t *doc = ls_doc_new();
    ls_measure_opts_t o = {.ngpus = n, .samples = 3, .size = 64ull << 20};
    for (int g = 0; g < n && g < LS_MAX_GPUS; g++)
        o.gpus[g] = g;
    char err[256];
    assert_int_equal(ls_measure_host(doc, &o, err, sizeof err), 0);
    int count = check_entries(doc, "host", 0, 242);
    assert_true(count >= 6 * n && count % (6 * n) == 0);
    json_decref(doc);
}

int main(void)
{
    if (gpus_or_skip() <= 0)
        return LS_TEST_SKIP;
    const struct CMUnitTest tests[] = {cmocka_unit_test(host_copies_verified),
                                       cmocka_unit_test(host_all_gpus)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
