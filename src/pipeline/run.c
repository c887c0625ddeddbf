/* The run pipeline (pipeline.h): its step list and the bookkeeping of each step. */
#include "pipeline.h"
#include "rounds.h"
#include "analyze/analyze.h"
#include "analyze/spec_tp.h"
#include "analyze/projection.h"
#include "discover/discover.h"
#include "measure/burn.h"
#include "measure/family.h"
#include "model/doc.h"
#include "model/nic_view.h"
#include "model/vocab.h"
#include "nccl/sweep.h"
#include "sweep_step.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The projection's steps, in its order (analyze/projection.c): the run measures them in
   that order and records each against the projection's step of the same id
   (LS_STEP_*), under its title. */

typedef struct {
    json_t *doc, *steps;
    const ls_run_opts_t *o;
    double start;
    ls_run_rounds_t *rounds; /* NULL: no topology, every pair alone */
    ls_projection_t proj;
    int planned; /* proj holds the projection */
    int refused; /* even cut down the run does not fit its budget */
    int nccl_ok; /* the collectives ran: NCCL is there */
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

/* A step is cut down, never dropped (issue 14): when the projection cut it to fit the
   budget, or when the run is already past its budget. */
/* The projection's step of that id (and family, for LS_STEP_FAMILY), -1 none. */
static int proj_index(const run_t *r, int which, const char *family)
{
    return r->planned && which >= 0 ? ls_proj_step(&r->proj, which, family) : -1;
}

static int step_cut(run_t *r, int which, const char *family)
{
    int k = proj_index(r, which, family);
    return (k >= 0 && r->proj.steps[k].cut) || now_s() - r->start >= r->o->budget_s;
}

/* The step's record: its seconds and its projected seconds (not on a plan group's
   sweep: the projection prices the groups as one step); what its cut left out. */
static void step_done(run_t *r, const char *name, double t0, int rc, const char *err, int which,
                      const char *family, int cut)
{
    json_t *s = json_pack("{s:s, s:s, s:f}", "step", name, "status", rc == 0 ? "ok" : "failed",
                          "seconds", now_s() - t0);
    int k = proj_index(r, which, family);
    if (k >= 0 && which != LS_STEP_GROUPS)
        json_object_set_new(s, "projected_s", json_real(r->proj.steps[k].seconds));
    if (cut)
        json_object_set_new(s, "cut",
                            json_string(k >= 0                  ? r->proj.steps[k].cut_how
                                        : which == LS_STEP_BURN ? "30 s of load, not 60"
                                        : which >= LS_STEP_ALL_REDUCE && which <= LS_STEP_ALLTOALL
                                            ? "to 1 GiB, not 8 GiB"
                                            : "half the samples"));
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

/* The pair rounds from the discovered topology, and the projection of the run on it:
   which steps the budget cuts down, or that even cut down it does not fit (the run then
   stops here, before measuring: LS_EXIT_BUDGET). */
static void plan(run_t *r)
{
    r->rounds = calloc(1, sizeof *r->rounds);
    if (!r->rounds || ls_run_rounds_init(r->rounds, r->doc, r->o->gpus, r->o->ngpus) != 0) {
        ls_warn("no topology: every GPU pair measured alone, the budget applied as the run goes");
        free(r->rounds);
        r->rounds = NULL;
        return;
    }
    char why[512];
    ls_proj_opts_t po = {.thorough = r->o->thorough,
                         .budget_s = r->o->budget_s,
                         .no_nccl = r->o->no_nccl || r->o->ngpus < 2 ||
                                    ls_nccl_probe(NULL, 0, why, sizeof why) != 0};
    if (ls_project_run(&r->rounds->fabric, r->rounds->numa, &po, &r->proj) != 0)
        return;
    r->planned = 1;
    if (r->proj.over_budget) {
        char line[640];
        ls_proj_refusal(&r->proj, line, sizeof line);
        ls_error("run: %s", line);
        r->refused = 1;
    }
}

static void measure_opts(run_t *r, ls_measure_opts_t *mo, int cut)
{
    memset(mo, 0, sizeof *mo);
    memcpy(mo->gpus, r->o->gpus, sizeof(int) * (size_t)r->o->ngpus);
    mo->ngpus = r->o->ngpus;
    mo->samples = r->o->thorough ? 20 : 10;
    if (cut) /* the cut-down form: half the samples */
        mo->samples /= 2;
    mo->doc = r->doc;
    mo->stop_rule = 1; /* samples stop when the median is known (util/stop.h) */
    if (r->rounds)
        ls_run_rounds_apply(r->rounds, mo);
}

/* One family (methods: a comma list, NULL all) as the projection's step `which`
   (LS_STEP_FAMILY: the family's own step), recorded as `name`. */
static void run_family(run_t *r, const ls_family_t *f, const char *methods, int which,
                       const char *name)
{
    if (!f || (f->pairs && r->o->ngpus < 2))
        return;
    const char *family = which == LS_STEP_FAMILY ? f->name : NULL;
    int cut = step_cut(r, which, family);
    ls_measure_opts_t mo;
    measure_opts(r, &mo, cut);
    mo.methods = methods;
    ls_progress("measuring %s ...", name);
    char err[512] = "";
    double t0 = now_s();
    int rc = ls_family_measure(f, r->doc, &mo, err, sizeof err);
    ls_progress_done();
    step_done(r, name, t0, rc, err, which, family, cut);
}

static void family_step(run_t *r, const char *family, const char *methods, int which)
{
    run_family(r, ls_family_find(family), methods, which, ls_proj_step_title(which));
}

/* Copy-engine P2P for every pair, then the check that pairs measured together do not
   slow each other (rounds.h). */
static void p2p_ce(run_t *r)
{
    family_step(r, LS_FAMILY_P2P, LS_P2P_CE, LS_STEP_P2P_CE);
    if (!r->rounds || r->o->ngpus < 2 ||
        r->rounds->nrounds == r->rounds->round_start[r->rounds->nrounds])
        return; /* no round of more than one pair */
    ls_measure_opts_t mo;
    measure_opts(r, &mo, step_cut(r, LS_STEP_P2P_CE, NULL));
    ls_progress("checking concurrent figures against alone ...");
    double t0 = now_s();
    int serial = ls_run_rounds_check(r->rounds, r->doc, &mo);
    ls_progress_done();
    char note[96] = "";
    if (serial)
        snprintf(note, sizeof note, "%d link class(es) share a path: measured one pair at a time",
                 serial);
    step_done(r, ls_proj_step_title(LS_STEP_CHECK), t0, 0, NULL, LS_STEP_CHECK, NULL, 0);
    if (serial)
        json_object_set_new(json_array_get(r->steps, json_array_size(r->steps) - 1), "note",
                            json_string(note));
}

static void hbm_host(run_t *r)
{
    family_step(r, LS_FAMILY_HBM, NULL, LS_STEP_HBM);
    family_step(r, LS_FAMILY_HOST, NULL, LS_STEP_HOST);
}

/* What answers least comes last: SM-kernel and staged P2P, every latency definition. */
static void deep(run_t *r)
{
    family_step(r, LS_FAMILY_P2P, LS_P2P_SM_READ "," LS_P2P_SM_WRITE, LS_STEP_P2P_SM);
    family_step(r, LS_FAMILY_P2P, LS_P2P_STAGED, LS_STEP_P2P_STAGED);
    family_step(r, LS_FAMILY_LATENCY, NULL, LS_STEP_LATENCY);
    /* a family of the registry that none of the steps above names runs here, under its
       own name (docs/design.md, "How to add a measurement family") */
    static const char *const named[] = {LS_FAMILY_P2P, LS_FAMILY_LATENCY, LS_FAMILY_HBM,
                                        LS_FAMILY_HOST};
    int n;
    const ls_family_t *fams = ls_families(&n);
    for (int i = 0; i < n; i++) {
        int known = 0;
        for (size_t k = 0; k < sizeof named / sizeof named[0]; k++)
            known |= strcmp(fams[i].name, named[k]) == 0;
        if (!known)
            run_family(r, &fams[i], NULL, LS_STEP_FAMILY, fams[i].name);
    }
}

/* One sweep as the projection's step `which` (a collective on all GPUs, or
   LS_STEP_GROUPS). */
static void sweep(run_t *r, const char *collective, const int *gpus, int ngpus, uint64_t min_b,
                  uint64_t max_b, double factor, int which)
{
    char name[96];
    snprintf(name, sizeof name, "nccl %s on %d GPUs", collective, ngpus);
    int cut = step_cut(r, which, NULL);
    if (cut && max_b > (1ull << 30)) /* the cut-down form: to 1 GiB */
        max_b = 1ull << 30;
    ls_sweep_step_t s = {.collective = collective,
                         .gpus = gpus,
                         .ngpus = ngpus,
                         .min_bytes = min_b,
                         .max_bytes = max_b,
                         .step_factor = factor,
                         .timeout_s = 60,
                         .annotate = 1};
    ls_progress("%s ...", name);
    char err[512] = "";
    double t0 = now_s();
    int rc = ls_sweep_step(r->doc, &s, err, sizeof err);
    ls_progress_done();
    step_done(r, name, t0, rc, err, which, NULL, cut);
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
    json_array_foreach(json_object_get(plan, "groups"), i, group) {
        const json_t *list = json_object_get(group, "gpus");
        int n = (int)json_array_size(list);
        if (n < 2 || n > LS_MAX_GPUS || same_set(list, r->o->gpus, r->o->ngpus))
            continue;
        int set[LS_MAX_GPUS];
        for (int k = 0; k < n; k++)
            set[k] = (int)json_integer_value(json_array_get(list, (size_t)k));
        sweep(r, "all_reduce", set, n, 1 << 20, max_b, 4, LS_STEP_GROUPS);
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
    sweep(r, "all_reduce", r->o->gpus, r->o->ngpus, 8, 8ull << 30, 2, LS_STEP_ALL_REDUCE);
    for (int i = LS_STEP_ALL_GATHER; i <= LS_STEP_ALLTOALL; i++)
        sweep(r, ls_proj_step_title(i), r->o->gpus, r->o->ngpus, 8, max_b, thorough ? 2 : 4, i);
    r->nccl_ok = 1;
}

/* Thorough: every GPU writing to every other at once, one to all, all to one. */
static void fabric(run_t *r)
{
    if (!r->o->thorough || r->o->ngpus < 2)
        return;
    int cut = step_cut(r, LS_STEP_FABRIC, NULL);
    ls_measure_opts_t mo;
    measure_opts(r, &mo, cut);
    ls_progress("measuring %s ...", ls_proj_step_title(LS_STEP_FABRIC));
    char err[512] = "";
    double t0 = now_s();
    int rc = ls_measure_fabric(r->doc, &mo, err, sizeof err);
    ls_progress_done();
    step_done(r, ls_proj_step_title(LS_STEP_FABRIC), t0, rc, err, LS_STEP_FABRIC, NULL, cut);
}

/* all_reduce on each group the plan proposes, from everything measured before it. */
static void groups(run_t *r)
{
    if (!r->nccl_ok)
        return;
    plan_groups(r, r->o->thorough ? 8ull << 30 : 1ull << 30);
    ls_nccl_sweep_finish();
}

/* thorough: the sustained-load family (not in the registry of size-and-samples families:
   it is time-bound and thorough-only), last so that its heat stays out of the other
   figures. */
static void burn(run_t *r)
{
    if (!r->o->thorough)
        return;
    int cut = step_cut(r, LS_STEP_BURN, NULL); /* cut down: half the seconds, never dropped */
    ls_burn_opts_t o;
    memset(&o, 0, sizeof o);
    memcpy(o.gpus, r->o->gpus, sizeof(int) * (size_t)r->o->ngpus);
    o.ngpus = r->o->ngpus;
    o.seconds = cut ? LS_BURN_THOROUGH_SECONDS / 2 : LS_BURN_THOROUGH_SECONDS;
    o.period_ms = LS_BURN_PERIOD_MS;
    ls_progress("burn: %.0f s of sustained load ...", o.seconds);
    char err[512] = "";
    double t0 = now_s();
    int rc = ls_measure_burn(r->doc, &o, err, sizeof err);
    ls_progress_done();
    step_done(r, ls_proj_step_title(LS_STEP_BURN), t0, rc, err, LS_STEP_BURN, NULL, cut);
}

/* Each GPU against its datasheet (docs/acceptance.md); the findings join the others
   through the document's "spec". */
static void spec(run_t *r)
{
    char err[512] = "";
    double t0 = now_s();
    step_done(r, ls_proj_step_title(LS_STEP_SPEC), t0, ls_spec_record(r->doc, err, sizeof err), err,
              LS_STEP_SPEC, NULL, 0);
}

/* The run object, then findings and plan computed from everything measured. */
static void analysis(run_t *r)
{
    json_t *run = json_pack("{s:s, s:f, s:f, s:O}", "level", r->o->thorough ? "thorough" : "quick",
                            "budget_s", r->o->budget_s, "elapsed_s", now_s() - r->start, "steps",
                            r->steps);
    if (r->planned) /* the run's time beside what the projection said before it ran */
        json_object_set_new(run, "projected_s", json_real(r->proj.total_s));
    json_object_set_new(r->doc, "run", run);
    ls_nics_from_nccl(r->doc); /* what NCCL said of each NIC its collectives used */
    json_object_set_new(r->doc, "findings", ls_findings(r->doc));
    json_object_set_new(r->doc, "plan", ls_plan_with(r->doc, json_object_get(r->doc, "findings")));
}

/* The step list, in the order they answer (docs/run.md): the projection's order; the
   sustained load and the datasheet check last, before the analysis. */
static void (*const steps[])(run_t *) = {discover, plan,   p2p_ce, collectives, hbm_host, deep,
                                         fabric,   groups, burn,   spec,        analysis};

json_t *ls_pipeline_run(const ls_run_opts_t *o, int *refused)
{
    *refused = 0;
    run_t r = {.doc = ls_doc_new(), .steps = json_array(), .o = o, .start = now_s()};
    ls_progress_clock(o->budget_s); /* the progress line shows the run against its budget */
    if (!r.doc || !r.steps) {
        json_decref(r.doc);
        json_decref(r.steps);
        return NULL;
    }
    for (size_t i = 0; i < sizeof steps / sizeof steps[0] && !r.refused; i++)
        steps[i](&r);
    json_decref(r.steps);
    if (r.refused) { /* said before measuring: nothing measured, nothing written */
        json_decref(r.doc);
        r.doc = NULL;
        *refused = 1;
    }
    if (r.rounds)
        ls_run_rounds_free(r.rounds);
    free(r.rounds);
    return r.doc;
}
