/* NVML's fabric health mask and summary decoded into nvidia-smi -q's Health words
   (model/fabric_health.c), and the one judgment linkscope health and plan make of them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/fabric_health.h"

/* nvml.h's 2-bit fields: 1 true, 2 false, 0 not supported; shifts 0, 2, 4, 6. */
#define DEGRADED(v) ((unsigned)(v) << 0)
#define ROUTE_RECOVERY(v) ((unsigned)(v) << 2)
#define ROUTE_UNHEALTHY(v) ((unsigned)(v) << 4)
#define ACCESS_TIMEOUT(v) ((unsigned)(v) << 6)
#define CONFIG(v) ((unsigned)(v) << 8)
#define ALL_FALSE (DEGRADED(2) | ROUTE_RECOVERY(2) | ROUTE_UNHEALTHY(2) | ACCESS_TIMEOUT(2))

static const char *field(const json_t *h, const char *key)
{
    return json_string_value(json_object_get(h, key));
}

/* Nothing supported (a GPU off any fabric, the H200 of the device machine): no block. */
static void nothing_supported(void **state)
{
    (void)state;
    assert_null(ls_fabric_health_decode(0, 0, 0));
    assert_null(ls_fabric_health_decode(0, 1, 0));
    assert_int_equal(ls_fabric_health_flagged(NULL), 0);
}

/* A healthy GPU on a fabric: every field read, nothing flagged. */
static void healthy(void **state)
{
    (void)state;
    json_t *h = ls_fabric_health_decode(ALL_FALSE | CONFIG(1), 1, 1);
    assert_string_equal(field(h, "summary"), "Healthy");
    assert_string_equal(field(h, "bandwidth"), "Full");
    assert_string_equal(field(h, "route_recovery_in_progress"), "False");
    assert_string_equal(field(h, "route_unhealthy"), "False");
    assert_string_equal(field(h, "access_timeout_recovery"), "False");
    assert_string_equal(field(h, "incorrect_configuration"), "None");
    assert_int_equal(ls_fabric_health_flagged(h), 0);
    json_decref(h);
}

/* Degraded bandwidth with an unhealthy route, summary Limited Capacity: flagged. */
static void degraded(void **state)
{
    (void)state;
    unsigned mask = DEGRADED(1) | ROUTE_RECOVERY(2) | ROUTE_UNHEALTHY(1) | ACCESS_TIMEOUT(2);
    json_t *h = ls_fabric_health_decode(mask | CONFIG(1), 1, 3);
    assert_string_equal(field(h, "summary"), "Limited Capacity");
    assert_string_equal(field(h, "bandwidth"), "Degraded");
    assert_string_equal(field(h, "route_unhealthy"), "True");
    assert_int_equal(ls_fabric_health_flagged(h), 1);
    json_decref(h);
}

/* v2 (no summary): the bandwidth alone decides; an unhealthy summary alone (v3) too. */
static void summary_or_bandwidth(void **state)
{
    (void)state;
    json_t *h = ls_fabric_health_decode(DEGRADED(1), 0, 2);
    assert_null(json_object_get(h, "summary"));
    assert_int_equal(ls_fabric_health_flagged(h), 1);
    json_decref(h);
    h = ls_fabric_health_decode(ALL_FALSE, 1, 2);
    assert_string_equal(field(h, "summary"), "Unhealthy");
    assert_int_equal(ls_fabric_health_flagged(h), 1);
    json_decref(h);
    /* Limited Capacity with full bandwidth: NVML's summary says the paths are short of
       their capacity: flagged (gaps15; before, only Unhealthy or Degraded were) */
    h = ls_fabric_health_decode(ALL_FALSE | CONFIG(1), 1, 3);
    assert_string_equal(field(h, "summary"), "Limited Capacity");
    assert_string_equal(field(h, "bandwidth"), "Full");
    assert_int_equal(ls_fabric_health_flagged(h), 1);
    json_decref(h);
    /* a route in recovery with full bandwidth and a healthy summary is NVML's own call:
       not flagged */
    h = ls_fabric_health_decode(DEGRADED(2) | ROUTE_RECOVERY(1), 1, 1);
    assert_string_equal(field(h, "route_recovery_in_progress"), "True");
    assert_int_equal(ls_fabric_health_flagged(h), 0);
    json_decref(h);
}

/* The configuration field: named codes, a later code kept as its number, values of other
   fields (a 3 in a 2-bit field, a summary past 3) left out as not known. */
static void configuration_and_unknown_values(void **state)
{
    (void)state;
    json_t *h = ls_fabric_health_decode(CONFIG(5), 0, 0);
    assert_string_equal(field(h, "incorrect_configuration"), "Insufficient NVLinks");
    json_decref(h);
    h = ls_fabric_health_decode(CONFIG(9) | DEGRADED(3), 1, 7);
    assert_string_equal(field(h, "incorrect_configuration"), "Incorrect (code 9)");
    assert_null(json_object_get(h, "bandwidth"));
    assert_null(json_object_get(h, "summary"));
    json_decref(h);
}

/* -q's N/A block, as imported (the H200's): not flagged. */
static void printed_na_is_quiet(void **state)
{
    (void)state;
    json_t *h = json_pack("{s:s, s:s}", "summary", "N/A", "bandwidth", "N/A");
    assert_int_equal(ls_fabric_health_flagged(h), 0);
    json_decref(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nothing_supported),
        cmocka_unit_test(healthy),
        cmocka_unit_test(degraded),
        cmocka_unit_test(summary_or_bandwidth),
        cmocka_unit_test(configuration_and_unknown_values),
        cmocka_unit_test(printed_na_is_quiet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
