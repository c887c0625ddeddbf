/* Figures that cannot be are findings (issue 25, docs/safety.md "Impossible figures"):
   an empty document, an ok figure of zero, below zero or none, nccl-tests rows with a
   negative time, a size twice, or cells the import left out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "analyze/analyze.h"
#include "model/doc.h"

static const json_t *rule(const json_t *findings, const char *name)
{
    size_t i;
    const json_t *f;
    json_array_foreach(findings, i, f) {
        if (!strcmp(ls_json_str(f, "rule", ""), name))
            return f;
    }
    return NULL;
}

static json_t *doc_with(json_t *entry)
{
    json_t *doc = ls_doc_new();
    json_array_append_new(json_object_get(doc, "gpus"), json_pack("{s:i}", "index", 0));
    json_array_append_new(json_object_get(doc, "gpus"), json_pack("{s:i}", "index", 1));
    if (entry)
        json_array_append_new(json_object_get(doc, "measurements"), entry);
    return doc;
}

static json_t *p2p(const char *id, json_t *value)
{
    json_t *e = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:[i,i], s:s}", "id", id,
                          "family", "p2p", "metric", "bandwidth", "unit", "GB/s", "status", "ok",
                          "method", "ce", "src", 0, "dst", 1, "gpus", 0, 1, "direction", "uni");
    if (value)
        json_object_set_new(e, "value", value);
    return e;
}

static void expect(json_t *doc, const char *name, const char *severity, const char *in_message)
{
    json_t *f = ls_findings(doc);
    const json_t *hit = rule(f, name);
    if (!hit)
        fail_msg("no %s finding", name);
    assert_string_equal(ls_json_str(hit, "severity", ""), severity);
    if (in_message && !strstr(ls_json_str(hit, "message", ""), in_message))
        fail_msg("%s: message lacks '%s': %s", name, in_message, ls_json_str(hit, "message", ""));
    json_decref(f);
    json_decref(doc);
}

static void empty_document_is_nothing_measured(void **state)
{
    (void)state;
    expect(ls_doc_new(), "nothing_measured", "error", "Nothing measured");
    /* GPUs alone (an inventory) are something to judge */
    json_t *doc = doc_with(NULL), *f = ls_findings(doc);
    assert_null(rule(f, "nothing_measured"));
    json_decref(f);
    json_decref(doc);
}

static void zero_negative_and_missing_figures(void **state)
{
    (void)state;
    expect(doc_with(p2p("p2p-zero", json_real(0))), "impossible_value", "error",
           "p2p-zero (0 GB/s)");
    expect(doc_with(p2p("p2p-neg", json_real(-37.75))), "impossible_value", "error",
           "p2p-neg (-37.75 GB/s)");
    expect(doc_with(p2p("p2p-none", NULL)), "impossible_value", "error", "p2p-none (no figure)");
    /* a figure above zero, or one not ok, is no such finding */
    json_t *doc = doc_with(p2p("p2p-fine", json_real(50))), *f = ls_findings(doc);
    assert_null(rule(f, "impossible_value"));
    json_decref(f);
    json_decref(doc);
    json_t *failed = p2p("p2p-failed", json_real(0));
    json_object_set_new(failed, "status", json_string("failed"));
    doc = doc_with(failed), f = ls_findings(doc);
    assert_null(rule(f, "impossible_value"));
    json_decref(f);
    json_decref(doc);
}

static json_t *nccl(const char *id, double t0, long long b1, const char *flag)
{
    json_t *e = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:[i,i], s:f, s:I, s:[{s:I, s:{s:f, "
                          "s:f}}, {s:I, s:{s:f, s:f}}]}",
                          "id", id, "family", "nccl", "metric", "busbw", "unit", "GB/s", "status",
                          "ok", "method", "nccl", "collective", "all_reduce", "gpus", 0, 1, "value",
                          300.0, "bytes", (json_int_t)b1, "rows", "bytes", (json_int_t)1024, "oop",
                          "time_us", t0, "busbw", 1.0, "bytes", (json_int_t)b1, "oop", "time_us",
                          500.0, "busbw", 300.0);
    if (flag)
        json_object_set_new(e, "flags", json_pack("[s]", flag));
    return e;
}

static void suspect_nccl_rows(void **state)
{
    (void)state;
    expect(doc_with(nccl("nccl-neg", -15.6, 1 << 20, NULL)), "suspect_rows", "warning",
           "nccl-neg (a negative time or bandwidth)");
    expect(doc_with(nccl("nccl-dup", 15.6, 1024, NULL)), "suspect_rows", "warning",
           "nccl-dup (a size twice)");
    expect(doc_with(nccl("nccl-nan", 15.6, 1 << 20, "nonfinite_cells")), "suspect_rows", "warning",
           "nccl-nan (nan or inf cells left out)");
    expect(doc_with(nccl("nccl-big", 15.6, 1 << 20, "unreadable_size")), "suspect_rows", "warning",
           "nccl-big (a size past 2^63 left out)");
    json_t *doc = doc_with(nccl("nccl-fine", 15.6, 1 << 20, NULL)), *f = ls_findings(doc);
    assert_null(rule(f, "suspect_rows"));
    assert_null(rule(f, "impossible_value"));
    json_decref(f);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_document_is_nothing_measured),
        cmocka_unit_test(zero_negative_and_missing_figures),
        cmocka_unit_test(suspect_nccl_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
