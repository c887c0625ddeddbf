/* Judging figures against the hardware (issue 11): the bundled 2 x H200 run stays
   quiet; the same run with every NVLink figure halved, the seed-004 degraded pair, a
   machine without peer access, statuses, spread, busy GPUs, collapses and one-rank
   collectives each give their finding; a document without topology gets no guessed
   link, figure or island. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/ceiling.h"
#include "analyze/machine.h"
#include "analyze/rules.h"
#include "helpers.h"
#include "model/doc.h"
#include "model/entry.h"
#include "util/stats.h"

static json_t *load(const char *name)
{
    char err[512];
    json_t *doc = ls_doc_read(ls_fixture(name), err, sizeof err);
    if (!doc)
        fail_msg("%s", err);
    return doc;
}

static json_t *bundled_run(void)
{
    return load("../../examples/h200x2-run.json");
}

static const json_t *rule_of(const json_t *findings, const char *rule, const char *subject)
{
    size_t i;
    const json_t *f;
    json_array_foreach(findings, i, f) {
        if (!strcmp(ls_json_str(f, "rule", ""), rule) &&
            (!subject || !strcmp(ls_json_str(f, "subject", ""), subject)))
            return f;
    }
    return NULL;
}

static json_t *entry(json_t *doc, const char *id)
{
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e) {
        if (!strcmp(ls_json_str(e, "id", ""), id))
            return e;
    }
    fail_msg("no entry %s", id);
    return NULL;
}

static void scale_number(json_t *obj, const char *key, double f)
{
    json_t *v = json_object_get(obj, key);
    if (json_is_number(v))
        json_object_set_new(obj, key, json_real(json_number_value(v) * f));
}

/* The documented transform of the halved-NVLink test: every figure that crossed the
   NVLink (p2p entries with peer access, nccl busbw and algbw of every row) times f;
   staged copies, HBM and host copies untouched. */
static void scale_nvlink_figures(json_t *doc, double f)
{
    size_t i, k;
    json_t *e, *v;
    json_array_foreach(json_object_get(doc, "measurements"), i, e) {
        const char *family = ls_json_str(e, "family", "");
        int nvlink = (!strcmp(family, "p2p") && json_is_true(json_object_get(e, "p2p"))) ||
                     !strcmp(family, "nccl");
        if (!nvlink)
            continue;
        scale_number(e, "value", f);
        json_array_foreach(json_object_get(e, "samples"), k, v) {
            json_array_set_new(json_object_get(e, "samples"), k,
                               json_real(json_number_value(v) * f));
        }
        const char *keys[] = {"median", "min", "max", "mean", "stddev"};
        for (size_t s = 0; s < sizeof keys / sizeof *keys; s++)
            scale_number(json_object_get(e, "stats"), keys[s], f);
        json_array_foreach(json_object_get(e, "rows"), k, v) {
            scale_number(json_object_get(v, "oop"), "busbw", f);
            scale_number(json_object_get(v, "oop"), "algbw", f);
            scale_number(json_object_get(v, "ip"), "busbw", f);
            scale_number(json_object_get(v, "ip"), "algbw", f);
        }
    }
}

static void bundled_run_stays_quiet(void **state)
{
    (void)state;
    json_t *doc = bundled_run(), *f = ls_findings(doc);
    assert_int_equal(ls_findings_count_at_least(f, LS_SEV_WARNING), 0);
    assert_null(rule_of(f, "below_ceiling", NULL));
    assert_null(rule_of(f, "implausible", NULL));
    /* the ceiling of its CE copy: 18 x 26.562 GB/s */
    ls_machine_t *m = ls_machine_new(doc);
    ls_ceiling_t c;
    assert_true(ls_ceiling_entry(m, entry(doc, "p2p-ce-uni-0-1"), &c) > 478.0);
    assert_int_equal(c.path, LS_PATH_NVLINK);
    assert_true(ls_ceiling_entry(m, entry(doc, "p2p-ce-uni-0-1"), &c) < 478.2);
    /* pinned host copy: Gen5 x16 after 128b/130b and TLP overhead, 57.6 GB/s */
    assert_true(ls_ceiling_entry(m, entry(doc, "host-h2d-pinned-0-node0"), &c) > 57.0);
    assert_true(c.gbps < 58.0);
    /* latency has no bandwidth ceiling */
    assert_true(ls_ceiling_entry(m, entry(doc, "latency-gpu_pingpong-0-1"), &c) == 0);
    ls_machine_free(m);
    json_decref(f);
    json_decref(doc);
}

static void halved_nvlink_is_found(void **state)
{
    (void)state;
    json_t *doc = bundled_run();
    scale_nvlink_figures(doc, 0.5); /* 396.8 -> 198.4 of 478.1 GB/s */
    json_t *f = ls_findings(doc);
    const json_t *b = rule_of(f, "below_ceiling", "GPU0->GPU1");
    assert_non_null(b);
    assert_string_equal(ls_json_str(b, "severity", ""), "warning");
    assert_non_null(
        strstr(ls_json_str(b, "message", ""), "198.4 GB/s is 42% of its ceiling 478.1 GB/s"));
    assert_non_null(rule_of(f, "below_ceiling", "GPU1->GPU0"));
    /* a 2-GPU machine has no peers: the peer rule cannot see it, the ceiling does */
    assert_null(rule_of(f, "degraded_link", NULL));
    json_decref(f);
    json_decref(doc);
}

/* Every NVLink of an even 8-GPU box at half speed: all pairs alike, so the peers see
   nothing; the ceiling does. */
static void halved_box_is_found(void **state)
{
    (void)state;
    json_t *doc = load("analyze/hgx-h200x8-even.json");
    scale_nvlink_figures(doc, 0.5);
    json_t *f = ls_findings(doc);
    assert_null(rule_of(f, "degraded_link", NULL));
    /* one finding for the 56 pair directions, not 56 */
    const json_t *b = rule_of(f, "below_ceiling", "GPUs 0-7");
    assert_non_null(b);
    assert_non_null(strstr(ls_json_str(b, "message", ""),
                           "56 NVLink ce figures are below 60% of their ceilings"));
    assert_int_equal(json_array_size(json_object_get(b, "evidence")), 56);
    json_decref(f);
    json_decref(doc);
}

static void degraded_pair_below_its_ceiling(void **state)
{
    (void)state;
    json_t *doc = load("analyze/seed004-nvlink8-degraded.json"), *f = ls_findings(doc);
    const json_t *b = rule_of(f, "below_ceiling", "GPU0->GPU4");
    assert_non_null(b);
    assert_string_equal(ls_json_str(b, "severity", ""), "error");
    assert_non_null(rule_of(f, "degraded_link", "GPU0<->GPU4"));
    /* the pair is never proposed: no cleanest island holding it, no best pair */
    json_t *plan = ls_plan_with(doc, f);
    assert_null(json_object_get(plan, "cleanest_island"));
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(plan, "best_pairs"), i, p) {
        assert_false(ls_gpu_mask_of(json_object_get(p, "gpus")) == 0x11);
    }
    json_array_foreach(json_object_get(plan, "groups"), i, p) {
        if (ls_json_int(p, "k", 0) < 8)
            assert_false((ls_gpu_mask_of(json_object_get(p, "gpus")) & 0x11) == 0x11);
    }
    json_decref(plan);
    json_decref(f);
    json_decref(doc);
}

static void no_peer_access_is_found(void **state)
{
    (void)state;
    json_t *doc = bundled_run();
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(doc, "links"), i, l) {
        json_object_set_new(l, "p2p_read", json_string("NS"));
        json_object_set_new(l, "p2p_write", json_string("NS"));
        json_object_set_new(l, "cuda_peer_access", json_false());
    }
    json_t *f = ls_findings(doc);
    const json_t *u = rule_of(f, "p2p_unavailable", NULL);
    assert_non_null(u);
    assert_string_equal(ls_json_str(u, "severity", ""), "warning");
    assert_non_null(strstr(ls_json_str(u, "message", ""), "1 of 1 GPU pairs (0<->1; NS)"));
    assert_non_null(strstr(ls_json_str(u, "message", ""), "lspci -vvv | grep ACSCtl"));
    json_decref(f);
    json_decref(doc);
}

static void no_topology_no_guess(void **state)
{
    (void)state;
    json_t *doc = bundled_run();
    json_object_set_new(doc, "links", json_array());
    json_t *f = ls_findings(doc), *plan = ls_plan_with(doc, f);
    assert_int_equal(ls_findings_count_at_least(f, LS_SEV_WARNING), 0);
    assert_int_equal(json_array_size(json_object_get(plan, "islands")), 0);
    assert_int_equal(json_array_size(json_object_get(plan, "needs")), 1);
    size_t i;
    const json_t *g;
    json_array_foreach(json_object_get(plan, "measured_groups"), i, g) {
        /* measured P2P figures may predict it; a link class may not */
        assert_string_not_equal(ls_json_str(g, "expected_from", ""), "link_class");
    }
    json_array_foreach(json_object_get(plan, "summary"), i, g) {
        assert_null(strstr(json_string_value(g), "?"));
    }
    /* unknown, not guessed: the P2P figure has no ceiling without the link */
    ls_machine_t *m = ls_machine_new(doc);
    ls_ceiling_t c;
    assert_true(ls_ceiling_entry(m, entry(doc, "p2p-ce-uni-0-1"), &c) == 0);
    ls_machine_free(m);
    json_decref(plan);
    json_decref(f);
    json_decref(doc);
}

static void statuses_are_findings(void **state)
{
    (void)state;
    json_t *doc = bundled_run();
    json_t *ar = entry(doc, "nccl-all_reduce-default");
    json_object_set_new(json_object_get(json_array_get(json_object_get(ar, "rows"), 10), "oop"),
                        "wrong", json_integer(137));
    json_t *ag = entry(doc, "nccl-all_gather-default");
    json_object_set_new(ag, "status", json_string("timeout"));
    json_object_set_new(ag, "error",
                        json_string("no progress for 60 s: aborted with ncclCommAbort"));
    json_t *hbm = entry(doc, "hbm-read-1");
    json_object_set_new(hbm, "status", json_string("failed"));
    json_object_set_new(hbm, "error", json_string("data check failed after the copy"));
    json_t *f = ls_findings(doc);
    const json_t *w = rule_of(f, "wrong_elements", "all_reduce on GPUs 0,1");
    assert_non_null(w);
    assert_string_equal(ls_json_str(w, "severity", ""), "error");
    assert_non_null(strstr(ls_json_str(w, "message", ""), "137 wrong elements"));
    assert_string_equal(ls_json_str(rule_of(f, "entry_timeout", NULL), "severity", ""), "warning");
    const json_t *h = rule_of(f, "entry_failed", NULL);
    assert_string_equal(ls_json_str(h, "severity", ""), "error");
    assert_non_null(strstr(ls_json_str(h, "message", ""), "data check failed"));
    /* errors first */
    assert_string_equal(ls_json_str(json_array_get(f, 0), "severity", ""), "error");
    json_decref(f);
    json_decref(doc);
}

/* Entry e's samples (stats and value with them) made five around its value whose robust
   spread (1.4826 x MAD / median) is r: median m, deviations 2d d 0 d 2d, MAD d. */
static void spread_to(json_t *e, double r)
{
    double m = ls_json_num(e, "value", 0), d = m * r / 1.4826;
    const double x[] = {m - 2 * d, m - d, m, m + d, m + 2 * d};
    ls_entry_set_samples(e, x, sizeof x / sizeof *x);
}

/* Entry e's samples made n times its value times f[i] (stats and value with them). */
static void samples_of(json_t *e, const double *f, size_t n)
{
    double m = ls_json_num(e, "value", 0), x[16];
    assert_true(n <= sizeof x / sizeof *x);
    for (size_t i = 0; i < n; i++)
        x[i] = m * f[i];
    ls_entry_set_samples(e, x, n);
}

static int in_noisy_list(const json_t *doc, const char *id)
{
    json_t *plan = ls_plan(doc);
    int found = 0;
    size_t i;
    const json_t *n;
    json_array_foreach(json_object_get(plan, "noisy"), i, n) {
        found |= !strcmp(json_string_value(n), id);
    }
    json_decref(plan);
    return found;
}

static void noisy_figures_lower_their_findings(void **state)
{
    (void)state;
    json_t *doc = bundled_run();
    json_t *e = entry(doc, "hbm-read-0");
    json_object_set_new(e, "value", json_real(2000.0)); /* 42% of 4814 GB/s */
    spread_to(e, 0.16);
    json_t *f = ls_findings(doc);
    assert_string_equal(ls_json_str(rule_of(f, "noisy", NULL), "severity", ""), "warning");
    const json_t *b = rule_of(f, "below_ceiling", "GPU0");
    assert_non_null(b);
    assert_string_equal(ls_json_str(b, "severity", ""), "info");
    assert_non_null(strstr(ls_json_str(b, "message", ""), "rerun on an idle machine"));
    json_decref(f);
    json_decref(doc);
}

/* Limits per class (docs/analysis.md "noisy"): a pageable host copy spreads by itself
   (17.2% on an idle H200), a pinned one-way copy does not (at most 1.9%). */
static void noisy_limit_depends_on_the_copy(void **state)
{
    (void)state;
    json_t *doc = bundled_run();
    spread_to(entry(doc, "host-bidir-pageable-0-node0"), 0.17);
    json_t *f = ls_findings(doc);
    assert_null(rule_of(f, "noisy", NULL));
    json_decref(f);
    spread_to(entry(doc, "host-bidir-pageable-0-node0"), 0.30);
    spread_to(entry(doc, "host-h2d-pinned-1-node0"), 0.12);
    f = ls_findings(doc);
    const json_t *n = rule_of(f, "noisy", NULL);
    assert_non_null(n);
    assert_int_equal(json_array_size(json_object_get(n, "evidence")), 2);
    /* the worst against its own limit: 0.30 / 0.25 > 0.12 / 0.10 */
    assert_non_null(strstr(ls_json_str(n, "message", ""),
                           "worst host-bidir-pageable-0-node0 at 30.0%, limit 25%"));
    json_decref(f);
    json_decref(doc);
}

/* Session 12 (1 x H100, idle): the pinned GPU-to-host copy's first sample read 35.9
   GB/s, the other nine 53-55: a CV above 10%, the median untouched. The robust spread
   judges the nine: quiet. */
static void one_slow_sample_stays_quiet(void **state)
{
    (void)state;
    json_t *doc = bundled_run();
    json_t *e = entry(doc, "host-d2h-pinned-0-node0");
    const double f[] = {0.65, 0.99, 1.0, 1.01, 0.98, 1.0, 0.99, 1.0, 1.01, 1.0};
    samples_of(e, f, sizeof f / sizeof *f);
    const json_t *st = json_object_get(e, "stats");
    assert_true(ls_json_num(st, "cv", 0) > LS_NOISY_CV);
    ls_view_t v = ls_view_of(e);
    assert_true(ls_view_spread(&v) < LS_NOISY_CV);
    assert_false(ls_entry_noisy(e));
    json_t *fs = ls_findings(doc);
    assert_null(rule_of(fs, "noisy", NULL));
    json_decref(fs);
    assert_false(in_noisy_list(doc, "host-d2h-pinned-0-node0"));
    json_decref(doc);
}

/* A figure whose samples spread broadly (another process taking a share of each sample,
   not one slow one) stays noisy by the robust spread as by the CV. */
static void broad_spread_is_noisy(void **state)
{
    (void)state;
    json_t *doc = bundled_run();
    json_t *e = entry(doc, "hbm-copy-1");
    const double f[] = {1.0, 0.78, 0.95, 0.70, 1.0, 0.83, 0.74, 0.97, 0.88, 0.79};
    samples_of(e, f, sizeof f / sizeof *f);
    assert_true(ls_json_num(json_object_get(e, "stats"), "cv", 0) > LS_NOISY_CV);
    ls_view_t v = ls_view_of(e);
    assert_true(ls_view_spread(&v) > LS_NOISY_CV);
    assert_true(ls_entry_noisy(e));
    json_t *fs = ls_findings(doc);
    const json_t *n = rule_of(fs, "noisy", NULL);
    assert_non_null(n);
    assert_string_equal(json_string_value(json_array_get(json_object_get(n, "evidence"), 0)),
                        "hbm-copy-1");
    json_decref(fs);
    assert_true(in_noisy_list(doc, "hbm-copy-1"));
    json_decref(doc);
}

/* An imported figure with stats and no samples: the CV is judged. */
static void without_samples_the_cv_is_judged(void **state)
{
    (void)state;
    json_t *doc = bundled_run();
    json_t *e = entry(doc, "hbm-write-0");
    json_object_del(e, "samples");
    json_t *st = json_object_get(e, "stats");
    assert_true(ls_json_int(st, "n", 0) >= LS_NOISY_MIN_SAMPLES);
    json_object_set_new(st, "cv", json_real(LS_NOISY_CV / 2));
    assert_false(ls_entry_noisy(e));
    json_object_set_new(st, "cv", json_real(LS_NOISY_CV * 1.2));
    assert_true(ls_entry_noisy(e));
    json_t *fs = ls_findings(doc);
    const json_t *n = rule_of(fs, "noisy", NULL);
    assert_non_null(n);
    char worst[64];
    snprintf(worst, sizeof worst, "worst hbm-write-0 at %.1f%%", 100 * LS_NOISY_CV * 1.2);
    assert_non_null(strstr(ls_json_str(n, "message", ""), worst));
    json_decref(fs);
    /* fewer than LS_NOISY_MIN_SAMPLES samples kept: the CV too */
    json_object_set_new(e, "samples", json_pack("[f, f]", 1.0, 2.0));
    assert_true(ls_entry_noisy(e));
    json_decref(doc);
}

static void busy_gpu_is_found(void **state)
{
    (void)state;
    json_t *doc = bundled_run();
    json_t *t = json_object_get(entry(doc, "hbm-copy-1"), "telemetry");
    json_object_set_new(t, "processes",
                        json_pack("{s:[{s:i, s:I}]}", "1", "pid", 4242, "used_bytes",
                                  (json_int_t)1 << 30));
    json_t *f = ls_findings(doc);
    const json_t *b = rule_of(f, "busy_gpu", "GPU1");
    assert_non_null(b);
    assert_non_null(strstr(ls_json_str(b, "message", ""), "4242 on GPU1"));
    json_decref(f);
    json_decref(doc);
}

/* A figure value and its stats times f (the entry's samples too). */
static void scale_entry(json_t *e, double f)
{
    size_t k;
    json_t *v;
    scale_number(e, "value", f);
    json_array_foreach(json_object_get(e, "samples"), k, v)
        json_array_set_new(json_object_get(e, "samples"), k, json_real(json_number_value(v) * f));
    const char *keys[] = {"median", "min", "max", "mean"};
    for (size_t s = 0; s < sizeof keys / sizeof *keys; s++)
        scale_number(json_object_get(e, "stats"), keys[s], f);
}

/* Issue 26: a burn beside the run gave busy_gpu plus below_ceiling findings that only
   repeat it. Below the ceiling on the busy GPU folds into busy_gpu as evidence; the same
   drop on a GPU nobody else used stays its own finding. */
static void below_ceiling_on_a_busy_gpu_folds(void **state)
{
    (void)state;
    json_t *doc = bundled_run();
    json_t *t = json_object_get(entry(doc, "hbm-copy-1"), "telemetry");
    json_object_set_new(t, "processes",
                        json_pack("{s:[{s:i, s:I}]}", "1", "pid", 4242, "used_bytes",
                                  (json_int_t)1 << 30));
    scale_entry(entry(doc, "hbm-read-1"), 0.4);
    scale_entry(entry(doc, "hbm-copy-1"), 0.4);
    json_t *f = ls_findings(doc);
    assert_null(rule_of(f, "below_ceiling", NULL)); /* before the fold: one on GPU1 */
    const json_t *b = rule_of(f, "busy_gpu", "GPU1");
    assert_non_null(b);
    const json_t *ev = json_object_get(b, "evidence");
    int read = 0;
    for (size_t i = 0; i < json_array_size(ev); i++)
        read |= !strcmp(json_string_value(json_array_get(ev, i)), "hbm-read-1");
    assert_true(read);
    assert_non_null(strstr(ls_json_str(b, "message", ""), "folded in as evidence"));
    json_decref(f);
    /* the same drop on GPU0 as well: GPU0 was idle, its finding stays */
    scale_entry(entry(doc, "hbm-read-0"), 0.4);
    f = ls_findings(doc);
    const json_t *below = rule_of(f, "below_ceiling", NULL);
    assert_non_null(below);
    assert_int_equal(ls_finding_gpus(below), 1); /* GPU0 only */
    assert_non_null(rule_of(f, "busy_gpu", "GPU1"));
    json_decref(f);
    json_decref(doc);
}

static void collapse_and_one_rank(void **state)
{
    (void)state;
    json_t *doc = bundled_run();
    json_t *ar = entry(doc, "nccl-all_reduce-default"), *rows = json_object_get(ar, "rows");
    size_t n = json_array_size(rows);
    for (size_t k = n - 4; k < n; k++) /* the four largest sizes at a fifth */
        scale_number(json_object_get(json_array_get(rows, k), "oop"), "busbw", 0.2);
    json_t *ag = entry(doc, "nccl-all_gather-default");
    json_object_set_new(ag, "nranks", json_integer(1));
    json_object_set_new(ag, "gpus", json_pack("[i]", 0));
    json_t *f = ls_findings(doc);
    assert_non_null(rule_of(f, "busbw_collapse", "all_reduce on GPUs 0,1"));
    const json_t *i = rule_of(f, "implausible", "GPU0");
    assert_non_null(i);
    assert_non_null(strstr(ls_json_str(i, "message", ""), "one rank"));
    json_decref(f);
    json_decref(doc);
}

/* In-place against out-of-place busbw of one row of the bundled all_reduce: far apart
   at a large size is a run whose figures do not repeat; near, or at a small size, quiet. */
static void erratic_rows_found(void **state)
{
    (void)state;
    static const struct {
        double scale;
        int large, fires;
    } cases[] = {{0.5, 1, 1}, {0.8, 1, 0}, {0.3, 0, 0}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        json_t *doc = bundled_run();
        json_t *rows = json_object_get(entry(doc, "nccl-all_reduce-default"), "rows");
        size_t n = json_array_size(rows);
        json_t *row = json_array_get(rows, cases[c].large ? n - 1 : 2);
        scale_number(json_object_get(row, "ip"), "busbw", cases[c].scale);
        json_t *f = ls_findings(doc);
        const json_t *e = rule_of(f, "erratic_rows", "all_reduce on GPUs 0,1");
        if (cases[c].fires) {
            assert_non_null(e);
            assert_non_null(strstr(ls_json_str(e, "message", ""), "2.0 x"));
        } else {
            assert_null(e);
        }
        json_decref(f);
        json_decref(doc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bundled_run_stays_quiet),
        cmocka_unit_test(halved_nvlink_is_found),
        cmocka_unit_test(halved_box_is_found),
        cmocka_unit_test(degraded_pair_below_its_ceiling),
        cmocka_unit_test(no_peer_access_is_found),
        cmocka_unit_test(no_topology_no_guess),
        cmocka_unit_test(statuses_are_findings),
        cmocka_unit_test(noisy_figures_lower_their_findings),
        cmocka_unit_test(noisy_limit_depends_on_the_copy),
        cmocka_unit_test(one_slow_sample_stays_quiet),
        cmocka_unit_test(broad_spread_is_noisy),
        cmocka_unit_test(without_samples_the_cv_is_judged),
        cmocka_unit_test(busy_gpu_is_found),
        cmocka_unit_test(below_ceiling_on_a_busy_gpu_folds),
        cmocka_unit_test(collapse_and_one_rank),
        cmocka_unit_test(erratic_rows_found),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
