#define _GNU_SOURCE /* pthread_timedjoin_np */
/* linkscope health's short probe on the live node (health_probe.h). */
#include "health_probe.h"

#include "health/health.h"
#include "measure/gpu.h"
#include "pipeline/probe.h"
#include "render/strbuf.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Less than this left after the state checks and the probe does not start: finding the
   GPUs and starting the CUDA driver come before its first step (the GPU test prints that
   time, setup_s). */
#define LS_HEALTH_PROBE_MIN_S 1.0

static json_t *not_run(const char *status, const char *why)
{
    return json_pack("{s:s, s:s}", "status", status, "why", why);
}

/* Why the state checks make measuring pointless or intrusive, or NULL: a driver that
   does not answer or a node that needs a reboot first (nothing a copy would add, and a
   copy may hang); another process on a GPU (the probe would disturb its work and read
   low figures). */
static const char *why_not(const json_t *findings, char *buf, size_t len)
{
    size_t i;
    json_t *f;
    json_array_foreach(findings, i, f) {
        const char *rule = json_string_value(json_object_get(f, "rule"));
        const char *msg = json_string_value(json_object_get(f, "message"));
        int reboot = ls_action_parse(json_string_value(json_object_get(f, "action"))) ==
                     LS_ACT_REBOOT;
        if (!strcmp(rule, "driver") || reboot) {
            snprintf(buf, len, "%s (%s)",
                     !reboot ? "no GPU to measure" : "the node needs a reboot first", msg);
            return buf;
        }
        if (!strcmp(rule, "other_process")) {
            snprintf(buf, len, "it would disturb the work on the GPUs (%s)", msg);
            return buf;
        }
    }
    return NULL;
}

typedef struct {
    ls_probe_t probe;
    ls_probe_opts_t opts;
} job_t;

static void *probe_thread(void *arg)
{
    job_t *j = arg;
    ls_probe_run(&j->probe, &j->opts);
    return NULL;
}

/* The probe on a thread, waited for until the deadline: its record, "running" naming
   the step the budget cut off (the thread then keeps j, and *abandoned is 1). */
static json_t *run_within(double deadline, int gpus, int *abandoned)
{
    job_t *j = calloc(1, sizeof *j);
    if (!j)
        return not_run("not run", "out of memory");
    ls_probe_init(&j->probe);
    j->opts.deadline = deadline;
    j->opts.expect_gpus = gpus;
    double t0 = ls_probe_now();
    pthread_t t;
    if (pthread_create(&t, NULL, probe_thread, j) != 0) {
        ls_probe_free(&j->probe);
        free(j);
        return not_run("not run", "cannot start its thread");
    }
    double left = deadline - t0;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    double whole = floor(left > 0 ? left : 0);
    until.tv_sec += (time_t)whole;
    until.tv_nsec += (long)((left > 0 ? left - whole : 0) * 1e9);
    if (until.tv_nsec >= 1000000000L)
        until.tv_sec++, until.tv_nsec -= 1000000000L;
    int joined = pthread_timedjoin_np(t, NULL, &until) == 0;
    json_t *rec = ls_probe_snapshot(&j->probe);
    if (joined) {
        ls_probe_free(&j->probe);
        free(j);
    } else {
        pthread_detach(t); /* j stays with the thread, which may still be in the driver */
        *abandoned = 1;
        if (!json_object_get(rec, "running"))
            json_object_set_new(rec, "running", json_string("the probe"));
    }
    json_object_set_new(rec, "status", json_string("ran"));
    json_object_set_new(rec, "seconds", json_real(ls_probe_now() - t0));
    return rec;
}

json_t *ls_health_probe(const ls_health_probe_opts_t *o, json_t *findings, int *abandoned)
{
    char why[640];
    *abandoned = 0;
    if (o->recorded)
        return not_run("not run", "a recorded state (--from): no GPU here to measure");
    if (o->off)
        return not_run("off", "--no-probe");
    if (why_not(findings, why, sizeof why))
        return not_run("not run", why);
    if (!ls_built_with_cuda())
        return not_run("not run", "this linkscope was built without CUDA");
    double left = o->deadline - ls_probe_now();
    if (left < LS_HEALTH_PROBE_MIN_S) {
        snprintf(why, sizeof why, "%.1f s of the budget left after the state checks",
                 left > 0 ? left : 0);
        return not_run("not run", why);
    }
    json_t *rec = run_within(o->deadline, o->gpus, abandoned);
    json_t *more = ls_health_probe_findings(rec);
    json_array_extend(findings, more);
    json_decref(more);
    return rec;
}

/* The lowest figure of a kind with its share of the ceiling: "lowest 391.2 GB/s (82%)". */
static void lowest(ls_buf_t *b, const json_t *figures, const char *kind, const char *key,
                   int *count)
{
    const json_t *low = NULL, *f;
    size_t i;
    *count = 0;
    json_array_foreach(figures, i, f) {
        if (strcmp(json_string_value(json_object_get(f, "kind")), kind))
            continue;
        ++*count;
        double v = json_number_value(json_object_get(f, key));
        if (json_object_get(f, key) && (!low || v < json_number_value(json_object_get(low, key))))
            low = f;
    }
    if (!low)
        return;
    double v = json_number_value(json_object_get(low, key)),
           c = json_number_value(json_object_get(low, "ceiling_gbps"));
    ls_buf_printf(b, ", lowest %.1f GB/s", v);
    if (c > 0)
        ls_buf_printf(b, " (%.0f%% of its ceiling)", 100 * v / c);
}

static void measured(ls_buf_t *b, const json_t *probe)
{
    const json_t *figures = json_object_get(probe, "figures"), *f;
    int n;
    ls_buf_t part = {0};
    lowest(&part, figures, LS_PROBE_P2P_CE, "gbps", &n);
    if (n)
        ls_buf_printf(b, "; p2p ce %d one-way copies%s", n, part.data ? part.data : "");
    free(part.data);
    size_t i;
    json_array_foreach(figures, i, f)
        if (!strcmp(json_string_value(json_object_get(f, "kind")), LS_PROBE_ALL_REDUCE)) {
            ls_buf_printf(b, "; all_reduce %.0f MiB on %zu GPUs",
                          json_number_value(json_object_get(f, "bytes")) / 1048576.0,
                          json_array_size(json_object_get(f, "gpus")));
            if (json_object_get(f, "busbw"))
                ls_buf_printf(b, " %.1f GB/s busbw",
                              json_number_value(json_object_get(f, "busbw")));
            if (json_is_integer(json_object_get(f, "wrong")))
                ls_buf_printf(b, ", #wrong %lld",
                              (long long)json_integer_value(json_object_get(f, "wrong")));
        }
    part = (ls_buf_t){0};
    lowest(&part, figures, LS_PROBE_HBM_COPY, "gbps", &n);
    if (n)
        ls_buf_printf(b, "; hbm copy on %d GPU%s%s", n, n == 1 ? "" : "s",
                      part.data ? part.data : "");
    free(part.data);
}

/* The steps not measured: skipped (with why) or, on one GPU, the pair steps. */
static void not_measured(ls_buf_t *b, const json_t *probe)
{
    if (json_integer_value(json_object_get(probe, "gpus")) == 1)
        ls_buf_printf(b, "; p2p ce and all_reduce need two GPUs");
    size_t i;
    const json_t *s;
    json_array_foreach(json_object_get(probe, "steps"), i, s) {
        const char *status = json_string_value(json_object_get(s, "status"));
        if (strcmp(status, LS_PROBE_STEP_OK))
            ls_buf_printf(b, "; %s %s: %s", json_string_value(json_object_get(s, "step")), status,
                          json_string_value(json_object_get(s, "note"))
                              ? json_string_value(json_object_get(s, "note"))
                              : "");
    }
}

void ls_health_probe_print(const json_t *probe)
{
    const char *status = json_string_value(json_object_get(probe, "status"));
    if (strcmp(status, "ran")) {
        printf("  probe %s: %s\n", status, json_string_value(json_object_get(probe, "why")));
        return;
    }
    ls_buf_t b = {0}, n = {0};
    measured(&b, probe);
    not_measured(&n, probe);
    printf("  probe in %.1f s%s\n", json_number_value(json_object_get(probe, "seconds")),
           b.data ? b.data : ": nothing measured");
    if (n.data)
        printf("  not probed%s\n", n.data);
    free(b.data);
    free(n.data);
}
