/* src/util: sizes, numbers and index lists from the command line, byte counts as text,
   summary statistics, whole-file reading and atomic writing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "helpers.h"
#include "util/fileio.h"
#include "util/parse.h"
#include "util/stats.h"

static uint64_t size_of(const char *text)
{
    uint64_t bytes = 12345;
    assert_int_equal(ls_parse_size(text, &bytes), 0);
    return bytes;
}

static void sizes(void **state)
{
    (void)state;
    assert_true(size_of("512") == 512);
    assert_true(size_of("4K") == 4096);
    assert_true(size_of("4KiB") == 4096);
    assert_true(size_of("64M") == 64ull << 20);
    assert_true(size_of("1G") == 1ull << 30);
    assert_true(size_of("1.5G") == 3ull << 29);
    assert_true(size_of("2TB") == 2ull << 40);
    assert_true(size_of("8B") == 8);
    uint64_t b;
    const char *bad[] = {"", "-1", " 1", "1X", "1KK", "0.5", "1e30T", "nan", "inf", "1.5B", "K"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (ls_parse_size(bad[i], &b) == 0)
            fail_msg("'%s' accepted as %llu bytes", bad[i], (unsigned long long)b);
}

static void numbers(void **state)
{
    (void)state;
    long v;
    assert_int_equal(ls_parse_long("42", 0, 100, &v), 0);
    assert_int_equal(v, 42);
    assert_int_equal(ls_parse_long("101", 0, 100, &v), -1);
    assert_int_equal(ls_parse_long("4x", 0, 100, &v), -1);
    assert_int_equal(ls_parse_long("", 0, 100, &v), -1);
    assert_int_equal(ls_parse_long("99999999999999999999999", 0, 100, &v), -1);
    double d;
    assert_int_equal(ls_parse_double("2.5", &d), 0);
    assert_float_equal(d, 2.5, 0);
    assert_int_equal(ls_parse_double("nan", &d), -1);
    assert_int_equal(ls_parse_double("1e999", &d), -1);
    assert_int_equal(ls_parse_double("2.5s", &d), -1);
}

static void index_lists(void **state)
{
    (void)state;
    int idx[8];
    assert_int_equal(ls_parse_index_list("0,1,4", idx, 8), 3);
    assert_int_equal(idx[2], 4);
    assert_int_equal(ls_parse_index_list("6,0-3", idx, 8), 5);
    assert_int_equal(idx[0], 6);
    assert_int_equal(idx[4], 3);
    assert_int_equal(ls_parse_index_list("1,1,1", idx, 8), 1); /* duplicates once */
    const char *bad[] = {"", "a", "1,", ",1", "3-1", "1-", "0-8", "-1", "1;2", "99999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (ls_parse_index_list(bad[i], idx, 8) >= 0)
            fail_msg("'%s' accepted", bad[i]);
}

static void sizes_as_text(void **state)
{
    (void)state;
    char buf[32];
    ls_format_size(8, buf, sizeof buf);
    assert_string_equal(buf, "8 B");
    ls_format_size(64 << 10, buf, sizeof buf);
    assert_string_equal(buf, "64 KiB");
    ls_format_size(1ull << 30, buf, sizeof buf);
    assert_string_equal(buf, "1 GiB");
    ls_format_size(1536, buf, sizeof buf);
    assert_string_equal(buf, "1.5 KiB");
    /* just below a unit: not "1024.0 KiB" */
    ls_format_size((1 << 20) - 1, buf, sizeof buf);
    assert_string_equal(buf, "1.0 MiB");
    ls_format_size(8ull << 40, buf, sizeof buf);
    assert_string_equal(buf, "8 TiB");
}

static void statistics(void **state)
{
    (void)state;
    const double x[] = {4, 1, 3, 2};
    ls_stats_t s = ls_stats(x, 4);
    assert_int_equal(s.n, 4);
    assert_float_equal(s.median, 2.5, 1e-12);
    assert_float_equal(s.min, 1, 0);
    assert_float_equal(s.max, 4, 0);
    assert_float_equal(s.mean, 2.5, 1e-12);
    assert_float_equal(s.stddev, sqrt(5.0 / 3.0), 1e-12); /* sample (n - 1) */
    assert_float_equal(s.cv, sqrt(5.0 / 3.0) / 2.5, 1e-12);
    s = ls_stats(x, 1);
    assert_float_equal(s.median, 4, 0);
    assert_float_equal(s.stddev, 0, 0);
    s = ls_stats(NULL, 0);
    assert_int_equal(s.n, 0);
    assert_float_equal(s.median, 0, 0);
}

/* 1.4826 x MAD / |median|: what the noisy rule judges (docs/analysis.md) */
static void robust_spread(void **state)
{
    (void)state;
    const double x[] = {4, 1, 3, 2}; /* median 2.5; |x - 2.5| = 1.5 1.5 .5 .5: MAD 1 */
    assert_float_equal(ls_robust_spread(x, 4), 1.4826 / 2.5, 1e-12);
    /* one slow sample among ten: the CV is large, the robust spread is the nine's */
    const double slow[] = {54, 55, 54, 55, 54, 55, 54, 55, 55, 36};
    assert_true(ls_stats(slow, 10).cv > 0.10);
    assert_float_equal(ls_robust_spread(slow, 10), 1.4826 * 0.5 / 54.5, 1e-12);
    const double zero[] = {-1, 0, 1};
    assert_float_equal(ls_robust_spread(zero, 3), 0, 0);
    assert_float_equal(ls_robust_spread(NULL, 0), 0, 0);
}

static void files(void **state)
{
    (void)state;
    char err[256] = "";
    const char *path = ls_tmp_path("util-out.txt");
    /* larger than the first read buffer, so the buffer grows */
    size_t n = 200000;
    char *data = malloc(n);
    assert_non_null(data);
    for (size_t i = 0; i < n; i++)
        data[i] = (char)('a' + i % 26);
    assert_int_equal(ls_write_file_atomic(path, data, n, err, sizeof err), 0);
    size_t len = 0;
    char *back = ls_read_file(path, &len, err, sizeof err);
    assert_non_null(back);
    assert_int_equal(len, n);
    assert_memory_equal(back, data, n);
    assert_int_equal(back[n], '\0');
    free(back);
    free(data);
    /* errors name the file and the reason */
    assert_null(ls_read_file("/nonexistent/x.txt", NULL, err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/x.txt: cannot open"));
    const char *dir = ls_tmp_path("util-dir");
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_null(ls_read_file(dir, NULL, err, sizeof err));
    assert_non_null(strstr(err, "cannot read: Is a directory"));
    assert_int_equal(ls_write_file_atomic("/nonexistent/dir/x.txt", "a", 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/dir/x.txt: cannot write"));
    /* sysfs-style small files: trailing newline stripped; root + path */
    const char *small = ls_tmp_path("util-small");
    assert_int_equal(ls_write_file_atomic(small, "4: ACTIVE\n", 10, err, sizeof err), 0);
    char buf[64];
    assert_int_equal(ls_read_text("", small, buf, sizeof buf), 0);
    assert_string_equal(buf, "4: ACTIVE");
    assert_int_equal(ls_read_text("/nonexistent", small, buf, sizeof buf), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sizes),       cmocka_unit_test(numbers),
        cmocka_unit_test(index_lists), cmocka_unit_test(sizes_as_text),
        cmocka_unit_test(statistics),  cmocka_unit_test(robust_spread),
        cmocka_unit_test(files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
