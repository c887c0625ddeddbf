/* busGrind (the CUDA demo suite) read by the p2pBandwidthLatencyTest reader
   (import/p2p_sample.c): its host/device matrices into host entries, its P2P matrices
   into p2p entries, both named "busGrind"; and a GPU whose host path cannot run both
   directions at once found (bidir_low on the host path, analyze/rules_matrix.c), unless
   the GPU has one copy engine, which runs one direction at a time. */
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

/* One host/device matrix of two GPUs: D2H and H2D 56 GB/s each, BiDir bidir0 and bidir1. */
static json_t *host_matrix(double bidir0, double bidir1)
{
    char text[2048];
    snprintf(text, sizeof text,
             "Test Description: Bus bandwidth between the host and a single device\n"
             "Host/Device Bandwidth Matrix (GB/s), memory=Pinned\n"
             "   Dir\\D       0      1\n"
             "   D2H     56.83  57.12\n"
             "   H2D     56.17  56.21\n"
             "   BiDir  %6.2f %6.2f\n"
             "Concurrent Host/Device Bandwidth Matrix (GB/s), memory=Pinned\n"
             "   Dir\\D       0      1  Total\n"
             "   H2D     44.61  44.80 89\n"
             "   D2H     44.00  44.10 88\n"
             "   BiDir   80.00  80.10 160\n",
             bidir0, bidir1);
    return ls_test_import_text(text, LS_FMT_BUSGRIND);
}

static const json_t *entry(const json_t *doc, const char *id)
{
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e)
        if (!strcmp(ls_json_str(e, "id", ""), id))
            return e;
    return NULL;
}

static void host_rows_read(void **state)
{
    (void)state;
    json_t *doc = host_matrix(101.26, 101.38);
    const json_t *e = entry(doc, "host-ce-pinned-bidir-1");
    assert_non_null(e);
    assert_string_equal(ls_json_str(e, "source", ""), "busGrind");
    assert_string_equal(ls_json_str(e, "direction", ""), "bidir");
    assert_int_equal(ls_json_int(e, "gpu", -1), 1);
    assert_true(ls_json_num(e, "value", 0) == 101.38);
    /* the concurrent matrix: every GPU at once, its Total dropped */
    e = entry(doc, "host-ce-pinned-d2h-1-all_gpus");
    assert_non_null(e);
    assert_string_equal(ls_json_str(e, "under", ""), "all_gpus");
    assert_null(entry(doc, "host-ce-pinned-h2d-2-all_gpus"));
    ls_test_silent(doc, "bidir_low"); /* 101 of a 113 sum */
    ls_test_quiet(doc);
    json_decref(doc);
}

static void host_bidir_low(void **state)
{
    (void)state;
    json_t *doc = host_matrix(101.26, 7.25); /* GPU 1 both ways at once: 7 of 113 */
    ls_test_fires(doc, "bidir_low", "warning", "", "GPU1: 7.2 GB/s");
    json_decref(doc);
}

/* GPU g of doc given board name (NULL: none) and copy engines (-1: unknown), as
   linkscope's own inventory writes them (gpus[].name, gpus[].cuda.async_engines). */
static void set_gpu(json_t *doc, int g, const char *name, int engines)
{
    json_t *gpu = json_array_get(json_object_get(doc, "gpus"), (size_t)g);
    assert_int_equal(ls_json_int(gpu, "index", -1), g);
    if (name)
        json_object_set_new(gpu, "name", json_string(name));
    if (engines >= 0)
        json_object_set_new(gpu, "cuda", json_pack("{s:i}", "async_engines", engines));
}

/* Both ways at once at one way's figure (56 of 113): what one copy engine taking turns
   gives. By design where CUDA says one engine; said (info) where the count is unknown;
   a warning where the board has two or more. */
static void host_bidir_one_engine(void **state)
{
    (void)state;
    json_t *doc = host_matrix(101.26, 56.0);
    ls_test_fires(doc, "bidir_low", "info", "", "single copy engine");
    ls_test_fires(doc, "bidir_low", "info", "", "if it is the same board"); /* GPU 0: 101 */
    ls_test_quiet(doc);
    set_gpu(doc, 1, NULL, 1);
    ls_test_silent(doc, "bidir_low");
    set_gpu(doc, 1, NULL, 0); /* no copy beside a kernel either: one direction at a time */
    ls_test_silent(doc, "bidir_low");
    set_gpu(doc, 1, NULL, 2);
    ls_test_fires(doc, "bidir_low", "warning", "", "GPU1: 56.0 GB/s");
    json_decref(doc);
}

/* Far below even one direction's figure: no engine count explains it. */
static void host_bidir_below_one_engine(void **state)
{
    (void)state;
    json_t *doc = host_matrix(101.26, 20.0);
    set_gpu(doc, 1, NULL, 1);
    ls_test_fires(doc, "bidir_low", "warning", "", "GPU1: 20.0 GB/s");
    json_decref(doc);
}

/* Engines unknown, but a GPU of the same board name reached the sum: the board runs both
   directions at once, so the other one's path is at fault; a board of another name is not
   evidence. */
static void host_bidir_same_board(void **state)
{
    (void)state;
    json_t *doc = host_matrix(101.26, 56.0);
    set_gpu(doc, 0, "NVIDIA A100-PCIE-40GB", -1);
    set_gpu(doc, 1, "NVIDIA GeForce GTX 750 Ti", -1);
    ls_test_fires(doc, "bidir_low", "info", "", "single copy engine");
    set_gpu(doc, 1, "NVIDIA A100-PCIE-40GB", -1);
    ls_test_fires(doc, "bidir_low", "warning", "", "GPU1: 56.0 GB/s");
    json_decref(doc);
}

static void p2p_matrices_read(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text("P2P Bandwidth Matrix (GB/s) - Unidirectional, P2P=Enabled\n"
                                      "   D\\D      0      1\n"
                                      "      0 257.84   3.32\n"
                                      "      1   3.32 263.90\n"
                                      "P2P Bandwidth Matrix (GB/s) - Bidirectional, P2P=Enabled\n"
                                      "   D\\D      0      1\n"
                                      "      0 270.60   4.88\n"
                                      "      1   4.98 270.33\n",
                                      LS_FMT_BUSGRIND);
    const json_t *e = entry(doc, "p2p-ce-uni-0-1");
    assert_non_null(e);
    assert_string_equal(ls_json_str(e, "source", ""), "busGrind");
    assert_non_null(entry(doc, "p2p-ce-bidir-1-0"));
    assert_non_null(entry(doc, "hbm-copy_ce-0")); /* the diagonal: a copy within the GPU */
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(host_rows_read),        cmocka_unit_test(host_bidir_low),
        cmocka_unit_test(host_bidir_one_engine), cmocka_unit_test(host_bidir_below_one_engine),
        cmocka_unit_test(host_bidir_same_board), cmocka_unit_test(p2p_matrices_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
