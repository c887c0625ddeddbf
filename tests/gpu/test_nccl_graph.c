/* CUDA graph mode (-G): the iterations captured in a graph and replayed, results
   checked, on one GPU in this process. Two GPUs in one process hung inside NCCL on the
   2 x H200 machine (docs/nccl.md, Known issues): the harness refuses that at once, and
   test_gpu_nccl_graph_mpi.sh covers -G with one process per GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "measure/gpu.h"
#include "model/doc.h"
#include "nccl/sweep.h"

static ls_nccl_sweep_opts_t graph_opts(const int *gpus, int n)
{
    ls_nccl_sweep_opts_t o;
    memset(&o, 0, sizeof o);
    o.collective = "all_reduce";
    o.gpus = gpus;
    o.ngpus = n;
    o.min_bytes = 8;
    o.max_bytes = 16 << 20;
    o.step_factor = 8;
    o.iters = 5;
    o.warmup = 1;
    o.check = 1;
    o.dtype = "float";
    o.redop = "sum";
    o.in_place = 2;
    o.timeout_s = 15;
    o.graph = 2;
    return o;
}

/* One GPU in this process: captured, replayed, every row checked. */
static void graph_validates_on_one_gpu(void **s)
{
    (void)s;
    static const int gpus[1] = {0};
    ls_nccl_sweep_opts_t o = graph_opts(gpus, 1);
    char err[512];
    json_t *e = ls_nccl_sweep(&o, err, sizeof err);
    if (!e)
        fail_msg("graph: %s", err);
    assert_string_equal(ls_json_str(e, "status", "?"), "ok");
    assert_true(json_is_true(json_object_get(e, "graph")));
    assert_true(json_is_true(json_object_get(e, "verified")));
    assert_true(json_array_size(json_object_get(e, "rows")) > 0);
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(e, "rows"), i, row)
    {
        assert_int_equal(ls_json_int(json_object_get(row, "oop"), "wrong", -1), 0);
        assert_int_equal(ls_json_int(json_object_get(row, "ip"), "wrong", -1), 0);
        assert_true(ls_json_num(json_object_get(row, "oop"), "time_us", 0) > 0);
    }
    json_decref(e);
}

/* Several GPUs in one process: refused at once with the way that works (one process
   per GPU, tests/cli/test_gpu_nccl_graph_mpi.sh), never a hang. */
static void graph_of_two_gpus_in_one_process_is_refused(void **s)
{
    (void)s;
    static const int gpus[2] = {0, 1};
    ls_nccl_sweep_opts_t o = graph_opts(gpus, 2);
    char err[512] = "";
    json_t *e = ls_nccl_sweep(&o, err, sizeof err);
    assert_null(e);
    assert_non_null(strstr(err, "mpirun -np 2"));
}

int main(void)
{
    char err[256];
    if (ls_gpu_count(err, sizeof err) < 2 || ls_nccl_probe(NULL, 0, err, sizeof err) != 0) {
        fprintf(stderr, "skipped: needs 2 GPUs and NCCL\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(graph_validates_on_one_gpu),
                                       cmocka_unit_test(graph_of_two_gpus_in_one_process_is_refused)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    ls_nccl_sweep_finish();
    return rc;
}
