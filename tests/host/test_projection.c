/* The run projection (issue 14): steps in answer order, figures and rounds from the
   scheduler, budget cuts from the last step back, never a step dropped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/projection.h"
#include "helpers.h"
#include "import/topo_text.h"
#include "util/fileio.h"

static void project_file(const char *name, int thorough, double budget, ls_projection_t *p)
{
    char err[256];
    size_t len;
    char *text = ls_read_file(ls_fixture(name), &len, err, sizeof err);
    assert_non_null(text);
    ls_topo_t *topo = calloc(1, sizeof *topo);
    assert_non_null(topo);
    assert_int_equal(ls_topo_parse_text(text, topo, err, sizeof err), 0);
    ls_fabric_t f;
    assert_int_equal(ls_fabric_from_topo(topo, &f), 0);
    int numa[LS_MAX_GPUS];
    for (int g = 0; g < topo->ngpus; g++)
        numa[g] = atoi(topo->numa_affinity[g]) * (topo->numa_affinity[g][0] ? 1 : 0) -
                  (topo->numa_affinity[g][0] ? 0 : 1);
    assert_int_equal(ls_project_run(&f, numa, thorough, budget, p), 0);
    ls_fabric_free(&f);
    free(topo);
    free(text);
}

static void print_projection(const char *what, const ls_projection_t *p)
{
    print_message("%s: %d GPUs, %d pair rounds, %.1f s (%.1f before cuts)\n", what, p->ngpus,
                  p->pair_rounds, p->total_s, p->full_s);
    for (int i = 0; i < p->nsteps; i++)
        print_message("  %-40s %5d figures %4d rounds %7.1f s%s\n", p->steps[i].name,
                      p->steps[i].figures, p->steps[i].rounds, p->steps[i].seconds,
                      p->steps[i].cut ? " (cut)" : "");
}

static int step_index(const ls_projection_t *p, const char *prefix)
{
    for (int i = 0; i < p->nsteps; i++)
        if (strncmp(p->steps[i].name, prefix, strlen(prefix)) == 0)
            return i;
    return -1;
}

/* Answers first: P2P copy engine, then the collectives, HBM and host, then the rest. */
static void test_order_and_counts(void **state)
{
    (void)state;
    ls_projection_t p;
    project_file("topo/hgx-h100x8-nic8.txt", 0, 0, &p);
    print_projection("HGX 8 x NV18, quick, no budget", &p);
    assert_int_equal(p.pair_rounds, 7);
    int ce = step_index(&p, "p2p ce"), nccl = step_index(&p, "nccl"),
        hbm = step_index(&p, "hbm"), host = step_index(&p, "host"),
        sm = step_index(&p, "p2p sm"), lat = step_index(&p, "latency");
    assert_true(ce == 1 && ce < nccl && nccl < hbm && hbm < host && host < sm && sm < lat);
    assert_int_equal(p.steps[ce].figures, 3 * 28);
    assert_int_equal(p.steps[ce].rounds, 3 * 7);
    assert_int_equal(p.steps[lat].figures, 7 * 2 * 28 + 8);
    assert_int_equal(p.steps[host].rounds, 6 * 4); /* 4 GPUs per NUMA node */
    assert_true(p.total_s == p.full_s && !p.over_budget);
}

/* A budget cuts from the last step back, and no step disappears. */
static void test_budget_cuts_down(void **state)
{
    (void)state;
    ls_projection_t full, cut;
    project_file("topo/hgx-h100x8-nic8.txt", 0, 0, &full);
    project_file("topo/hgx-h100x8-nic8.txt", 0, 100, &cut);
    print_projection("HGX 8 x NV18, quick, budget 100 s", &cut);
    assert_int_equal(cut.nsteps, full.nsteps);
    assert_true(cut.total_s < full.total_s);
    assert_true(cut.steps[cut.nsteps - 1].cut);
    assert_false(cut.steps[1].cut); /* P2P copy engine: the first answer, never cut first */
    for (int i = 0; i < cut.nsteps; i++)
        assert_true(cut.steps[i].seconds > 0);
    ls_projection_t tiny;
    project_file("topo/hgx-h100x8-nic8.txt", 0, 5, &tiny);
    assert_true(tiny.over_budget);
}

/* The other fixture topologies project, with their pair rounds. */
static void test_other_topologies(void **state)
{
    (void)state;
    ls_projection_t p;
    project_file("topo/dgx1-v100x8.txt", 0, 120, &p);
    print_projection("DGX-1 8 x V100, quick, budget 120 s", &p);
    assert_int_equal(p.pair_rounds, 12);
    project_file("topo/seed000-gv100x11.txt", 0, 120, &p);
    print_projection("seed 000, 11 GPUs, quick, budget 120 s", &p);
    assert_int_equal(p.pair_rounds, 35);
    project_file("topo/pcie-4gpu-2switch.txt", 0, 120, &p);
    print_projection("4 GPUs, 2 switches, quick, budget 120 s", &p);
    assert_int_equal(p.pair_rounds, 5);
    ls_fabric_t f;
    assert_int_equal(ls_fabric_uniform(72, LS_LINK_NV, &f), 0);
    assert_int_equal(ls_project_run(&f, NULL, 0, 0, &p), 0);
    print_projection("NVL72, quick, no budget", &p);
    assert_int_equal(p.pair_rounds, 71);
    ls_fabric_free(&f);
}

/* Issue 14's goal for the 8-GPU HGX board, from the measured cost table: the quick run
   projects 115.5 s with nothing cut (under the default 120 s budget: 114.0 s of steps
   and 1.5 s for the concurrency check); cut down to the bone (every step but the check
   at half its samples, the collectives to 1 GiB) it is 90.7 s, so a 90 s budget is not
   met even cut down, and no step is dropped. The full run under 90 s needs the fixed
   cost per figure cut and measured again (docs/schedule.md). */
static void test_hgx_goal(void **state)
{
    (void)state;
    ls_projection_t p, cut;
    project_file("topo/hgx-h100x8-nic8.txt", 0, 120, &p);
    print_projection("HGX quick, 120 s", &p);
    assert_true(p.total_s == p.full_s && p.total_s < 120 && !p.over_budget);
    /* P2P copy engine: 3 x 7 rounds of one figure at 0.371 s fixed + 0.130 s copying */
    assert_true(fabs(p.steps[1].seconds - 21 * (0.371 + 0.130)) < 1e-9);
    /* the check: one NV18 pair alone, 3 figures */
    assert_string_equal(p.steps[2].name, "p2p ce: concurrent against alone");
    assert_true(fabs(p.steps[2].seconds - 3 * (0.371 + 0.130)) < 1e-9);
    assert_true(p.total_s > 115 && p.total_s < 117);
    project_file("topo/hgx-h100x8-nic8.txt", 0, 90, &cut);
    print_projection("HGX quick, 90 s", &cut);
    assert_int_equal(cut.nsteps, p.nsteps);
    assert_true(cut.over_budget);
    assert_true(cut.total_s > 90 && cut.total_s < 92);
    for (int i = 1; i < cut.nsteps; i++)
        assert_true((i == 2 || cut.steps[i].cut) && cut.steps[i].seconds > 0);
    project_file("topo/hgx-h100x8-nic8.txt", 0, 91, &cut);
    assert_false(cut.over_budget);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_counts),
        cmocka_unit_test(test_budget_cuts_down),
        cmocka_unit_test(test_other_topologies),
        cmocka_unit_test(test_hgx_goal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
