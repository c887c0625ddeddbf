/* What a run will cost before paying it: the steps of a default (quick) or thorough run
   on a given machine, in the order they answer (answers first), each with its figures,
   rounds and projected seconds from the measured per-figure costs, and what a budget
   would cut (fewer samples, fewer sizes; a step is cut down, never dropped).
   docs/schedule.md ("Projection"). */
#ifndef LS_ANALYZE_PROJECTION_H
#define LS_ANALYZE_PROJECTION_H

#include "analyze/schedule.h"

#define LS_PROJ_MAX_STEPS 16

typedef struct {
    char name[64];
    int figures;
    int rounds;       /* batches measured one after another (concurrent inside) */
    double seconds;   /* projected, as planned */
    double min_seconds; /* cut down to its minimum (fewer samples, fewer sizes) */
    int cut;          /* 1 when the budget cut it down */
    const char *cut_how; /* what its cut-down form leaves out: "half the samples" */
} ls_proj_step_t;

typedef struct {
    int ngpus, pair_rounds;
    int nsteps;
    ls_proj_step_t steps[LS_PROJ_MAX_STEPS];
    double total_s;   /* after cuts */
    double full_s;    /* before cuts */
    double budget_s;
    int over_budget;  /* even every step at its minimum does not fit */
} ls_projection_t;

/* numa[g]: GPU g's NUMA node (-1 unknown): host copies of GPUs on different nodes run
   at the same time. budget_s <= 0: no cut. 0, or -1 when out of memory. */
int ls_project_run(const ls_fabric_t *fabric, const int *numa, int thorough, double budget_s,
                   ls_projection_t *p);

/* linkscope health --dry-run (docs/health.md, "Budget"): its state checks (the readings
   of an inventory, and the NVLink error counters' window) and the short probe issue 23
   plans: copy-engine copies of every pair, a->b then b->a, in the scheduler's rounds at
   one size with LS_HEALTH_PROBE_SAMPLES samples, one all_reduce size on all GPUs, one
   HBM copy on every GPU at once; priced by the costs of a run. 0, or -1 out of memory. */
#define LS_HEALTH_PROBE_SAMPLES 3
int ls_project_health(const ls_fabric_t *fabric, double window_s, ls_projection_t *p);

#endif
