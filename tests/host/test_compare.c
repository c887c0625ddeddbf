/* compare, baseline and check on documents built here: a regression is flagged,
   noise is not, imported figures use the threshold, variants side by side. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "analyze/baseline.h"
#include "analyze/compare.h"
#include "analyze/rules.h"
#include "import/import.h"
#include "model/doc.h"
#include "model/entry.h"
#include "util/fileio.h"
#include "util/log.h"

static json_t *doc_with_gpus(const char *name, int ngpus)
{
    json_t *doc = ls_doc_new();
    for (int i = 0; i < ngpus; i++)
        json_array_append_new(json_object_get(doc, "gpus"),
                              json_pack("{s:i, s:s}", "index", i, "name", name));
    return doc;
}

static void add_pair(json_t *doc, const char *family, int src, int dst, const double *samples,
                     size_t n)
{
    int p2p = strcmp(family, "p2p") == 0;
    json_t *e = ls_entry_new(family, p2p ? "bandwidth" : "latency", p2p ? "GB/s" : "us");
    json_object_set_new(e, "method", json_string(p2p ? "ce" : "gpu_pingpong"));
    if (p2p)
        json_object_set_new(e, "direction", json_string("uni"));
    json_object_set_new(e, "src", json_integer(src));
    json_object_set_new(e, "dst", json_integer(dst));
    json_object_set_new(e, "gpus", json_pack("[i, i]", src, dst));
    json_object_set_new(e, "p2p", json_true());
    ls_entry_set_samples(e, samples, n);
    ls_doc_add_measurement(doc, e);
}

/* An imported-looking figure: one value, no samples. */
static void add_hbm_value(json_t *doc, int gpu, double value)
{
    json_t *e = ls_entry_new("hbm", "bandwidth", "GB/s");
    json_object_set_new(e, "method", json_string("copy"));
    json_object_set_new(e, "gpu", json_integer(gpu));
    json_object_set_new(e, "value", json_real(value));
    ls_doc_add_measurement(doc, e);
}

static void add_all_reduce(json_t *doc, const char *variant, double small_us, double gib_busbw)
{
    json_t *e = ls_entry_new("nccl", "busbw", "GB/s");
    json_object_set_new(e, "collective", json_string("all_reduce"));
    json_object_set_new(e, "gpus", json_pack("[i, i]", 0, 1));
    json_object_set_new(e, "nranks", json_integer(2));
    json_object_set_new(e, "variant", json_string(variant));
    json_object_set_new(e, "dtype", json_string("float"));
    json_object_set_new(e, "redop", json_string("sum"));
    json_object_set_new(e, "root", json_integer(-1));
    json_object_set_new(e, "rows",
                        json_pack("[{s:i, s:{s:f, s:f}}, {s:I, s:{s:f, s:f}}]", "bytes", 8, "oop",
                                  "time_us", small_us, "busbw", 0.0, "bytes",
                                  (json_int_t)1073741824, "oop", "time_us", 3300.0, "busbw",
                                  gib_busbw));
    json_object_set_new(e, "value", json_real(gib_busbw));
    ls_doc_add_measurement(doc, e);
}

static const json_t *row_for(const json_t *result, const char *label_part)
{
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(result, "rows"), i, row) {
        if (strstr(ls_json_str(row, "label", ""), label_part))
            return row;
    }
    fail_msg("no compared row labelled '%s'", label_part);
    return NULL;
}

static const char *verdict(const json_t *result, const char *label_part)
{
    return ls_json_str(row_for(result, label_part), "verdict", "");
}

static json_t *good_run(void)
{
    json_t *a = doc_with_gpus("NVIDIA H200", 2);
    add_pair(a, "p2p", 0, 1, (double[]){391.0, 392.0, 391.5, 391.8, 391.2}, 5);
    add_pair(a, "p2p", 1, 0, (double[]){392.0, 392.5, 392.2, 391.9, 392.4}, 5);
    add_pair(a, "latency", 0, 1, (double[]){2.00, 2.01, 1.99, 2.00, 2.02}, 5);
    add_all_reduce(a, "default", 15.0, 325.0);
    return a;
}

static void regression_flagged_small_noise_not(void **state)
{
    (void)state;
    json_t *a = good_run();
    json_t *b = doc_with_gpus("NVIDIA H200", 2);
    add_pair(b, "p2p", 0, 1, (double[]){350.0, 351.0, 349.5, 350.2, 350.8}, 5); /* -10.5% */
    add_pair(b, "p2p", 1, 0, (double[]){393.0, 392.6, 393.1, 392.8, 393.3}, 5); /* +0.2% */
    add_pair(b, "latency", 0, 1, (double[]){2.50, 2.52, 2.49, 2.51, 2.50}, 5);  /* slower */
    add_all_reduce(b, "default", 15.4, 280.0);
    ls_compare_opts_t opts = {.threshold_pct = 5.0};
    char err[256] = "";
    json_t *r = ls_compare_docs(a, b, &opts, err, sizeof err);
    assert_non_null(r);
    assert_string_equal(verdict(r, "GPU0->GPU1"), "regression");
    assert_string_equal(verdict(r, "p2p ce uni GPU1->GPU0"), "same");
    assert_string_equal(verdict(r, "latency gpu_pingpong GPU0->GPU1"), "regression");
    assert_string_equal(verdict(r, "all_reduce 1 GiB busbw"), "regression");
    assert_string_equal(verdict(r, "all_reduce 8 B time"), "same"); /* +2.7% */
    const json_t *row = row_for(r, "p2p ce uni GPU0->GPU1");
    assert_float_equal(ls_json_num(row, "ratio", 0), 350.2 / 391.5, 1e-9);
    assert_int_equal(ls_json_int(r, "regressions", 0), 3);
    assert_int_equal(ls_json_int(r, "gains", 0), 0);
    assert_int_equal(ls_json_int(r, "only_a", -1), 0);
    json_decref(r);
    /* a separate, wider threshold for figures in us */
    opts.latency_threshold_pct = 30.0;
    r = ls_compare_docs(a, b, &opts, err, sizeof err);
    assert_string_equal(verdict(r, "latency gpu_pingpong GPU0->GPU1"), "same");
    assert_string_equal(verdict(r, "GPU0->GPU1"), "regression");
    json_decref(r);
    opts.latency_threshold_pct = 0;
    /* the other way round the same changes are gains */
    r = ls_compare_docs(b, a, &opts, err, sizeof err);
    assert_int_equal(ls_json_int(r, "gains", 0), 3);
    json_decref(r);
    json_decref(a);
    json_decref(b);
}

static void spread_explains_a_change(void **state)
{
    (void)state;
    json_t *a = doc_with_gpus("NVIDIA H200", 2), *b = doc_with_gpus("NVIDIA H200", 2);
    /* CV about 14%: a 12% shift is within three times the combined spread */
    add_pair(a, "p2p", 0, 1, (double[]){300, 360, 330, 390, 270}, 5);
    add_pair(b, "p2p", 0, 1, (double[]){336, 403, 370, 437, 302}, 5);
    ls_compare_opts_t opts = {.threshold_pct = 5.0};
    char err[256];
    json_t *r = ls_compare_docs(a, b, &opts, err, sizeof err);
    const json_t *row = row_for(r, "GPU0->GPU1");
    assert_string_equal(ls_json_str(row, "verdict", ""), "same");
    assert_true(ls_json_num(row, "limit_pct", 0) > 30.0);
    assert_true(ls_json_num(row, "change_pct", 0) > 10.0);
    json_decref(r);
    json_decref(a);
    json_decref(b);
}

static void imported_figures_use_the_threshold(void **state)
{
    (void)state;
    json_t *a = doc_with_gpus("NVIDIA H200", 1), *b = doc_with_gpus("NVIDIA H200", 1);
    add_hbm_value(a, 0, 4000.0);
    add_hbm_value(b, 0, 4240.0); /* +6% */
    char err[256];
    ls_compare_opts_t opts = {.threshold_pct = 5.0};
    json_t *r = ls_compare_docs(a, b, &opts, err, sizeof err);
    assert_string_equal(verdict(r, "hbm copy GPU0"), "gain");
    assert_float_equal(ls_json_num(row_for(r, "hbm copy GPU0"), "limit_pct", 0), 5.0, 1e-9);
    json_decref(r);
    opts.threshold_pct = 10.0;
    r = ls_compare_docs(a, b, &opts, err, sizeof err);
    assert_string_equal(verdict(r, "hbm copy GPU0"), "same");
    json_decref(r);
    json_decref(a);
    json_decref(b);
}

/* Seed 000: the default against NCCL_P2P_LEVEL=PHB in one document. */
static void variants_within_one_document(void **state)
{
    (void)state;
    json_t *doc = doc_with_gpus("Tesla V100-PCIE-32GB", 2);
    add_all_reduce(doc, "default", 20.0, 6.99);
    add_all_reduce(doc, "NCCL_P2P_LEVEL=PHB", 20.5, 7.78);
    ls_compare_opts_t opts = {.threshold_pct = 5.0};
    char err[256] = "";
    json_t *r = ls_compare_variants(doc, "default", &opts, err, sizeof err);
    assert_non_null(r);
    const json_t *block = json_array_get(json_object_get(r, "variants"), 0);
    assert_string_equal(ls_json_str(block, "variant", ""), "NCCL_P2P_LEVEL=PHB");
    assert_string_equal(verdict(block, "1 GiB busbw"), "gain");
    assert_float_equal(ls_json_num(row_for(block, "1 GiB busbw"), "ratio", 0), 7.78 / 6.99, 1e-9);
    json_decref(r);
    /* a base nobody has, or a single variant: refused with a reason */
    assert_null(ls_compare_variants(doc, "NCCL_ALGO=Tree", &opts, err, sizeof err));
    assert_non_null(strstr(err, "base"));
    json_t *single = good_run();
    assert_null(ls_compare_variants(single, "default", &opts, err, sizeof err));
    assert_non_null(strstr(err, "1 nccl variant"));
    json_decref(single);
    json_decref(doc);
}

/* Seed 003: two boards; the inventory difference is context. */
static void context_shows_inventory_differences(void **state)
{
    (void)state;
    json_t *a = good_run();
    json_t *b = doc_with_gpus("NVIDIA H100 NVL", 2);
    add_all_reduce(b, "default", 16.0, 130.0);
    json_object_set_new(json_object_get(a, "software"), "nccl", json_string("2.28.3"));
    json_object_set_new(json_object_get(b, "software"), "nccl", json_string("2.28.3"));
    json_object_set_new(json_object_get(a, "software"), "driver", json_string("580.159.04"));
    ls_compare_opts_t opts = {.threshold_pct = 5.0};
    char err[256];
    json_t *r = ls_compare_docs(a, b, &opts, err, sizeof err);
    int seen_gpus = 0, seen_nccl = 0, seen_driver = 0;
    size_t i;
    const json_t *c;
    json_array_foreach(json_object_get(r, "context"), i, c) {
        const char *what = ls_json_str(c, "what", "");
        int differs = json_is_true(json_object_get(c, "differs"));
        if (strcmp(what, "GPUs") == 0) {
            seen_gpus = 1;
            assert_true(differs);
            assert_string_equal(ls_json_str(c, "b", ""), "2 x NVIDIA H100 NVL");
        } else if (strcmp(what, "NCCL") == 0) {
            seen_nccl = 1;
            assert_false(differs);
        } else if (strcmp(what, "driver") == 0) {
            seen_driver = 1;
            assert_false(differs); /* unknown on one side is no difference */
        }
    }
    assert_true(seen_gpus && seen_nccl && seen_driver);
    assert_int_equal(ls_json_int(r, "only_a", 0), 3); /* the p2p and latency figures */
    json_decref(r);
    json_decref(a);
    json_decref(b);
}

/* Seed 002: the same 2 x 8 GPU all_reduce before and after a NIC firmware upgrade. */
static void firmware_upgrade_before_after(void **state)
{
    (void)state;
    json_t *docs[2];
    const char *fw[2] = {"28.43.3608", "28.49.1014"};
    double busbw[2] = {20.4, 30.6};
    for (int k = 0; k < 2; k++) {
        docs[k] = ls_import_doc_new();
        json_array_append_new(json_object_get(docs[k], "nics"),
                              json_pack("{s:i, s:s, s:s}", "index", 0, "name", "mlx5_0", "firmware",
                                        fw[k]));
        json_t *e = ls_entry_new("nccl", "busbw", "GB/s");
        json_object_set_new(e, "collective", json_string("all_reduce"));
        json_object_set_new(e, "gpus", json_pack("[i,i,i,i,i,i,i,i]", 0, 1, 2, 3, 4, 5, 6, 7));
        json_object_set_new(e, "nranks", json_integer(16));
        json_object_set_new(e, "dtype", json_string("float"));
        json_object_set_new(e, "redop", json_string("sum"));
        json_object_set_new(e, "rows",
                            json_pack("[{s:I, s:{s:f}}]", "bytes", (json_int_t)8589934592LL, "oop",
                                      "busbw", busbw[k]));
        ls_doc_add_measurement(docs[k], e);
    }
    ls_compare_opts_t opts = {.threshold_pct = 5.0};
    char err[256];
    json_t *r = ls_compare_docs(docs[0], docs[1], &opts, err, sizeof err);
    assert_non_null(r);
    assert_string_equal(verdict(r, "all_reduce 8 GiB busbw"), "gain");
    int seen = 0;
    size_t i;
    const json_t *c;
    json_array_foreach(json_object_get(r, "context"), i, c) {
        if (strcmp(ls_json_str(c, "what", ""), "NIC firmware") == 0) {
            seen = 1;
            assert_true(json_is_true(json_object_get(c, "differs")));
            assert_string_equal(ls_json_str(c, "b", ""), "mlx5_0 28.49.1014");
        }
    }
    assert_true(seen);
    json_decref(r);
    json_decref(docs[0]);
    json_decref(docs[1]);
}

static void nothing_in_common_is_an_error(void **state)
{
    (void)state;
    json_t *a = doc_with_gpus("NVIDIA H200", 1), *b = doc_with_gpus("NVIDIA H200", 2);
    add_hbm_value(a, 0, 4000.0);
    add_pair(b, "p2p", 0, 1, (double[]){391.0, 392.0}, 2);
    ls_compare_opts_t opts = {.threshold_pct = 5.0};
    char err[256] = "";
    assert_null(ls_compare_docs(a, b, &opts, err, sizeof err));
    assert_non_null(strstr(err, "no figure in common"));
    assert_non_null(strstr(err, "hbm"));
    assert_non_null(strstr(err, "p2p"));
    json_decref(a);
    json_decref(b);
}

/* ---- baseline and check -------------------------------------------------- */

static void baseline_from_good_run(void **state)
{
    (void)state;
    json_t *a = good_run();
    json_t *base = ls_baseline_from_doc(a, "good.json", 10.0, 25.0);
    /* 2 p2p + 1 latency + 2 nccl rows */
    assert_int_equal(json_array_size(json_object_get(base, "expectations")), 5);
    const json_t *first = json_array_get(json_object_get(base, "expectations"), 0);
    assert_float_equal(ls_json_num(first, "min", 0), 391.5, 1e-9);
    assert_float_equal(ls_json_num(first, "tolerance_pct", 0), 10.0, 1e-9);
    const json_t *lat = json_array_get(json_object_get(base, "expectations"), 2);
    assert_float_equal(ls_json_num(lat, "max", 0), 2.0, 1e-9);
    assert_float_equal(ls_json_num(lat, "tolerance_pct", 0), 25.0, 1e-9);
    /* written and read back, it passes on the run it came from */
    char *text = json_dumps(base, JSON_INDENT(2));
    char err[256] = "";
    json_t *back = ls_baseline_parse(text, "base.json", err, sizeof err);
    assert_non_null(back);
    int checked = 0;
    json_t *v = ls_baseline_check(back, a, 0, &checked, NULL);
    assert_int_equal(json_array_size(v), 0);
    assert_int_equal(checked, 5);
    json_decref(v);
    /* a run where GPU0->GPU1 lost 20% and the all_reduce is gone */
    json_t *bad = doc_with_gpus("NVIDIA H200", 2);
    add_pair(bad, "p2p", 0, 1, (double[]){313.0, 313.5, 312.8}, 3);
    add_pair(bad, "p2p", 1, 0, (double[]){380.0, 381.0, 380.5}, 3); /* -3%: within 10% */
    add_pair(bad, "latency", 0, 1, (double[]){2.2, 2.3, 2.25}, 3);  /* +12%: within 25% */
    json_t *skipped = NULL;
    v = ls_baseline_check(back, bad, 0, &checked, &skipped);
    assert_int_equal(json_array_size(v), 1); /* the pair; the two nccl rows are skipped */
    const json_t *first_v = json_array_get(v, 0);
    assert_string_equal(ls_json_str(first_v, "kind", ""), "min");
    assert_non_null(
        strstr(ls_json_str(first_v, "line", ""), "FAIL p2p ce uni GPU0->GPU1: 313.00 GB/s"));
    assert_int_equal(json_array_size(skipped), 2);
    assert_string_equal(ls_json_str(json_array_get(skipped, 0), "kind", ""), "skipped");
    assert_non_null(strstr(ls_json_str(json_array_get(skipped, 0), "line", ""), "SKIP all_reduce"));
    json_decref(skipped);
    json_decref(v);
    /* --require-all: a figure the run lacks is a violation */
    v = ls_baseline_check(back, bad, 1, &checked, &skipped);
    assert_int_equal(json_array_size(v), 3);
    assert_string_equal(ls_json_str(json_array_get(v, 1), "kind", ""), "missing");
    assert_int_equal(json_array_size(skipped), 0);
    json_decref(skipped);
    json_decref(v);
    json_decref(back);
    json_decref(bad);
    free(text);
    json_decref(base);
    json_decref(a);
}

/* The HGX H200 acceptance example of docs/compare-check.md, on the imported fixtures. */
static const char acceptance[] = "{\"schema\": \"linkscope.baseline/1\", \"tolerance_pct\": 0, "
                                 "\"expectations\": [\n"
                                 " {\"label\": \"NVLink P2P per pair\", \"match\": {\"family\": "
                                 "\"p2p\", \"direction\": \"uni\",\n"
                                 "   \"p2p\": true, \"method\": \"ce\"}, \"min\": 390},\n"
                                 " {\"label\": \"all_reduce at 1 GiB\", \"match\": {\"family\": "
                                 "\"nccl\", \"collective\": \"all_reduce\",\n"
                                 "   \"bytes\": \"1G\", \"metric\": \"busbw\"}, \"min\": 320}\n"
                                 "]}\n";

static json_t *import_files(const char *const *files, size_t n)
{
    json_t *doc = ls_import_doc_new();
    for (size_t i = 0; i < n; i++) {
        char err[512];
        char *text = ls_read_file(ls_fixture(files[i]), NULL, err, sizeof err);
        assert_non_null(text);
        if (ls_import_text(doc, text, files[i], NULL, NULL, err, sizeof err) < 0)
            fail_msg("%s", err);
        free(text);
    }
    return doc;
}

static void hand_written_acceptance_baseline(void **state)
{
    (void)state;
    char err[256] = "";
    json_t *base = ls_baseline_parse(acceptance, "hgx.json", err, sizeof err);
    if (!base)
        fail_msg("%s", err);
    /* nvbandwidth's copy engine reaches 396 GB/s both ways: passes */
    const char *good[] = {"h200x2/nvbandwidth.json", "h200x2/nccl-tests-all_reduce.txt"};
    json_t *doc = import_files(good, 2);
    int checked = 0;
    json_t *v = ls_baseline_check(base, doc, 0, &checked, NULL);
    if (json_array_size(v) != 0)
        fail_msg("%s", ls_json_str(json_array_get(v, 0), "line", ""));
    assert_int_equal(checked, 2 + 2 + 1); /* ce write and ce read pairs, one nccl row */
    json_decref(v);
    json_decref(doc);
    /* p2pBandwidthLatencyTest's 0->1 write is 359.78: one violation */
    const char *sample[] = {"h200x2/p2pBandwidthLatencyTest.txt",
                            "h200x2/nccl-tests-all_reduce.txt"};
    doc = import_files(sample, 2);
    v = ls_baseline_check(base, doc, 0, &checked, NULL);
    assert_int_equal(json_array_size(v), 1);
    assert_non_null(strstr(ls_json_str(json_array_get(v, 0), "line", ""), "359.78"));
    json_decref(v);
    json_decref(doc);
    json_decref(base);
}

static void optional_expectation_may_be_missing(void **state)
{
    (void)state;
    const char *text = "{\"schema\": \"linkscope.baseline/1\", \"expectations\": ["
                       "{\"match\": {\"family\": \"hbm\"}, \"min\": 4000, \"optional\": true},"
                       "{\"match\": {\"family\": \"latency\"}, \"max\": 1.0, \"tolerance_pct\": "
                       "50}]}";
    char err[256] = "";
    json_t *base = ls_baseline_parse(text, "b.json", err, sizeof err);
    assert_non_null(base);
    json_t *a = good_run();
    int checked;
    json_t *skipped = NULL;
    json_t *v = ls_baseline_check(base, a, 1, &checked, &skipped);
    assert_int_equal(json_array_size(v), 1);       /* 2.0 us > 1.0 us x 1.5 */
    assert_int_equal(json_array_size(skipped), 1); /* optional: skipped even with require_all */
    json_decref(skipped);
    assert_string_equal(ls_json_str(json_array_get(v, 0), "kind", ""), "max");
    json_decref(v);
    json_decref(a);
    json_decref(base);
}

static void add_host(json_t *doc, const char *memory, const double *samples, size_t n)
{
    json_t *e = ls_entry_new("host", "bandwidth", "GB/s");
    json_object_set_new(e, "method", json_string("d2h"));
    json_object_set_new(e, "direction", json_string("d2h"));
    json_object_set_new(e, "gpu", json_integer(0));
    json_object_set_new(e, "memory", json_string(memory));
    ls_entry_set_samples(e, samples, n);
    ls_doc_add_measurement(doc, e);
}

/* tolerance = max(given, k x spread): the spread is the samples' CV, at least the
   run-to-run floor for a pageable host copy; a change within it passes, beyond fails. */
static void spread_widens_the_tolerance(void **state)
{
    (void)state;
    json_t *a = doc_with_gpus("NVIDIA H200", 1);
    add_host(a, "pinned", (double[]){53.0, 53.1, 52.9, 53.0, 53.2}, 5);
    add_host(a, "pageable", (double[]){14.0, 14.1, 13.9, 14.0, 14.2}, 5);
    json_t *base = ls_baseline_from_doc(a, "a.json", 10.0, 25.0);
    assert_float_equal(ls_json_num(base, "spread_k", 0), LS_BASELINE_SPREAD_K, 1e-9);
    const json_t *pinned = json_array_get(json_object_get(base, "expectations"), 0);
    const json_t *pageable = json_array_get(json_object_get(base, "expectations"), 1);
    assert_float_equal(ls_json_num(pinned, "tolerance_pct", 0), 10.0, 1e-9);
    assert_true(ls_json_num(pinned, "spread_pct", -1) < 1.0); /* its samples' CV */
    assert_float_equal(ls_json_num(pageable, "spread_pct", 0), 100.0 * LS_SPREAD_HOST_SHARED, 1e-9);
    /* pinned 20% lower: beyond 10%; pageable 30% lower: within 3 x 14% */
    json_t *b = doc_with_gpus("NVIDIA H200", 1);
    add_host(b, "pinned", (double[]){42.4, 42.5, 42.3, 42.4, 42.4}, 5);
    add_host(b, "pageable", (double[]){9.8, 9.9, 9.8, 9.7, 9.8}, 5);
    int checked;
    json_t *v = ls_baseline_check(base, b, 0, &checked, NULL);
    assert_int_equal(checked, 2);
    assert_int_equal(json_array_size(v), 1);
    assert_non_null(strstr(ls_json_str(json_array_get(v, 0), "label", ""), "pinned"));
    json_decref(v);
    /* pageable half: beyond 42%, and the line says where the tolerance came from */
    json_decref(b);
    b = doc_with_gpus("NVIDIA H200", 1);
    add_host(b, "pinned", (double[]){53.0, 53.1, 52.9, 53.0, 53.2}, 5);
    add_host(b, "pageable", (double[]){7.0, 7.1, 6.9, 7.0, 7.0}, 5);
    v = ls_baseline_check(base, b, 0, &checked, NULL);
    assert_int_equal(json_array_size(v), 1);
    assert_non_null(strstr(ls_json_str(json_array_get(v, 0), "line", ""),
                           "tolerance 42.0% = 3 x spread 14.00%"));
    json_decref(v);
    json_decref(b);
    json_decref(base);
    json_decref(a);
}

static void malformed_baselines_are_refused(void **state)
{
    (void)state;
    static const struct {
        const char *text, *needle;
    } cases[] = {
        {"{\"schema\": \"linkscope.run/1\"}", "is not linkscope.baseline/1"},
        {"{\"expectations\": []}", "schema: missing"},
        {"{\"schema\": \"linkscope.baseline/1\", \"expectations\": []}",
         "expectations: missing, empty"},
        {"{\"schema\": \"linkscope.baseline/1\", \"expectations\": [{\"match\": {}}]}",
         "expectations[0]: needs \"min\" or \"max\""},
        {"{\"schema\": \"linkscope.baseline/1\", \"expectations\": [{\"min\": 3}]}",
         "expectations[0].match"},
        {"{\"schema\": \"linkscope.baseline/1\", \"expectations\": [{\"match\": {}, \"min\": 1, "
         "\"tolerance_pct\": -2}]}",
         "tolerance_pct"},
        {"{\"schema\": \"linkscope.baseline/1\", \"expectations\": [{\"match\": {}, \"min\": 1, "
         "\"spread_pct\": \"wide\"}]}",
         "expectations[0].spread_pct"},
        {"{\"schema\": \"linkscope.baseline/1\", \"spread_k\": -1, \"expectations\": [{\"match\": "
         "{}, "
         "\"min\": 1}]}",
         "spread_k"},
        {"{\"schema\": \"linkscope.baseline/1\", ", "not a valid JSON"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[256] = "";
        json_t *b = ls_baseline_parse(cases[i].text, "base.json", err, sizeof err);
        assert_null(b);
        if (!strstr(err, cases[i].needle) || !strstr(err, "base.json"))
            fail_msg("case %zu: '%s' lacks '%s'", i, err, cases[i].needle);
    }
}

int main(void)
{
    ls_log_quiet(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(regression_flagged_small_noise_not),
        cmocka_unit_test(spread_explains_a_change),
        cmocka_unit_test(imported_figures_use_the_threshold),
        cmocka_unit_test(variants_within_one_document),
        cmocka_unit_test(context_shows_inventory_differences),
        cmocka_unit_test(firmware_upgrade_before_after),
        cmocka_unit_test(nothing_in_common_is_an_error),
        cmocka_unit_test(baseline_from_good_run),
        cmocka_unit_test(hand_written_acceptance_baseline),
        cmocka_unit_test(optional_expectation_may_be_missing),
        cmocka_unit_test(spread_widens_the_tolerance),
        cmocka_unit_test(malformed_baselines_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
