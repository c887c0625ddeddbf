/* Shared helpers for the cmocka tests. Include after cmocka.h's prerequisites. */
#ifndef LS_TEST_HELPERS_H
#define LS_TEST_HELPERS_H

#include <stddef.h>

/* Absolute path of a file under tests/fixtures (static buffer, rotates over 8). */
const char *ls_fixture(const char *relative);

/* A fresh path in a private temporary directory (static buffer, rotates over 8). */
const char *ls_tmp_path(const char *name);

/* Exit code for a skipped test (CTest SKIP_RETURN_CODE). */
#define LS_TEST_SKIP 77

#endif
