/* linkscope run --dry-run (run_dry.h): the projection (analyze/projection.c) and the
   scheduler's rounds (analyze/schedule.c) of a machine, printed. */
#include "run_dry.h"
#include "commands.h"
#include "analyze/projection.h"
#include "analyze/schedule.h"
#include "discover/discover.h"
#include "import/topo_text.h"
#include "model/doc.h"
#include "model/topo.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A GPU's NUMA node from the topology's word ("0", "N/A", ""): -1 when unknown. */
static int numa_node(const char *word)
{
    char *end;
    long v = strtol(word, &end, 10);
    return end != word && *end == '\0' && v >= 0 ? (int)v : -1;
}

static void print_rounds(const ls_fabric_t *f)
{
    ls_schedule_t s;
    if (ls_schedule_pairs(f, 0, &s) != 0)
        return;
    printf("\npair rounds (%d; a round measures a->b for all its pairs at once, then b->a, "
           "then both ways):\n", s.nrounds);
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
           thorough ? "thorough" : "quick", p->budget_s);
    printf("%-40s %8s %7s %12s  %s\n", "step", "figures", "rounds", "projected s", "budget");
    for (int i = 0; i < p->nsteps; i++) {
        const ls_proj_step_t *s = &p->steps[i];
        printf("%-40s %8d %7d %12.1f  %s%s\n", s->name, s->figures, s->rounds, s->seconds,
               s->cut ? "cut down: " : "full", s->cut ? s->cut_how : "");
    }
}

static void print_last_line(const ls_projection_t *p)
{
    printf("\nprojected: %.0f s, rounds %d, cut: ", p->total_s, p->pair_rounds);
    int any = 0;
    for (int i = 0; i < p->nsteps; i++)
        if (p->steps[i].cut)
            printf("%s%s (%s)", any++ ? "; " : "", p->steps[i].name, p->steps[i].cut_how);
    printf("%s%s\n", any ? "" : "none",
           p->over_budget ? " (over the budget even cut down; no step dropped)" : "");
}

/* The topology of FROM, or of this machine. 0, or one error line and an exit code. */
static int load_topo(const char *from, ls_topo_t *topo)
{
    char err[512];
    json_t *doc;
    if (from) {
        doc = ls_topo_load_files(from, NULL, NULL, topo, err, sizeof err);
        if (!doc) {
            ls_error("run: %s", err);
            return LS_EXIT_USAGE;
        }
    } else {
        ls_discover_opts_t d = {.sysfs_root = "", .use_nvml = 1, .use_cuda = 1};
        doc = ls_doc_new();
        if (doc)
            ls_discover(doc, &d);
        if (!doc || ls_topo_from_doc(doc, topo) != 0 || topo->ngpus == 0) {
            json_decref(doc);
            ls_error("run --dry-run: no GPU topology found on this machine (plan another "
                     "with --from FILE)");
            return LS_EXIT_NOGPU;
        }
    }
    json_decref(doc);
    if (topo->ngpus == 0) {
        ls_error("run: %s holds no GPU", from);
        return LS_EXIT_USAGE;
    }
    return 0;
}

int ls_run_dry(const char *from, int thorough, double budget_s)
{
    ls_topo_t *topo = calloc(1, sizeof *topo);
    if (!topo)
        return LS_EXIT_USAGE;
    int rc = load_topo(from, topo);
    ls_fabric_t f;
    ls_projection_t *p = calloc(1, sizeof *p);
    if (rc == 0 && (!p || ls_fabric_from_topo(topo, &f) != 0))
        rc = LS_EXIT_USAGE;
    if (rc == 0) {
        int numa[LS_MAX_GPUS];
        for (int g = 0; g < topo->ngpus; g++)
            numa[g] = numa_node(topo->numa_affinity[g]);
        if (ls_project_run(&f, numa, thorough, budget_s, p) == 0) {
            print_projection(p, thorough);
            print_rounds(&f);
            print_last_line(p);
        } else {
            rc = LS_EXIT_USAGE;
        }
        ls_fabric_free(&f);
    }
    free(p);
    free(topo);
    return rc;
}
