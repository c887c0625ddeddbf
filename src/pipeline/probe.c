/* linkscope health's short probe (probe.h): the run's measuring calls (pipeline/run.c)
   at one size each, few samples, under a deadline. */
#include "probe.h"
#include "rounds.h"
#include "analyze/projection.h"
#include "discover/discover.h"
#include "measure/family.h"
#include "measure/gpu.h"
#include "model/doc.h"
#include "model/vocab.h"
#include "nccl/sweep.h"
#include "sweep_step.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double ls_probe_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* The probe's steps are health --dry-run's, by id (analyze/projection.h), recorded under
   their titles. */

typedef struct {
    ls_probe_t *p;
    const ls_probe_opts_t *o;
    json_t *doc;
    int gpus[LS_MAX_GPUS], n;
    ls_run_rounds_t *rounds; /* NULL: no topology, every pair alone */
    ls_projection_t proj;
    int planned;
} probe_t;

void ls_probe_init(ls_probe_t *p)
{
    memset(p, 0, sizeof *p);
    pthread_mutex_init(&p->lock, NULL);
    p->steps = json_array();
    p->figures = json_array();
}

void ls_probe_free(ls_probe_t *p)
{
    json_decref(p->steps);
    json_decref(p->figures);
    pthread_mutex_destroy(&p->lock);
}

json_t *ls_probe_snapshot(ls_probe_t *p)
{
    pthread_mutex_lock(&p->lock);
    json_t *s = json_pack("{s:i, s:f, s:o, s:o}", "gpus", p->ngpus, "setup_s", p->setup_s, "steps",
                          json_deep_copy(p->steps), "figures", json_deep_copy(p->figures));
    if (p->running[0])
        json_object_set_new(s, "running", json_string(p->running));
    pthread_mutex_unlock(&p->lock);
    return s;
}

static void set_running(probe_t *r, const char *name)
{
    pthread_mutex_lock(&r->p->lock);
    snprintf(r->p->running, sizeof r->p->running, "%s", name);
    pthread_mutex_unlock(&r->p->lock);
}

/* The step's record, and the figures of everything measured so far. */
static void record(probe_t *r, json_t *step)
{
    json_t *figures = ls_probe_figures(r->doc);
    pthread_mutex_lock(&r->p->lock);
    json_array_append_new(r->p->steps, step);
    json_decref(r->p->figures);
    r->p->figures = figures;
    r->p->running[0] = '\0';
    pthread_mutex_unlock(&r->p->lock);
}

static double projected(const probe_t *r, int id)
{
    int k = r->planned ? ls_proj_step(&r->proj, id, NULL) : -1;
    return k >= 0 ? r->proj.steps[k].seconds : 0;
}

static void skipped(probe_t *r, int id, const char *why)
{
    record(r, json_pack("{s:s, s:s, s:f, s:f, s:s}", "step", ls_proj_step_title(id), "status",
                        "skipped", "seconds", 0.0, "projected_s", projected(r, id), "note", why));
}

/* 1 when the step's projection, with LS_PROBE_MARGIN, ends before the deadline; else it
   is recorded skipped. */
static int fits(probe_t *r, int id)
{
    double need = projected(r, id) * LS_PROBE_MARGIN, left = r->o->deadline - ls_probe_now();
    if (need <= left)
        return 1;
    char why[128];
    snprintf(why, sizeof why, "would not fit: projected %.1f s (x%.1f), %.1f s of the budget left",
             projected(r, id), LS_PROBE_MARGIN, left > 0 ? left : 0);
    skipped(r, id, why);
    return 0;
}

static void done(probe_t *r, int id, double t0, int rc, const char *err)
{
    json_t *s = json_pack("{s:s, s:s, s:f, s:f}", "step", ls_proj_step_title(id), "status",
                          rc == 0 ? "ok" : "failed", "seconds", ls_probe_now() - t0, "projected_s",
                          projected(r, id));
    if (rc != 0 && err && *err)
        json_object_set_new(s, "note", json_string(err));
    record(r, s);
}

/* One family's method at its default size, LS_HEALTH_PROBE_SAMPLES samples exactly, the
   pairs in the scheduler's rounds (run.c measure_opts, cut to the probe). */
static void family(probe_t *r, const char *fam, const char *method, int id)
{
    if (!fits(r, id))
        return;
    set_running(r, ls_proj_step_title(id));
    ls_measure_opts_t mo;
    memset(&mo, 0, sizeof mo);
    memcpy(mo.gpus, r->gpus, sizeof(int) * (size_t)r->n);
    mo.ngpus = r->n;
    mo.samples = LS_HEALTH_PROBE_SAMPLES;
    mo.doc = r->doc;
    mo.methods = method;
    mo.one_way = 1; /* a->b, then b->a: the projection prices no both-ways figure */
    if (r->rounds)
        ls_run_rounds_apply(r->rounds, &mo);
    char err[512] = "";
    double t0 = ls_probe_now();
    int rc = ls_family_measure(ls_family_find(fam), r->doc, &mo, err, sizeof err);
    done(r, id, t0, rc, err);
}

/* One all_reduce size on every GPU, as the run sweeps (ls_sweep_step): 5 warm-up and 20
   timed launches, in place and out of place, results checked. */
static void all_reduce(probe_t *r)
{
    char why[512];
    if (r->o->no_nccl) {
        skipped(r, LS_STEP_PROBE_ALL_REDUCE, "--no-nccl");
        return;
    }
    if (ls_nccl_probe(NULL, 0, why, sizeof why) != 0) {
        skipped(r, LS_STEP_PROBE_ALL_REDUCE, why);
        return;
    }
    if (!fits(r, LS_STEP_PROBE_ALL_REDUCE))
        return;
    set_running(r, ls_proj_step_title(LS_STEP_PROBE_ALL_REDUCE));
    double left = r->o->deadline - ls_probe_now();
    ls_sweep_step_t s = {.collective = "all_reduce",
                         .gpus = r->gpus,
                         .ngpus = r->n,
                         .min_bytes = LS_HEALTH_PROBE_ALL_REDUCE_BYTES,
                         .max_bytes = LS_HEALTH_PROBE_ALL_REDUCE_BYTES,
                         .step_factor = 2,
                         .timeout_s = left > 1 ? left : 1};
    double t0 = ls_probe_now();
    int rc = ls_sweep_step(r->doc, &s, why, sizeof why);
    ls_nccl_sweep_finish();
    done(r, LS_STEP_PROBE_ALL_REDUCE, t0, rc, why);
}

/* The GPUs, their rounds and the probe's projection on them (as health --dry-run). */
static int plan(probe_t *r)
{
    double t0 = ls_probe_now();
    set_running(r, "probe: finding the GPUs");
    ls_discover_opts_t d = {.sysfs_root = "", .use_nvml = 1, .use_cuda = 1};
    ls_discover(r->doc, &d);
    char err[512] = "";
    int count = ls_gpu_count(err, sizeof err);
    if (count <= 0) {
        record(r, json_pack("{s:s, s:s, s:f, s:s}", "step", "probe: GPUs", "status", "failed",
                            "seconds", 0.0, "note", err));
        return -1;
    }
    if (r->o->expect_gpus > 0 && count != r->o->expect_gpus) {
        snprintf(err, sizeof err,
                 "CUDA sees %d GPU%s, the driver shows %d (CUDA_VISIBLE_DEVICES or MIG): "
                 "nothing measured, the GPUs' numbers would not be the state checks'",
                 count, count == 1 ? "" : "s", r->o->expect_gpus);
        record(r, json_pack("{s:s, s:s, s:f, s:s}", "step", "probe: GPUs", "status", "skipped",
                            "seconds", 0.0, "note", err));
        return -1;
    }
    r->n = count < LS_MAX_GPUS ? count : LS_MAX_GPUS;
    for (int i = 0; i < r->n; i++)
        r->gpus[i] = i;
    pthread_mutex_lock(&r->p->lock);
    r->p->ngpus = r->n;
    r->p->setup_s = ls_probe_now() - t0; /* discovery and the CUDA driver's start */
    r->p->running[0] = '\0';
    pthread_mutex_unlock(&r->p->lock);
    r->rounds = calloc(1, sizeof *r->rounds);
    if (r->rounds && ls_run_rounds_init(r->rounds, r->doc, r->gpus, r->n) != 0) {
        free(r->rounds);
        r->rounds = NULL;
    }
    ls_fabric_t f;
    int own = !r->rounds;
    if (own && ls_fabric_uniform(r->n, LS_LINK_SYS, &f) != 0) /* no topology: every pair alone */
        return 0;
    r->planned = ls_project_health(own ? &f : &r->rounds->fabric, 0, &r->proj) == 0;
    if (own)
        ls_fabric_free(&f);
    return 0;
}

void ls_probe_run(ls_probe_t *p, const ls_probe_opts_t *o)
{
    probe_t r = {.p = p, .o = o, .doc = ls_doc_new()};
    if (r.doc && plan(&r) == 0) {
        if (r.n >= 2) {
            family(&r, LS_FAMILY_P2P, LS_P2P_CE, LS_STEP_PROBE_P2P);
            all_reduce(&r);
        }
        family(&r, LS_FAMILY_HBM, LS_HBM_COPY, LS_STEP_PROBE_HBM);
    }
    if (r.rounds)
        ls_run_rounds_free(r.rounds);
    free(r.rounds);
    json_decref(r.doc);
}
