/* Device-local memory bandwidth per GPU: read, write and copy kernels over buffers far
   larger than L2, reported as HBM traffic (bytes read + bytes written per second)
   beside the theoretical peak. */
#include "model/entries.h"
#include "model/entry.h"
#include "figures.h"
#include "harness.h"
#include "kernels.h"
#include "measure.h"
#include "model/vocab.h"
#include "model/theory.h"
#include "model/doc.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HBM_MAX_LOOPS 256
#define SEED_A 0xA5A5u
#define SEED_W 0x5EEDu

typedef struct {
    const char *method;
    void *a, *b;
    size_t size;
    unsigned *xor_dev;
    int grid, block;
} hbm_job_t;

static cudaError_t enqueue_hbm(void *arg, const ls_timer_t *t, int loops)
{
    hbm_job_t *j = arg;
    cudaError_t rc = cudaSuccess;
    for (int i = 0; i < loops && rc == cudaSuccess; i++) {
        if (strcmp(j->method, "read") == 0)
            rc = ls_k_read(j->a, j->size, j->xor_dev, j->grid, j->block, t->stream[0]);
        else if (strcmp(j->method, "write") == 0)
            rc = ls_k_write(j->b, j->size, SEED_W, j->grid, j->block, t->stream[0]);
        else if (strcmp(j->method, "copy_ce") == 0) /* the copy engine, as nvbandwidth's device_local_copy */
            rc = cudaMemcpyAsync(j->b, j->a, j->size, cudaMemcpyDeviceToDevice, t->stream[0]);
        else
            rc = ls_k_copy(j->b, j->a, j->size, j->grid, j->block, t->stream[0]);
    }
    return rc;
}

/* Theoretical peak: the document's gpus[].hbm_theoretical_gbps when discovery put one
   there, else memory clock x 2 x bus width from CUDA's attributes. */
static double theoretical_gbps(const json_t *doc, int dev)
{
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(doc, "gpus"), i, g)
        if (ls_json_int(g, "index", -1) == dev && ls_json_num(g, "hbm_theoretical_gbps", 0) > 0)
            return ls_json_num(g, "hbm_theoretical_gbps", 0);
    int khz = 0, bits = 0;
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&bits, cudaDevAttrGlobalMemoryBusWidth, dev) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return ls_hbm_theoretical_gbps((unsigned)(khz / 1000), (unsigned)bits); /* CUDA gives kHz */
}

/* Checks what the method left: read's XOR against the buffer's, write's and copy's
   destination against their pattern. Returns a failure line or NULL. */
static const char *check_hbm(int dev, hbm_job_t *j, char *buf, size_t len)
{
    unsigned want = 0;
    long long wrong;
    if (strcmp(j->method, "read") == 0) {
        wrong = ls_count_wrong(dev, j->a, j->size, SEED_A, &want); /* the input is intact */
    } else if (strcmp(j->method, "write") == 0) {
        wrong = ls_count_wrong(dev, j->b, j->size, SEED_W, NULL);
    } else {
        wrong = ls_count_wrong(dev, j->b, j->size, SEED_A, NULL);
    }
    if (wrong == 0)
        return NULL;
    snprintf(buf, len, wrong < 0 ? "verification could not run" : "%lld words wrong", wrong);
    return buf;
}

/* One read kernel alone, its XOR compared with the verify kernel's: proves the read
   kernel visited every word. */
static const char *check_read_kernel(int dev, hbm_job_t *j, char *buf, size_t len)
{
    unsigned got = 0, want = 0;
    cudaSetDevice(dev);
    if (cudaMemset(j->xor_dev, 0, sizeof *j->xor_dev) != cudaSuccess ||
        ls_k_read(j->a, j->size, j->xor_dev, j->grid, j->block, 0) != cudaSuccess ||
        cudaMemcpy(&got, j->xor_dev, sizeof got, cudaMemcpyDeviceToHost) != cudaSuccess ||
        ls_count_wrong(dev, j->a, j->size, SEED_A, &want) != 0) {
        cudaGetLastError();
        return "read check could not run";
    }
    if (got != want) {
        snprintf(buf, len, "read kernel XOR %08x, buffer XOR %08x", got, want);
        return buf;
    }
    return NULL;
}

static void measure_method(json_t *doc, int dev, hbm_job_t *j, const char *method, int n,
                           double theo)
{
    char buf[256] = "";
    j->method = method;
    json_t *e = ls_hbm_entry(dev, method, j->size, theo);
    ls_progress("hbm: %s GPU%d", method, dev);
    double *ms = calloc((size_t)n, sizeof *ms);
    ls_timer_t t;
    memset(&t, 0, sizeof t);
    cudaError_t rc = ms ? ls_timer_init(&t, &dev, 1) : cudaErrorMemoryAllocation;
    if (rc == cudaSuccess && strcmp(method, "read") != 0) {
        cudaSetDevice(dev);
        rc = cudaMemset(j->b, 0, j->size);
    }
    if (rc != cudaSuccess) {
        ls_entry_cuda_fail(e, "setup", rc);
    } else {
        ls_telemetry_t *tele = ls_telemetry_for(&dev, 1);
        int loops = 1;
        int st = ls_timer_run(&t, enqueue_hbm, j, HBM_MAX_LOOPS, n, ms, &loops, buf, sizeof buf);
        const char *bad = st == 0 ? check_hbm(dev, j, buf, sizeof buf) : buf;
        if (!bad && strcmp(method, "read") == 0)
            bad = check_read_kernel(dev, j, buf, sizeof buf);
        ls_telemetry_stop(tele, e);
        if (bad) {
            ls_entry_fail(e, st == -2 ? "timeout" : "failed", bad);
            json_object_set_new(e, "verified", json_false());
        } else {
            ls_entry_set_bandwidth(e, ms, (size_t)n, (double)ls_hbm_traffic_bytes(method, j->size, loops));
            json_object_set_new(e, "loops", json_integer(loops));
            json_object_set_new(e, "verified", json_true());
            ls_hbm_finish(e);
        }
    }
    ls_timer_free(&t);
    free(ms);
    ls_doc_add_unique(doc, e);
}

int ls_measure_hbm(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen)
{
    const char *const *methods = ls_hbm_methods;
    size_t size = o->size;
    int n = o->samples;
    for (int x = 0; x < o->ngpus; x++) {
        int dev = o->gpus[x];
        double theo = theoretical_gbps(o->doc ? o->doc : doc, dev);
        hbm_job_t j;
        memset(&j, 0, sizeof j);
        j.size = size;
        char line[256];
        j.a = ls_dev_alloc(dev, size, line, sizeof line);
        j.b = j.a ? ls_dev_alloc(dev, size, line, sizeof line) : NULL;
        cudaError_t rc = cudaSuccess;
        if (j.b)
            rc = cudaMalloc((void **)&j.xor_dev, 64);
        if (j.b && rc == cudaSuccess)
            rc = ls_fill(dev, j.a, size, SEED_A);
        ls_sm_grid(dev, &j.grid, &j.block);
        for (int m = 0; m < 4; m++) {
            if (!j.b || rc != cudaSuccess) {
                json_t *e = ls_hbm_entry(dev, methods[m], size, theo);
                if (!j.b)
                    ls_entry_fail(e, "failed", line);
                else
                    ls_entry_cuda_fail(e, "setup", rc);
                ls_doc_add_unique(doc, e);
                continue;
            }
            measure_method(doc, dev, &j, methods[m], n, theo);
        }
        ls_dev_free(dev, j.a);
        ls_dev_free(dev, j.b);
        ls_dev_free(dev, j.xor_dev);
    }
    ls_progress_done();
    (void)err, (void)errlen;
    return 0;
}
