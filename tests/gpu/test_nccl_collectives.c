/* All seven collectives on 2 GPUs in one process: every result checked (#wrong == 0),
   busbw above 0 and below the NVLink peak, the transports recorded; the checker itself
   catches wrong data; the watchdog aborts a hang and the next sweep runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "helpers.h"
#include "measure/gpu.h"
#include "model/doc.h"
#include "nccl/check.h"
#include "nccl/coll.h"
#include "nccl/sweep.h"

/* 2 x H200 over NV18: 18 links x 26.562 GB/s per direction (ANCHORS.md). Any faster
   busbw on this machine would be a wrong figure. */
#define NVLINK_PEAK_GBPS 478.0

static const int gpus[2] = {0, 1};

static ls_nccl_sweep_opts_t base_opts(const char *coll)
{
    ls_nccl_sweep_opts_t o;
    memset(&o, 0, sizeof o);
    o.collective = coll;
    o.gpus = gpus;
    o.ngpus = 2;
    o.min_bytes = 8;
    o.max_bytes = 64ull << 20;
    o.step_factor = 8;
    o.iters = 5;
    o.warmup = 1;
    o.check = 1;
    o.dtype = "float";
    o.redop = "sum";
    o.root = 1; /* not 0: a root mix-up shows */
    o.in_place = 2;
    o.timeout_s = 60;
    return o;
}

static void assert_rows_good_n(const json_t *e, int checked_in_place, size_t min_rows)
{
    assert_string_equal(ls_json_str(e, "status", "?"), "ok");
    const json_t *rows = json_object_get(e, "rows");
    assert_true(json_array_size(rows) >= min_rows);
    size_t i;
    const json_t *row;
    json_array_foreach(rows, i, row)
    {
        const json_t *oop = json_object_get(row, "oop"), *ip = json_object_get(row, "ip");
        assert_non_null(oop);
        assert_non_null(ip);
        assert_int_equal(json_integer_value(json_object_get(oop, "wrong")), 0);
        assert_true(json_is_integer(json_object_get(oop, "wrong")));
        if (checked_in_place) {
            assert_true(json_is_integer(json_object_get(ip, "wrong")));
            assert_int_equal(json_integer_value(json_object_get(ip, "wrong")), 0);
        } else {
            assert_true(json_is_null(json_object_get(ip, "wrong")));
        }
        double busbw = ls_json_num(oop, "busbw", -1);
        assert_true(busbw > 0);
        assert_true(busbw < NVLINK_PEAK_GBPS);
        assert_true(ls_json_num(oop, "time_us", 0) > 0);
    }
    assert_true(json_is_true(json_object_get(e, "verified")));
}

static void assert_rows_good(const json_t *e, int checked_in_place)
{
    assert_rows_good_n(e, checked_in_place, 4);
}

static int has_p2p_both_ways(const json_t *e)
{
    int fwd = 0, back = 0;
    size_t i;
    const json_t *t;
    json_array_foreach(json_object_get(e, "transports"), i, t)
    {
        const char *cls = ls_json_str(t, "transport", "");
        if (strncmp(cls, "P2P", 3) != 0)
            continue;
        long long from = ls_json_int(t, "from", -1), to = ls_json_int(t, "to", -1);
        fwd |= from == 0 && to == 1;
        back |= from == 1 && to == 0;
    }
    return fwd && back;
}

static void run_and_check(const char *coll)
{
    ls_nccl_sweep_opts_t o = base_opts(coll);
    char err[512];
    json_t *e = ls_nccl_sweep(&o, err, sizeof err);
    if (!e)
        fail_msg("%s: %s", coll, err);
    const ls_coll_t *c = ls_coll_find(coll);
    assert_rows_good(e, c->in_place_checked);
    assert_int_equal(ls_json_int(e, "nranks", 0), 2);
    assert_true(ls_json_num(e, "value", 0) > 1.0); /* 64 MiB over NVLink: well above 1 GB/s */
    assert_true(ls_json_num(e, "small_time_us", 0) > 0);
    assert_true(has_p2p_both_ways(e));
    json_decref(e);
}

static void all_reduce_validates(void **s) { (void)s; run_and_check("all_reduce"); }
static void all_gather_validates(void **s) { (void)s; run_and_check("all_gather"); }
static void reduce_scatter_validates(void **s) { (void)s; run_and_check("reduce_scatter"); }
static void alltoall_validates(void **s) { (void)s; run_and_check("alltoall"); }
static void broadcast_validates(void **s) { (void)s; run_and_check("broadcast"); }
static void reduce_validates(void **s) { (void)s; run_and_check("reduce"); }
static void sendrecv_validates(void **s) { (void)s; run_and_check("sendrecv"); }

/* Types and operators whose exactness bounds differ (half 11 bits, bf16 8, int8 7). */
static void types_and_ops_validate(void **s)
{
    (void)s;
    const char *types[] = {"half", "bfloat16", "int8", "uint8", "int32", "int64", "double"};
    const char *ops[] = {"prod", "max", "min", "avg"};
    char err[512];
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
        ls_nccl_sweep_opts_t o = base_opts(k % 2 ? "reduce_scatter" : "all_reduce");
        o.dtype = types[k];
        o.max_bytes = 4 << 20;
        json_t *e = ls_nccl_sweep(&o, err, sizeof err);
        if (!e)
            fail_msg("%s: %s", types[k], err);
        assert_rows_good(e, 1);
        json_decref(e);
    }
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        ls_nccl_sweep_opts_t o = base_opts(k % 2 ? "reduce" : "all_reduce");
        o.redop = ops[k];
        o.max_bytes = 4 << 20;
        json_t *e = ls_nccl_sweep(&o, err, sizeof err);
        if (!e)
            fail_msg("%s: %s", ops[k], err);
        assert_rows_good(e, 1);
        json_decref(e);
    }
}

/* Blocking mode (-z 1: a wait after every launch) gives checked results too. */
static void blocking_validates(void **s)
{
    (void)s;
    char err[512];
    ls_nccl_sweep_opts_t o = base_opts("all_reduce");
    o.blocking = 1;
    o.max_bytes = 16 << 20;
    json_t *e = ls_nccl_sweep(&o, err, sizeof err);
    if (!e)
        fail_msg("blocking: %s", err);
    assert_rows_good(e, 1);
    assert_true(json_is_true(json_object_get(e, "blocking")));
    json_decref(e);
}

/* The checker must see wrong data: rank 0's own input is not the sum of two ranks. */
static void checker_counts_wrong_elements(void **s)
{
    (void)s;
    const uint64_t n = 1 << 20;
    float *buf;
    unsigned long long *wrong, host = 0;
    assert_int_equal(cudaSetDevice(0), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&buf, n * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&wrong, sizeof host), cudaSuccess);
    ls_check_t c = {0};
    c.layout = LS_LAYOUT_ALL_REDUCE;
    c.dtype = LS_DT_FLOAT;
    c.op = LS_OP_SUM;
    c.modulus = ls_pattern_modulus(ls_dtype_find("float"), 2);
    c.rank = 0;
    c.nranks = 2;
    c.count = n;
    assert_int_equal(ls_check_init(&c, buf, 0, n, NULL), 0);
    cudaMemset(wrong, 0, sizeof host);
    assert_int_equal(ls_check_verify(&c, buf, n, wrong, NULL), 0);
    cudaMemcpy(&host, wrong, sizeof host, cudaMemcpyDeviceToHost);
    assert_int_equal(host, n); /* every element is wrong */
    /* Broadcast from rank 0: the same buffer is right everywhere, except one element. */
    c.layout = LS_LAYOUT_BROADCAST;
    c.root = 0;
    float bad = -1.0f;
    cudaMemcpy(buf + 12345, &bad, sizeof bad, cudaMemcpyHostToDevice);
    cudaMemset(wrong, 0, sizeof host);
    assert_int_equal(ls_check_verify(&c, buf, n, wrong, NULL), 0);
    cudaMemcpy(&host, wrong, sizeof host, cudaMemcpyDeviceToHost);
    assert_int_equal(host, 1);
    cudaFree(buf);
    cudaFree(wrong);
}

/* A hang (one GPU left out of a launch) is aborted by the watchdog; the next sweep runs. */
static void watchdog_aborts_a_hang(void **s)
{
    (void)s;
    char err[512];
    ls_nccl_sweep_opts_t o = base_opts("all_reduce");
    o.min_bytes = o.max_bytes = 1 << 20;
    o.timeout_s = 3;
    setenv("LINKSCOPE_NCCL_FAULT", "hang", 1);
    json_t *e = ls_nccl_sweep(&o, err, sizeof err);
    unsetenv("LINKSCOPE_NCCL_FAULT");
    assert_non_null(e);
    assert_string_equal(ls_json_str(e, "status", "?"), "timeout");
    assert_non_null(strstr(ls_json_str(e, "error", ""), "ncclCommAbort"));
    json_decref(e);
    e = ls_nccl_sweep(&o, err, sizeof err);
    if (!e)
        fail_msg("after abort: %s", err);
    assert_rows_good_n(e, 1, 1); /* one size: 1 MiB */
    json_decref(e);
}

/* A size beyond GPU memory is dropped with a note, as nccl-tests reduces maxBytes. */
static void oversize_is_reduced_with_a_note(void **s)
{
    (void)s;
    char err[512];
    ls_nccl_sweep_opts_t o = base_opts("all_reduce");
    o.min_bytes = 1 << 20;
    o.max_bytes = 1ull << 40; /* 1 TiB */
    o.step_factor = 1 << 19;   /* 1 MiB, 512 GiB */
    o.iters = 2;
    json_t *e = ls_nccl_sweep(&o, err, sizeof err);
    if (!e)
        fail_msg("oversize: %s", err);
    assert_string_equal(ls_json_str(e, "status", "?"), "ok");
    assert_int_equal(json_array_size(json_object_get(e, "rows")), 1);
    assert_int_equal(json_array_size(json_object_get(e, "notes")), 1);
    json_decref(e);
}

int main(void)
{
    char err[256];
    int n = ls_gpu_count(err, sizeof err);
    if (n < 2) {
        fprintf(stderr, "skipped: needs 2 GPUs (%s)\n", n ? "only one" : err);
        return 77;
    }
    if (ls_nccl_probe(NULL, 0, err, sizeof err) != 0) {
        fprintf(stderr, "skipped: %s\n", err);
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(all_reduce_validates),     cmocka_unit_test(all_gather_validates),
        cmocka_unit_test(reduce_scatter_validates), cmocka_unit_test(alltoall_validates),
        cmocka_unit_test(broadcast_validates),      cmocka_unit_test(reduce_validates),
        cmocka_unit_test(sendrecv_validates),       cmocka_unit_test(types_and_ops_validate),
        cmocka_unit_test(checker_counts_wrong_elements),
        cmocka_unit_test(watchdog_aborts_a_hang),   cmocka_unit_test(oversize_is_reduced_with_a_note),
        cmocka_unit_test(blocking_validates),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    ls_nccl_sweep_finish();
    return rc;
}
