/* The run projection (issue 14): steps in answer order, figures and rounds from the
   scheduler, budget cuts from the last step back, never a step dropped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/projection.h"
#include "helpers.h"
#include "import/topo_text.h"
#include "util/fileio.h"

/* The machine of a fixture (nvidia-smi topo -m text or a run document), as run --dry-run
   --from plans it: NUMA node from the topology's word ("0"; "N/A" unknown, -1). */
static void project_file(const char *name, int thorough, double budget, ls_projection_t *p)
{
    char err[256];
    ls_topo_t *topo = calloc(1, sizeof *topo);
    assert_non_null(topo);
    json_t *doc = ls_topo_load_files(ls_fixture(name), NULL, NULL, topo, err, sizeof err);
    if (!doc)
        fail_msg("%s", err);
    ls_fabric_t f;
    assert_int_equal(ls_fabric_from_topo(topo, &f), 0);
    int numa[LS_MAX_GPUS];
    for (int g = 0; g < topo->ngpus; g++) {
        char *end;
        long v = strtol(topo->numa_affinity[g], &end, 10);
        numa[g] = end != topo->numa_affinity[g] && *end == '\0' && v >= 0 ? (int)v : -1;
    }
    ls_proj_opts_t o = {.thorough = thorough, .budget_s = budget};
    assert_int_equal(ls_project_run(&f, numa, &o, p), 0);
    ls_fabric_free(&f);
    json_decref(doc);
    free(topo);
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
    int ce = step_index(&p, "p2p ce"), nccl = step_index(&p, "nccl"), hbm = step_index(&p, "hbm"),
        host = step_index(&p, "host"), sm = step_index(&p, "p2p sm"),
        lat = step_index(&p, "latency");
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
    project_file("topo/hgx-h100x8-nic8.txt", 0, 90, &cut);
    print_projection("HGX 8 x NV18, quick, budget 90 s", &cut);
    assert_int_equal(cut.nsteps, full.nsteps);
    assert_true(cut.total_s < full.total_s);
    int last = cut.nsteps - 1; /* the last step a cut can shorten: cut first */
    while (last > 0 && cut.steps[last].min_seconds >= full.steps[last].seconds)
        last--;
    assert_true(cut.steps[last].cut);
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
    ls_proj_opts_t o = {0};
    assert_int_equal(ls_project_run(&f, NULL, &o, &p), 0);
    print_projection("NVL72, quick, no budget", &p);
    assert_int_equal(p.pair_rounds, 71);
    ls_fabric_free(&f);
}

/* The 8-GPU HGX board at the quick level, from the cost table: each step is its figures
   times the measured cost of one; the communicators are made once per GPU set (the
   first collective of the whole set pays them, the others not; each group of the plan
   pays its own). docs/schedule.md states what it comes to (issue 26's goal of 90 s with
   nothing cut is not met by the measured costs). */
static void test_hgx_from_the_cost_table(void **state)
{
    (void)state;
    ls_projection_t p;
    project_file("topo/hgx-h100x8-nic8.txt", 0, 0, &p);
    print_projection("HGX quick, no budget", &p);
    /* P2P copy engine: 3 x 7 rounds of one figure at 0.371 s fixed + 0.130 s copying,
       the fixed part measured with a telemetry window of 2 GPUs whose readings queried
       the PCIe throughput (0.89 readings of 43.6 ms a GPU waited), now a window of the
       round's 8 GPUs without it (2.15 ms a GPU) */
    double rest = 0.371 - 0.89 * 2 * 0.0436;
    assert_true(fabs(p.steps[1].seconds - 21 * (rest + 0.89 * 8 * 0.00215 + 0.130)) < 1e-9);
    /* the check: one NV18 pair alone, 3 figures, a window of its 2 GPUs */
    assert_string_equal(p.steps[2].name, "p2p ce: concurrent against alone");
    assert_true(fabs(p.steps[2].seconds - 3 * (rest + 0.89 * 2 * 0.00215 + 0.130)) < 1e-9);
    int ar = step_index(&p, "nccl all_reduce on 8 GPUs"),
        ag = step_index(&p, "nccl all_gather on 8"),
        rs = step_index(&p, "nccl reduce_scatter on 8"), a2a = step_index(&p, "nccl alltoall on 8"),
        groups = step_index(&p, "nccl all_reduce on the plan's groups");
    assert_true(ar > 2 && ag == ar + 1 && rs == ag + 1 && a2a == rs + 1 && groups > a2a);
    /* all_gather, reduce_scatter, alltoall: 8 B - 512 MiB in x4 steps, 0.667 GiB swept,
       x 1.75 the bus traffic of 2 GPUs, beside a sweep's 0.31 s (its window then 2 GPUs
       with the PCIe query, now 8 without): no communicator init */
    double sweep = 0.31 - 0.89 * 2 * 0.0436 + 0.89 * 8 * 0.00215;
    double swept = 0;
    for (double b = 8; b <= 1 << 30; b *= 4)
        swept += b;
    swept /= 1 << 30;
    assert_true(fabs(p.steps[ag].seconds - (sweep + 0.122 * 1.75 * swept)) < 1e-9);
    /* all_reduce: 8 B - 8 GiB in x2 steps (16 GiB swept) and the set's communicators */
    assert_true(fabs(p.steps[ar].seconds - (0.74 + sweep + 0.165 * 1.75 * 16.0)) < 1e-6);
    /* the plan's groups of 2 .. 7 GPUs: six sets, each its communicators once */
    assert_int_equal(p.steps[groups].figures, 6);
    assert_true(p.steps[groups].seconds > 6 * (0.74 + 0.31 - 0.89 * 2 * 0.0436));
    assert_true(p.full_s == p.total_s && p.min_s < p.full_s);
}

/* Every step the run takes: burn at thorough (60 s and its fixed part; cut down 30 s),
   the spec check at every level (never cut), no collective without NCCL or one GPU. */
static void test_every_step(void **state)
{
    (void)state;
    ls_fabric_t one;
    assert_int_equal(ls_fabric_uniform(1, LS_LINK_NV, &one), 0);
    ls_projection_t p;
    ls_proj_opts_t o = {.thorough = 1};
    assert_int_equal(ls_project_run(&one, NULL, &o, &p), 0);
    print_projection("1 GPU, thorough", &p);
    int burn = ls_proj_step(&p, LS_STEP_BURN, NULL), spec = ls_proj_step(&p, LS_STEP_SPEC, NULL);
    assert_true(burn > 0 && spec == burn + 1 && spec == p.nsteps - 1);
    assert_true(p.steps[burn].seconds > 60 && p.steps[burn].min_seconds < 31);
    assert_true(p.steps[spec].seconds == p.steps[spec].min_seconds);
    assert_int_equal(ls_proj_step(&p, LS_STEP_ALL_REDUCE, NULL), -1);
    assert_int_equal(ls_proj_step(&p, LS_STEP_GROUPS, NULL), -1);
    /* thorough: burn is the first step a budget cuts */
    o.budget_s = p.full_s - 1;
    assert_int_equal(ls_project_run(&one, NULL, &o, &p), 0);
    assert_true(p.steps[ls_proj_step(&p, LS_STEP_BURN, NULL)].cut &&
                !p.steps[ls_proj_step(&p, LS_STEP_HOST, NULL)].cut);
    o = (ls_proj_opts_t){.thorough = 0};
    assert_int_equal(ls_project_run(&one, NULL, &o, &p), 0);
    assert_int_equal(ls_proj_step(&p, LS_STEP_BURN, NULL), -1);
    assert_true(ls_proj_step(&p, LS_STEP_SPEC, NULL) > 0);
    ls_fabric_free(&one);
    project_file("topo/hgx-h100x8-nic8.txt", 1, 0, &p);
    assert_true(ls_proj_step(&p, LS_STEP_FABRIC, NULL) > 0 &&
                ls_proj_step(&p, LS_STEP_BURN, NULL) > ls_proj_step(&p, LS_STEP_FABRIC, NULL));
    ls_fabric_t f;
    assert_int_equal(ls_fabric_uniform(8, LS_LINK_NV, &f), 0);
    o = (ls_proj_opts_t){.no_nccl = 1};
    assert_int_equal(ls_project_run(&f, NULL, &o, &p), 0);
    assert_int_equal(ls_proj_step(&p, LS_STEP_ALL_REDUCE, NULL), -1);
    assert_int_equal(ls_proj_step(&p, LS_STEP_GROUPS, NULL), -1);
    ls_fabric_free(&f);
}

/* The budget is a hard cap: any budget at or above the minimum is met by the cuts; below
   it the projection says it cannot fit (the run then refuses, exit 4), with a line that
   names the minimum and the largest steps. The 11-GPU GV100 seed at 60 s. */
static void test_budget_is_a_cap(void **state)
{
    (void)state;
    static const char *const files[] = {"topo/hgx-h100x8-nic8.txt", "topo/dgx1-v100x8.txt",
                                        "topo/seed000-gv100x11.txt", "topo/pcie-4gpu-2switch.txt"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        for (int thorough = 0; thorough < 2; thorough++) {
            ls_projection_t free_run, p;
            project_file(files[i], thorough, 0, &free_run);
            for (double b = 10; b < free_run.full_s + 20; b += 7) {
                project_file(files[i], thorough, b, &p);
                assert_true(p.over_budget == (free_run.min_s > b));
                if (!p.over_budget)
                    assert_true(p.total_s <= b);
            }
        }
    ls_projection_t p;
    project_file("topo/seed000-gv100x11.txt", 0, 60, &p);
    print_projection("seed 000, 11 GPUs, quick, budget 60 s", &p);
    assert_true(p.over_budget && p.min_s > 60);
    char line[640];
    ls_proj_refusal(&p, line, sizeof line);
    print_message("%s\n", line);
    assert_non_null(strstr(line, "the 60 s budget cannot hold the run of 11 GPUs"));
    assert_non_null(strstr(line, "latency, every definition"));
    char want[64];
    snprintf(want, sizeof want, "give --budget %.0f", (double)((long)p.min_s + 1));
    assert_non_null(strstr(line, want));
}

/* ---- docs/schedule.md's tables, from this code --------------------------------------- */

#define DOC_BEGIN                                                                                  \
    "<!-- generated by tests/host/test_projection.c (LS_UPDATE_DOCS=1 rewrites it): begin -->\n"
#define DOC_END "<!-- generated: end -->\n"

static void cat(char *out, size_t len, const char *fmt, ...)
{
    size_t at = strlen(out);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out + at, len - at, fmt, ap);
    va_end(ap);
}

/* "122.0 s" with nothing cut; "fits: 118.1 s, 4 steps cut down"; "over: 398.3 s cut down" */
static void budget_cell(char *out, size_t len, const ls_projection_t *p)
{
    int cut = 0;
    for (int i = 0; i < p->nsteps; i++)
        cut += p->steps[i].cut;
    if (p->over_budget)
        snprintf(out, len, "over: %.1f s cut down (exit 4)", p->min_s);
    else if (cut)
        snprintf(out, len, "fits: %.1f s, %d step%s cut down", p->total_s, cut,
                 cut == 1 ? "" : "s");
    else
        snprintf(out, len, "fits: %.1f s, nothing cut", p->total_s);
}

static void projects_row(char *out, size_t len, const char *label, const ls_projection_t *q,
                         const ls_projection_t *qb, const ls_projection_t *t,
                         const ls_projection_t *tb)
{
    char c1[96], c2[96];
    budget_cell(c1, sizeof c1, qb);
    budget_cell(c2, sizeof c2, tb);
    cat(out, len, "| %s | %d | %d | %.1f s | %s | %.1f s | %s |\n", label, q->ngpus, q->pair_rounds,
        q->full_s, c1, t->full_s, c2);
}

static void generated_tables(char *out, size_t len)
{
    out[0] = '\0';
    cat(out, len, "%s", DOC_BEGIN);
    cat(out, len,
        "\n| cost | paid once per | fixed s | transfer s (10 samples, or per GiB swept) | "
        "measured in |\n| --- | --- | --- | --- | --- |\n");
    char rows[8192];
    ls_proj_cost_rows(rows, sizeof rows);
    cat(out, len, "%s", rows);
    cat(out, len,
        "\n| machine | GPUs | pair rounds | quick | quick, budget 120 s | thorough | "
        "thorough, budget 600 s |\n| --- | --- | --- | --- | --- | --- | --- |\n");
    static const struct {
        const char *label, *file;
    } machines[] = {{"HGX 8 x NV18 (`topo/hgx-h100x8-nic8.txt`)", "topo/hgx-h100x8-nic8.txt"},
                    {"DGX-1 8 x V100 (`topo/dgx1-v100x8.txt`)", "topo/dgx1-v100x8.txt"},
                    {"seed 000, 11 x GV100 (`topo/seed000-gv100x11.txt`)",
                     "topo/seed000-gv100x11.txt"},
                    {"4 GPUs, 2 switches (`topo/pcie-4gpu-2switch.txt`)",
                     "topo/pcie-4gpu-2switch.txt"},
                    {"2 x H200 (`examples/h200x2-run.json`)", "../../examples/h200x2-run.json"}};
    ls_projection_t q, qb, t, tb;
    for (size_t i = 0; i < sizeof machines / sizeof machines[0]; i++) {
        project_file(machines[i].file, 0, 0, &q);
        project_file(machines[i].file, 0, 120, &qb);
        project_file(machines[i].file, 1, 0, &t);
        project_file(machines[i].file, 1, 600, &tb);
        projects_row(out, len, machines[i].label, &q, &qb, &t, &tb);
    }
    ls_fabric_t f;
    assert_int_equal(ls_fabric_uniform(72, LS_LINK_NV, &f), 0);
    ls_proj_opts_t o = {0};
    ls_project_run(&f, NULL, &o, &q);
    o.budget_s = 120;
    ls_project_run(&f, NULL, &o, &qb);
    o = (ls_proj_opts_t){.thorough = 1};
    ls_project_run(&f, NULL, &o, &t);
    o.budget_s = 600;
    ls_project_run(&f, NULL, &o, &tb);
    projects_row(out, len, "NVL72 (built: 72 GPUs, one NVLink domain)", &q, &qb, &t, &tb);
    ls_fabric_free(&f);
    cat(out, len, "\n%s", DOC_END);
}

/* docs/schedule.md's cost and projection tables are this code's (issue 26: they had
   drifted by 1 s in 4 of 5 rows). LS_UPDATE_DOCS=1 rewrites them. */
static void test_schedule_doc_matches(void **state)
{
    (void)state;
    static char want[32768];
    generated_tables(want, sizeof want);
    const char *path = ls_fixture("../../docs/schedule.md");
    char err[256];
    size_t len;
    char *doc = ls_read_file(path, &len, err, sizeof err);
    assert_non_null(doc);
    char *begin = strstr(doc, DOC_BEGIN), *end = begin ? strstr(begin, DOC_END) : NULL;
    if (!begin || !end)
        fail_msg("%s: no generated block (%s ... %s)", path, DOC_BEGIN, DOC_END);
    end += strlen(DOC_END);
    const char *update = getenv("LS_UPDATE_DOCS");
    if (update && !strcmp(update, "1")) {
        FILE *out = fopen(path, "w");
        assert_non_null(out);
        fprintf(out, "%.*s%s%s", (int)(begin - doc), doc, want, end);
        fclose(out);
    } else if ((size_t)(end - begin) != strlen(want) || strncmp(begin, want, strlen(want)) != 0) {
        print_message("expected:\n%s", want);
        fail_msg("docs/schedule.md's tables differ from the code: LS_UPDATE_DOCS=1 "
                 "build-test/tests/test_projection");
    }
    free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_counts),     cmocka_unit_test(test_budget_cuts_down),
        cmocka_unit_test(test_other_topologies),     cmocka_unit_test(test_hgx_from_the_cost_table),
        cmocka_unit_test(test_every_step),           cmocka_unit_test(test_budget_is_a_cap),
        cmocka_unit_test(test_schedule_doc_matches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
