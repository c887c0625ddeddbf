/* The run pipeline (pipeline.h): its step list and the bookkeeping of each step. */
#include "pipeline.h"
#include "analyze/analyze.h"
#include "analyze/spec_tp.h"
#include "discover/discover.h"
#include "measure/burn.h"
#include "measure/family.h"
#include "model/doc.h"
#include "model/nic_view.h"
#include "nccl/annotate.h"
#include "nccl/sweep.h"
#include "util/log.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

typedef struct {
    json_t *doc, *steps;
    const ls_run_opts_t *o;
    double start;
} run_t;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void step_skipped(run_t *r, const char *name, const char *why)
{
    json_array_append_new(r->steps, json_pack("{s:s, s:s, s:s, s:f}", "step", name, "status",
                                              "skipped", "error", why, "seconds", 0.0));
}

static int step_allowed(run_t *r, const char *name)
{
    if (now_s() - r->start < r->o->budget_s)
        return 1;
    step_skipped(r, name, "over the time budget");
    ls_warn("%s skipped: the run is over its %.0f s budget", name, r->o->budget_s);
    return 0;
}

static void step_done(run_t *r, const char *name, double t0, int rc, const char *err)
{
    json_t *s = json_pack("{s:s, s:s, s:f}", "step", name, "status", rc == 0 ? "ok" : "failed",
                          "seconds", now_s() - t0);
    if (rc != 0 && err && *err)
        json_object_set_new(s, "error", json_string(err));
    json_array_append_new(r->steps, s);
    if (rc != 0)
        ls_warn("%s: %s", name, err && *err ? err : "failed");
}

/* ---- the steps ------------------------------------------------------------------------ */

static void discover(run_t *r)
{
    ls_discover_opts_t d = {.sysfs_root = "", .use_nvml = 1, .use_cuda = 1};
    ls_progress("discovering ...");
    ls_discover(r->doc, &d);
    ls_progress_done();
}

/* Every family of the registry, in its order; the pair families need two GPUs. */
static void families(run_t *r)
{
    ls_measure_opts_t mo;
    memset(&mo, 0, sizeof mo);
    memcpy(mo.gpus, r->o->gpus, sizeof(int) * (size_t)r->o->ngpus);
    mo.ngpus = r->o->ngpus;
    mo.samples = r->o->thorough ? 20 : 10;
    mo.doc = r->doc;
    int n;
    const ls_family_t *fams = ls_families(&n);
    for (int i = 0; i < n; i++) {
        if ((fams[i].pairs && r->o->ngpus < 2) || !step_allowed(r, fams[i].name))
            continue;
        ls_progress("measuring %s ...", fams[i].name);
        char err[512] = "";
        double t0 = now_s();
        int rc = ls_family_measure(&fams[i], r->doc, &mo, err, sizeof err);
        ls_progress_done();
        step_done(r, fams[i].name, t0, rc, err);
    }
}

static void sweep(run_t *r, const char *collective, const int *gpus, int ngpus, uint64_t min_b,
                  uint64_t max_b, double factor)
{
    char name[96];
    snprintf(name, sizeof name, "nccl %s on %d GPUs", collective, ngpus);
    if (!step_allowed(r, name))
        return;
    ls_nccl_sweep_opts_t o = {.collective = collective, .gpus = gpus, .ngpus = ngpus,
                              .min_bytes = min_b, .max_bytes = max_b, .step_factor = factor,
                              .iters = 20, .warmup = 5, .check = 1, .dtype = "float",
                              .redop = "sum", .in_place = 2, .timeout_s = 60, .variant = "default",
                              .threads = 1}; /* one launching thread per GPU, as frameworks
                                                drive them (docs/nccl.md) */
    ls_progress("%s ...", name);
    char err[512] = "";
    double t0 = now_s();
    json_t *entry = ls_nccl_sweep(&o, err, sizeof err);
    ls_progress_done();
    if (!entry) {
        step_done(r, name, t0, -1, err);
        return;
    }
    int ok = strcmp(ls_json_str(entry, "status", "failed"), "ok") == 0;
    if (!ok)
        snprintf(err, sizeof err, "%s", ls_json_str(entry, "error", "failed"));
    ls_nccl_annotate_entry(r->doc, entry);
    ls_nccl_add_entry(r->doc, entry);
    step_done(r, name, t0, ok ? 0 : -1, err);
}

static int same_set(const json_t *list, const int *gpus, int n)
{
    if ((int)json_array_size(list) != n)
        return 0;
    for (int i = 0; i < n; i++)
        if (json_integer_value(json_array_get(list, (size_t)i)) != gpus[i])
            return 0;
    return 1;
}

/* all_reduce on every group the plan proposes that is not the whole set measured. */
static void plan_groups(run_t *r, uint64_t max_b)
{
    json_t *plan = ls_plan(r->doc);
    size_t i;
    json_t *group;
    json_array_foreach(json_object_get(plan, "groups"), i, group)
    {
        const json_t *list = json_object_get(group, "gpus");
        int n = (int)json_array_size(list);
        if (n < 2 || n > LS_MAX_GPUS || same_set(list, r->o->gpus, r->o->ngpus))
            continue;
        int set[LS_MAX_GPUS];
        for (int k = 0; k < n; k++)
            set[k] = (int)json_integer_value(json_array_get(list, (size_t)k));
        sweep(r, "all_reduce", set, n, 1 << 20, max_b, 4);
    }
    json_decref(plan);
}

static void collectives(run_t *r)
{
    if (r->o->no_nccl || r->o->ngpus < 2)
        return;
    char why[512];
    if (ls_nccl_probe(NULL, 0, why, sizeof why) != 0) { /* once, not once per collective */
        step_skipped(r, "nccl", why);
        ls_warn("collectives skipped: %s", why);
        return;
    }
    /* all_reduce to 8 GiB at every level: tensor-parallel prefills of long prompts move
       all-reduces of several GB (linkscope tp reads this curve); sizes that do not fit in
       GPU memory are dropped by the harness with a note. */
    int thorough = r->o->thorough;
    uint64_t max_b = thorough ? 8ull << 30 : 1ull << 30;
    sweep(r, "all_reduce", r->o->gpus, r->o->ngpus, 8, 8ull << 30, 2);
    static const char *others[] = {"all_gather", "reduce_scatter", "alltoall"};
    for (int i = 0; i < 3; i++)
        sweep(r, others[i], r->o->gpus, r->o->ngpus, 8, max_b, thorough ? 2 : 4);
    plan_groups(r, max_b);
    ls_nccl_sweep_finish();
}

/* thorough: the sustained-load family (not in the registry of size-and-samples families:
   it is time-bound and thorough-only), last so that its heat stays out of the other
   figures. */
static void burn(run_t *r)
{
    if (!r->o->thorough || !step_allowed(r, "burn"))
        return;
    ls_burn_opts_t o;
    memset(&o, 0, sizeof o);
    memcpy(o.gpus, r->o->gpus, sizeof(int) * (size_t)r->o->ngpus);
    o.ngpus = r->o->ngpus;
    o.seconds = LS_BURN_THOROUGH_SECONDS;
    o.period_ms = LS_BURN_PERIOD_MS;
    ls_progress("burn: %.0f s of sustained load ...", o.seconds);
    char err[512] = "";
    double t0 = now_s();
    int rc = ls_measure_burn(r->doc, &o, err, sizeof err);
    ls_progress_done();
    step_done(r, "burn", t0, rc, err);
}

/* Each GPU against its datasheet (docs/acceptance.md); the findings join the others
   through the document's "spec". */
static void spec(run_t *r)
{
    char err[512] = "";
    double t0 = now_s();
    step_done(r, "spec", t0, ls_spec_record(r->doc, err, sizeof err), err);
}

/* The run object, then findings and plan computed from everything measured. */
static void analysis(run_t *r)
{
    json_object_set_new(r->doc, "run", json_pack("{s:s, s:f, s:f, s:O}", "level",
                                                 r->o->thorough ? "thorough" : "quick", "budget_s",
                                                 r->o->budget_s, "elapsed_s", now_s() - r->start,
                                                 "steps", r->steps));
    ls_nics_from_nccl(r->doc); /* what NCCL said of each NIC its collectives used */
    json_object_set_new(r->doc, "findings", ls_findings(r->doc));
    json_object_set_new(r->doc, "plan", ls_plan(r->doc));
}

/* The step list, in order. */
static void (*const steps[])(run_t *) = {discover, families, collectives, burn, spec, analysis};

json_t *ls_pipeline_run(const ls_run_opts_t *o)
{
    run_t r = {ls_doc_new(), json_array(), o, now_s()};
    if (!r.doc || !r.steps) {
        json_decref(r.doc);
        json_decref(r.steps);
        return NULL;
    }
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        steps[i](&r);
    json_decref(r.steps);
    return r.doc;
}
