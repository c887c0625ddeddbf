/* Shared helpers for the cmocka tests. Include after cmocka.h's prerequisites. */
#ifndef LS_TEST_HELPERS_H
#define LS_TEST_HELPERS_H

#include <stddef.h>

#include <jansson.h>

/* Absolute path of a file under tests/fixtures (static buffer, rotates over 8). */
const char *ls_fixture(const char *relative);

/* A fresh path in a private temporary directory (static buffer, rotates over 8). */
const char *ls_tmp_path(const char *name);

/* Fixture `relative` (under tests/fixtures) imported into doc under its file name: fails
   the test unless the text is detected as `want` (an enum ls_import_format), imports
   and leaves doc valid. Returns the number of entries it added. */
int ls_test_import(json_t *doc, const char *relative, int want);

/* text imported as a paste ("pasted.txt") into a fresh document: fails the test unless it
   imports and is detected as `want` (an enum ls_import_format). */
json_t *ls_test_import_text(const char *text, int want);

/* The first finding of this rule in findings (NULL when there is none). */
const json_t *ls_test_finding(const json_t *findings, const char *rule);

/* doc's findings: none above info (else the test fails, naming the first). */
void ls_test_quiet(const json_t *doc);

/* doc's first finding of rule: present, with severity sev and node_action action (""
   where it carries none), its message holding has (unless NULL); else the test fails. */
void ls_test_fires(const json_t *doc, const char *rule, const char *sev, const char *action,
                   const char *has);

/* How many of doc's findings are of rule. */
size_t ls_test_count(const json_t *doc, const char *rule);

/* doc's findings hold none of rule (else the test fails with its message). */
void ls_test_silent(const json_t *doc, const char *rule);

/* The document's GPU with this "index"; fails the test when there is none. */
const json_t *ls_test_gpu(const json_t *doc, int index);

/* Exit code for a skipped test (CTest SKIP_RETURN_CODE). */
#define LS_TEST_SKIP 77

#endif
