/* The burn family offline: the summary, findings and chart of the real 150 s H200 burn
   (examples/h200-burn.json), and of documented transforms of it (a hotter, a weaker, a
   sagging and a faulty GPU). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "analyze/analyze.h"
#include "analyze/burn_rules.h"
#include "measure/burn.h"
#include "model/doc.h"
#include "render/burn_render.h"
#include "render/render.h"

static json_t *load_burn(void)
{
    char err[256];
    json_t *doc = ls_doc_read(ls_fixture("../../examples/h200-burn.json"), err, sizeof err);
    assert_non_null(doc);
    return doc;
}

static json_t *entry0(json_t *doc)
{
    return json_array_get(json_object_get(doc, "measurements"), 0);
}

static int count(const json_t *findings, const char *rule, const char *severity)
{
    size_t i;
    const json_t *f;
    int n = 0;
    json_array_foreach(findings, i, f)
        n += strcmp(ls_json_str(f, "rule", ""), rule) == 0 &&
             (!severity || strcmp(ls_json_str(f, "severity", ""), severity) == 0);
    return n;
}

static const char *message_of(const json_t *findings, const char *rule)
{
    size_t i;
    const json_t *f;
    json_array_foreach(findings, i, f)
        if (strcmp(ls_json_str(f, "rule", ""), rule) == 0)
            return ls_json_str(f, "message", "");
    return "";
}

static json_t *burn_findings(const json_t *doc)
{
    json_t *found = json_array();
    ls_rules_burn(doc, found);
    return found;
}

/* The summary recomputed from the stored windows and series equals the stored one. */
static void test_summary_real(void **state)
{
    (void)state;
    json_t *doc = load_burn(), *e = entry0(doc), *b = json_object_get(e, "burn");
    json_t *before = json_deep_copy(b);
    ls_burn_summarize(e);
    const char *keys[] = {"first_tflops", "sustained_tflops",  "sustained_ratio", "temp_max_c",
                          "power_max_w",  "power_sustained_w", "sm_mhz_sustained"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        assert_float_equal(ls_json_num(b, keys[i], -1), ls_json_num(before, keys[i], -2), 1e-9);
    /* what the H200 did: ~630 TFLOP/s held, 1485 MHz at ~693 W of 700, 57 C, power cap only */
    assert_true(ls_json_num(b, "sustained_ratio", 0) > 0.95);
    assert_true(ls_json_num(b, "power_max_w", 0) > 690);
    assert_int_equal(json_array_size(json_object_get(b, "throttle_events")), 1);
    assert_string_equal(ls_json_str(json_array_get(json_object_get(b, "throttle_events"), 0),
                                    "reason", ""),
                        "sw_power_cap");
    assert_int_equal(ls_json_int(b, "wrong", -1), 0);
    json_decref(before);
    json_decref(doc);
}

/* At its power limit the whole time: one info, nothing else. */
static void test_findings_real(void **state)
{
    (void)state;
    json_t *doc = load_burn(), *found = burn_findings(doc);
    assert_int_equal(json_array_size(found), 1);
    assert_int_equal(count(found, "burn_power_cap", "info"), 1);
    assert_non_null(strstr(message_of(found, "burn_power_cap"), "1485 MHz"));
    json_decref(found);
    json_t *all = ls_findings(doc); /* and they join the document's findings */
    assert_int_equal(count(all, "burn_power_cap", "info"), 1);
    json_decref(all);
    json_decref(doc);
}

/* A limit of 1000 W: 702 W reached is 70 %, below DCGM's 75 % criterion. */
static void test_power_low(void **state)
{
    (void)state;
    json_t *doc = load_burn();
    json_t *power = json_object_get(json_array_get(json_object_get(doc, "gpus"), 0), "power");
    json_object_set_new(power, "limit_w", json_real(1000));
    json_t *found = burn_findings(doc);
    assert_int_equal(count(found, "burn_power_low", "warning"), 1);
    json_decref(found);
    json_decref(doc);
}

/* Thermal slowdown (NVML bit 0x20) set from the 100th sample on. */
static void test_thermal(void **state)
{
    (void)state;
    json_t *doc = load_burn(), *e = entry0(doc);
    json_t *mask = json_object_get(json_object_get(json_object_get(e, "burn"), "series"),
                                   "throttle");
    for (size_t i = 100; i < json_array_size(mask); i++)
        json_array_set_new(mask, i,
                           json_integer(json_integer_value(json_array_get(mask, i)) | 0x20));
    ls_burn_summarize(e);
    json_t *found = burn_findings(doc);
    assert_int_equal(count(found, "burn_thermal", "warning"), 1);
    assert_non_null(strstr(message_of(found, "burn_thermal"), "sw_thermal_slowdown"));
    json_decref(found);
    json_decref(doc);
}

/* The second half of the windows at 80 %: a sag; a second GPU at 80 %: behind its peer. */
static void test_sag_and_behind(void **state)
{
    (void)state;
    json_t *doc = load_burn(), *e = entry0(doc);
    json_t *copy = json_deep_copy(e),
           *wv = json_object_get(json_object_get(copy, "burn"), "window_tflops");
    size_t n = json_array_size(wv);
    for (size_t i = n / 2; i < n; i++)
        json_array_set_new(wv, i, json_real(0.8 * json_number_value(json_array_get(wv, i))));
    json_object_set_new(copy, "gpu", json_integer(1));
    json_object_set_new(copy, "id", json_string("burn-gemm_bf16-1"));
    ls_burn_summarize(copy);
    json_array_append_new(json_object_get(doc, "measurements"), copy);
    json_t *found = burn_findings(doc);
    assert_int_equal(count(found, "burn_sag", "warning"), 1);
    assert_int_equal(count(found, "burn_behind", "warning"), 1);
    json_decref(found);
    json_decref(doc);
}

static void test_fault(void **state)
{
    (void)state;
    json_t *doc = load_burn();
    json_object_set_new(json_object_get(entry0(doc), "burn"), "wrong", json_integer(12));
    json_t *found = burn_findings(doc);
    assert_int_equal(count(found, "burn_fault", "error"), 1);
    json_decref(found);
    json_decref(doc);
}

/* The HTML report draws one chart (three panels) and the table. */
/* The real burn relabelled as the one part with a sourced base clock (H100 PCIe, 1125 MHz,
   PB-11133): a clock held at 1005 MHz is below it, 1300 MHz is not; a lowered power limit
   is named as the cause. The H200 itself has no sourced base clock: no finding (above). */
static void test_below_base(void **state)
{
    (void)state;
    json_t *doc = load_burn(), *b = json_object_get(entry0(doc), "burn");
    json_t *gpu = json_array_get(json_object_get(doc, "gpus"), 0);
    json_object_set_new(gpu, "name", json_string("NVIDIA H100 PCIe"));
    json_object_set_new(json_object_get(gpu, "power"), "limit_w", json_real(350));
    json_object_set_new(json_object_get(gpu, "power"), "default_limit_w", json_real(350));
    json_object_set_new(b, "power_max_w", json_real(349));
    json_object_set_new(b, "sm_mhz_sustained", json_real(1300));
    json_t *found = burn_findings(doc);
    assert_int_equal(count(found, "burn_below_base", NULL), 0);
    json_decref(found);
    json_object_set_new(b, "sm_mhz_sustained", json_real(1005));
    found = burn_findings(doc);
    assert_int_equal(count(found, "burn_below_base", "warning"), 1);
    assert_non_null(strstr(message_of(found, "burn_below_base"), "1005 MHz"));
    assert_non_null(
        strstr(message_of(found, "burn_below_base"), "h100-pcie's 1125 MHz base clock"));
    assert_non_null(strstr(message_of(found, "burn_below_base"), "sw_power_cap"));
    assert_null(strstr(message_of(found, "burn_below_base"), "power limit is set"));
    json_decref(found);
    json_object_set_new(json_object_get(gpu, "power"), "limit_w", json_real(250));
    found = burn_findings(doc);
    assert_non_null(
        strstr(message_of(found, "burn_below_base"), "set to 250 W of the default 350 W"));
    json_decref(found);
    json_decref(doc);
}

static void test_html_chart(void **state)
{
    (void)state;
    json_t *doc = load_burn(), *findings = ls_findings(doc), *plan = ls_plan_with(doc, findings);
    char *html = ls_report_html(doc, findings, plan);
    assert_non_null(strstr(html, "<section id=\"burn\">"));
    assert_non_null(strstr(html, "GPU 0 under sustained load, 150 s"));
    assert_non_null(strstr(html, ">SM MHz<"));
    assert_non_null(strstr(html, ">power W<"));
    assert_non_null(strstr(html, ">temp C<"));
    assert_non_null(strstr(html, "sw_power_cap@0s"));
    free(html);
    json_decref(findings);
    json_decref(plan);
    json_decref(doc);
}

/* No burn entry: nothing drawn, nothing found. */
static void test_no_burn(void **state)
{
    (void)state;
    char err[256];
    json_t *doc = ls_doc_read(ls_fixture("../../examples/h200x2-run.json"), err, sizeof err);
    assert_int_equal(ls_burn_count(doc), 0);
    json_t *found = burn_findings(doc);
    assert_int_equal(json_array_size(found), 0);
    json_decref(found);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_real),   cmocka_unit_test(test_findings_real),
        cmocka_unit_test(test_power_low),      cmocka_unit_test(test_thermal),
        cmocka_unit_test(test_sag_and_behind), cmocka_unit_test(test_fault),
        cmocka_unit_test(test_below_base),     cmocka_unit_test(test_html_chart),
        cmocka_unit_test(test_no_burn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
