/* What a run will cost before paying it: every step of a default (quick) or thorough run
   on a given machine, in the order the run takes them (answers first), each with its
   figures, rounds and projected seconds from the measured costs, and what a budget cuts
   (fewer samples, fewer sizes, a shorter burn; a step is cut down, never dropped). The
   budget is a hard cap: steps are cut, from the last back, until the projection fits;
   where even every step at its minimum does not fit, over_budget says so and the run
   does not start. docs/schedule.md ("Projection"). */
#ifndef LS_ANALYZE_PROJECTION_H
#define LS_ANALYZE_PROJECTION_H

#include <stddef.h>

#include "analyze/schedule.h"

#define LS_PROJ_MAX_STEPS 24

/* The steps by id: the run (pipeline/run.c) and health's probe (pipeline/probe.c) record
   each step against the projection's step of the same id, never by its display name. */
enum ls_step_id {
    LS_STEP_INVENTORY,
    LS_STEP_P2P_CE,
    LS_STEP_CHECK,
    LS_STEP_ALL_REDUCE, /* the four collectives on all GPUs, in this order */
    LS_STEP_ALL_GATHER,
    LS_STEP_REDUCE_SCATTER,
    LS_STEP_ALLTOALL,
    LS_STEP_HBM,
    LS_STEP_HOST,
    LS_STEP_P2P_SM,
    LS_STEP_P2P_STAGED,
    LS_STEP_LATENCY,
    LS_STEP_FABRIC,
    LS_STEP_GROUPS,
    LS_STEP_BURN,
    LS_STEP_SPEC,
    LS_STEP_FAMILY,     /* a family of the model with no step of its own: .family names it */
    LS_STEP_NODE_STATE, /* health's state checks and probe */
    LS_STEP_NVLINK_WINDOW,
    LS_STEP_PROBE_P2P,
    LS_STEP_PROBE_ALL_REDUCE,
    LS_STEP_PROBE_HBM,
    LS_STEP_COUNT
};

/* The step's display name ("p2p ce, one way and both ways"); the collectives on all GPUs
   add the GPU count ("nccl all_reduce on 8 GPUs"), a family step is its family's name. */
const char *ls_proj_step_title(int id);

typedef struct {
    int id;             /* enum ls_step_id */
    const char *family; /* LS_STEP_FAMILY: the family's name; else NULL */
    char name[64];
    int figures;
    int rounds;          /* batches measured one after another (concurrent inside) */
    double seconds;      /* projected, as planned */
    double full_seconds; /* before any cut */
    double min_seconds;  /* cut down to its minimum (fewer samples, fewer sizes) */
    int cut;             /* 1 when the budget cut it down */
    const char *cut_how; /* what its cut-down form leaves out: "half the samples" */
} ls_proj_step_t;

typedef struct {
    int ngpus, pair_rounds;
    int nsteps;
    ls_proj_step_t steps[LS_PROJ_MAX_STEPS];
    double total_s; /* after cuts */
    double full_s;  /* before cuts */
    double min_s;   /* every step at its minimum */
    double budget_s;
    int over_budget; /* even every step at its minimum does not fit: the run refuses */
} ls_projection_t;

typedef struct {
    int thorough;    /* 0 quick, 1 thorough (fabric stress, burn, 20 samples) */
    double budget_s; /* <= 0: no cut */
    int no_nccl;     /* the run takes no collective (--no-nccl, or NCCL missing) */
} ls_proj_opts_t;

/* numa[g]: GPU g's NUMA node (-1 unknown): host copies of GPUs on different nodes run
   at the same time. 0, or -1 when out of memory. */
int ls_project_run(const ls_fabric_t *fabric, const int *numa, const ls_proj_opts_t *o,
                   ls_projection_t *p);

/* The index of the step of that id (and, for LS_STEP_FAMILY, that family), or -1. */
int ls_proj_step(const ls_projection_t *p, int id, const char *family);

/* One line saying what cannot fit (over_budget): the minimum, the budget and the
   largest steps at their minimum, with what to do. */
void ls_proj_refusal(const ls_projection_t *p, char *out, size_t len);

/* The row of the cost table a family's cost key names (model/families.h), -1 none. */
int ls_proj_cost_row(const char *key);

/* The cost table (docs/schedule.md, "Costs"), as markdown rows. */
void ls_proj_cost_rows(char *out, size_t len);

/* linkscope health --dry-run (docs/health.md, "Budget"): its state checks (the readings
   of an inventory, and the NVLink error counters' window) and the short probe issue 23
   plans: copy-engine copies of every pair, a->b then b->a, in the scheduler's rounds at
   one size with LS_HEALTH_PROBE_SAMPLES samples, one all_reduce size on all GPUs, one
   HBM copy on every GPU at once; priced by the costs of a run. 0, or -1 out of memory. */
#define LS_HEALTH_PROBE_SAMPLES 3
/* The probe's one all_reduce size: 1 GiB, large enough to be bandwidth-bound on NVLink
   (the run's ceiling rule judges from 64 MiB, rules.h). */
#define LS_HEALTH_PROBE_ALL_REDUCE_BYTES (1ull << 30)
int ls_project_health(const ls_fabric_t *fabric, double window_s, ls_projection_t *p);

#endif
