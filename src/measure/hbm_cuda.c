/* Device-local memory bandwidth per GPU: read, write and copy kernels over buffers far
   larger than L2, reported as HBM traffic (bytes read + bytes written per second)
   beside the theoretical peak. */
#include "model/entries.h"
#include "model/entry.h"
#include "family.h"
#include "figures.h"
#include "harness.h"
#include "kernels.h"
#include "measure.h"
#include "rtimer.h"
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
        if (strcmp(j->method, LS_HBM_READ) == 0)
            rc = ls_k_read(j->a, j->size, j->xor_dev, j->grid, j->block, t->stream[0]);
        else if (strcmp(j->method, LS_HBM_WRITE) == 0)
            rc = ls_k_write(j->b, j->size, SEED_W, j->grid, j->block, t->stream[0]);
        else if (strcmp(j->method, LS_HBM_COPY_CE) ==
                 0) /* the copy engine, as nvbandwidth's device_local_copy */
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
    if (strcmp(j->method, LS_HBM_READ) == 0) {
        wrong = ls_count_wrong(dev, j->a, j->size, SEED_A, &want); /* the input is intact */
    } else if (strcmp(j->method, LS_HBM_WRITE) == 0) {
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

/* Every GPU of the run, measured at the same time (issue 14): each GPU's memory is its
   own, so one gate releases them all and each keeps its own figure. */
typedef struct {
    int n; /* GPUs whose buffers are ready: the timer's groups */
    int dev[LS_MAX_GPUS];
    hbm_job_t job[LS_MAX_GPUS];
    double theo[LS_MAX_GPUS];
} hbm_all_t;

static cudaError_t enqueue_group(void *arg, int g, const ls_timer_t *view, int loops)
{
    hbm_all_t *h = arg;
    return enqueue_hbm(&h->job[g], view, loops);
}

/* What one GPU's figure came to, after the timed samples. */
static void group_result(json_t *e, int dev, hbm_job_t *j, const double *ms, int st,
                         const ls_rtimer_result_t *res, const ls_sample_rule_t *rule, int stop_rule,
                         char *buf, size_t len)
{
    const char *bad = st == 0 ? check_hbm(dev, j, buf, len) : buf;
    if (!bad && strcmp(j->method, LS_HBM_READ) == 0)
        bad = check_read_kernel(dev, j, buf, len);
    if (bad) {
        ls_entry_fail(e, st == -2 ? "timeout" : "failed", bad);
        json_object_set_new(e, "verified", json_false());
        return;
    }
    ls_entry_set_bandwidth(e, ms, (size_t)res->taken,
                           (double)ls_hbm_traffic_bytes(j->method, j->size, res->loops));
    json_object_set_new(e, "loops", json_integer(res->loops));
    json_object_set_new(e, "verified", json_true());
    ls_entry_set_stop(e, rule, stop_rule, res->taken, res->why);
    ls_hbm_finish(e);
}

/* One method on every ready GPU at once. */
static void measure_method(json_t *doc, hbm_all_t *h, const char *method,
                           const ls_measure_opts_t *o)
{
    char buf[256] = "out of memory";
    json_t *e[LS_MAX_GPUS];
    ls_progress("hbm: %s on %d GPUs at once", method, h->n);
    ls_sample_rule_t fixed = {o->samples, o->samples, 0.95, 0};
    ls_sample_rule_t rule = o->stop_rule ? ls_sample_rule_default(o->samples) : fixed;
    double *ms = calloc((size_t)h->n * (size_t)rule.max_samples, sizeof *ms);
    ls_rtimer_t *t = calloc(1, sizeof *t);
    cudaError_t rc = ms && t ? ls_rtimer_init(t, h->n, 1, h->dev) : cudaErrorMemoryAllocation;
    for (int g = 0; g < h->n; g++) {
        h->job[g].method = method;
        e[g] = ls_hbm_entry(h->dev[g], method, h->job[g].size, h->theo[g]);
        if (rc == cudaSuccess && strcmp(method, LS_HBM_READ) != 0 &&
            cudaSetDevice(h->dev[g]) == cudaSuccess)
            rc = cudaMemset(h->job[g].b, 0, h->job[g].size);
    }
    for (int g = 0; g < h->n && rc == cudaSuccess; g++)
        rc = cudaSetDevice(h->dev[g]) == cudaSuccess ? cudaDeviceSynchronize()
                                                     : cudaErrorInvalidDevice;
    if (rc != cudaSuccess) {
        for (int g = 0; g < h->n; g++)
            ls_entry_cuda_fail(e[g], "setup", rc);
    } else {
        ls_telemetry_t *tele = ls_telemetry_for(h->dev, h->n, 0);
        ls_rtimer_result_t res;
        int st = ls_rtimer_run(t, enqueue_group, h, HBM_MAX_LOOPS, &rule, ms, &res, buf,
                               sizeof buf);
        json_t *scratch = json_object();
        ls_telemetry_stop(tele, scratch);
        for (int g = 0; g < h->n; g++) {
            ls_entry_share_telemetry(e[g], scratch);
            char line[256];
            snprintf(line, sizeof line, "%s", buf);
            group_result(e[g], h->dev[g], &h->job[g], ms + (size_t)g * (size_t)rule.max_samples, st,
                         &res, &rule, o->stop_rule, line, sizeof line);
        }
        json_decref(scratch);
    }
    for (int g = 0; g < h->n; g++)
        ls_doc_add_unique(doc, e[g]);
    if (t)
        ls_rtimer_free(t);
    free(t);
    free(ms);
}

/* Buffers of one GPU: 0, or -1 with its entries failed. */
static int job_setup(json_t *doc, hbm_all_t *h, int dev, const ls_measure_opts_t *o, double theo)
{
    hbm_job_t *j = &h->job[h->n];
    memset(j, 0, sizeof *j);
    j->size = o->size;
    char line[256] = "";
    j->a = ls_dev_alloc(dev, j->size, line, sizeof line);
    j->b = j->a ? ls_dev_alloc(dev, j->size, line, sizeof line) : NULL;
    cudaError_t rc = cudaSuccess;
    if (j->b)
        rc = cudaMalloc((void **)&j->xor_dev, 64);
    /* The read kernel XORs into this word with atomicXor, which reads it first: zero it
       once here, outside any timed window (compute-sanitizer initcheck found the timed
       reads touching it uninitialized). */
    if (j->b && rc == cudaSuccess)
        rc = cudaMemset(j->xor_dev, 0, 64);
    if (j->b && rc == cudaSuccess)
        rc = ls_fill(dev, j->a, j->size, SEED_A);
    ls_sm_grid(dev, &j->grid, &j->block);
    if (j->b && rc == cudaSuccess) {
        h->dev[h->n] = dev;
        h->theo[h->n++] = theo;
        return 0;
    }
    for (int m = 0; ls_hbm_methods[m]; m++) {
        if (!ls_methods_include(o->methods, ls_hbm_methods[m]))
            continue;
        json_t *e = ls_hbm_entry(dev, ls_hbm_methods[m], j->size, theo);
        if (!j->b)
            ls_entry_fail(e, "failed", line);
        else
            ls_entry_cuda_fail(e, "setup", rc);
        ls_doc_add_unique(doc, e);
    }
    ls_dev_free(dev, j->a);
    ls_dev_free(dev, j->b);
    ls_dev_free(dev, j->xor_dev);
    return -1;
}

int ls_measure_hbm(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen)
{
    hbm_all_t *h = calloc(1, sizeof *h);
    if (!h)
        return ls_seterr(err, errlen, "out of memory");
    for (int x = 0; x < o->ngpus; x++)
        job_setup(doc, h, o->gpus[x], o, theoretical_gbps(o->doc ? o->doc : doc, o->gpus[x]));
    for (int m = 0; ls_hbm_methods[m] && h->n > 0; m++)
        if (ls_methods_include(o->methods, ls_hbm_methods[m]))
            measure_method(doc, h, ls_hbm_methods[m], o);
    for (int g = 0; g < h->n; g++) {
        ls_dev_free(h->dev[g], h->job[g].a);
        ls_dev_free(h->dev[g], h->job[g].b);
        ls_dev_free(h->dev[g], h->job[g].xor_dev);
    }
    free(h);
    ls_progress_done();
    return 0;
}
