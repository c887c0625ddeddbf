/* linkscope run --dry-run (run_dry.h): the projection (analyze/projection.c) and the
   scheduler's rounds (analyze/schedule.c) of a machine, printed. */
#include "run_dry.h"
#include "commands.h"
#include "analyze/projection.h"
#include "analyze/schedule.h"
#include "discover/discover.h"
#include "import/topo_text.h"
#include "model/doc.h"
#include "model/vocab.h"
#include "model/topo.h"
#include "pipeline/rounds.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_rounds(const ls_fabric_t *f)
{
    ls_schedule_t s;
    if (ls_schedule_pairs(f, 0, &s) != 0)
        return;
    printf("\npair rounds (%d; a round measures a->b for all its pairs at once, then b->a, "
           "then both ways):\n",
           s.nrounds);
    for (int r = 0; r < s.nrounds; r++) {
        printf("  round %2d:", r + 1);
        for (int k = 0; k < s.rounds[r].npairs; k++)
            printf(" %d-%d", s.rounds[r].pairs[k].a, s.rounds[r].pairs[k].b);
        printf("\n");
    }
    ls_schedule_free(&s);
}

static void print_projection(const ls_projection_t *p, int thorough)
{
    printf("dry run: %d GPUs, %s level, budget %.0f s\n\n", p->ngpus,
           thorough ? LS_LEVEL_THOROUGH : LS_LEVEL_QUICK, p->budget_s);
    printf("%-40s %8s %7s %12s  %s\n", "step", "figures", "rounds", "projected s", "budget");
    for (int i = 0; i < p->nsteps; i++) {
        const ls_proj_step_t *s = &p->steps[i];
        printf("%-40s %8d %7d %12.1f  %s%s\n", s->name, s->figures, s->rounds, s->seconds,
               s->cut ? "cut down: " : "full", s->cut ? s->cut_how : "");
    }
    printf("%-40s %8s %7s %12.1f  %s\n", "total", "", "", p->total_s,
           p->over_budget ? "over the budget even cut down" : "within the budget");
}

static void print_last_line(const ls_projection_t *p)
{
    printf("\nprojected: %.0f s, rounds %d, cut: ", p->total_s, p->pair_rounds);
    int any = 0;
    for (int i = 0; i < p->nsteps; i++)
        if (p->steps[i].cut)
            printf("%s%s (%s)", any++ ? "; " : "", p->steps[i].name, p->steps[i].cut_how);
    printf("%s%s\n", any ? "" : "none",
           p->over_budget ? " (over the budget even cut down: the run would not start)" : "");
}

/* The document of FROM's machine, or of this machine. NULL after one error line, *rc
   the exit code. */
static json_t *load_machine(const char *from, int *rc)
{
    char err[512];
    json_t *doc;
    ls_topo_t *topo = calloc(1, sizeof *topo);
    if (!topo) {
        *rc = LS_EXIT_USAGE;
        return NULL;
    }
    if (from) {
        doc = ls_topo_load_files(from, NULL, NULL, topo, err, sizeof err);
        if (!doc) {
            ls_error("run: %s", err);
            *rc = LS_EXIT_USAGE;
        } else if (topo->ngpus == 0) {
            ls_error("run: %s holds no GPU", from);
            json_decref(doc);
            doc = NULL;
            *rc = LS_EXIT_USAGE;
        }
    } else {
        ls_discover_opts_t d = {.sysfs_root = "", .use_nvml = 1, .use_cuda = 1};
        doc = ls_doc_new();
        if (doc)
            ls_discover(doc, &d);
        if (!doc || ls_topo_from_doc(doc, topo) != 0 || topo->ngpus == 0) {
            json_decref(doc);
            doc = NULL;
            ls_error("run --dry-run: no GPU topology found on this machine (plan another "
                     "with --from FILE)");
            *rc = LS_EXIT_NOGPU;
        }
    }
    free(topo);
    return doc;
}

/* The GPUs of the run: --gpus, checked against the machine, or all of them. */
static int run_gpus(const ls_dry_opts_t *o, const json_t *doc, int *gpus)
{
    int count = (int)json_array_size(json_object_get(doc, "gpus"));
    if (o->ngpus == 0) {
        for (int g = 0; g < count && g < LS_MAX_GPUS; g++)
            gpus[g] = g;
        return count < LS_MAX_GPUS ? count : LS_MAX_GPUS;
    }
    for (int i = 0; i < o->ngpus; i++) {
        if (o->gpus[i] >= count) {
            ls_error("run: --gpus: GPU %d is not on %s (%d GPUs: 0-%d)", o->gpus[i],
                     o->from ? o->from : "this machine", count, count - 1);
            return -1;
        }
        gpus[i] = o->gpus[i];
    }
    return o->ngpus;
}

int ls_run_dry(const ls_dry_opts_t *o)
{
    int rc = 0, gpus[LS_MAX_GPUS];
    json_t *doc = load_machine(o->from, &rc);
    if (!doc)
        return rc;
    int n = run_gpus(o, doc, gpus);
    ls_run_rounds_t *r = calloc(1, sizeof *r);
    ls_projection_t *p = calloc(1, sizeof *p);
    ls_proj_opts_t po = {.thorough = o->thorough, .budget_s = o->budget_s, .no_nccl = o->no_nccl};
    if (n < 0)
        rc = LS_EXIT_USAGE;
    else if (!r || !p || ls_run_rounds_init(r, doc, gpus, n) != 0 ||
             ls_project_run(&r->fabric, r->numa, &po, p) != 0) {
        ls_error("run: no topology of the GPUs to plan");
        rc = LS_EXIT_USAGE;
    } else {
        print_projection(p, o->thorough);
        print_rounds(&r->fabric);
        print_last_line(p);
        if (p->over_budget) {
            char line[640];
            ls_proj_refusal(p, line, sizeof line);
            ls_error("run: %s", line);
            rc = LS_EXIT_BUDGET;
        }
    }
    if (r && r->have)
        ls_run_rounds_free(r);
    free(r);
    free(p);
    json_decref(doc);
    return rc;
}
