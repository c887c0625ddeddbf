/* The one sampling thread (src/sample/ticker.c): the first tick comes at once, ticks
   repeat every period, stop wakes a thread that waits out a long period, and no tick runs
   after stop. */
#include "sample/ticker.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdatomic.h>
#include <time.h>

static void count_tick(void *arg)
{
    atomic_fetch_add((atomic_int *)arg, 1);
}

/* Waits up to 10 s (a loaded CI machine) for *count to reach at least want. */
static int wait_for(atomic_int *count, int want)
{
    struct timespec ms = {0, 1000000L};
    for (int i = 0; i < 10000 && atomic_load(count) < want; i++)
        nanosleep(&ms, NULL);
    return atomic_load(count);
}

static void test_first_tick_at_once_and_stop_wakes(void **state)
{
    (void)state;
    atomic_int count = 0;
    ls_ticker_t t;
    /* An hour's period: the second tick never comes, and stop must wake the thread (a
       stop that waited the period out would hang the test past ctest's timeout). */
    assert_int_equal(ls_ticker_start(&t, 3600 * 1000, count_tick, &count), 0);
    assert_int_equal(t.running, 1);
    assert_int_equal(wait_for(&count, 1), 1);
    ls_ticker_stop(&t);
    assert_int_equal(t.running, 0);
    assert_int_equal(atomic_load(&count), 1);
}

static void test_ticks_repeat_and_end_at_stop(void **state)
{
    (void)state;
    atomic_int count = 0;
    ls_ticker_t t;
    assert_int_equal(ls_ticker_start(&t, 1, count_tick, &count), 0);
    assert_true(wait_for(&count, 5) >= 5);
    ls_ticker_stop(&t);
    int at_stop = atomic_load(&count);
    struct timespec wait = {0, 20 * 1000000L};
    nanosleep(&wait, NULL);
    assert_int_equal(atomic_load(&count), at_stop);
    ls_ticker_stop(&t); /* a second stop is harmless */
}

static void test_period_below_one_ms_is_one(void **state)
{
    (void)state;
    atomic_int count = 0;
    ls_ticker_t t;
    assert_int_equal(ls_ticker_start(&t, 0, count_tick, &count), 0);
    assert_int_equal(t.period_ms, 1);
    assert_true(wait_for(&count, 2) >= 2);
    ls_ticker_stop(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_tick_at_once_and_stop_wakes),
        cmocka_unit_test(test_ticks_repeat_and_end_at_stop),
        cmocka_unit_test(test_period_below_one_ms_is_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
