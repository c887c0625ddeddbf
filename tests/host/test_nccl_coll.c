/* Collectives: bus-bandwidth factors, counts per rank, the size sweep, types, operators
   and the data pattern's exactness bounds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "helpers.h"
#include "nccl/coll.h"

static void factors_match_nccl_tests(void **s)
{
    (void)s;
    /* doc/PERFORMANCE.md: all_reduce 2(n-1)/n; all_gather, reduce_scatter, alltoall
       (n-1)/n; broadcast, reduce, sendrecv 1. */
    for (int n = 1; n <= 16; n++) {
        assert_float_equal(ls_coll_all_reduce.busbw_factor(n), 2.0 * (n - 1) / n, 1e-12);
        assert_float_equal(ls_coll_all_gather.busbw_factor(n), (double)(n - 1) / n, 1e-12);
        assert_float_equal(ls_coll_reduce_scatter.busbw_factor(n), (double)(n - 1) / n, 1e-12);
        assert_float_equal(ls_coll_alltoall.busbw_factor(n), (double)(n - 1) / n, 1e-12);
        assert_float_equal(ls_coll_broadcast.busbw_factor(n), 1.0, 0);
        assert_float_equal(ls_coll_reduce.busbw_factor(n), 1.0, 0);
        assert_float_equal(ls_coll_sendrecv.busbw_factor(n), 1.0, 0);
    }
    assert_float_equal(ls_coll_all_reduce.busbw_factor(8), 1.75, 1e-12);
}

/* The fixture: all_reduce 1 GiB in 3299.19 us is 325.46 GB/s algbw = busbw on 2 GPUs;
   alltoall 4 GiB in 6372.09 us is 674.03 algbw, 337.01 busbw. */
static void algbw_reproduces_the_fixture(void **s)
{
    (void)s;
    double algbw = ls_coll_algbw(1073741824ull, 3299.19);
    assert_float_equal(algbw, 325.46, 0.01);
    assert_float_equal(algbw * ls_coll_all_reduce.busbw_factor(2), 325.46, 0.01);
    algbw = ls_coll_algbw(4294967296ull, 6372.09);
    assert_float_equal(algbw, 674.03, 0.01);
    assert_float_equal(algbw * ls_coll_alltoall.busbw_factor(2), 337.01, 0.01);
    assert_float_equal(ls_coll_algbw(8, 0), 0.0, 0);
}

static void counts_per_rank(void **s)
{
    (void)s;
    uint64_t sc, rc, c;
    ls_coll_all_reduce.counts(1048576, 4, 2, &sc, &rc, &c);
    assert_true(sc == 262144 && rc == 262144 && c == 262144);
    /* fixture: alltoall 1048576 B shows count 131072 on 2 ranks */
    ls_coll_alltoall.counts(1048576, 4, 2, &sc, &rc, &c);
    assert_true(c == 131072 && sc == 262144 && rc == 262144);
    ls_coll_all_gather.counts(1048576, 4, 4, &sc, &rc, &c);
    assert_true(c == 65536 && sc == 65536 && rc == 262144);
    ls_coll_reduce_scatter.counts(1048576, 4, 4, &sc, &rc, &c);
    assert_true(c == 65536 && sc == 262144 && rc == 65536);
    ls_coll_sendrecv.counts(8, 2, 2, &sc, &rc, &c);
    assert_true(c == 4 && sc == 4 && rc == 4);
    /* Rounding: 100 B of float on 3 ranks is 8 per rank, 96 B in the table. */
    ls_coll_all_gather.counts(100, 4, 3, &sc, &rc, &c);
    assert_int_equal(c, 8);
    assert_int_equal(ls_coll_bytes(&ls_coll_all_gather, c, 4, 3), 96);
    assert_int_equal(ls_coll_bytes(&ls_coll_all_reduce, 25, 4, 3), 100);
}

static void size_sweep_like_nccl_tests(void **s)
{
    (void)s;
    uint64_t sizes[64];
    /* -b 8 -e 8G -f 2: 31 sizes, as the fixture's rows */
    int n = ls_coll_sweep_sizes(8, 8ull << 30, 2, 0, sizes, 64);
    assert_int_equal(n, 31);
    assert_int_equal(sizes[0], 8);
    assert_int_equal(sizes[30], 8ull << 30);
    /* -b 1M -e 4G -f 4: 7 sizes */
    n = ls_coll_sweep_sizes(1 << 20, 4ull << 30, 4, 0, sizes, 64);
    assert_int_equal(n, 7);
    assert_int_equal(sizes[6], 4ull << 30);
    /* -f 1 -i 1M from 1M to 4M: additive */
    n = ls_coll_sweep_sizes(1 << 20, 4 << 20, 1, 1 << 20, sizes, 64);
    assert_int_equal(n, 4);
    assert_int_equal(sizes[3], 4 << 20);
    /* counting only, and max not on the grid */
    assert_int_equal(ls_coll_sweep_sizes(8, 100, 2, 0, NULL, 0), 4); /* 8 16 32 64 */
    assert_int_equal(ls_coll_sweep_sizes(32 << 20, 32 << 20, 1, 1 << 20, sizes, 64), 1);
    /* no sweep */
    assert_int_equal(ls_coll_sweep_sizes(16, 8, 2, 0, sizes, 64), -1);
    assert_int_equal(ls_coll_sweep_sizes(8, 16, 1, 0, sizes, 64), -1);
    assert_int_equal(ls_coll_sweep_sizes(0, 16, 2, 0, sizes, 64), -1);
    /* counting stops just past the cap: -b 1 -e 1T -i 1 is refused, not counted */
    assert_int_equal(ls_coll_sweep_sizes(1, 1ull << 40, 1, 1, NULL, 0), LS_COLL_MAX_SIZES + 1);
    assert_int_equal(ls_coll_sweep_sizes(1, LS_COLL_MAX_SIZES, 1, 1, NULL, 0), LS_COLL_MAX_SIZES);
    /* a huge factor stops at the overflow */
    assert_int_equal(ls_coll_sweep_sizes(1ull << 62, UINT64_MAX, 4, 0, sizes, 64), 1);
}

static void names(void **s)
{
    (void)s;
    assert_ptr_equal(ls_coll_find("all_reduce"), &ls_coll_all_reduce);
    assert_ptr_equal(ls_coll_find("sendrecv"), &ls_coll_sendrecv);
    assert_null(ls_coll_find("allreduce"));
    int n;
    const ls_coll_t *const *all = ls_coll_all(&n);
    assert_int_equal(n, 7);
    assert_string_equal(all[3]->name, "alltoall");
    assert_int_equal(ls_dtype_find("bfloat16")->size, 2);
    assert_int_equal(ls_dtype_find("fp16")->size, 2);
    assert_int_equal(ls_dtype_find("double")->size, 8);
    assert_null(ls_dtype_find("fp8"));
    assert_int_equal(ls_redop_find("avg"), LS_OP_AVG);
    assert_int_equal(ls_redop_find("mean"), -1);
    assert_string_equal(ls_redop_name(LS_OP_MAX), "max");
}

/* Sums of nranks pattern values stay exact; ranks and elements are told apart. */
static void pattern_is_exact_and_distinct(void **s)
{
    (void)s;
    const char *types[] = {"int8", "uint8", "half", "bfloat16", "float", "int32", "double"};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        const ls_dtype_t *dt = ls_dtype_find(types[t]);
        for (int n = 2; n <= 8; n++) {
            uint32_t m = ls_pattern_modulus(dt, n);
            double worst = 0;
            for (uint64_t i = 0; i < 3 * (uint64_t)m; i++) {
                double sum = 0;
                for (int r = 0; r < n; r++)
                    sum += ls_pattern_value(LS_OP_SUM, m, r, i);
                worst = sum > worst ? sum : worst;
            }
            assert_true(worst <= ldexp(1.0, dt->mantissa_bits) - 1);
            assert_true(m > (uint32_t)n); /* ranks differ at every element */
            for (int r = 1; r < n; r++)
                assert_true(ls_pattern_value(LS_OP_SUM, m, r, 5) !=
                            ls_pattern_value(LS_OP_SUM, m, 0, 5));
        }
    }
    /* float on 2 ranks: a long period, prime, so offsets by powers of two never alias */
    uint32_t m = ls_pattern_modulus(ls_dtype_find("float"), 2);
    assert_int_equal(m, 65521);
    for (uint64_t off = 1; off < (1ull << 31); off <<= 1)
        assert_true(ls_pattern_value(LS_OP_SUM, m, 0, 1000) !=
                    ls_pattern_value(LS_OP_SUM, m, 0, 1000 + off));
    /* prod: powers of two only (exact products) */
    for (uint64_t i = 0; i < 50; i++) {
        double v = ls_pattern_value(LS_OP_PROD, m, 1, i);
        assert_true(v == 0.5 || v == 1.0 || v == 2.0);
    }
    /* sum differs from max on every element: an operator mix-up shows */
    for (uint64_t i = 0; i < 100; i++) {
        double a = ls_pattern_value(LS_OP_SUM, m, 0, i), b = ls_pattern_value(LS_OP_SUM, m, 1, i);
        assert_true(a + b != (a > b ? a : b));
    }
}

/* On many ranks the small types get a small modulus; it must never be 3 (every rank the
   same value) or 7 (every element the same value): bfloat16 on 24 ranks gave 7, on 64
   ranks 3, half on 256 ranks 7. And prod must tell neighbouring ranks apart (its
   exponent used to drop the rank: 3r mod 3 = 0). */
static void pattern_never_degenerates(void **s)
{
    (void)s;
    const char *types[] = {"int8", "uint8", "half", "bfloat16", "float", "int32", "double"};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        const ls_dtype_t *dt = ls_dtype_find(types[t]);
        for (int n = 2; n <= 1024; n++) {
            uint32_t m = ls_pattern_modulus(dt, n);
            assert_true(m != 3 && m != 7);
            assert_true(ls_pattern_value(LS_OP_SUM, m, 0, 0) !=
                        ls_pattern_value(LS_OP_SUM, m, 0, 1));
            assert_true(ls_pattern_value(LS_OP_SUM, m, 0, 5) !=
                        ls_pattern_value(LS_OP_SUM, m, 1, 5));
        }
    }
    assert_int_equal(ls_pattern_modulus(ls_dtype_find("bfloat16"), 24), 5);
    assert_int_equal(ls_pattern_modulus(ls_dtype_find("bfloat16"), 64), 2);
    uint32_t m = ls_pattern_modulus(ls_dtype_find("float"), 8);
    for (uint64_t i = 0; i < 1000; i++)
        for (int r = 0; r < 7; r++) {
            double a = ls_pattern_value(LS_OP_PROD, m, r, i),
                   b = ls_pattern_value(LS_OP_PROD, m, r + 1, i);
            assert_true(a != b);
        }
}

/* nccl-tests' rotation of buffer offsets: stays inside the buffer, wraps, 0 for the
   largest size and for iteration 0 (data init and check). */
static void iteration_offsets(void **s)
{
    (void)s;
    size_t alloc = 8ull << 30;
    assert_int_equal(ls_coll_iter_offset(8, alloc, 0), 0);
    assert_int_equal(ls_coll_iter_offset(8, alloc, 1), 8);
    assert_int_equal(ls_coll_iter_offset(8, alloc, 19), 152);
    assert_int_equal(ls_coll_iter_offset(alloc, alloc, 5), 0);
    assert_int_equal(ls_coll_iter_offset(3ull << 30, alloc, 1), 3ull << 30);
    assert_int_equal(ls_coll_iter_offset(3ull << 30, alloc, 2), 0); /* only 2 fit */
    assert_int_equal(ls_coll_iter_offset(0, alloc, 3), 0);
    assert_int_equal(ls_coll_iter_offset(alloc + 1, alloc, 3), 0);
    for (size_t touched = 1000; touched < (1u << 20); touched = touched * 3 + 7)
        for (int it = 0; it < 100; it++)
            assert_true(ls_coll_iter_offset(touched, 1u << 20, it) + touched <= (1u << 20));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(factors_match_nccl_tests),
        cmocka_unit_test(algbw_reproduces_the_fixture),
        cmocka_unit_test(counts_per_rank),
        cmocka_unit_test(size_sweep_like_nccl_tests),
        cmocka_unit_test(names),
        cmocka_unit_test(pattern_is_exact_and_distinct),
        cmocka_unit_test(iteration_offsets),
        cmocka_unit_test(pattern_never_degenerates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
