/* dcgmi diag --json. Shapes (DCGM's dcgmi output, and outputs posted by its users):
   - 2.x/3.x: {"DCGM GPU Diagnostic": {"test_categories": [{"category", "tests": [{"name",
     "results": [{"gpu_ids": "0" (a string, "0,1" for several), "status": "Pass" | "Fail"
     | "Warn" | "Skip", "warnings": [{"warning": text, "error_id": N or {"code": N}}],
     "info"}]}]}]}, "DCGM Version", "Driver Version Detected"};
   - 4.x: {"DCGM Diagnostic": {...}, "metadata": {"version", "Driver Version Detected"}}, a
     result names its GPU as "entity_id" (with "entity_group": "GPU"), a test may carry
     "test_summary": {"status"}; some 4.x builds hoist "tests" out of test_categories.
   The warning text is DCGM's own: it says what failed and what to do next. */
#include "dcgm_diag.h"
#include "dcgm_error.h"
#include "dcgm_figures.h"
#include "import_util.h"
#include "model/doc.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const json_t *diag_root(const json_t *top)
{
    const json_t *r = json_object_get(top, "DCGM Diagnostic");
    return r ? r : json_object_get(top, "DCGM GPU Diagnostic");
}

/* A pasted test object alone ({"name", "results": [{"entity_id" | "gpu_id" ...}]},
   perhaps followed by the comma that joined it to the next): NVIDIA/DCGM#215. */
static int one_test(const char *text)
{
    return strstr(text, "\"results\"") && strstr(text, "\"name\"") && strstr(text, "\"status\"") &&
           (strstr(text, "\"entity_id\"") || strstr(text, "\"gpu_id\""));
}

int ls_dcgm_diag_detect(const char *text)
{
    const char *p = text;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return *p == '{' && (strstr(text, "\"DCGM Diagnostic\"") ||
                         strstr(text, "\"DCGM GPU Diagnostic\"") || one_test(text));
}

/* "Pass", "PASS", "pass" -> "pass"; anything unrecognized stays as DCGM wrote it. */
static void lower_status(const char *in, char *out, size_t outlen)
{
    size_t i = 0;
    for (; in[i] && i + 1 < outlen; i++)
        out[i] = (char)(in[i] >= 'A' && in[i] <= 'Z' ? in[i] + 32 : in[i]);
    out[i] = 0;
}

/* The GPU of a result: entity_id (4.x), gpu_id, or the gpu_ids string ("0" or "0,1"). */
static json_t *result_gpus(const json_t *r)
{
    json_t *gpus = json_array();
    const json_t *id = json_object_get(r, "entity_id");
    if (!id)
        id = json_object_get(r, "gpu_id");
    if (!json_is_integer(id) && json_is_integer(json_object_get(r, "gpu_ids")))
        id = json_object_get(r, "gpu_ids"); /* DCGM 3.1 writes a per-GPU test's id as a number */
    if (json_is_integer(id)) {
        json_array_append_new(gpus, json_integer(json_integer_value(id)));
        return gpus;
    }
    const char *ids = json_string_value(json_object_get(r, "gpu_ids"));
    if (!ids && json_is_string(id))
        ids = json_string_value(id);
    for (const char *p = ids; p && *p;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p)
            break;
        json_array_append_new(gpus, json_integer(v));
        p = *end == ',' ? end + 1 : end;
    }
    return gpus;
}

/* error_id as a number ({"code": N} in some builds); -1 when absent. */
static long long error_code(const json_t *w)
{
    const json_t *id = json_object_get(w, "error_id");
    if (json_is_object(id))
        id = json_object_get(id, "code");
    return json_is_integer(id) ? json_integer_value(id) : -1;
}

static json_t *result_problems(const json_t *r)
{
    json_t *out = json_array();
    static const char *const lists[] = {"warnings", "errors"};
    for (size_t l = 0; l < 2; l++) {
        size_t i;
        const json_t *w;
        json_array_foreach(json_object_get(r, lists[l]), i, w) {
            const char *msg = ls_json_str(w, "warning",
                                          ls_json_str(w, "error", ls_json_str(w, "message", NULL)));
            if (json_is_string(w))
                msg = json_string_value(w);
            if (!msg)
                continue;
            json_t *p = json_pack("{s:s}", "message", msg);
            if (error_code(w) >= 0)
                json_object_set_new(p, "error_id", json_integer(error_code(w)));
            if (json_is_integer(json_object_get(w, "error_severity")))
                json_object_set_new(p, "severity",
                                    json_integer(ls_json_int(w, "error_severity", 0)));
            json_array_append_new(out, p);
        }
    }
    return out;
}

static int add_test(json_t *tests, const json_t *t, const char *category)
{
    int n = 0;
    json_t *results = json_array();
    size_t i;
    const json_t *r;
    json_array_foreach(json_object_get(t, "results"), i, r) {
        char status[32];
        lower_status(ls_json_str(r, "status", "unknown"), status, sizeof status);
        json_array_append_new(results, json_pack("{s:s, s:o, s:o}", "status", status, "gpus",
                                                 result_gpus(r), "problems", result_problems(r)));
        n++;
    }
    json_t *test = json_pack("{s:s, s:s, s:o}", "name", ls_json_str(t, "name", "unknown"),
                             "category", category, "results", results);
    const char *summary = ls_json_str(json_object_get(t, "test_summary"), "status", NULL);
    if (summary) {
        char s[32];
        lower_status(summary, s, sizeof s);
        json_object_set_new(test, "status", json_string(s));
    }
    json_array_append_new(tests, test);
    return n;
}

static int add_tests(json_t *tests, const json_t *list, const char *category)
{
    int n = 0;
    size_t i;
    const json_t *t;
    json_array_foreach(list, i, t) {
        if (json_is_object(t))
            n += add_test(tests, t, category);
    }
    return n;
}

static const char *version_of(const json_t *top, const json_t *root)
{
    const json_t *meta = json_object_get(top, "metadata");
    const char *v = ls_json_str(meta, "version", ls_json_str(meta, "DCGM Version", NULL));
    if (!v)
        v = ls_json_str(top, "DCGM Version",
                        ls_json_str(root, "version", ls_json_str(top, "version", NULL)));
    return v;
}

/* A pasted test alone, its trailing comma dropped, as the root {"tests": [test]}. */
static json_t *wrap_one_test(const char *text)
{
    size_t n = strlen(text);
    while (n && strchr(" \t\r\n,", text[n - 1]))
        n--;
    json_error_t jerr;
    json_t *t = json_loadb(text, n, JSON_DECODE_ANY, &jerr);
    if (!json_is_object(t) || !json_is_array(json_object_get(t, "results"))) {
        json_decref(t);
        return NULL;
    }
    return json_pack("{s:{s:[o]}, s:b}", "DCGM Diagnostic", "tests", t, "one_test", 1);
}

int ls_import_dcgm_diag(json_t *doc, const char *text, const char *name, char *err, size_t errlen)
{
    json_error_t jerr;
    json_t *top = json_loads(text, JSON_DECODE_ANY, &jerr);
    if (!diag_root(top) && one_test(text)) {
        json_t *wrapped = wrap_one_test(text);
        if (wrapped)
            json_decref(top), top = wrapped;
    }
    const json_t *root = diag_root(top);
    if (!json_is_object(root))
        return ls_import_json_refused(top, &jerr, name, "dcgmi diag",
                                      "no \"DCGM Diagnostic\" object", err, errlen);
    json_t *tests = json_array();
    int n = 0;
    size_t i;
    const json_t *c;
    json_array_foreach(json_object_get(root, "test_categories"), i, c)
        n += add_tests(tests, json_object_get(c, "tests"), ls_json_str(c, "category", "unknown"));
    n += add_tests(tests, json_object_get(root, "tests"), "unknown");
    ls_dcgm_figures(doc, root); /* its PCIe test's figures, as dcgm entries */
    json_t *dcgm = json_pack("{s:s, s:o}", "file", name, "tests", tests);
    const char *v = version_of(top, root);
    const json_t *meta = json_object_get(top, "metadata");
    const char *drv = ls_json_str(meta, "Driver Version Detected",
                                  ls_json_str(top, "Driver Version Detected", NULL));
    if (v)
        json_object_set_new(dcgm, "version", json_string(v));
    if (drv)
        json_object_set_new(dcgm, "driver", json_string(drv));
    const char *runtime = ls_json_str(root, "runtime_error",
                                      ls_json_str(top, "runtime_error", NULL));
    if (runtime) {
        json_object_set_new(dcgm, "runtime_error", json_string(runtime));
        json_t *why = ls_dcgm_not_run(runtime); /* NULL: a text not known */
        if (why)
            json_object_set_new(dcgm, "not_run", why);
    }
    if (json_is_true(json_object_get(top, "one_test")))
        json_object_set_new(dcgm, "incomplete",
                            json_string("a pasted test alone: no version, no other test"));
    json_t *list = ls_json_array_at(doc, "dcgm");
    json_array_append_new(list, dcgm);
    json_decref(top);
    return n;
}
