/* Variants: NAME=VALUE parsing, the child's argv, a real fork+exec of a fake child that
   shows it got the setting, a child that fails and one that hangs; the side-by-side
   table with ratios and the nccl-tests table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "helpers.h"
#include "model/doc.h"
#include "render/nccl_tables.h"
#include "nccl/table.h"
#include "nccl/variant.h"
#include "util/fileio.h"

static void parse_settings(void **s)
{
    (void)s;
    char key[64];
    const char *value;
    assert_int_equal(ls_variant_parse("NCCL_P2P_LEVEL=PHB", key, sizeof key, &value), 0);
    assert_string_equal(key, "NCCL_P2P_LEVEL");
    assert_string_equal(value, "PHB");
    assert_int_equal(ls_variant_parse("NCCL_ALGO=", key, sizeof key, &value), 0);
    assert_string_equal(value, "");
    assert_int_equal(ls_variant_parse("NCCL_IB_HCA==mlx5_0:1", key, sizeof key, &value), 0);
    assert_string_equal(value, "=mlx5_0:1");
    assert_int_equal(ls_variant_parse("NCCL_ALGO", key, sizeof key, &value), -1);
    assert_int_equal(ls_variant_parse("=Tree", key, sizeof key, &value), -1);
    assert_int_equal(ls_variant_parse("1NCCL=2", key, sizeof key, &value), -1);
    assert_int_equal(ls_variant_parse("NCCL-ALGO=Tree", key, sizeof key, &value), -1);
    char longname[100];
    memset(longname, 'A', 70);
    strcpy(longname + 70, "=1");
    assert_int_equal(ls_variant_parse(longname, key, sizeof key, &value), -1); /* no room */
}

static void child_argv(void **s)
{
    (void)s;
    char *args[] = {"nccl", "all_reduce", "-b", "8", "-e", "1G"};
    char **argv = ls_variant_argv("/usr/bin/linkscope", args, 6, "/tmp/x.json");
    assert_non_null(argv);
    assert_string_equal(argv[0], "/usr/bin/linkscope");
    assert_string_equal(argv[1], "nccl");
    assert_string_equal(argv[6], "1G");
    assert_string_equal(argv[7], "--child-out");
    assert_string_equal(argv[8], "/tmp/x.json");
    assert_null(argv[9]);
    free(argv);
}

/* A stand-in for linkscope: writes a run document whose entry carries the value of
   NCCL_P2P_LEVEL it saw, or exits 3 / hangs when asked to. */
static const char *fake_child(void)
{
    const char *path = ls_tmp_path("fake-linkscope.sh");
    const char *script =
        "#!/bin/sh\n"
        "out=''\n"
        "while [ $# -gt 0 ]; do [ \"$1\" = --child-out ] && out=$2; shift; done\n"
        "[ \"${FAKE_MODE:-}\" = fail ] && exit 3\n"
        "[ \"${FAKE_MODE:-}\" = hang ] && exec sleep 30\n"
        "echo 'this goes to stderr, not the report'\n"
        "cat > \"$out\" <<EOF\n"
        "{\"schema\": \"linkscope.run/1\", \"created\": \"2026-11-30T00:00:00Z\", \"host\": {},\n"
        " \"software\": {\"nccl\": \"2.28.3\"}, \"gpus\": [], \"links\": [], \"nics\": [],\n"
        " \"gpu_nic_links\": [], \"env\": {}, \"measurements\": [{\"id\": \"x\", \"family\": "
        "\"nccl\",\n"
        " \"metric\": \"busbw\", \"unit\": \"GB/s\", \"status\": \"ok\", \"collective\": "
        "\"all_reduce\",\n"
        " \"seen\": \"${NCCL_P2P_LEVEL:-unset}\"}]}\n"
        "EOF\n";
    char err[256];
    assert_int_equal(ls_write_file_atomic(path, script, strlen(script), err, sizeof err), 0);
    chmod(path, 0755);
    return path;
}

static const char *seen_value(json_t *doc)
{
    return ls_json_str(json_array_get(json_object_get(doc, "measurements"), 0), "seen", "?");
}

static void fork_runs_each_setting_in_its_own_process(void **s)
{
    (void)s;
    const char *exe = fake_child();
    char *args[] = {"nccl", "all_reduce"};
    const char *out = ls_tmp_path("child.json");
    char **argv = ls_variant_argv(exe, args, 2, out);
    char err[512];
    int code = -1;
    unsetenv("NCCL_P2P_LEVEL");
    json_t *doc = ls_variant_run(argv, "NCCL_P2P_LEVEL=PHB", out, 20, &code, err, sizeof err);
    if (!doc)
        fail_msg("%s", err);
    assert_int_equal(code, 0);
    assert_string_equal(seen_value(doc), "PHB");
    json_decref(doc);
    /* the parent's own environment is untouched; the default sets nothing */
    assert_null(getenv("NCCL_P2P_LEVEL"));
    doc = ls_variant_run(argv, "default", out, 20, &code, err, sizeof err);
    assert_non_null(doc);
    assert_string_equal(seen_value(doc), "unset");
    json_decref(doc);
    /* a child that fails: its status, one line */
    setenv("FAKE_MODE", "fail", 1);
    doc = ls_variant_run(argv, "NCCL_ALGO=Tree", out, 20, &code, err, sizeof err);
    assert_null(doc);
    assert_int_equal(code, 3);
    assert_non_null(strstr(err, "status 3"));
    /* a child that hangs: killed at the limit */
    setenv("FAKE_MODE", "hang", 1);
    doc = ls_variant_run(argv, "NCCL_ALGO=Ring", out, 0.5, &code, err, sizeof err);
    assert_null(doc);
    assert_non_null(strstr(err, "did not finish"));
    unsetenv("FAKE_MODE");
    free(argv);
}

static json_t *entry_with(const char *variant, double busbw_small, double busbw_large)
{
    json_t *e = json_pack("{s:s, s:s, s:s, s:s, s:i, s:s, s:s, s:s, s:i, s:[], s:[]}", "family",
                          "nccl", "status", "ok", "collective", "all_reduce", "variant", variant,
                          "nranks", 2, "mode", "threads", "dtype", "float", "redop", "sum", "root",
                          -1, "rows", "transports");
    double bw[2] = {busbw_small, busbw_large};
    long long bytes[2] = {1048576, 1073741824};
    for (int k = 0; k < 2; k++) {
        json_t *half = json_pack("{s:f, s:f, s:f, s:i}", "time_us", 10.0, "algbw", bw[k], "busbw",
                                 bw[k], "wrong", 0);
        json_array_append_new(json_object_get(e, "rows"),
                              json_pack("{s:I, s:I, s:o, s:o}", "bytes", (json_int_t)bytes[k],
                                        "count", (json_int_t)(bytes[k] / 4), "oop", half, "ip",
                                        json_deep_copy(half)));
    }
    json_array_append_new(json_object_get(e, "transports"),
                          json_pack("{s:i, s:i, s:i, s:i, s:s, s:s, s:b}", "channel", 0, "from", 0,
                                    "to", 1, "from_rank", 0, "transport", "SHM", "side", "both",
                                    "gdrdma", 0));
    return e;
}

static char *render(void (*fn)(FILE *, json_t *const *, int), json_t *const *entries, int n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fn(f, entries, n);
    fclose(f);
    return buf;
}

static void side_by_side_with_ratios(void **s)
{
    (void)s;
    json_t *e[2] = {entry_with("default", 40.0, 320.0),
                    entry_with("NCCL_P2P_DISABLE=1", 10.0, 26.0)};
    char *text = render(ls_nccl_print_variants, e, 2);
    assert_non_null(strstr(text, "NCCL_P2P_DISABLE=1"));
    assert_non_null(strstr(text, "10.00 (x0.25)"));
    assert_non_null(strstr(text, "26.00 (x0.08)"));
    assert_non_null(strstr(text, "GPU0 -> GPU1: SHM x1 channels"));
    free(text);
    /* the nccl-tests table of one entry */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ls_nccl_print_table(f, e[0]);
    fclose(f);
    assert_non_null(strstr(buf, "  1073741824     268435456     float     sum      -1"));
    assert_non_null(strstr(buf, "#wrong"));
    assert_non_null(strstr(buf, "Avg bus bandwidth    : 180 GB/s"));
    free(buf);
    assert_float_equal(ls_nccl_avg_busbw(e[1]), 18.0, 1e-9);
    /* a default without rows (failed at once) still shows the other setting's figures,
       with no ratio to divide by */
    json_array_clear(json_object_get(e[0], "rows"));
    text = render(ls_nccl_print_variants, e, 2);
    assert_non_null(strstr(text, "26.00 (x -)"));
    assert_null(strstr(text, "(x0.00)"));
    free(text);
    json_decref(e[0]);
    json_decref(e[1]);
}

/* verified: some result checked and none wrong. Nothing checked (-c 0, or in-place
   alltoall only) is not verified; a wrong in-place half is not. */
static void verified_needs_a_checked_result(void **s)
{
    (void)s;
    json_t *e = entry_with("default", 40.0, 320.0);
    json_t *rows = json_object_get(e, "rows");
    assert_true(ls_nccl_rows_verified(rows));
    json_t *ip = json_object_get(json_array_get(rows, 1), "ip");
    json_object_set_new(ip, "wrong", json_integer(3));
    assert_false(ls_nccl_rows_verified(rows));
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        json_object_set_new(json_object_get(row, "oop"), "wrong", json_null());
        json_object_del(row, "ip");
    }
    assert_false(ls_nccl_rows_verified(rows)); /* nothing checked */
    json_object_set_new(json_object_get(json_array_get(rows, 0), "oop"), "wrong", json_integer(0));
    assert_true(ls_nccl_rows_verified(rows));
    assert_false(ls_nccl_rows_verified(NULL));
    json_decref(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_settings),
        cmocka_unit_test(child_argv),
        cmocka_unit_test(fork_runs_each_setting_in_its_own_process),
        cmocka_unit_test(side_by_side_with_ratios),
        cmocka_unit_test(verified_needs_a_checked_result),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
