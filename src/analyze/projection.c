/* Run projection (docs/schedule.md, "Projection"). The costs are per figure, measured on
   the 2 x H200 machine in the bundled run (examples/h200x2-run.json: each step's seconds
   against its entries): a fixed part (buffers, data pattern, verification, telemetry
   start and stop) and the transfer itself.
   Pair figures are measured in rounds of disjoint pairs (analyze/schedule.c), HBM on
   every GPU at once (each GPU's memory is its own), host copies at once for GPUs on
   different NUMA nodes (each node's memory and root ports are its own). */
#include "analyze/projection.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    const char *what;
    double fixed_s, transfer_s; /* per figure, at 10 samples */
} cost_t;

/* Measured (see above): the transfer of a figure is (samples + the loop pick + the
   warm-up) x loops x bytes / value; the fixed part is the rest of its step's time. */
static const cost_t cost_inventory = {"inventory", 0.13, 0};
static const cost_t cost_p2p_ce = {"p2p ce", 0.371, 0.130};
static const cost_t cost_p2p_sm = {"p2p sm", 0.371, 0.141};
static const cost_t cost_p2p_staged = {"p2p staged", 0.371, 0.564};
static const cost_t cost_latency = {"latency", 0.244, 0.005};
/* HBM's fixed part re-measured in session 3: 11 runs of 1 x H200 (tests/fixtures/runs/,
   docs/bench/h200x1-2026-12-01-s3), step 0.56-0.65 s for 4 figures of which 0.23 s is
   transfer: 0.09 s a figure (0.188 in the bundled run, before the fixed-cost changes). */
static const cost_t cost_hbm = {"hbm", 0.09, 0.085};
static const cost_t cost_host_pinned = {"host pinned", 0.413, 0.558};
static const cost_t cost_host_pageable = {"host pageable", 0.413, 0.831};
/* NCCL sweeps on 2 GPUs, 8 B up: all_reduce to 8 GiB, the others to 1 GiB (seconds per
   whole sweep). A sweep to 1 GiB is the cut-down form. */
static const double nccl_all_reduce_s = 3.69, nccl_other_s = 0.39;

/* Samples scale the transfer; the fixed part stays. */
static double figure_s(const cost_t *c, double samples_factor)
{
    return c->fixed_s + c->transfer_s * samples_factor;
}

static ls_proj_step_t *add_step(ls_projection_t *p, const char *name, int figures, int rounds)
{
    ls_proj_step_t *s = &p->steps[p->nsteps++];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->figures = figures;
    s->rounds = rounds;
    s->cut_how = "half the samples";
    return s;
}

/* A step of `rounds` batches, each batch `per_round` figures one after another. */
static void timed(ls_proj_step_t *s, const cost_t *c, int per_round, double samples)
{
    s->seconds = s->rounds * per_round * figure_s(c, samples);
    s->min_seconds = s->rounds * per_round * figure_s(c, 0.5);
}

static int most_per_node(const int *numa, int n)
{
    int count[64] = {0}, most = 0, unknown = 0;
    for (int g = 0; g < n; g++) {
        if (!numa || numa[g] < 0 || numa[g] >= 64)
            unknown++;
        else if (++count[numa[g]] > most)
            most = count[numa[g]];
    }
    return unknown ? n : most; /* an unknown node: one GPU at a time */
}

/* Link classes with a pair in a round of more than one: each gets one pair measured
   again alone (the run's concurrency check, docs/schedule.md). */
static int checked_classes(const ls_fabric_t *f, const ls_schedule_t *sched)
{
    int seen[LS_LINK_SYS + 1] = {0}, n = 0;
    for (int i = 0; i < sched->nrounds; i++) {
        if (sched->rounds[i].npairs < 2)
            continue;
        for (int k = 0; k < sched->rounds[i].npairs; k++) {
            ls_pair_t q = sched->rounds[i].pairs[k];
            int t = (int)f->type[q.a * f->n + q.b];
            if (t >= 0 && t <= LS_LINK_SYS && !seen[t]++)
                n++;
        }
    }
    return n;
}

static void pair_steps(ls_projection_t *p, int pairs, int classes, double samples)
{
    int r = p->pair_rounds;
    ls_proj_step_t *s = add_step(p, "p2p ce, one way and both ways", 3 * pairs, 3 * r);
    timed(s, &cost_p2p_ce, 1, samples);
    if (classes == 0)
        return;
    /* a pair alone per class, one way, the other way, both: never cut (it checks the
       figures just taken) */
    s = add_step(p, "p2p ce: concurrent against alone", 3 * classes, 3 * classes);
    timed(s, &cost_p2p_ce, 1, samples);
    s->min_seconds = s->seconds;
}

static void collective_step(ls_projection_t *p, int n)
{
    if (n < 2)
        return;
    char name[64];
    snprintf(name, sizeof name, "nccl 4 collectives on %d GPUs", n);
    ls_proj_step_t *s = add_step(p, name, 4, 4);
    /* bus traffic per rank grows as 2(n-1)/n: 1 on 2 GPUs, 1.75 on 8 */
    double scale = 2.0 * (n - 1) / n;
    s->seconds = (nccl_all_reduce_s + 3 * nccl_other_s) * scale;
    s->min_seconds = 4 * nccl_other_s * scale;
    s->cut_how = "all_reduce to 1 GiB, not 8 GiB";
}

static void per_gpu_steps(ls_projection_t *p, const int *numa, int n, double samples)
{
    ls_proj_step_t *s = add_step(p, "hbm read, write, copy, copy_ce", 4 * n, 4);
    timed(s, &cost_hbm, 1, samples);
    int batches = most_per_node(numa, n);
    s = add_step(p, "host copies, pinned and pageable", 6 * n, 6 * batches);
    s->seconds = batches * 3 * (figure_s(&cost_host_pinned, samples) +
                                figure_s(&cost_host_pageable, samples));
    s->min_seconds = batches * 3 * (figure_s(&cost_host_pinned, 0.5) +
                                    figure_s(&cost_host_pageable, 0.5));
}

static void deep_steps(ls_projection_t *p, int n, int pairs, double samples)
{
    int r = p->pair_rounds;
    if (pairs == 0)
        return;
    ls_proj_step_t *s = add_step(p, "p2p sm_read, sm_write", 6 * pairs, 6 * r);
    timed(s, &cost_p2p_sm, 1, samples);
    s = add_step(p, "p2p staged through host", 3 * pairs, 3 * r);
    timed(s, &cost_p2p_staged, 1, samples);
    /* 7 definitions per ordered pair (two directions a round), pointer chase to host
       per GPU */
    s = add_step(p, "latency, every definition", 7 * 2 * pairs + n, 2 * 7 * r + n);
    timed(s, &cost_latency, 1, samples);
}

/* Thorough only: the fabric stress step, all_to_all then one_to_all and all_to_one from
   each GPU, every pattern one timed figure. Not measured yet: a P2P copy-engine figure's
   cost stands in (docs/schedule.md). */
static void fabric_step(ls_projection_t *p, int n, double samples)
{
    if (n < 2)
        return;
    ls_proj_step_t *s = add_step(p, "fabric stress: all to all, one to all, all to one",
                                 2 * n + 1, 2 * n + 1);
    timed(s, &cost_p2p_ce, 1, samples);
}

/* Cuts steps down from the last (what answers least) until the total fits. */
static void apply_budget(ls_projection_t *p)
{
    p->full_s = 0;
    for (int i = 0; i < p->nsteps; i++)
        p->full_s += p->steps[i].seconds;
    p->total_s = p->full_s;
    if (p->budget_s <= 0)
        return;
    for (int i = p->nsteps - 1; i >= 0 && p->total_s > p->budget_s; i--) {
        ls_proj_step_t *s = &p->steps[i];
        if (s->min_seconds < s->seconds) {
            p->total_s -= s->seconds - s->min_seconds;
            s->seconds = s->min_seconds;
            s->cut = 1;
        }
    }
    p->over_budget = p->total_s > p->budget_s;
}

int ls_project_run(const ls_fabric_t *fabric, const int *numa, int thorough, double budget_s,
                   ls_projection_t *p)
{
    memset(p, 0, sizeof *p);
    int n = fabric->n, pairs = n * (n - 1) / 2;
    double samples = thorough ? 2.0 : 1.0; /* 20 samples a figure against 10 */
    ls_schedule_t sched;
    if (ls_schedule_pairs(fabric, 0, &sched) != 0)
        return -1;
    p->ngpus = n;
    p->pair_rounds = sched.nrounds;
    p->budget_s = budget_s;
    int classes = checked_classes(fabric, &sched);
    ls_schedule_free(&sched);
    ls_proj_step_t *s = add_step(p, "inventory and topology", 0, 1);
    s->seconds = s->min_seconds = cost_inventory.fixed_s;
    if (pairs > 0)
        pair_steps(p, pairs, classes, samples);
    collective_step(p, n);
    per_gpu_steps(p, numa, n, samples);
    deep_steps(p, n, pairs, samples);
    if (thorough)
        fabric_step(p, n, samples);
    apply_budget(p);
    return 0;
}

/* linkscope health's projection (projection.h): the state checks, then the short probe
   at one size, by the same per-figure costs as a run. */
static void health_probe_steps(ls_projection_t *p, int n, int pairs)
{
    double samples = LS_HEALTH_PROBE_SAMPLES / 10.0; /* the costs are at 10 samples */
    ls_proj_step_t *s;
    if (pairs > 0) { /* a->b for every pair of a round at once, then b->a */
        s = add_step(p, "probe: p2p ce each way, one size", 2 * pairs, 2 * p->pair_rounds);
        timed(s, &cost_p2p_ce, 1, samples);
    }
    if (n >= 2) {
        /* one size of at most 1 GiB: no more than a sweep of a collective to 1 GiB */
        s = add_step(p, "probe: all_reduce, one size", 1, 1);
        s->seconds = s->min_seconds = nccl_other_s * 2.0 * (n - 1) / n;
    }
    s = add_step(p, "probe: hbm copy, one size", n, 1); /* every GPU at once */
    timed(s, &cost_hbm, 1, samples);
}

int ls_project_health(const ls_fabric_t *fabric, double window_s, ls_projection_t *p)
{
    memset(p, 0, sizeof *p);
    int n = fabric->n, pairs = n * (n - 1) / 2;
    ls_schedule_t sched;
    if (ls_schedule_pairs(fabric, 0, &sched) != 0)
        return -1;
    p->ngpus = n;
    p->pair_rounds = sched.nrounds;
    ls_schedule_free(&sched);
    ls_proj_step_t *s = add_step(p, "node state: NVML, sysfs, kernel log", 0, 1);
    s->seconds = s->min_seconds = cost_inventory.fixed_s; /* the same readings */
    s = add_step(p, "NVLink error counters over the window", 0, 1);
    s->seconds = s->min_seconds = window_s;
    health_probe_steps(p, n, pairs);
    apply_budget(p);
    return 0;
}
