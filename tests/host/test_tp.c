/* Tensor-parallel estimate: counts and sizes, the ring formula, interpolation in log
   size, the alpha-beta fit, presets, curves from run documents, the estimate's sums. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/tp.h"
#include "helpers.h"
#include "model/doc.h"
#include "render/tp_report.h"
#include "util/fileio.h"

static void assert_rel(double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol * fabs(want)))
        fail_msg("got %.10g, want %.10g (relative tolerance %g)", got, want, tol);
}

static void llama33_70b_tp2_counts_and_sizes(void **state)
{
    (void)state;
    const ls_tp_preset_t *p = ls_tp_preset_find("llama3.3-70b");
    assert_non_null(p);
    ls_tp_shape_t shape = {p->hidden, p->layers, 2};
    assert_int_equal(ls_tp_allreduces_per_pass(&shape), 160);
    /* prefill of 3200 tokens: 3200 x 8192 x 2 B = 52428800 B (52.4 MB) per all-reduce */
    assert_int_equal(ls_tp_allreduce_bytes(&shape, 3200), 52428800ull);
    /* one decode step, batch 1: 8192 x 2 B = 16 KiB */
    assert_int_equal(ls_tp_allreduce_bytes(&shape, 1), 16384ull);
    /* batch 8 of 51400-token prompts */
    assert_int_equal(ls_tp_allreduce_bytes(&shape, 8 * 51400), 8ull * 51400 * 16384);
}

static void presets_are_found_by_name_and_alias(void **state)
{
    (void)state;
    const ls_tp_preset_t *p = ls_tp_preset_find("LLAMA3-8B");
    assert_non_null(p);
    assert_int_equal(p->hidden, 4096);
    assert_int_equal(p->layers, 32);
    p = ls_tp_preset_find("llama3.1-70b");
    assert_non_null(p);
    assert_string_equal(p->name, "llama3-70b");
    assert_int_equal(p->hidden, 8192);
    assert_int_equal(p->layers, 80);
    p = ls_tp_preset_find("qwen3-32b");
    assert_non_null(p);
    assert_int_equal(p->hidden, 5120);
    assert_int_equal(p->layers, 64);
    p = ls_tp_preset_find("qwen3-coder-30b-a3b");
    assert_non_null(p);
    assert_int_equal(p->hidden, 2048);
    assert_int_equal(p->layers, 48);
    assert_int_equal(p->experts, 128);
    assert_non_null(strstr(p->note, "not modelled"));
    assert_null(ls_tp_preset_find("llama3")); /* no prefix matches */
    assert_null(ls_tp_preset_find("8b"));
    assert_null(ls_tp_preset_find(""));
    int n;
    const ls_tp_preset_t *all = ls_tp_presets(&n);
    for (int i = 0; i < n; i++)
        assert_ptr_equal(ls_tp_preset_find(all[i].name), &all[i]);
}

static void ring_formula(void **state)
{
    (void)state;
    /* 2 ranks: 2 steps of latency, S/bw of transfer (each rank sends S/2 twice) */
    assert_rel(ls_tp_ring_allreduce_us(5.2, 22.1, 2, 52428800), 44.2 + 52428800 / 5.2e3, 1e-12);
    assert_rel(ls_tp_ring_allreduce_us(122.7, 17.5, 2, 16384), 35.0 + 16384 / 122.7e3, 1e-12);
    /* 8 ranks: 14 steps, 2*7/8 of S over bw */
    assert_rel(ls_tp_ring_allreduce_us(100, 2, 8, 1e9), 28.0 + 1.75 * 1e9 / 1e5, 1e-12);
    assert_true(ls_tp_ring_allreduce_us(100, 2, 1, 1e9) == 0);
}

static void interpolation_is_exact_at_points_and_monotone_between(void **state)
{
    (void)state;
    double b[] = {8, 1024, 65536, 1048576, 16777216, 268435456};
    double t[] = {15, 15.5, 17, 26, 80, 900};
    ls_tp_curve_t c;
    char err[128];
    assert_int_equal(ls_tp_curve_init(&c, b, t, 6, err, sizeof err), 0);
    enum ls_tp_how how;
    for (int i = 0; i < 6; i++) {
        assert_true(ls_tp_curve_time_us(&c, b[i], &how) == t[i]);
        assert_int_equal(how, LS_TP_EXACT);
    }
    for (int i = 0; i + 1 < 6; i++) {
        double prev = t[i];
        for (int k = 1; k < 50; k++) {
            double s = b[i] * pow(b[i + 1] / b[i], k / 50.0);
            double v = ls_tp_curve_time_us(&c, s, &how);
            assert_int_equal(how, LS_TP_INTERP);
            assert_true(v >= prev && v <= t[i + 1]);
            prev = v;
        }
    }
    ls_tp_curve_free(&c);
}

static void interpolation_is_exact_for_power_laws(void **state)
{
    (void)state;
    /* proportional (bandwidth-bound) and constant (latency-bound) pieces */
    double b[] = {1e6, 4e6, 1.6e7}, prop[] = {10, 40, 160}, flat[] = {15, 15, 15};
    ls_tp_curve_t c;
    assert_int_equal(ls_tp_curve_init(&c, b, prop, 3, NULL, 0), 0);
    assert_rel(ls_tp_curve_time_us(&c, 3e6, NULL), 30, 1e-12);
    assert_rel(ls_tp_curve_time_us(&c, 1e7, NULL), 100, 1e-12);
    ls_tp_curve_free(&c);
    assert_int_equal(ls_tp_curve_init(&c, b, flat, 3, NULL, 0), 0);
    assert_rel(ls_tp_curve_time_us(&c, 2.5e6, NULL), 15, 1e-12);
    ls_tp_curve_free(&c);
}

static void curve_sorts_merges_and_drops_bad_points(void **state)
{
    (void)state;
    double b[] = {4096, 1024, 4096, 0, 2048}, t[] = {12, 10, 14, 5, -1};
    ls_tp_curve_t c;
    assert_int_equal(ls_tp_curve_init(&c, b, t, 5, NULL, 0), 0);
    assert_int_equal(c.n, 2); /* 1024 and 4096 (mean of 12 and 14); 0 B and t < 0 dropped */
    assert_true(c.bytes[0] == 1024 && c.bytes[1] == 4096);
    assert_true(c.time_us[1] == 13);
    ls_tp_curve_free(&c);
    char err[128] = "";
    double none_b[] = {0}, none_t[] = {1};
    assert_int_equal(ls_tp_curve_init(&c, none_b, none_t, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "no point"));
}

static void fit_recovers_alpha_and_bandwidth(void **state)
{
    (void)state;
    double b[24], t[24];
    int n = 0;
    for (double s = 1024; s <= 8e9; s *= 2.5, n++) {
        b[n] = s;
        t[n] = 12.5 + s / (250.0 * 1e3); /* 12.5 us + S / 250 GB/s */
    }
    double alpha, bw;
    assert_int_equal(ls_tp_fit_alpha_beta(b, t, (size_t)n, &alpha, &bw), 0);
    assert_rel(alpha, 12.5, 1e-9);
    assert_rel(bw, 250, 1e-9);
    /* +-2 % alternating noise: still within a few percent */
    for (int i = 0; i < n; i++)
        t[i] *= (i % 2) ? 1.02 : 0.98;
    assert_int_equal(ls_tp_fit_alpha_beta(b, t, (size_t)n, &alpha, &bw), 0);
    assert_rel(alpha, 12.5, 0.05);
    assert_rel(bw, 250, 0.05);
    /* one distinct size cannot give two parameters */
    double one_b[] = {4096, 4096}, one_t[] = {10, 11};
    assert_int_equal(ls_tp_fit_alpha_beta(one_b, one_t, 2, &alpha, &bw), -1);
    /* a purely proportional curve with noise that would give alpha < 0: clamped at 0 */
    double pb[] = {1e6, 1e7, 1e8}, pt[] = {10.5, 100, 1000};
    assert_int_equal(ls_tp_fit_alpha_beta(pb, pt, 3, &alpha, &bw), 0);
    assert_true(alpha >= 0);
    assert_rel(bw, 100, 0.05);
}

static void outside_the_range_uses_the_fit(void **state)
{
    (void)state;
    double b[] = {1e5, 1e6, 1e7, 1e8}, t[4];
    for (int i = 0; i < 4; i++)
        t[i] = 20 + b[i] / 300e3;
    ls_tp_curve_t c;
    assert_int_equal(ls_tp_curve_init(&c, b, t, 4, NULL, 0), 0);
    assert_true(c.have_fit);
    assert_true(c.fit_max_rel < 1e-9);
    enum ls_tp_how how;
    assert_rel(ls_tp_curve_time_us(&c, 16384, &how), 20 + 16384 / 300e3, 1e-9);
    assert_int_equal(how, LS_TP_FIT_BELOW);
    assert_rel(ls_tp_curve_time_us(&c, 1e9, &how), 20 + 1e9 / 300e3, 1e-9);
    assert_int_equal(how, LS_TP_FIT_ABOVE);
    ls_tp_curve_free(&c);
}

/* A curve whose middle runs slower than its top (protocol changes, as NCCL's): above the
   range the fit of the top sizes answers, not the fit over all sizes. */
static void above_the_range_the_top_sizes_answer(void **state)
{
    (void)state;
    double b[] = {8, 1e3, 1e5, 1e6, 1e7, 1e8, 4e8, 1e9}, t[8];
    for (int i = 0; i < 8; i++)
        t[i] = b[i] < 1e7 ? 14 + b[i] / 100e3 : 40 + b[i] / 330e3;
    ls_tp_curve_t c;
    assert_int_equal(ls_tp_curve_init(&c, b, t, 8, NULL, 0), 0);
    assert_true(c.have_high_fit);
    assert_rel(c.high_bw_gbps, 330, 1e-6);
    enum ls_tp_how how;
    assert_rel(ls_tp_curve_time_us(&c, 8e9, &how), 40 + 8e9 / 330e3, 1e-6);
    assert_int_equal(how, LS_TP_FIT_ABOVE);
    /* the fit over all sizes is pulled towards the middle: it would miss by far more */
    assert_true(fabs(c.alpha_us + 8e9 / (c.bw_gbps * 1e3) - (40 + 8e9 / 330e3)) >
                0.02 * (40 + 8e9 / 330e3));
    ls_tp_curve_free(&c);
}

static json_t *read_fixture(const char *name)
{
    char err[512];
    json_t *doc = ls_doc_read(ls_fixture(name), err, sizeof err);
    if (!doc)
        fail_msg("%s", err);
    return doc;
}

static void curve_from_the_h200_run_document(void **state)
{
    (void)state;
    json_t *doc = read_fixture("tp/h200x2-allreduce.json");
    int gpus[] = {1, 0};
    char err[512];
    const json_t *e = ls_tp_find_allreduce(doc, gpus, 2, NULL, err, sizeof err);
    assert_non_null(e);
    assert_int_equal(ls_tp_entry_nranks(e), 2);
    ls_tp_curve_t c;
    int skipped = -1;
    assert_int_equal(ls_tp_curve_from_entry(&c, e, &skipped, err, sizeof err), 0);
    assert_int_equal(skipped, 0);
    assert_int_equal(c.n, 31); /* 8 B .. 8 GiB by 2 */
    enum ls_tp_how how;
    /* nccl-tests out-of-place times of ../h200x2/nccl-tests-all_reduce.txt */
    assert_true(ls_tp_curve_time_us(&c, 16384, &how) == 14.37 && how == LS_TP_EXACT);
    assert_true(ls_tp_curve_time_us(&c, 1073741824, &how) == 3299.19);
    /* 52428800 B lies between 32 MiB (146.66 us) and 64 MiB (258.52 us) */
    double mid = ls_tp_curve_time_us(&c, 52428800, &how);
    assert_int_equal(how, LS_TP_INTERP);
    assert_true(mid > 146.66 && mid < 258.52);
    /* the fit: a latency near the small-message time, a bandwidth below the 8 GiB algbw */
    assert_true(c.have_fit);
    assert_true(c.alpha_us > 10 && c.alpha_us < 20);
    assert_true(c.bw_gbps > 200 && c.bw_gbps < 345);
    ls_tp_curve_free(&c);

    int other[] = {0, 2};
    assert_null(ls_tp_find_allreduce(doc, other, 2, NULL, err, sizeof err));
    assert_non_null(strstr(err, "gpus 0,1"));
    assert_null(ls_tp_find_allreduce(doc, NULL, 0, "NCCL_P2P_DISABLE=1", err, sizeof err));
    assert_non_null(strstr(err, "variant"));
    json_decref(doc);
}

/* Without --gpus the entry on --tp ranks is taken: seed 000's document starts with
   2-GPU all_reduces and also holds 0-4. */
static void entry_chosen_by_rank_count(void **state)
{
    (void)state;
    json_t *doc = read_fixture("analyze/seed000-gv100x11.json");
    char err[512];
    const json_t *e = ls_tp_find_allreduce_ranks(doc, NULL, 0, NULL, 5, err, sizeof err);
    assert_non_null(e);
    assert_int_equal(ls_tp_entry_nranks(e), 5);
    assert_int_equal(json_array_size(json_object_get(e, "gpus")), 5);
    assert_null(ls_tp_find_allreduce_ranks(doc, NULL, 0, NULL, 4, err, sizeof err));
    json_decref(doc);
}

static void variants_are_chosen_by_name(void **state)
{
    (void)state;
    json_t *doc = read_fixture("tp/synthetic-variants.json");
    char err[512];
    const json_t *d = ls_tp_find_allreduce(doc, NULL, 0, NULL, err, sizeof err);
    assert_non_null(d);
    assert_string_equal(ls_json_str(d, "variant", ""), "default");
    const json_t *off = ls_tp_find_allreduce(doc, NULL, 0, "NCCL_P2P_DISABLE=1", err, sizeof err);
    assert_non_null(off);
    assert_string_equal(ls_json_str(off, "id", ""), "nccl-all_reduce-0-1-p2p-off");
    /* the synthetic curves are exact alpha-beta lines: the fit recovers them */
    ls_tp_curve_t c;
    assert_int_equal(ls_tp_curve_from_entry(&c, off, NULL, err, sizeof err), 0);
    assert_rel(c.alpha_us, 25, 1e-6);
    assert_rel(c.bw_gbps, 26, 1e-6);
    /* log-log interpolation between 4x-spaced points stays within 10 % of the line */
    for (double s = 1024; s < 1e9; s *= 1.7)
        assert_rel(ls_tp_curve_time_us(&c, s, NULL), 25 + s / 26e3, 0.10);
    ls_tp_curve_free(&c);
    json_decref(doc);
}

static void rows_with_wrong_results_are_left_out(void **state)
{
    (void)state;
    json_t *e = json_pack("{s:s, s:s, s:[{s:i, s:{s:f, s:i}}, {s:i, s:{s:f, s:i}}, {s:i, "
                          "s:{s:f}}]}",
                          "family", "nccl", "collective", "all_reduce", "rows", "bytes", 1024,
                          "oop", "time_us", 10.0, "wrong", 0, "bytes", 2048, "oop", "time_us", 11.0,
                          "wrong", 3, "bytes", 4096, "ip", "time_us", 12.0);
    ls_tp_curve_t c;
    int skipped = 0;
    assert_int_equal(ls_tp_curve_from_entry(&c, e, &skipped, NULL, 0), 0);
    assert_int_equal(skipped, 1);
    assert_int_equal(c.n, 2);
    assert_true(c.bytes[1] == 4096 && c.time_us[1] == 12.0); /* in-place when no oop */
    ls_tp_curve_free(&c);
    json_decref(e);
}

static void estimate_adds_up(void **state)
{
    (void)state;
    uint64_t prompts[] = {3200, 51400}, batches[] = {1, 8};
    double prefill_ms[] = {3900, 200000}, decode_ms[] = {34.0, 95.0};
    ls_tp_request_t req = {.shape = {8192, 80, 2},
                           .model_name = "llama3.3-70b",
                           .tp = 2,
                           .prompts = prompts,
                           .nprompts = 2,
                           .batches = batches,
                           .nbatches = 2,
                           .output = 256,
                           .decode_compute_ms = decode_ms,
                           .prefill_compute_ms = prefill_ms};
    ls_tp_source_t src[2];
    memset(src, 0, sizeof src);
    src[0] =
        (ls_tp_source_t){.kind = LS_TP_SRC_LINK, .name = "PCIe", .bw_gbps = 5.2, .lat_us = 22.1};
    src[1] = (ls_tp_source_t){.kind = LS_TP_SRC_LINK,
                              .name = "NVLink",
                              .bw_gbps = 122.7,
                              .lat_us = 17.5};
    json_t *est = ls_tp_estimate(&req, src, 2);
    assert_int_equal(ls_json_int(est, "allreduces_per_pass", 0), 160);
    const json_t *scen = json_object_get(est, "scenarios");
    assert_int_equal(json_array_size(scen), 4);
    const json_t *s0 = json_array_get(scen, 0);
    const json_t *pre = json_object_get(s0, "prefill"), *dec = json_object_get(s0, "decode_step");
    assert_int_equal(ls_json_int(pre, "allreduces", 0), 160);
    assert_int_equal(ls_json_int(pre, "bytes_each", 0), 52428800);
    assert_int_equal(ls_json_int(dec, "bytes_each", 0), 16384);
    const json_t *pcie_pre = json_array_get(json_object_get(pre, "sources"), 0);
    double per = 44.2 + 52428800 / 5.2e3;
    assert_rel(ls_json_num(pcie_pre, "comm_ms", 0), 160 * per / 1e3, 1e-12);
    assert_rel(ls_json_num(pcie_pre, "total_ms", 0), 3900 + 160 * per / 1e3, 1e-12);
    const json_t *pcie_dec = json_array_get(json_object_get(dec, "sources"), 0);
    double dec_ms = 160 * (44.2 + 16384 / 5.2e3) / 1e3;
    assert_rel(ls_json_num(pcie_dec, "comm_ms", 0), dec_ms, 1e-12);
    assert_rel(ls_json_num(pcie_dec, "comm_share", 0), dec_ms / (34 + dec_ms), 1e-12);
    const json_t *req0 = json_object_get(s0, "request");
    assert_int_equal(ls_json_int(req0, "decode_steps", 0), 255);
    assert_rel(ls_json_num(json_array_get(json_object_get(req0, "sources"), 0), "comm_ms", 0),
               160 * per / 1e3 + 255 * dec_ms, 1e-12);
    /* batch 8: prefill of 8 x 3200 tokens, its compute scaled by 8; decode of 8 tokens */
    const json_t *s2 = json_array_get(scen, 2);
    assert_int_equal(ls_json_int(s2, "batch", 0), 8);
    assert_int_equal(ls_json_int(json_object_get(s2, "prefill"), "bytes_each", 0), 8 * 52428800);
    assert_rel(ls_json_num(json_object_get(s2, "prefill"), "compute_ms", 0), 8 * 3900, 1e-12);
    assert_int_equal(ls_json_int(json_object_get(s2, "decode_step"), "bytes_each", 0), 8 * 16384);
    /* the decode compute follows the prompt (longer context, slower step), not the batch */
    const json_t *s3 = json_array_get(scen, 3);
    assert_rel(ls_json_num(json_object_get(s3, "decode_step"), "compute_ms", 0), 95.0, 1e-12);
    assert_rel(ls_json_num(json_object_get(json_array_get(scen, 1), "request"), "compute_ms", 0),
               200000 + 255 * 95.0, 1e-12);
    json_decref(est);

    uint64_t sizes[16];
    int n = ls_tp_request_sizes(&req, sizes, 16);
    assert_int_equal(n, 6); /* 2 decode sizes + 4 prefill sizes, sorted */
    assert_int_equal(sizes[0], 16384);
    assert_int_equal(sizes[1], 8 * 16384);
    assert_int_equal(sizes[5], 8ull * 51400 * 16384);
}

/* The report: a --measure column beside a link is compared size by size. */
static void report_compares_measured_with_estimate(void **state)
{
    (void)state;
    uint64_t prompts[] = {3200}, batches[] = {1};
    ls_tp_request_t req = {.shape = {8192, 80, 2},
                           .tp = 2,
                           .prompts = prompts,
                           .nprompts = 1,
                           .batches = batches,
                           .nbatches = 1,
                           .output = 256};
    ls_tp_source_t src[2];
    memset(src, 0, sizeof src);
    src[0] = (ls_tp_source_t){.kind = LS_TP_SRC_LINK,
                              .name = "NVLink",
                              .bw_gbps = 122.7,
                              .lat_us = 17.5};
    /* "measured" 5 % slower than the link formula at both sizes */
    double b[] = {16384, 52428800}, t[2];
    for (int i = 0; i < 2; i++)
        t[i] = 1.05 * ls_tp_ring_allreduce_us(122.7, 17.5, 2, b[i]);
    src[1].kind = LS_TP_SRC_CURVE;
    src[1].measured = 1;
    strcpy(src[1].name, "measured");
    assert_int_equal(ls_tp_curve_init(&src[1].curve, b, t, 2, NULL, 0), 0);
    json_t *est = ls_tp_estimate(&req, src, 2);
    const char *path = ls_tmp_path("tp-report.txt");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    ls_tp_render_text(f, est);
    fclose(f);
    char *text = ls_read_file(path, NULL, NULL, 0);
    assert_non_null(text);
    if (!strstr(text, "NVLink / measured, time per all-reduce: 0.952 .. 0.952 over 2 sizes (all "
                      "within 10 %)"))
        fail_msg("no agreement line in:\n%s", text);
    assert_non_null(strstr(text, "prefill 160 all-reduces of 52428800 B (50 MiB)"));
    assert_non_null(strstr(text, "NVLink / measured"));
    free(text);
    json_decref(est);
    ls_tp_curve_free(&src[1].curve);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(llama33_70b_tp2_counts_and_sizes),
        cmocka_unit_test(presets_are_found_by_name_and_alias),
        cmocka_unit_test(ring_formula),
        cmocka_unit_test(interpolation_is_exact_at_points_and_monotone_between),
        cmocka_unit_test(interpolation_is_exact_for_power_laws),
        cmocka_unit_test(curve_sorts_merges_and_drops_bad_points),
        cmocka_unit_test(fit_recovers_alpha_and_bandwidth),
        cmocka_unit_test(outside_the_range_uses_the_fit),
        cmocka_unit_test(above_the_range_the_top_sizes_answer),
        cmocka_unit_test(curve_from_the_h200_run_document),
        cmocka_unit_test(variants_are_chosen_by_name),
        cmocka_unit_test(entry_chosen_by_rank_count),
        cmocka_unit_test(rows_with_wrong_results_are_left_out),
        cmocka_unit_test(estimate_adds_up),
        cmocka_unit_test(report_compares_measured_with_estimate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
