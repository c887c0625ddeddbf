/* dcgmi diag's text table in the pieces people paste (import/dcgm_diag_text.c): result
   rows without the table's header and category lines, recognized by DCGM's own row
   stencil and names; a Deployment "Error" row whose check's row is not in the paste; and
   the node action dcgm_failed carries (analyze/rules_tools.c). The texts are synthetic,
   in the layout dcgmi/Diag.cpp prints (DIAG_DATA: the second bar at column 28, 45
   characters of message a row). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "helpers.h"
#include "import/import.h"
#include "model/doc.h"

static const char bare_rows[] =
    "| Memory Bandwidth          | Pass - GPUs: 1, 2, 3                           |\n"
    "|                           | Fail - GPU: 0                                  |\n"
    "| Warning                   | GPU 0 Memory bandwidth 1200 GB/s is below the  |\n"
    "|                           |  expected 1500 GB/s.                           |\n";

static const char deployment_error[] =
    "+---------------------------+------------------------------------------------+\n"
    "| Diagnostic                | Result                                         |\n"
    "+===========================+================================================+\n"
    "|-----  Deployment  --------+------------------------------------------------|\n"
    "| Error                     | GPU 5 had memory errors and row remappings ar  |\n"
    "|                           | e pending                                      |\n";

static json_t *doc_of(const char *text)
{
    char err[512];
    json_t *doc = ls_import_doc_new();
    enum ls_import_format fmt;
    if (ls_import_text(doc, text, "dcgmi.txt", NULL, &fmt, err, sizeof err) < 0)
        fail_msg("%s", err);
    assert_int_equal(fmt, LS_FMT_DCGM_DIAG_TEXT);
    assert_int_equal(ls_doc_validate(doc, err, sizeof err), 0);
    return doc;
}

/* The dcgm_failed finding of doc (exactly one). */
static json_t *failed_of(json_t *doc, json_t **findings)
{
    *findings = ls_findings(doc);
    json_t *found = NULL, *x;
    size_t i;
    json_array_foreach(*findings, i, x) {
        if (!strcmp(ls_json_str(x, "rule", ""), "dcgm_failed")) {
            assert_null(found);
            found = x;
        }
    }
    assert_non_null(found);
    return found;
}

static void rows_without_header_are_read_as_a_cut(void **state)
{
    (void)state;
    assert_int_equal(ls_import_detect(bare_rows), LS_FMT_DCGM_DIAG_TEXT);
    json_t *doc = doc_of(bare_rows), *f;
    const json_t *d = json_array_get(json_object_get(doc, "dcgm"), 0);
    assert_non_null(strstr(ls_json_str(d, "incomplete", ""), "without the table's header"));
    json_t *x = failed_of(doc, &f);
    assert_string_equal(ls_json_str(x, "subject", ""), "GPU0");
    assert_string_equal(ls_json_str(x, "severity", ""), "error");
    assert_string_equal(ls_json_str(x, "node_action", ""), "isolate");
    assert_non_null(strstr(ls_json_str(x, "message", ""), "below the expected 1500 GB/s"));
    json_decref(f);
    json_decref(doc);
}

/* Not dcgmi's rows: another width, a name DCGM does not print, no result word. */
static void other_tables_are_not_taken(void **state)
{
    (void)state;
    const char *const texts[] = {
        "| GPU Memory | Pass - GPUs: 1, 2 |\n| | Fail - GPU: 0 |\n",
        "| GPU Memery                | Pass - GPUs: 1, 2, 3                           |\n",
        "| GPU Memory                | 79.2 GiB                                       |\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        assert_int_not_equal(ls_import_detect(texts[i]), LS_FMT_DCGM_DIAG_TEXT);
}

/* A Deployment Error without its check's row: that check failed, for the GPU the message
   names; a pending row remap asks for a reset (linkscope health's remap_pending). */
static void deployment_error_alone_is_a_failed_check(void **state)
{
    (void)state;
    json_t *doc = doc_of(deployment_error), *f;
    const json_t *d = json_array_get(json_object_get(doc, "dcgm"), 0);
    assert_non_null(strstr(ls_json_str(d, "incomplete", ""), "without its check's row"));
    json_t *x = failed_of(doc, &f);
    assert_string_equal(ls_json_str(x, "subject", ""), "GPU5");
    assert_string_equal(ls_json_str(x, "node_action", ""), "reset");
    assert_non_null(strstr(ls_json_str(x, "message", ""), "row remappings are pending"));
    json_decref(f);
    json_decref(doc);
    /* another check's error: failed, its node action unknown (often a setting), its GPU
       unknown where the message does not start with it */
    char text[sizeof deployment_error + 64];
    snprintf(text, sizeof text,
             "%.*s| Error                     | Persistence mode for GPU 5 "
             "is disabled.    |\n",
             (int)(strstr(deployment_error, "| Error") - deployment_error), deployment_error);
    doc = doc_of(text);
    x = failed_of(doc, &f);
    assert_string_equal(ls_json_str(x, "subject", ""), "GPU unknown");
    assert_null(json_object_get(x, "node_action"));
    json_decref(f);
    json_decref(doc);
}

/* Two such rows about two GPUs: one failed check, a failure for each GPU, each message
   with its own GPU. */
static void deployment_errors_of_two_gpus(void **state)
{
    (void)state;
    char text[sizeof deployment_error * 2];
    snprintf(text, sizeof text, "%s%s", deployment_error, strstr(deployment_error, "| Error"));
    char *second = strstr(strstr(strstr(text, "| Error") + 1, "| Error"), "GPU 5");
    second[4] = '7';
    json_t *doc = doc_of(text);
    const json_t *t =
        json_array_get(json_object_get(json_array_get(json_object_get(doc, "dcgm"), 0), "tests"),
                       0);
    assert_int_equal(json_array_size(json_object_get(doc, "dcgm")), 1);
    const json_t *results = json_object_get(t, "results");
    assert_int_equal(json_array_size(results), 2);
    for (size_t i = 0; i < 2; i++) {
        const json_t *r = json_array_get(results, i);
        int g = (int)json_integer_value(json_array_get(json_object_get(r, "gpus"), 0));
        assert_int_equal(g, i == 0 ? 5 : 7);
        const char *msg = ls_json_str(json_array_get(json_object_get(r, "problems"), 0), "message",
                                      "");
        assert_int_equal(atoi(msg + 4), g);
    }
    json_decref(doc);
}

/* A GPU number no index can be ("GPU 99999999999", "GPU: 4294967295", a list's "70000")
   names no GPU: atoi wrapped the first into GPU 1215752191 and the second into -1, "All". */
static void gpu_numbers_past_any_index_name_none(void **state)
{
    (void)state;
    char text[sizeof deployment_error + 16];
    snprintf(text, sizeof text, "%s", deployment_error);
    char *five = strstr(text, "GPU 5 had");
    memcpy(five + 4, "9999999999", 10); /* "GPU 99999999999 memory errors..." */
    json_t *doc = doc_of(text);
    const json_t *r = json_array_get(
        json_object_get(json_array_get(json_object_get(json_array_get(json_object_get(doc, "dcgm"),
                                                                      0),
                                                       "tests"),
                                       0),
                        "results"),
        0);
    assert_string_equal(ls_json_str(r, "status", ""), "fail");
    assert_int_equal(json_array_size(json_object_get(r, "gpus")), 0);
    json_decref(doc);
    doc = doc_of(
        "| Memory Bandwidth          | Pass - GPUs: 1, 70000, 3                       |\n"
        "|                           | Fail - GPU: 4294967295                         |\n");
    const json_t *t =
        json_array_get(json_object_get(json_array_get(json_object_get(doc, "dcgm"), 0), "tests"),
                       0);
    size_t i;
    const json_t *x;
    json_array_foreach(json_object_get(t, "results"), i, x) {
        assert_null(json_object_get(x, "all_gpus"));
        size_t k;
        const json_t *g;
        json_array_foreach(json_object_get(x, "gpus"), k, g) {
            assert_true(json_integer_value(g) == 1 || json_integer_value(g) == 3);
        }
    }
    json_decref(doc);
}

/* DCGM's own severity, where the output gives it, decides the node action. */
static void dcgm_severity_decides_the_action(void **state)
{
    (void)state;
    static const struct {
        int severity;
        const char *action;
    } cases[] = {{1, "watch"}, {2, "isolate"}, {4, "isolate"}, {5, "none"}, {6, "reset"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        json_t *doc = ls_import_doc_new(), *f;
        json_object_set_new(doc, "dcgm",
                            json_pack("[{s:s, s:[{s:s, s:s, s:[{s:s, s:[i], s:[{s:s, s:i, "
                                      "s:i}]}]}]}]",
                                      "file", "diag.json", "tests", "name", "memory", "category",
                                      "Hardware", "results", "status", "fail", "gpus", 2,
                                      "problems", "message", "a problem", "error_id", 52,
                                      "severity", cases[i].severity));
        json_t *x = failed_of(doc, &f);
        assert_string_equal(ls_json_str(x, "node_action", ""), cases[i].action);
        json_decref(f);
        json_decref(doc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rows_without_header_are_read_as_a_cut),
        cmocka_unit_test(other_tables_are_not_taken),
        cmocka_unit_test(deployment_error_alone_is_a_failed_check),
        cmocka_unit_test(deployment_errors_of_two_gpus),
        cmocka_unit_test(gpu_numbers_past_any_index_name_none),
        cmocka_unit_test(dcgm_severity_decides_the_action),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
