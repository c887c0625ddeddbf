#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "helpers.h"
#include "analyze/analyze.h"
#include "import/import.h"
#include "model/doc.h"
#include "util/fileio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef LS_FIXTURES
#define LS_FIXTURES "tests/fixtures"
#endif

static char *rotate(void)
{
    static char bufs[8][4096];
    static int next;
    return bufs[next++ % 8];
}

const char *ls_fixture(const char *relative)
{
    char *buf = rotate();
    const char *root = getenv("LS_FIXTURES");
    snprintf(buf, 4096, "%s/%s", root && *root ? root : LS_FIXTURES, relative);
    return buf;
}

const char *ls_tmp_path(const char *name)
{
    static char dir[256];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/linkscope-test-XXXXXX");
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            exit(1);
        }
    }
    char *buf = rotate();
    snprintf(buf, 4096, "%s/%s", dir, name);
    return buf;
}

int ls_test_import(json_t *doc, const char *relative, int want)
{
    char err[512];
    const char *slash = strrchr(relative, '/'), *name = slash ? slash + 1 : relative;
    char *text = ls_read_file(ls_fixture(relative), NULL, err, sizeof err);
    if (!text)
        fail_msg("%s", err);
    assert_int_equal(ls_import_detect(text), want);
    int n = ls_import_text(doc, text, name, NULL, NULL, err, sizeof err);
    free(text);
    if (n < 0)
        fail_msg("%s", err);
    assert_int_equal(ls_doc_validate(doc, err, sizeof err), 0);
    return n;
}

const json_t *ls_test_finding(const json_t *findings, const char *rule)
{
    size_t i;
    const json_t *f;
    json_array_foreach(findings, i, f) {
        if (strcmp(ls_json_str(f, "rule", ""), rule) == 0)
            return f;
    }
    return NULL;
}

const json_t *ls_test_gpu(const json_t *doc, int index)
{
    size_t i;
    const json_t *g;
    json_array_foreach(json_object_get(doc, "gpus"), i, g) {
        if (ls_json_int(g, "index", -1) == index)
            return g;
    }
    fail_msg("no GPU %d", index);
    return NULL;
}

void ls_test_quiet(const json_t *doc)
{
    json_t *found = ls_findings(doc);
    size_t i;
    const json_t *f;
    json_array_foreach(found, i, f) {
        if (strcmp(ls_json_str(f, "severity", ""), "info") != 0)
            fail_msg("%s: %s", ls_json_str(f, "rule", ""), ls_json_str(f, "message", ""));
    }
    json_decref(found);
}

void ls_test_fires(const json_t *doc, const char *rule, const char *sev, const char *action,
                   const char *has)
{
    json_t *found = ls_findings(doc);
    const json_t *f = ls_test_finding(found, rule);
    if (!f)
        fail_msg("%s did not fire", rule);
    assert_string_equal(ls_json_str(f, "severity", ""), sev);
    assert_string_equal(ls_json_str(f, "node_action", ""), action);
    if (has && !strstr(ls_json_str(f, "message", ""), has))
        fail_msg("%s: '%s' not in '%s'", rule, has, ls_json_str(f, "message", ""));
    json_decref(found);
}

void ls_test_silent(const json_t *doc, const char *rule)
{
    json_t *found = ls_findings(doc);
    const json_t *f = ls_test_finding(found, rule);
    if (f)
        fail_msg("%s fired: %s", rule, ls_json_str(f, "message", ""));
    json_decref(found);
}

size_t ls_test_count(const json_t *doc, const char *rule)
{
    json_t *found = ls_findings(doc);
    size_t i, n = 0;
    const json_t *f;
    json_array_foreach(found, i, f)
        n += !strcmp(ls_json_str(f, "rule", ""), rule);
    json_decref(found);
    return n;
}

json_t *ls_test_import_text(const char *text, int want)
{
    json_t *doc = ls_import_doc_new();
    char err[512];
    enum ls_import_format fmt;
    if (ls_import_text(doc, text, "pasted.txt", NULL, &fmt, err, sizeof err) < 0)
        fail_msg("%s", err);
    assert_int_equal(fmt, want);
    return doc;
}
