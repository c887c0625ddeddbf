/* linkscope health --dry-run (health_dry.h): the machine's fabric, its projection
   (analyze/projection.c, ls_project_health), printed. */
#include "health_dry.h"
#include "commands.h"
#include "analyze/projection.h"
#include "analyze/schedule.h"
#include "discover/discover.h"
#include "health/health.h"
#include "import/topo_text.h"
#include "model/doc.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A recorded state's GPUs: one NVLink domain when any shows an active link (an HGX
   board's NVSwitch; the state holds no topology), else PCIe through the host. */
static int fabric_of_state(const char *dir, ls_fabric_t *f)
{
    char err[512];
    json_t *state = ls_health_load(dir, err, sizeof err);
    if (!state) {
        ls_error("health --dry-run: %s", err);
        return LS_EXIT_USAGE;
    }
    const json_t *gpus = json_object_get(state, "gpus"), *g;
    size_t i;
    int nv = 0, n = (int)json_array_size(gpus);
    json_array_foreach(gpus, i, g)
        nv |= ls_json_int(g, "nvlinks_active", 0) > 0;
    json_decref(state);
    if (n == 0) {
        ls_error("health --dry-run: %s: the recorded state holds no GPU", dir);
        return LS_EXIT_USAGE;
    }
    return ls_fabric_uniform(n, nv ? LS_LINK_NV : LS_LINK_PHB, f) ? LS_EXIT_USAGE : 0;
}

/* A topology file (topo -m text, run document), or this machine's (from NULL). */
static int fabric_of_topology(const char *from, ls_fabric_t *f)
{
    ls_topo_t *topo = calloc(1, sizeof *topo);
    char err[512];
    json_t *doc = NULL;
    if (topo && from) {
        doc = ls_topo_load_files(from, NULL, NULL, topo, err, sizeof err);
        if (!doc)
            ls_error("health --dry-run: %s", err);
    } else if (topo) {
        ls_discover_opts_t d = {.sysfs_root = "", .use_nvml = 1, .use_cuda = 1};
        doc = ls_doc_new();
        if (doc && (ls_discover(doc, &d), ls_topo_from_doc(doc, topo) != 0))
            topo->ngpus = 0;
        if (doc && topo->ngpus == 0)
            ls_error("health --dry-run: no GPU topology found on this machine (project "
                     "another with --from FILE or DIR)");
    }
    int rc = doc && topo->ngpus > 0 && ls_fabric_from_topo(topo, f) == 0 ? 0
             : from || !doc                                              ? LS_EXIT_USAGE
                                                                         : LS_EXIT_NOGPU;
    if (doc && topo->ngpus == 0 && from)
        ls_error("health --dry-run: %s holds no GPU", from);
    json_decref(doc);
    free(topo);
    return rc;
}

/* --no-probe: the state steps alone (the probe's steps are the last, "probe: ..."). */
static void drop_probe(ls_projection_t *p)
{
    int k = 0;
    p->total_s = 0;
    for (int i = 0; i < p->nsteps; i++)
        if (strncmp(p->steps[i].name, "probe:", 6) != 0) {
            p->steps[k++] = p->steps[i];
            p->total_s += p->steps[i].seconds;
        }
    p->nsteps = k;
}

static void print_projection(const ls_projection_t *p, double budget_s, int no_probe)
{
    printf("health dry run: %d GPU%s, %d pair round%s\n\n", p->ngpus, p->ngpus == 1 ? "" : "s",
           p->pair_rounds, p->pair_rounds == 1 ? "" : "s");
    printf("%-40s %8s %7s %12s\n", "step", "figures", "rounds", "projected s");
    for (int i = 0; i < p->nsteps; i++)
        printf("%-40s %8d %7d %12.1f\n", p->steps[i].name, p->steps[i].figures, p->steps[i].rounds,
               p->steps[i].seconds);
    double state_s = p->steps[0].seconds + p->steps[1].seconds;
    printf("\nprojected: %.1f s for %d GPU%s, %s the %.0f s a scheduler's health check gets ",
           p->total_s, p->ngpus, p->ngpus == 1 ? "" : "s",
           p->total_s <= LS_HEALTH_SCHEDULER_S ? "within" : "over", LS_HEALTH_SCHEDULER_S);
    if (no_probe)
        printf("(the state checks alone, --no-probe)\n");
    else
        printf("(the state checks are the first two steps, %.1f s; --budget %.0f s holds them and "
               "the probe, a probe step that would not fit is skipped)\n",
               state_s, budget_s);
}

int ls_health_dry(const char *from, double window_s, double budget_s, int no_probe)
{
    struct stat st;
    ls_fabric_t f;
    int rc = from && stat(from, &st) == 0 && S_ISDIR(st.st_mode) ? fabric_of_state(from, &f)
                                                                 : fabric_of_topology(from, &f);
    if (rc)
        return rc;
    ls_projection_t *p = calloc(1, sizeof *p);
    if (p && ls_project_health(&f, window_s, p) == 0) {
        if (no_probe)
            drop_probe(p);
        print_projection(p, budget_s, no_probe);
    } else
        rc = LS_EXIT_USAGE;
    free(p);
    ls_fabric_free(&f);
    return rc;
}
