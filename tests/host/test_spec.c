/* GPUs against their datasheet (issue 16): the built-in table parses and every row names
   its source; the bundled 2 x H200 run matches its part with no warning; seed 000's
   Quadro GV100s are flagged for HBM (591 of 870 GB/s) while its V100s (89 %) are not;
   seed 003's SXM-named H100 without NVLink is an error that names PCIe; unknown parts
   say so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/spec.h"
#include "helpers.h"
#include "model/doc.h"

static json_t *load(const char *name)
{
    json_error_t jerr;
    json_t *doc = json_load_file(ls_fixture(name), 0, &jerr);
    assert_non_null(doc);
    return doc;
}

/* Findings of rule (and severity when sev is not NULL) about subject (NULL = any). */
static int count(const json_t *findings, const char *rule, const char *sev, const char *subject)
{
    size_t i;
    const json_t *f;
    int n = 0;
    json_array_foreach(findings, i, f) {
        n += strcmp(ls_json_str(f, "rule", ""), rule) == 0 &&
             (!sev || strcmp(ls_json_str(f, "severity", ""), sev) == 0) &&
             (!subject || strcmp(ls_json_str(f, "subject", ""), subject) == 0);
    }
    return n;
}

static int count_at_least_warning(const json_t *findings)
{
    size_t i;
    const json_t *f;
    int n = 0;
    json_array_foreach(findings, i, f) {
        const char *sev = ls_json_str(f, "severity", "");
        n += strcmp(sev, "warning") == 0 || strcmp(sev, "error") == 0;
    }
    return n;
}

static void test_builtin_table(void **state)
{
    (void)state;
    ls_datasheet_t ds;
    char err[256];
    assert_int_equal(ls_datasheet_builtin(&ds, err, sizeof err), 0);
    assert_true(ds.n >= 35);
    for (int i = 0; i < ds.n; i++)
        assert_true(strlen(ds.rows[i].source) > 10);
    const ls_spec_row_t *h200 = ls_datasheet_find(&ds, "NVIDIA H200");
    assert_non_null(h200);
    assert_string_equal(h200->key, "h200-sxm");
    assert_int_equal(h200->nvlinks, 18);
    assert_true(h200->memory_gbps == 4800);
    assert_non_null(ls_datasheet_find(&ds, "nvidia h100 80gb hbm3"));  /* case-insensitive */
    assert_null(ls_datasheet_find(&ds, "NVIDIA H100"));                /* whole names only */
    assert_true(ls_datasheet_find(&ds, "NVIDIA B200")->boost_mhz < 0); /* unknown stays unknown */
    assert_int_equal(ls_datasheet_find(&ds, "NVIDIA H100 PCIe")->base_mhz, 1125); /* PB-11133 */
    assert_true(h200->base_mhz < 0); /* NVIDIA publishes no base clock for SXM parts */
    ls_datasheet_free(&ds);
    assert_int_equal(ls_datasheet_parse("key\tnames\nx\ty\tz\n", &ds, err, sizeof err), -1);
    assert_non_null(strstr(err, "line 2"));
}

static void test_h200_matches(void **state)
{
    (void)state;
    ls_datasheet_t ds;
    char err[256];
    assert_int_equal(ls_datasheet_builtin(&ds, err, sizeof err), 0);
    json_t *doc = load("../../examples/h200x2-run.json"), *findings = json_array();
    json_t *result = ls_spec_check(doc, &ds, findings);
    assert_int_equal(count_at_least_warning(findings), 0);
    assert_int_equal(count(findings, "spec_unknown", NULL, NULL), 0);
    const json_t *g0 = json_array_get(json_object_get(result, "gpus"), 0);
    assert_string_equal(ls_json_str(g0, "part", ""), "h200-sxm");
    assert_int_equal(json_array_size(json_object_get(g0, "checks")), 6);
    json_decref(result);
    json_decref(findings);
    json_decref(doc);
    ls_datasheet_free(&ds);
}

/* A burn's held SM clock is checked against the base clock: unknown for the H200 (the
   check says so, spec null), 1125 MHz once relabelled as the H100 PCIe. */
static void test_base_clock_check(void **state)
{
    (void)state;
    ls_datasheet_t ds;
    char err[256];
    assert_int_equal(ls_datasheet_builtin(&ds, err, sizeof err), 0);
    json_t *doc = load("../../examples/h200-burn.json"), *findings = json_array();
    json_t *result = ls_spec_check(doc, &ds, findings);
    const json_t *c, *base = NULL;
    size_t i;
    json_array_foreach(json_object_get(json_array_get(json_object_get(result, "gpus"), 0),
                                       "checks"),
                       i, c)
        if (!strcmp(ls_json_str(c, "check", ""), "base_mhz"))
            base = c;
    assert_non_null(base);
    assert_true(json_is_null(json_object_get(base, "spec")));
    assert_float_equal(ls_json_num(base, "seen", 0), 1485, 1e-9);
    json_decref(result);
    json_object_set_new(json_array_get(json_object_get(doc, "gpus"), 0), "name",
                        json_string("NVIDIA H100 PCIe"));
    result = ls_spec_check(doc, &ds, findings);
    base = NULL;
    json_array_foreach(json_object_get(json_array_get(json_object_get(result, "gpus"), 0),
                                       "checks"),
                       i, c)
        if (!strcmp(ls_json_str(c, "check", ""), "base_mhz"))
            base = c;
    assert_non_null(base);
    assert_int_equal(ls_json_int(base, "spec", 0), 1125);
    json_decref(result);
    json_decref(findings);
    json_decref(doc);
    ls_datasheet_free(&ds);
}

static void test_seed000_gv100_hbm(void **state)
{
    (void)state;
    ls_datasheet_t ds;
    char err[256];
    assert_int_equal(ls_datasheet_builtin(&ds, err, sizeof err), 0);
    json_t *doc = load("analyze/seed000-gv100x11.json"), *findings = json_array();
    json_decref(ls_spec_check(doc, &ds, findings));
    assert_int_equal(count(findings, "spec_hbm", "warning", "GPU7"), 1);
    assert_int_equal(count(findings, "spec_hbm", "warning", "GPU9"), 1);
    assert_int_equal(count(findings, "spec_hbm", NULL, NULL), 2); /* V100s at 89 % pass */
    /* Tesla PG500-216 and V100-FHHL-16GB are not in the table: said, not guessed */
    assert_int_equal(count(findings, "spec_unknown", "info", "GPU8"), 1);
    assert_int_equal(count(findings, "spec_unknown", "info", "GPU10"), 1);
    json_decref(findings);
    json_decref(doc);
    ls_datasheet_free(&ds);
}

/* Seed 003: "NVIDIA H100 80GB HBM3" (the SXM5 module's name) on a PCIe card with no
   NVLink, 700 W: the run document of such a card, made from the bundled one. */
static void test_seed003_sxm_name_on_pcie(void **state)
{
    (void)state;
    ls_datasheet_t ds;
    char err[256];
    assert_int_equal(ls_datasheet_builtin(&ds, err, sizeof err), 0);
    json_t *doc = load("../../examples/h200x2-run.json"), *findings = json_array();
    size_t i;
    json_t *gpu;
    json_array_foreach(json_object_get(doc, "gpus"), i, gpu) {
        json_object_set_new(gpu, "name", json_string("NVIDIA H100 80GB HBM3"));
        json_object_set_new(gpu, "memory_total_bytes", json_integer(85520809984LL));
        json_object_set_new(gpu, "nvlinks", json_array());
    }
    json_decref(ls_spec_check(doc, &ds, findings));
    assert_int_equal(count(findings, "spec_nvlink", "error", NULL), 2);
    const char *msg = ls_json_str(json_array_get(findings, 0), "message", "");
    assert_non_null(strstr(msg, "0 active NVLinks"));
    assert_non_null(strstr(msg, "PCIe Gen5 x16"));
    assert_non_null(strstr(msg, "450 GB/s"));
    json_decref(findings);
    json_decref(doc);
    ls_datasheet_free(&ds);
}

/* PCI device ids: a row by id, a name whose id is another part's, a name in no row
   identified by its id. */
static void test_pci_identity(void **state)
{
    (void)state;
    ls_datasheet_t ds;
    char err[256];
    assert_int_equal(ls_datasheet_builtin(&ds, err, sizeof err), 0);
    assert_string_equal(ls_datasheet_find_pci(&ds, "0X2335")->key, "h200-sxm");
    assert_null(ls_datasheet_find_pci(&ds, "0x0000"));
    json_t *doc = load("../../examples/h200x2-run.json"), *findings = json_array();
    json_decref(ls_spec_check(doc, &ds, findings)); /* no id recorded: nothing said */
    assert_int_equal(count(findings, "spec_identity", NULL, NULL), 0);
    json_t *g0 = json_array_get(json_object_get(doc, "gpus"), 0),
           *g1 = json_array_get(json_object_get(doc, "gpus"), 1);
    json_object_set_new(g0, "pci_device_id", json_string("0x2330"));
    json_object_set_new(g1, "name", json_string("NVIDIA H200 Special"));
    json_object_set_new(g1, "pci_device_id", json_string("0x2335"));
    json_array_clear(findings);
    json_t *spec = ls_spec_check(doc, &ds, findings);
    assert_int_equal(count(findings, "spec_identity", "warning", "GPU0"), 1);
    assert_non_null(
        strstr(ls_json_str(json_array_get(findings, 0), "message", ""), "it is the h100-sxm5"));
    assert_int_equal(count(findings, "spec_identity", "info", "GPU1"), 1);
    assert_int_equal(count(findings, "spec_unknown", NULL, NULL), 0);
    assert_string_equal(ls_json_str(json_array_get(json_object_get(spec, "gpus"), 1), "part", ""),
                        "h200-sxm");
    json_decref(spec);
    json_decref(findings);
    json_decref(doc);
    ls_datasheet_free(&ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_table),
        cmocka_unit_test(test_h200_matches),
        cmocka_unit_test(test_base_clock_check),
        cmocka_unit_test(test_seed000_gv100_hbm),
        cmocka_unit_test(test_seed003_sxm_name_on_pcie),
        cmocka_unit_test(test_pci_identity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
