/* dcgmi's and NVVS's own error texts (import/dcgm_error.c; tests/fixtures/real/dcgm-dcgm70-*
   and dcgm-dcgm94-*, README.md there names each source; the constructed lines are DCGM's
   printing code's words, dcgmi/Diag.cpp and dcgm_structs errorString): the document
   records that the diagnostic did not run and why, dcgm_runtime_error says so (never a
   pass, no verdict on the GPUs), and a passing diagnostic stays quiet. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "analyze/analyze.h"
#include "import/dcgm_error.h"
#include "import/import.h"
#include "model/doc.h"

static json_t *import_real(const char *file, enum ls_import_format want)
{
    char rel[256];
    snprintf(rel, sizeof rel, "real/%s", file);
    json_t *doc = ls_import_doc_new();
    ls_test_import(doc, rel, (int)want);
    return doc;
}

static const json_t *only_dcgm(const json_t *doc)
{
    const json_t *list = json_object_get(doc, "dcgm");
    assert_int_equal(json_array_size(list), 1);
    const json_t *d = json_array_get(list, 0);
    assert_int_equal(json_array_size(json_object_get(d, "tests")), 0);
    return d;
}

/* NVVS's MIG refusal alone: the GPU it names, a warning with node action none. */
static void test_mig_refusal(void **state)
{
    (void)state;
    json_t *doc = import_real("dcgm-dcgm70-mig-incompatible-gpu2.txt", LS_FMT_DCGM_ERROR);
    const json_t *d = only_dcgm(doc);
    assert_string_equal(ls_json_str(d, "runtime_error", ""),
                        "GPU 2's MIG configuration is incompatible with the diagnostic because "
                        "it prevents access to the entire GPU.");
    assert_string_equal(ls_json_str(json_object_get(d, "not_run"), "cause", ""), "mig");
    ls_test_fires(doc, "dcgm_runtime_error", "warning", "none", "health is unknown");
    ls_test_fires(doc, "dcgm_runtime_error", "warning", "none", "disable MIG");
    ls_test_silent(doc, "dcgm_passed");
    ls_test_silent(doc, "dcgm_failed");
    json_decref(doc);
}

/* A paste with the MIG refusal and an empty group's Return: code: the MIG line, the most
   specific, is the one kept. */
static void test_mig_and_empty_group(void **state)
{
    (void)state;
    json_t *doc = import_real("dcgm-dcgm94-mig-empty-group.txt", LS_FMT_DCGM_ERROR);
    const json_t *d = only_dcgm(doc);
    assert_non_null(strstr(ls_json_str(d, "runtime_error", ""), "GPU 0's MIG configuration"));
    ls_test_fires(doc, "dcgm_runtime_error", "warning", "none", "MIG");
    json_decref(doc);
}

/* dcgmi diag's Return: line alone: the empty group's meaning. */
static void test_empty_group(void **state)
{
    (void)state;
    json_t *doc =
        ls_test_import_text("Error: Unable to complete diagnostic for group 1. Return: (-35) The "
                            "specified group is empty, and this operation is incompatible with "
                            "an empty group.\n",
                            LS_FMT_DCGM_ERROR);
    assert_string_equal(ls_json_str(json_object_get(only_dcgm(doc), "not_run"), "cause", ""),
                        "empty_group");
    ls_test_fires(doc, "dcgm_runtime_error", "warning", "none", "holds no GPU");
    json_decref(doc);
}

/* The host engine not reached: dcgmi's connection error, no GPU judged. */
static void test_hostengine(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text("$ dcgmi diag -r 1\nError: unable to establish a connection "
                                      "to the specified host: "
                                      "localhost\nError: Unable to connect to host engine. Host "
                                      "engine connection "
                                      "invalid/disconnected.\n",
                                      LS_FMT_DCGM_ERROR);
    assert_string_equal(ls_json_str(json_object_get(only_dcgm(doc), "not_run"), "cause", ""),
                        "hostengine");
    ls_test_fires(doc, "dcgm_runtime_error", "warning", "none", "nv-hostengine");
    json_decref(doc);
}

/* A node fault in the Return: code: a lost GPU is an error, the node rebooted. */
static void test_gpu_lost(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text("Error: Unable to complete diagnostic for group 0. Return: "
                                      "(-15) GPU is lost.\n",
                                      LS_FMT_DCGM_ERROR);
    ls_test_fires(doc, "dcgm_runtime_error", "error", "reboot", "fell off the bus");
    json_decref(doc);
}

/* dcgmi health without watches: no report at all, refused in one line naming it. */
static void test_health_watches_off(void **state)
{
    (void)state;
    json_t *doc = ls_import_doc_new();
    char err[512];
    assert_int_equal(ls_import_text(doc,
                                    "dcgmi health --check -g 1\nError: Health watches not "
                                    "enabled. Please enable watches. \n",
                                    "h.txt", NULL, NULL, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "Health watches not enabled"));
    assert_non_null(strstr(err, "-s a"));
    assert_null(strchr(err, '\n'));
    assert_null(json_object_get(doc, "dcgm"));
    json_decref(doc);
}

/* Not dcgmi's own line: an exporter's log quoting DCGM's words is not taken for it, and an
   unknown runtime_error gets no meaning (the rule keeps it an error). */
static void test_not_dcgmi(void **state)
{
    (void)state;
    assert_false(ls_dcgm_error_detect(
        "level=fatal msg=\"Failed to watch metrics: Error watching fields: Host engine "
        "connection invalid/disconnected\"\n"));
    assert_false(ls_dcgm_error_detect("GPU 0: NVIDIA A100 80GB PCIe (UUID: GPU-a2)\n"));
    assert_null(ls_dcgm_not_run("something DCGM said"));
}

/* A passing dcgmi diag keeps its reader and stays quiet. */
static void test_pass_quiet(void **state)
{
    (void)state;
    json_t *doc = import_real("dcgm-dcgm55-r3-deployment-pass.txt", LS_FMT_DCGM_DIAG_TEXT);
    ls_test_silent(doc, "dcgm_runtime_error");
    ls_test_quiet(doc);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mig_refusal), cmocka_unit_test(test_mig_and_empty_group),
        cmocka_unit_test(test_empty_group), cmocka_unit_test(test_hostengine),
        cmocka_unit_test(test_gpu_lost),    cmocka_unit_test(test_health_watches_off),
        cmocka_unit_test(test_not_dcgmi),   cmocka_unit_test(test_pass_quiet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
