/* Launch modes of the collective harness on every visible GPU (1 or more): one thread
   launching for all GPUs in group calls, and one launching thread per GPU. Both give
   checked rows; every row says how long the host took to queue its launches
   (launch_us, at most the row's time), and the entry says where its threads ran.
   Skipped (77) without a GPU or NCCL. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "measure/gpu.h"
#include "model/doc.h"
#include "nccl/sweep.h"

static int gpus[8], ngpus;

static json_t *sweep(const char *coll, int threads, int blocking)
{
    ls_nccl_sweep_opts_t o;
    memset(&o, 0, sizeof o);
    o.collective = coll;
    o.gpus = gpus;
    o.ngpus = ngpus;
    o.min_bytes = 8;
    o.max_bytes = 4 << 20;
    o.step_factor = 16;
    o.iters = 20;
    o.warmup = 2;
    o.check = 1;
    o.dtype = "float";
    o.redop = "sum";
    o.in_place = 2;
    o.timeout_s = 60;
    o.threads = threads;
    o.blocking = blocking;
    char err[512];
    json_t *e = ls_nccl_sweep(&o, err, sizeof err);
    if (!e)
        fail_msg("%s: %s", coll, err);
    return e;
}

static void assert_good(const json_t *e, const char *launch)
{
    assert_string_equal(ls_json_str(e, "status", "?"), "ok");
    assert_true(json_is_true(json_object_get(e, "verified")));
    assert_string_equal(ls_json_str(e, "launch", "?"), launch);
    const json_t *rows = json_object_get(e, "rows");
    assert_true(json_array_size(rows) >= 3);
    size_t i;
    const json_t *row;
    json_array_foreach(rows, i, row)
    {
        const json_t *oop = json_object_get(row, "oop");
        double t = ls_json_num(oop, "time_us", 0), l = ls_json_num(oop, "launch_us", -1);
        assert_true(t > 0);
        assert_true(l > 0);
        assert_true(l <= t);
        assert_int_equal(json_integer_value(json_object_get(oop, "wrong")), 0);
    }
    const json_t *h = json_object_get(e, "host_threads");
    assert_true(ls_json_int(h, "launch_cpu", -1) >= 0);
    assert_true(json_array_size(json_object_get(h, "threads")) >= 1);
    printf("%s, %s: 8 B %.2f us (host %.2f us per launch) on CPU %lld\n",
           ls_json_str(e, "collective", "?"), launch,
           ls_json_num(json_object_get(json_array_get(rows, 0), "oop"), "time_us", 0),
           ls_json_num(json_object_get(json_array_get(rows, 0), "oop"), "launch_us", 0),
           ls_json_int(h, "launch_cpu", -1));
}

static void group_launch(void **s)
{
    (void)s;
    json_t *e = sweep("all_reduce", 0, 0);
    assert_good(e, "group");
    json_decref(e);
}

/* With one GPU the thread-per-GPU path still runs (one thread); the entry says group
   there, since one thread is both. */
static void thread_per_gpu_launch(void **s)
{
    (void)s;
    const char *colls[] = {"all_reduce", "all_gather", "reduce_scatter", "alltoall"};
    for (int k = 0; k < 4; k++) {
        json_t *e = sweep(colls[k], 1, 0);
        assert_good(e, ngpus > 1 ? "thread_per_gpu" : "group");
        json_decref(e);
    }
    json_t *e = sweep("all_reduce", 1, 1); /* -z 1: each thread waits after each launch */
    assert_good(e, ngpus > 1 ? "thread_per_gpu" : "group");
    json_decref(e);
}

int main(void)
{
    char err[256];
    ngpus = ls_gpu_count(err, sizeof err);
    if (ngpus <= 0) {
        printf("skipped: %s\n", err);
        return LS_TEST_SKIP;
    }
    if (ls_nccl_probe(NULL, 0, err, sizeof err) != 0) {
        printf("skipped: %s\n", err);
        return LS_TEST_SKIP;
    }
    ngpus = ngpus > 8 ? 8 : ngpus;
    for (int i = 0; i < ngpus; i++)
        gpus[i] = i;
    const struct CMUnitTest tests[] = {cmocka_unit_test(group_launch),
                                       cmocka_unit_test(thread_per_gpu_launch)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    ls_nccl_sweep_finish();
    return rc;
}
