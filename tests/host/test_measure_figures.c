/* What each measured figure counts, the statistics over samples, and the measuring
   families' entries in the run document (schema fields, round trip). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "model/entries.h"
#include "measure/figures.h"
#include "model/doc.h"
#include "model/entry.h"
#include "util/fileio.h"
#include "util/stats.h"

static void gbps_is_1e9_bytes_per_second(void **state)
{
    (void)state;
    assert_float_equal(ls_gbps(1e9, 1000), 1.0, 1e-12);
    assert_float_equal(ls_gbps(396e6, 1), 396.0, 1e-9); /* 396 MB in 1 ms */
    assert_float_equal(ls_gbps(1, 0), 0, 0);
}

static void bytes_counted_per_figure(void **state)
{
    (void)state;
    uint64_t mib256 = 256ull << 20;
    assert_int_equal(ls_p2p_counted_bytes("uni", mib256, 8), 8 * mib256);
    assert_int_equal(ls_p2p_counted_bytes("bidir", mib256, 8), 16 * mib256); /* sum of both */
    assert_int_equal(ls_hbm_traffic_bytes("read", 1000, 3), 3000);
    assert_int_equal(ls_hbm_traffic_bytes("write", 1000, 3), 3000);
    assert_int_equal(ls_hbm_traffic_bytes("copy", 1000, 3), 6000); /* read + write */
    assert_int_equal(ls_hbm_traffic_bytes("copy_ce", 1000, 3), 6000);
    assert_int_equal(ls_hbm_traffic_bytes("bogus", 1000, 3), 0);
    assert_int_equal(ls_host_counted_bytes("h2d", 10, 2), 20);
    assert_int_equal(ls_host_counted_bytes("d2h", 10, 2), 20);
    assert_int_equal(ls_host_counted_bytes("bidir", 10, 2), 40);
    assert_int_equal(ls_round16(1023), 1008);
    assert_int_equal(ls_round16(4096), 4096);
}

static void latency_conversions(void **state)
{
    (void)state;
    /* 2000 round trips in 3.2 ms: 4000 one-way trips of 0.8 us */
    assert_float_equal(ls_pingpong_one_way_us(3.2e6, 2000), 0.8, 1e-12);
    assert_float_equal(ls_per_access_us(8.3e6, 10000), 0.83, 1e-12);
    assert_float_equal(ls_pingpong_one_way_us(1, 0), 0, 0);
}

static void loops_fill_a_sample(void **state)
{
    (void)state;
    assert_int_equal(ls_pick_loops(0.67, 10, 64), 15);
    assert_int_equal(ls_pick_loops(20, 10, 64), 1);
    assert_int_equal(ls_pick_loops(0.001, 10, 64), 64);
    assert_int_equal(ls_pick_loops(0, 10, 64), 1);
    assert_int_equal(ls_pick_loops(NAN, 10, 64), 1);
}

static void stats_median_spread(void **state)
{
    (void)state;
    double s[] = {400, 390, 410, 395, 405};
    ls_stats_t st = ls_stats(s, 5);
    assert_float_equal(st.median, 400, 1e-12);
    assert_float_equal(st.min, 390, 0);
    assert_float_equal(st.max, 410, 0);
    assert_float_equal(st.mean, 400, 1e-12);
    assert_float_equal(st.stddev, sqrt(250.0 / 4), 1e-9);
    assert_float_equal(st.cv, sqrt(250.0 / 4) / 400, 1e-12);
    double even[] = {1, 3, 2, 4};
    assert_float_equal(ls_stats(even, 4).median, 2.5, 0);
    assert_int_equal(ls_stats(NULL, 0).n, 0);
}

static void bandwidth_entry_from_times(void **state)
{
    (void)state;
    json_t *e = ls_p2p_entry(0, 1, "uni", "ce", 1, 256ull << 20);
    double ms[] = {2.0, 4.0, 1.0};
    ls_entry_set_bandwidth(e, ms, 3, 2e9); /* 2 GB per sample */
    json_t *samples = json_object_get(e, "samples");
    assert_int_equal(json_array_size(samples), 3);
    assert_float_equal(json_real_value(json_array_get(samples, 0)), 1000, 1e-9);
    assert_float_equal(json_real_value(json_array_get(samples, 1)), 500, 1e-9);
    assert_float_equal(ls_json_num(e, "value", 0), 1000, 1e-9); /* median */
    assert_string_equal(ls_json_str(e, "id", ""), "p2p-ce-uni-0-1");
    assert_string_equal(ls_json_str(e, "unit", ""), "GB/s");
    assert_int_equal(ls_json_int(e, "bytes", 0), 256 << 20);
    assert_int_equal(json_array_size(json_object_get(e, "flags")), 0);
    json_decref(e);
}

static int has_flag(const json_t *e, const char *flag)
{
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(e, "flags"), i, f)
        if (strcmp(json_string_value(f), flag) == 0)
            return 1;
    return 0;
}

static void flags_say_how_it_went(void **state)
{
    (void)state;
    json_t *staged = ls_p2p_entry(0, 1, "uni", "staged", 1, 16);
    assert_true(has_flag(staged, "through_host"));
    assert_false(has_flag(staged, "no_p2p")); /* the pair has P2P: staged is a method */
    assert_true(json_is_false(json_object_get(staged, "p2p"))); /* ... that does not use it */
    json_t *staged_none = ls_p2p_entry(0, 1, "uni", "staged", 0, 16);
    assert_true(has_flag(staged_none, "through_host") && has_flag(staged_none, "no_p2p"));
    json_decref(staged_none);
    json_t *nop2p = ls_p2p_entry(0, 1, "uni", "ce", 0, 16);
    assert_true(has_flag(nop2p, "through_host") && has_flag(nop2p, "no_p2p"));
    assert_true(json_is_false(json_object_get(nop2p, "p2p")));
    ls_entry_flag(nop2p, "throttled");
    ls_entry_flag(nop2p, "throttled");
    assert_int_equal(json_array_size(json_object_get(nop2p, "flags")), 3);
    json_t *host = ls_latency_entry(1, LS_HOST_SIDE, "pointer_chase", 0, 1, 8);
    assert_string_equal(ls_json_str(host, "id", ""), "latency-pointer_chase-1-host");
    assert_int_equal(ls_json_int(host, "dst", 0), -1);
    assert_int_equal(json_array_size(json_object_get(host, "gpus")), 1);
    assert_false(has_flag(host, "no_p2p"));
    json_decref(staged);
    json_decref(nop2p);
    json_decref(host);
}

static void latency_no_p2p_only_for_pairs_without_peer_access(void **state)
{
    (void)state;
    /* A P2P pair measured through host memory: through_host, not no_p2p. */
    json_t *via_host = ls_latency_entry(0, 1, "gpu_pingpong", 1, 1, 4);
    assert_true(has_flag(via_host, "through_host"));
    assert_false(has_flag(via_host, "no_p2p"));
    assert_true(json_is_false(json_object_get(via_host, "p2p")));
    assert_string_equal(ls_json_str(via_host, "id", ""), "latency-gpu_pingpong-host-0-1");
    json_t *direct = ls_latency_entry(0, 1, "gpu_copy", 1, 0, 4);
    assert_true(json_is_true(json_object_get(direct, "p2p")));
    assert_int_equal(json_array_size(json_object_get(direct, "flags")), 0);
    /* A pair without peer access: every figure goes through host and says no_p2p. */
    json_t *none = ls_latency_entry(0, 1, "cpu_copy", 0, 1, 4);
    assert_true(has_flag(none, "through_host") && has_flag(none, "no_p2p"));
    assert_true(json_is_false(json_object_get(none, "p2p")));
    /* cpu_copy shares gpu_copy's telemetry and the flags it set. */
    json_object_set_new(direct, "telemetry", json_pack("{s:i, s:b}", "samples", 3, "available", 1));
    ls_entry_flag(direct, "throttled");
    json_t *cpu = ls_latency_entry(0, 1, "cpu_copy", 1, 0, 4);
    ls_entry_share_telemetry(cpu, direct);
    assert_true(has_flag(cpu, "throttled"));
    assert_int_equal(json_array_size(json_object_get(cpu, "flags")), 1);
    assert_int_equal(ls_json_int(json_object_get(cpu, "telemetry"), "samples", 0), 3);
    json_decref(via_host);
    json_decref(direct);
    json_decref(none);
    json_decref(cpu);
}

static void hbm_efficiency_and_copied(void **state)
{
    (void)state;
    json_t *e = ls_hbm_entry(0, "copy", 1ull << 30, 4916.736);
    double gbps[] = {4200, 4300, 4250};
    ls_entry_set_samples(e, gbps, 3);
    ls_hbm_finish(e);
    assert_float_equal(ls_json_num(e, "copied_gbps", 0), 2125, 1e-9);
    assert_float_equal(ls_json_num(e, "efficiency", 0), 4250 / 4916.736, 1e-12);
    json_t *r = ls_hbm_entry(0, "read", 1ull << 30, 0);
    ls_entry_set_samples(r, gbps, 3);
    ls_hbm_finish(r);
    assert_null(json_object_get(r, "copied_gbps"));
    assert_null(json_object_get(r, "efficiency")); /* no theoretical, no ratio */
    assert_null(json_object_get(r, "theoretical"));
    json_decref(e);
    json_decref(r);
}

static void entries_round_trip_through_the_document(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new();
    double v[] = {1.5, 1.25, 1.75};
    json_t *es[] = {ls_p2p_entry(0, 1, "bidir", "sm_write", 1, 1 << 20),
                    ls_latency_entry(0, 1, "gpu_pingpong", 1, 0, 4),
                    ls_hbm_entry(1, "write", 1 << 30, 4916.736),
                    ls_host_entry(0, 1, "h2d", "pinned", 0, 1 << 28)};
    for (int i = 0; i < 4; i++) {
        ls_entry_set_samples(es[i], v, 3);
        json_object_set_new(es[i], "verified", json_true());
        json_object_set_new(es[i], "telemetry",
                            json_pack("{s:i, s:b}", "samples", 0, "available", 0));
        ls_doc_add_unique(doc, es[i]);
    }
    /* The same figure again (a second run --into the file) gets its own id. */
    json_t *again = ls_hbm_entry(1, "write", 1 << 30, 4916.736);
    ls_doc_add_unique(doc, again);
    assert_string_equal(ls_json_str(again, "id", ""), "hbm-write-1-2");
    char err[512];
    assert_int_equal(ls_doc_validate(doc, err, sizeof err), 0);
    const char *path = ls_tmp_path("measure-rt.json");
    assert_int_equal(ls_doc_write(doc, path, err, sizeof err), 0);
    json_t *back = ls_doc_read(path, err, sizeof err);
    assert_non_null(back);
    char *a = ls_doc_dumps(doc), *b = ls_doc_dumps(back);
    assert_string_equal(a, b);
    const json_t *host = json_array_get(json_object_get(back, "measurements"), 3);
    assert_string_equal(ls_json_str(host, "family", ""), "host");
    assert_int_equal(ls_json_int(host, "numa_node", -1), 1);
    assert_true(json_is_false(json_object_get(host, "local")));
    assert_float_equal(ls_json_num(host, "value", 0), 1.5, 0);
    free(a);
    free(b);
    json_decref(doc);
    json_decref(back);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gbps_is_1e9_bytes_per_second),
        cmocka_unit_test(bytes_counted_per_figure),
        cmocka_unit_test(latency_conversions),
        cmocka_unit_test(loops_fill_a_sample),
        cmocka_unit_test(stats_median_spread),
        cmocka_unit_test(bandwidth_entry_from_times),
        cmocka_unit_test(flags_say_how_it_went),
        cmocka_unit_test(latency_no_p2p_only_for_pairs_without_peer_access),
        cmocka_unit_test(hbm_efficiency_and_copied),
        cmocka_unit_test(entries_round_trip_through_the_document),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
