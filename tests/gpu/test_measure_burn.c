/* A short burn (10 s) on up to two GPUs: every window timed, the series sampled every
   100 ms, the summary sane, the repeated product unchanged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "helpers.h"
#include "measure_gpu_common.h"
#include "measure/burn.h"

#define SECONDS 10.0
/* Dense bf16 FLOP per clock per SM: Hopper's is 4096 (989 TFLOP/s = 132 SMs x 1830 MHz
   x 4096); twice that bounds every part up to Blackwell. */
#define FLOP_PER_CLOCK_SM_BOUND 8192.0

static int ngpus;

static int numbers_in(const json_t *arr, double lo, double hi)
{
    size_t i;
    const json_t *v;
    int n = 0;
    json_array_foreach(arr, i, v) if (json_is_number(v))
    {
        assert_true(json_number_value(v) >= lo && json_number_value(v) <= hi);
        n++;
    }
    return n;
}

static void check_entry(const json_t *e)
{
    const json_t *b = json_object_get(e, "burn"), *s = json_object_get(b, "series");
    int dev = (int)ls_json_int(e, "gpu", -1), sms = 0, khz = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev);
    double bound = sms * (khz / 1e3) * 1e6 * FLOP_PER_CLOCK_SM_BOUND / 1e12;
    printf("%s: first %.1f sustained %.1f TFLOP/s, %zu windows, %zu samples, %.0f W, %.0f C, "
           "SM %.0f MHz, HBM %.0f GB/s, peer %.0f GB/s\n", ls_json_str(e, "id", "?"),
           ls_json_num(b, "first_tflops", 0), ls_json_num(b, "sustained_tflops", 0),
           json_array_size(json_object_get(b, "window_tflops")), json_array_size(json_object_get(s, "t_s")),
           ls_json_num(b, "power_max_w", 0), ls_json_num(b, "temp_max_c", 0),
           ls_json_num(b, "sm_mhz_sustained", 0), ls_json_num(b, "hbm_traffic_gbps", 0),
           ls_json_num(b, "peer_gbps", 0));
    assert_string_equal(ls_json_str(e, "status", "?"), "ok");
    assert_int_equal(ls_json_int(b, "wrong", -1), 0);
    /* windows of ~200 ms over 10 s */
    assert_true(json_array_size(json_object_get(b, "window_tflops")) >= 20);
    assert_true(numbers_in(json_object_get(b, "window_tflops"), 0.1, bound) >= 20);
    double ratio = ls_json_num(b, "sustained_ratio", 0);
    assert_true(ratio > 0.5 && ratio < 1.5);
    assert_true(ls_json_num(e, "value", 0) == ls_json_num(b, "sustained_tflops", -1));
    /* 100 ms sampling over 10 s: at least half the readings, whatever the host load, and
       no more than the 10 s plus the copies left to drain at the end (under 5 s) allow */
    size_t n = json_array_size(json_object_get(s, "t_s"));
    assert_true(n >= 50 && n <= 150);
    assert_int_equal(json_array_size(json_object_get(s, "power_w")), n);
    assert_true(numbers_in(json_object_get(s, "power_w"), 1, 5000) > 0);
    assert_true(numbers_in(json_object_get(s, "temp_c"), 5, 120) > 0);
    assert_true(numbers_in(json_object_get(s, "sm_mhz"), 1, 5000) > 0);
    assert_true(ls_json_num(b, "power_max_w", 0) > 0);
    assert_true(ls_json_num(b, "temp_max_c", 0) > 0);
    assert_true(ls_json_num(b, "hbm_traffic_gbps", 0) > 0);
    assert_true(json_is_array(json_object_get(b, "throttle_events")));
}

/* With two GPUs that reach each other, each sends NVLink (P2P) traffic to the next one of
   the ring, and the figure for it is there and above zero. */
static void check_peer_traffic(const json_t *e, int n)
{
    const json_t *b = json_object_get(e, "burn");
    int dev = (int)ls_json_int(e, "gpu", -1), next = (dev + 1) % n, can = 0;
    if (n < 2 || cudaDeviceCanAccessPeer(&can, dev, next) != cudaSuccess || !can)
        return;
    assert_int_equal(ls_json_int(b, "nvlink_peer", -1), next);
    assert_true(ls_json_num(b, "peer_gbps", 0) > 0);
}

static void short_burn(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new();
    ls_burn_opts_t o = {.gpus = {0, 1}, .ngpus = ngpus > 1 ? 2 : 1, .seconds = SECONDS,
                        .period_ms = LS_BURN_PERIOD_MS};
    char err[256] = "";
    assert_int_equal(ls_measure_burn(doc, &o, err, sizeof err), 0);
    assert_int_equal(cudaGetLastError(), cudaSuccess); /* nothing pending for the next launch */
    int seen = 0;
    long i = -1;
    while ((i = ls_doc_next_measurement(doc, "burn", i + 1)) >= 0) {
        const json_t *e = json_array_get(json_object_get(doc, "measurements"), (size_t)i);
        check_entry(e);
        check_peer_traffic(e, o.ngpus);
        seen++;
    }
    assert_int_equal(seen, o.ngpus);
    json_decref(doc);
}

int main(void)
{
    ngpus = gpus_or_skip();
    if (ngpus <= 0)
        return LS_TEST_SKIP;
    const struct CMUnitTest tests[] = {cmocka_unit_test(short_burn)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
