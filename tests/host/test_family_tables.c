/* The measuring commands' own tables (render/family_tables.c), printed and written as
   CSV from a real run (examples/h200x2-run.json, 2 x H200): byte for byte what
   tests/fixtures/family_tables/ holds, which the tables printed before they read the
   model's descriptors and the typed view (issue 24). LS_UPDATE_FIXTURES=1 rewrites them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "helpers.h"
#include "measure/family.h"
#include "model/doc.h"
#include "render/family_tables.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = calloc((size_t)n + 1, 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n)
        s[0] = '\0';
    fclose(f);
    return s;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* Every CSV file of dir, in name order, each after a "== NAME" line. */
static void csv_files(FILE *out, const char *dir)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, by_name);
    for (int i = 0; i < n; i++) {
        if (names[i]->d_name[0] != '.') {
            char path[4400];
            snprintf(path, sizeof path, "%.4000s/%.255s", dir, names[i]->d_name);
            char *text = slurp(path);
            fprintf(out, "== %s\n%s", names[i]->d_name, text ? text : "(unreadable)\n");
            free(text);
        }
        free(names[i]);
    }
    free(n >= 0 ? names : NULL);
}

/* What `linkscope NAME` prints after measuring, then its --csv files. */
static char *tables_of(const json_t *doc, const ls_family_t *f)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    const ls_family_tables_t *t = ls_family_tables(f->name);
    t->print(out, doc, f->methods, 0);
    char dir[4096], err[256] = "";
    snprintf(dir, sizeof dir, "%s", ls_tmp_path(f->name));
    mkdir(dir, 0700);
    assert_int_equal(t->csv(doc, f->methods, dir, err, sizeof err), 0);
    csv_files(out, dir);
    fclose(out);
    return text;
}

static void tables_as_before(void **state)
{
    (void)state;
    char err[512] = "", path[4096];
    snprintf(path, sizeof path, "%s/../../examples/h200x2-run.json", LS_FIXTURES);
    json_t *doc = ls_doc_read(path, err, sizeof err);
    assert_non_null(doc);
    static const char *const names[] = {"p2p", "latency", "hbm", "host"};
    for (int i = 0; i < 4; i++) {
        char *text = tables_of(doc, ls_family_find(names[i]));
        assert_true(strlen(text) > 200); /* matrices and tables, not an empty print */
        char want_path[4096];
        snprintf(want_path, sizeof want_path, "%s/family_tables/%s.txt", LS_FIXTURES, names[i]);
        if (getenv("LS_UPDATE_FIXTURES")) {
            FILE *w = fopen(want_path, "w");
            assert_non_null(w);
            fputs(text, w);
            fclose(w);
        }
        char *want = slurp(want_path);
        assert_non_null(want);
        assert_string_equal(text, want);
        free(want);
        free(text);
    }
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tables_as_before),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
