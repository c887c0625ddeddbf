/* Run projection (docs/schedule.md, "Projection"). Every step the run takes (the run's
   order, src/pipeline/run.c), priced from the measured costs below:
   - per figure, a fixed part (buffers, data pattern, verification, telemetry start and
     stop) and the transfer itself; pair figures are measured in rounds of disjoint pairs
     (analyze/schedule.c), HBM on every GPU at once (each GPU's memory is its own), host
     copies at once for GPUs on different NUMA nodes (each node's memory and root ports
     are its own);
   - the collectives: the NCCL communicator made once per GPU set (the harness keeps it
     between the sweeps of one set, nccl/sweep_nccl.c), a fixed part per sweep and the
     transfer per GiB swept;
   - burn: its seconds plus a fixed part; spec and discovery: fixed. */
#include "analyze/projection.h"
#include "model/families.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *what, *per;
    double fixed_s, transfer_s; /* transfer: at 10 samples a figure, or per GiB swept */
    const char *source;
    /* The telemetry window inside fixed_s as measured: its GPUs, every reading with
       NVML's PCIe throughput query (all windows then did); pcie_now: the window still
       asks for it (host copies, sample/telemetry.h). 0 GPUs: no window. */
    int window_gpus, pcie_now;
    int short_figure; /* a figure of a few ms: it waits READINGS_WAITED_SHORT readings */
} cost_t;

/* One telemetry reading of one GPU (sample/telemetry.c), measured on 1 x H200 in session
   6, interleaved on one lease (docs/bench/h200x1-2026-12-04-s6/): 2.15 ms without the
   PCIe throughput query, 43.6 ms with it (the query samples 20 ms per direction).
   Readings a figure waits for: 0.89, from the same runs' HBM step (4 figures, median
   0.581 s with the query, 0.433 s without: 37 ms a figure for 41.4 ms a reading). A
   figure of a few ms (latency) waits longer, the reading under way at its start and the
   one after it: 1.42, from `linkscope latency` on 1 GPU (its one figure, pointer chase
   to host), 5 runs each way alternating on one lease, the wall time with the query less
   without, median 59 ms for 41.5 ms a reading (docs/bench/h200x1-2026-12-04-s6/). */
#define READING_S 0.00215
#define READING_PCIE_S 0.0436
#define READINGS_WAITED 0.89
#define READINGS_WAITED_SHORT 1.42

enum {
    C_INVENTORY,
    C_P2P_CE,
    C_P2P_SM,
    C_P2P_STAGED,
    C_LATENCY,
    C_HBM,
    C_HOST_PINNED,
    C_HOST_PAGEABLE,
    C_NCCL_INIT,
    C_NCCL_SWEEP,
    C_ALL_REDUCE,
    C_ALL_GATHER,
    C_REDUCE_SCATTER,
    C_ALLTOALL,
    C_BURN,
    C_SPEC,
    C_COUNT
};

#define H200X2 "examples/h200x2-run.json"
#define H200X1 "tests/fixtures/runs/ (22 quick runs of 1 x H200, session 3)"
#define HOST_S6                                                                                    \
    "fixed: docs/bench/h200x1-2026-12-04-s6/ (5 quick runs of 1 x H200 on two leases, host step "  \
    "median 4.916 s)"

/* Measured. A figure's transfer is (samples + the loop pick + the warm-up) x loops x
   bytes / value, its fixed part the rest of its step's seconds over its figures. A
   sweep's transfer is the sum over its rows of (in-place + out-of-place time) x 26
   launches (5 warm-up, 20 timed, 1 checked), over the GiB it swept. */
static const cost_t costs[C_COUNT] = {
    [C_INVENTORY] = {.what = "discovery (inventory and topology)",
                     .per = "run",
                     .fixed_s = 0.03,
                     .source = H200X1 ": run.elapsed_s less its steps, median 0.031 s"},
    [C_P2P_CE] = {.what = "P2P copy engine (2 GiB)",
                  .per = "figure",
                  .fixed_s = 0.371,
                  .transfer_s = 0.130,
                  .source = H200X2,
                  .window_gpus = 2},
    [C_P2P_SM] = {.what = "P2P SM read / write",
                  .per = "figure",
                  .fixed_s = 0.371,
                  .transfer_s = 0.141,
                  .source = H200X2,
                  .window_gpus = 2},
    [C_P2P_STAGED] = {.what = "P2P staged through host",
                      .per = "figure",
                      .fixed_s = 0.371,
                      .transfer_s = 0.564,
                      .source = H200X2,
                      .window_gpus = 2},
    [C_LATENCY] = {.what = "latency (any definition)",
                   .per = "figure",
                   .fixed_s = 0.244,
                   .transfer_s = 0.005,
                   .source = H200X2,
                   .window_gpus = 2,
                   .short_figure = 1},
    /* quick runs: the step's median 0.579 s for 4 figures; the thorough run (20
       samples): 0.648 s; the difference is 10 samples' transfer */
    [C_HBM] = {.what = "HBM (1 GiB)",
               .per = "figure",
               .fixed_s = 0.128,
               .transfer_s = 0.017,
               .source = H200X1
               " and session 3's thorough run: step 0.579 s (quick, median), 0.648 s (20 samples)",
               .window_gpus = 1},
    /* fixed: 1 x H200, session 6, since the host side's fill and check run over threads
       (measure/host_pattern.c): the host step's median of 5 quick runs on two leases
       (4.557-5.669 s), 4.916 s, less the transfer below (3 x (0.558 + 0.831) s), over its
       6 figures; the same way from the 3 runs before that change, (6.600 - 4.167) / 6 =
       0.405 s, against the 0.413 s measured on 2 x H200 */
    [C_HOST_PINNED] = {.what = "host copy, pinned (512 MiB)",
                       .per = "figure",
                       .fixed_s = 0.125,
                       .transfer_s = 0.558,
                       .source = HOST_S6 "; transfer " H200X2,
                       .window_gpus = 1,
                       .pcie_now = 1},
    [C_HOST_PAGEABLE] = {.what = "host copy, pageable",
                         .per = "figure",
                         .fixed_s = 0.125,
                         .transfer_s = 0.831,
                         .source = HOST_S6 "; transfer " H200X2,
                         .window_gpus = 1,
                         .pcie_now = 1},
    /* the first sweep of a set (all_reduce: 3.69 s, 2.64 s of it transfer) less a
       later sweep's fixed part */
    [C_NCCL_INIT] = {.what = "NCCL communicators of a GPU set",
                     .per = "GPU set",
                     .fixed_s = 0.74,
                     .source = H200X2
                     ": the first sweep's fixed part (1.05 s) less a later sweep's"},
    [C_NCCL_SWEEP] = {.what = "NCCL sweep: buffers, telemetry, launch threads",
                      .per = "sweep",
                      .fixed_s = 0.31,
                      .source = H200X2 ": all_gather, reduce_scatter, alltoall, mean",
                      .window_gpus = 2},
    [C_ALL_REDUCE] = {.what = "all_reduce on 2 GPUs",
                      .per = "GiB swept",
                      .transfer_s = 0.165,
                      .source = H200X2 ": 2.64 s over 16 GiB (8 B - 8 GiB, x2)"},
    [C_ALL_GATHER] = {.what = "all_gather on 2 GPUs",
                      .per = "GiB swept",
                      .transfer_s = 0.122,
                      .source = H200X2 ": 0.081 s over 0.667 GiB (8 B - 512 MiB, x4)"},
    [C_REDUCE_SCATTER] = {.what = "reduce_scatter on 2 GPUs",
                          .per = "GiB swept",
                          .transfer_s = 0.125,
                          .source = H200X2 ": 0.083 s over 0.667 GiB"},
    [C_ALLTOALL] = {.what = "alltoall on 2 GPUs",
                    .per = "GiB swept",
                    .transfer_s = 0.114,
                    .source = H200X2 ": 0.076 s over 0.667 GiB"},
    [C_BURN] = {.what = "burn: start, cuBLAS, drain (beside its seconds)",
                .per = "run",
                .fixed_s = 0.80,
                .source = "tests/fixtures/runs/ thorough-run.json: 60.80 s for a 60 s burn"},
    [C_SPEC] = {.what = "spec: each GPU against its datasheet",
                .per = "run",
                .fixed_s = 0.0002,
                .source = H200X1 ": 0.0001-0.0002 s"},
};

/* The window's cost in a figure: its GPUs read one after the other, READINGS_WAITED
   readings of them. */
static double window_s(const cost_t *k, int gpus, int pcie)
{
    return (k->short_figure ? READINGS_WAITED_SHORT : READINGS_WAITED) * gpus *
           (pcie ? READING_PCIE_S : READING_S);
}

/* A figure whose telemetry window holds `gpus` GPUs now: the measured fixed part less
   its window then, plus the window now. */
static double figure_s(int c, double samples_factor, int gpus)
{
    const cost_t *k = &costs[c];
    double rest = k->fixed_s - window_s(k, k->window_gpus, 1);
    return rest + (k->window_gpus ? window_s(k, gpus, k->pcie_now) : 0) +
           k->transfer_s * samples_factor;
}

static const char *const step_titles[LS_STEP_COUNT] = {
    [LS_STEP_INVENTORY] = "inventory and topology",
    [LS_STEP_P2P_CE] = "p2p ce, one way and both ways",
    [LS_STEP_CHECK] = "p2p ce: concurrent against alone",
    [LS_STEP_ALL_REDUCE] = "all_reduce",
    [LS_STEP_ALL_GATHER] = "all_gather",
    [LS_STEP_REDUCE_SCATTER] = "reduce_scatter",
    [LS_STEP_ALLTOALL] = "alltoall",
    [LS_STEP_HBM] = "hbm read, write, copy, copy_ce",
    [LS_STEP_HOST] = "host copies, pinned and pageable",
    [LS_STEP_P2P_SM] = "p2p sm_read, sm_write",
    [LS_STEP_P2P_STAGED] = "p2p staged through host",
    [LS_STEP_LATENCY] = "latency, every definition",
    [LS_STEP_FABRIC] = "fabric stress: all to all, one to all, all to one",
    [LS_STEP_GROUPS] = "nccl all_reduce on the plan's groups",
    [LS_STEP_BURN] = "burn",
    [LS_STEP_SPEC] = "spec",
    [LS_STEP_FAMILY] = "family",
    [LS_STEP_NODE_STATE] = "node state: NVML, sysfs, kernel log",
    [LS_STEP_NVLINK_WINDOW] = "NVLink error counters over the window",
    [LS_STEP_PROBE_P2P] = "probe: p2p ce each way, one size",
    [LS_STEP_PROBE_ALL_REDUCE] = "probe: all_reduce, one size",
    [LS_STEP_PROBE_HBM] = "probe: hbm copy, one size",
};

const char *ls_proj_step_title(int id)
{
    return id >= 0 && id < LS_STEP_COUNT ? step_titles[id] : "unknown";
}

/* A step of that id, under its title (name: a title of its own, NULL for the id's). */
static ls_proj_step_t *add_step(ls_projection_t *p, int id, const char *name, int figures,
                                int rounds)
{
    ls_proj_step_t *s = &p->steps[p->nsteps++];
    memset(s, 0, sizeof *s);
    s->id = id;
    snprintf(s->name, sizeof s->name, "%s", name ? name : ls_proj_step_title(id));
    s->figures = figures;
    s->rounds = rounds;
    s->cut_how = "half the samples";
    return s;
}

/* A step of `rounds` batches, each batch `per_round` figures one after another, each
   batch in a telemetry window of `gpus` GPUs. */
static void timed(ls_proj_step_t *s, int c, int per_round, double samples, int gpus)
{
    s->seconds = s->rounds * per_round * figure_s(c, samples, gpus);
    s->min_seconds = s->rounds * per_round * figure_s(c, 0.5, gpus);
}

static void never_cut(ls_proj_step_t *s, double seconds)
{
    s->seconds = s->min_seconds = seconds;
    s->cut_how = "never cut";
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

/* The GPUs of a pair round's telemetry window (one window per round, method and
   direction: measure/p2p_cuda.c), the rounds' mean. */
static int round_gpus(const ls_projection_t *p, int pairs)
{
    int r = p->pair_rounds > 0 ? p->pair_rounds : 1;
    return (2 * pairs + r - 1) / r;
}

static void pair_steps(ls_projection_t *p, int pairs, int classes, double samples)
{
    int r = p->pair_rounds;
    ls_proj_step_t *s = add_step(p, LS_STEP_P2P_CE, NULL, 3 * pairs, 3 * r);
    timed(s, C_P2P_CE, 1, samples, round_gpus(p, pairs));
    if (classes == 0)
        return;
    /* a pair alone per class, one way, the other way, both: never cut (it checks the
       figures just taken) */
    s = add_step(p, LS_STEP_CHECK, NULL, 3 * classes, 3 * classes);
    never_cut(s, 3 * classes * figure_s(C_P2P_CE, samples, 2));
}

/* GiB in the sizes min, min x factor, ... up to max (the harness's sweep). */
static double swept_gib(uint64_t min_b, uint64_t max_b, double factor)
{
    double sum = 0;
    for (double b = (double)min_b; b <= (double)max_b; b *= factor)
        sum += b;
    return sum / (double)(1ull << 30);
}

/* One collective's sweep on n GPUs: its fixed part and its transfer, the bus traffic per
   rank growing as 2(n-1)/n against the 2 GPUs it was measured on (the same ratio for
   all_reduce, 2(n-1)/n, and all_gather, reduce_scatter and alltoall, (n-1)/n). */
static double sweep_s(int c, int n, uint64_t min_b, uint64_t max_b, double factor)
{
    double scale = 2.0 * (n - 1) / n;
    return figure_s(C_NCCL_SWEEP, 0, n) +
           costs[c].transfer_s * scale * swept_gib(min_b, max_b, factor);
}

#define GIB (1ull << 30)

/* The four collectives on all GPUs (run.c collectives()): all_reduce 8 B - 8 GiB in
   factor-2 steps at both levels; the others to 512 MiB in factor-4 steps (quick) or to
   8 GiB in factor-2 steps (thorough). Cut down: to 1 GiB. The communicators are made
   once, for the first. */
static void collective_steps(ls_projection_t *p, int n, int thorough)
{
    /* the steps' ids and these rows in the same order */
    static const int cost_of[] = {C_ALL_REDUCE, C_ALL_GATHER, C_REDUCE_SCATTER, C_ALLTOALL};
    for (size_t i = 0; i < sizeof cost_of / sizeof cost_of[0]; i++) {
        char name[64];
        int id = LS_STEP_ALL_REDUCE + (int)i;
        snprintf(name, sizeof name, "nccl %s on %d GPUs", ls_proj_step_title(id), n);
        ls_proj_step_t *s = add_step(p, id, name, 1, 1);
        int big = i == 0 || thorough;
        uint64_t max_b = big ? 8 * GIB : GIB;
        double factor = big ? 2 : 4, init = i == 0 ? costs[C_NCCL_INIT].fixed_s : 0;
        s->seconds = init + sweep_s(cost_of[i], n, 8, max_b, factor);
        s->min_seconds = init + sweep_s(cost_of[i], n, 8, max_b > GIB ? GIB : max_b, factor);
        s->cut_how = "to 1 GiB, not 8 GiB";
    }
}

/* all_reduce on each GPU set the plan proposes below the whole machine (run.c
   groups()): one set for each size 2 .. n-1, each its own communicators, 1 MiB up in
   factor-4 steps to 1 GiB (quick) or 4 GiB (thorough, under its 8 GiB bound). */
static void group_step(ls_projection_t *p, int n, int thorough)
{
    if (n < 3)
        return;
    ls_proj_step_t *s = add_step(p, LS_STEP_GROUPS, NULL, n - 2, n - 2);
    for (int k = 2; k < n; k++) {
        double init = costs[C_NCCL_INIT].fixed_s;
        s->seconds += init + sweep_s(C_ALL_REDUCE, k, 1 << 20, thorough ? 8 * GIB : GIB, 4);
        s->min_seconds += init + sweep_s(C_ALL_REDUCE, k, 1 << 20, GIB, 4);
    }
    s->cut_how = "to 1 GiB";
}

static void per_gpu_steps(ls_projection_t *p, const int *numa, int n, double samples)
{
    ls_proj_step_t *s = add_step(p, LS_STEP_HBM, NULL, 4 * n, 4);
    timed(s, C_HBM, 1, samples, n); /* every GPU at once, one window */
    int batches = most_per_node(numa, n);
    s = add_step(p, LS_STEP_HOST, NULL, 6 * n, 6 * batches);
    s->seconds = batches * 3 *
                 (figure_s(C_HOST_PINNED, samples, 1) + figure_s(C_HOST_PAGEABLE, samples, 1));
    s->min_seconds = batches * 3 *
                     (figure_s(C_HOST_PINNED, 0.5, 1) + figure_s(C_HOST_PAGEABLE, 0.5, 1));
}

static void deep_steps(ls_projection_t *p, int n, int pairs, double samples)
{
    int r = p->pair_rounds;
    if (pairs == 0)
        return; /* one GPU: the run takes none of these (pair families, run.c) */
    ls_proj_step_t *s = add_step(p, LS_STEP_P2P_SM, NULL, 6 * pairs, 6 * r);
    timed(s, C_P2P_SM, 1, samples, round_gpus(p, pairs));
    s = add_step(p, LS_STEP_P2P_STAGED, NULL, 3 * pairs, 3 * r);
    timed(s, C_P2P_STAGED, 1, samples, round_gpus(p, pairs));
    /* 7 definitions per ordered pair (two directions a round), pointer chase to host
       per GPU */
    s = add_step(p, LS_STEP_LATENCY, NULL, 7 * 2 * pairs + n, 2 * 7 * r + n);
    timed(s, C_LATENCY, 1, samples, 2); /* a window per pair (per GPU to host: 1) */
}

/* Thorough only: the fabric stress step, all_to_all then one_to_all and all_to_one from
   each GPU, every pattern one timed figure. Not measured yet: a P2P copy-engine figure's
   cost stands in (docs/schedule.md). */
static void fabric_step(ls_projection_t *p, int n, double samples)
{
    if (n < 2)
        return;
    ls_proj_step_t *s = add_step(p, LS_STEP_FABRIC, NULL, 2 * n + 1, 2 * n + 1);
    timed(s, C_P2P_CE, 1, samples, n);
}

/* Thorough only: 60 s of sustained load on every GPU at once; cut down, 30 s. */
static void burn_step(ls_projection_t *p, int n)
{
    ls_proj_step_t *s = add_step(p, LS_STEP_BURN, NULL, n, 1);
    s->seconds = costs[C_BURN].fixed_s + 60.0;
    s->min_seconds = costs[C_BURN].fixed_s + 30.0;
    s->cut_how = "30 s of load, not 60";
}

/* A family's cost key (model/families.h, "cost") to its row. */
static const struct {
    const char *key;
    int row;
} cost_keys[] = {
    {.key = "p2p_ce", .row = C_P2P_CE},
    {.key = "p2p_sm", .row = C_P2P_SM},
    {.key = "p2p_staged", .row = C_P2P_STAGED},
    {.key = "latency", .row = C_LATENCY},
    {.key = "hbm", .row = C_HBM},
    {.key = "host_pinned", .row = C_HOST_PINNED},
    {.key = "host_pageable", .row = C_HOST_PAGEABLE},
    {.key = "nccl_sweep", .row = C_NCCL_SWEEP},
    {.key = "burn", .row = C_BURN},
};

int ls_proj_cost_row(const char *key)
{
    for (size_t i = 0; key && i < sizeof cost_keys / sizeof cost_keys[0]; i++)
        if (!strcmp(cost_keys[i].key, key))
            return cost_keys[i].row;
    return -1;
}

/* A family of the model that none of the steps above prices (own_steps 0: the run
   measures it as a step of its own, pipeline/run.c): every method on every ordered
   pair, in the pair rounds (a telemetry window over a round's GPUs), or on every GPU at
   once (one window), at its cost row's price. */
static void family_steps(ls_projection_t *p, int n, int pairs, double samples)
{
    for (int f = 0; ls_fams[f] && p->nsteps < LS_PROJ_MAX_STEPS - 1; f++) {
        const ls_fam_t *fam = ls_fams[f];
        int row = ls_proj_cost_row(fam->cost), methods = 0;
        if (fam->own_steps || row < 0 || (fam->per == LS_PER_PAIR && pairs == 0))
            continue;
        while (fam->methods[methods].word)
            methods++;
        methods = methods ? methods : 1;
        int pair = fam->per == LS_PER_PAIR;
        ls_proj_step_t *s = add_step(p, LS_STEP_FAMILY, fam->name, methods * (pair ? 2 * pairs : n),
                                     methods * (pair ? 2 * p->pair_rounds : 1));
        s->family = fam->name;
        timed(s, row, 1, samples,
              pair ? round_gpus(p, pairs) : n); /* a round's GPUs, or all at once */
    }
}

/* Cuts steps down from the last (what answers least) until the total fits. */
static void apply_budget(ls_projection_t *p)
{
    p->full_s = p->min_s = 0;
    for (int i = 0; i < p->nsteps; i++) {
        p->steps[i].full_seconds = p->steps[i].seconds;
        p->full_s += p->steps[i].seconds;
        p->min_s += p->steps[i].min_seconds;
    }
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

int ls_project_run(const ls_fabric_t *fabric, const int *numa, const ls_proj_opts_t *o,
                   ls_projection_t *p)
{
    memset(p, 0, sizeof *p);
    int n = fabric->n, pairs = n * (n - 1) / 2;
    double samples = o->thorough ? 2.0 : 1.0; /* 20 samples a figure against 10 */
    ls_schedule_t sched;
    if (ls_schedule_pairs(fabric, 0, &sched) != 0)
        return -1;
    p->ngpus = n;
    p->pair_rounds = sched.nrounds;
    p->budget_s = o->budget_s;
    int classes = checked_classes(fabric, &sched);
    ls_schedule_free(&sched);
    never_cut(add_step(p, LS_STEP_INVENTORY, NULL, 0, 1), costs[C_INVENTORY].fixed_s);
    if (pairs > 0)
        pair_steps(p, pairs, classes, samples);
    int nccl = n >= 2 && !o->no_nccl;
    if (nccl)
        collective_steps(p, n, o->thorough);
    per_gpu_steps(p, numa, n, samples);
    deep_steps(p, n, pairs, samples);
    family_steps(p, n, pairs, samples);
    if (o->thorough)
        fabric_step(p, n, samples);
    if (nccl)
        group_step(p, n, o->thorough);
    if (o->thorough)
        burn_step(p, n);
    never_cut(add_step(p, LS_STEP_SPEC, NULL, n, 1), costs[C_SPEC].fixed_s);
    apply_budget(p);
    return 0;
}

int ls_proj_step(const ls_projection_t *p, int id, const char *family)
{
    for (int i = 0; i < p->nsteps; i++)
        if (p->steps[i].id == id &&
            (id != LS_STEP_FAMILY ||
             (family && p->steps[i].family && strcmp(p->steps[i].family, family) == 0)))
            return i;
    return -1;
}

void ls_proj_refusal(const ls_projection_t *p, char *out, size_t len)
{
    int order[LS_PROJ_MAX_STEPS], k = 0;
    for (int i = 0; i < p->nsteps; i++)
        order[k++] = i;
    for (int i = 1; i < k; i++) /* largest minimum first */
        for (int j = i;
             j > 0 && p->steps[order[j]].min_seconds > p->steps[order[j - 1]].min_seconds; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    char largest[256] = "";
    for (int i = 0; i < 3 && i < k; i++) {
        size_t at = strlen(largest);
        snprintf(largest + at, sizeof largest - at, "%s%s %.0f s", i ? ", " : "",
                 p->steps[order[i]].name, p->steps[order[i]].min_seconds);
    }
    snprintf(out, len,
             "the %.0f s budget cannot hold the run of %d GPUs: cut down as far as it goes it "
             "projects %.0f s (largest: %s); give --budget %.0f or fewer GPUs (--gpus)",
             p->budget_s, p->ngpus, p->min_s, largest, (double)((long)p->min_s + 1));
}

void ls_proj_cost_rows(char *out, size_t len)
{
    size_t at = 0;
    out[0] = '\0';
    for (int c = 0; c < C_COUNT && at < len; c++) {
        const cost_t *k = &costs[c];
        int n = snprintf(out + at, len - at, "| %s | %s | %.3g | %.3g | %s |\n", k->what, k->per,
                         k->fixed_s, k->transfer_s, k->source);
        at += n > 0 ? (size_t)n : 0;
    }
}

/* linkscope health's projection (projection.h): the state checks, then the short probe
   at one size, by the same per-figure costs as a run. */
static void health_probe_steps(ls_projection_t *p, int n, int pairs)
{
    double samples = LS_HEALTH_PROBE_SAMPLES / 10.0; /* the costs are at 10 samples */
    ls_proj_step_t *s;
    if (pairs > 0) { /* a->b for every pair of a round at once, then b->a */
        s = add_step(p, LS_STEP_PROBE_P2P, NULL, 2 * pairs, 2 * p->pair_rounds);
        timed(s, C_P2P_CE, 1, samples, round_gpus(p, pairs));
    }
    if (n >= 2) {
        /* one size: the set's communicators, one sweep's fixed part and that size's
           transfer, the 2-GPU cost per GiB scaled by the ring's 2(n-1)/n */
        s = add_step(p, LS_STEP_PROBE_ALL_REDUCE, NULL, 1, 1);
        s->seconds = s->min_seconds = costs[C_NCCL_INIT].fixed_s + figure_s(C_NCCL_SWEEP, 0, n) +
                                      costs[C_ALL_REDUCE].transfer_s * 2.0 * (n - 1) / n *
                                          ((double)LS_HEALTH_PROBE_ALL_REDUCE_BYTES / (double)GIB);
    }
    s = add_step(p, LS_STEP_PROBE_HBM, NULL, n, 1); /* every GPU at once */
    timed(s, C_HBM, 1, samples, n);
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
    ls_proj_step_t *s = add_step(p, LS_STEP_NODE_STATE, NULL, 0, 1);
    s->seconds = s->min_seconds = costs[C_INVENTORY].fixed_s; /* the same readings */
    s = add_step(p, LS_STEP_NVLINK_WINDOW, NULL, 0, 1);
    s->seconds = s->min_seconds = window_s;
    health_probe_steps(p, n, pairs);
    apply_budget(p);
    return 0;
}
