/* The host copies' fill and check (measure/host_pattern.c): one thread below 64 MiB,
   slices over threads above; every word written, every wrong word counted once, in any
   slice, at the slices' edges too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "measure/host_pattern.h"
#include "measure/pattern.h"

#include <stdlib.h>
#include <string.h>

static void small_buffer_one_thread(void **state)
{
    (void)state;
    size_t bytes = 4096;
    unsigned *w = calloc(bytes / 4, 4);
    assert_non_null(w);
    assert_int_equal(ls_host_pattern_threads(bytes), 1);
    assert_int_equal(ls_host_count_wrong(w, bytes, 7),
                     (long long)(bytes / 4)); /* zeros never verify */
    ls_host_fill_pattern(w, bytes, 7);
    for (size_t i = 0; i < bytes / 4; i++)
        assert_int_equal(w[i], ls_pattern(7, i));
    assert_int_equal(ls_host_count_wrong(w, bytes, 7), 0);
    free(w);
}

static void large_buffer_every_slice(void **state)
{
    (void)state;
    size_t bytes = (96ull << 20) + 12; /* not a multiple of the slices */
    size_t n = bytes / 4;
    unsigned *w = malloc(bytes);
    assert_non_null(w);
    int threads = ls_host_pattern_threads(bytes);
    assert_true(threads >= 1 && threads <= 8);
    ls_host_fill_pattern(w, bytes, 0xDE8u);
    assert_int_equal(w[0], ls_pattern(0xDE8u, 0));
    assert_int_equal(w[n - 1], ls_pattern(0xDE8u, n - 1));
    assert_int_equal(ls_host_count_wrong(w, bytes, 0xDE8u), 0);
    /* a wrong word at each slice's first and last index, and the buffer's ends */
    long long flipped = 0;
    for (int t = 0; t <= threads; t++) {
        size_t edge = n * (size_t)t / (size_t)threads;
        for (size_t i = edge ? edge - 1 : 0; i <= edge && i < n; i++)
            if (w[i] == ls_pattern(0xDE8u, i)) {
                w[i] ^= 0x100u;
                flipped++;
            }
    }
    assert_true(flipped >= 2);
    assert_int_equal(ls_host_count_wrong(w, bytes, 0xDE8u), flipped);
    /* the figure before's seed: almost every word wrong (a stale buffer fails) */
    assert_true(ls_host_count_wrong(w, bytes, 0xDE7u) > (long long)(n - n / 100));
    free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(small_buffer_one_thread),
                                       cmocka_unit_test(large_buffer_every_slice)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
