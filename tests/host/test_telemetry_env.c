/* LINKSCOPE_TELEMETRY_PCIE (sample/telemetry.c): a value other than always or never is
   said once on stderr, never ignored in silence, and the windows go on as they ask. Its
   own process: the variable is read once, at the first window. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sample/telemetry.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void bad_value_said_once(void **state)
{
    (void)state;
    setenv("LINKSCOPE_TELEMETRY_PCIE", "sometimes", 1);
    FILE *err = tmpfile();
    assert_non_null(err);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    dup2(fileno(err), STDERR_FILENO);
    int gpus[1] = {0}, nvml[1] = {-1};
    for (int i = 0; i < 2; i++) { /* two windows, one line */
        ls_telemetry_t *t = ls_telemetry_start(gpus, nvml, 1, 10, LS_TELEMETRY_PCIE);
        assert_non_null(t);
        json_t *e = json_object();
        ls_telemetry_stop(t, e);
        assert_non_null(json_object_get(e, "telemetry"));
        json_decref(e);
    }
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    char text[1024] = "";
    rewind(err);
    size_t n = fread(text, 1, sizeof text - 1, err);
    fclose(err);
    text[n] = '\0';
    int lines = 0;
    for (const char *p = text; (p = strstr(p, "LINKSCOPE_TELEMETRY_PCIE=sometimes")); p++)
        lines++;
    assert_int_equal(lines, 1);
    assert_non_null(strstr(text, "expected always or never"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(bad_value_said_once)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
