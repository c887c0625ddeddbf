/* The pair scheduler (issue 14): on real and built topologies, rounds are disjoint,
   cover every pair exactly once, and pairs whose paths share a PCIe switch uplink, a
   root port or the socket interconnect are never in one round. The sharing is checked
   here from what each fixture's machine is (its switch groups written out below), not
   from the scheduler's own resource function. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/schedule.h"
#include "helpers.h"
#include "import/topo_text.h"
#include "util/fileio.h"

static ls_topo_t *load_topo(const char *name)
{
    char err[256];
    size_t len;
    char *text = ls_read_file(ls_fixture(name), &len, err, sizeof err);
    assert_non_null(text);
    ls_topo_t *topo = calloc(1, sizeof *topo);
    assert_non_null(topo);
    assert_int_equal(ls_topo_parse_text(text, topo, err, sizeof err), 0);
    free(text);
    return topo;
}

/* Every pair once; no GPU twice in a round. */
static void check_cover(const ls_schedule_t *s, int n)
{
    int *seen = calloc((size_t)n * n, sizeof *seen);
    assert_non_null(seen);
    for (int r = 0; r < s->nrounds; r++) {
        int used[1024] = {0};
        assert_true(s->rounds[r].npairs > 0);
        for (int i = 0; i < s->rounds[r].npairs; i++) {
            ls_pair_t p = s->rounds[r].pairs[i];
            assert_true(p.a >= 0 && p.a < p.b && p.b < n);
            assert_int_equal(used[p.a]++, 0);
            assert_int_equal(used[p.b]++, 0);
            seen[p.a * n + p.b]++;
        }
    }
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            assert_int_equal(seen[a * n + b], 1);
    free(seen);
}

/* switch_of[g]: the PCIe switch GPU g hangs from; socket_of[g] its socket. A pair that
   leaves its switch (not PIX, not NVLink) loads both switches' uplinks; one that
   leaves the socket loads the socket interconnect. No round may load one twice. */
static void check_no_sharing(const ls_schedule_t *s, const ls_fabric_t *f, const int *switch_of,
                             const int *socket_of)
{
    for (int r = 0; r < s->nrounds; r++) {
        int uplink[64] = {0}, smp = 0;
        for (int i = 0; i < s->rounds[r].npairs; i++) {
            ls_pair_t p = s->rounds[r].pairs[i];
            enum ls_link_type t = f->type[p.a * f->n + p.b];
            if (t == LS_LINK_NV || t == LS_LINK_PIX)
                continue;
            if (switch_of[p.a] != switch_of[p.b]) {
                assert_int_equal(uplink[switch_of[p.a]]++, 0);
                assert_int_equal(uplink[switch_of[p.b]]++, 0);
            }
            if (socket_of[p.a] != socket_of[p.b])
                assert_int_equal(smp++, 0);
        }
    }
}

static void test_hgx_nvswitch(void **state)
{
    (void)state;
    ls_topo_t *topo = load_topo("topo/hgx-h100x8-nic8.txt");
    ls_fabric_t f;
    ls_schedule_t s;
    assert_int_equal(ls_fabric_from_topo(topo, &f), 0);
    assert_int_equal(ls_schedule_pairs(&f, 0, &s), 0);
    check_cover(&s, 8);
    assert_int_equal(s.nrounds, 7); /* N-1 rounds of N/2 pairs: NVSwitch is non-blocking */
    for (int r = 0; r < s.nrounds; r++)
        assert_int_equal(s.rounds[r].npairs, 4);
    ls_schedule_free(&s);
    assert_int_equal(ls_schedule_pairs(&f, 1, &s), 0); /* serial fall-back */
    check_cover(&s, 8);
    assert_int_equal(s.nrounds, 28);
    ls_schedule_free(&s);
    ls_fabric_free(&f);
    free(topo);
}

/* DGX-1: NV1/NV2 cube mesh; pairs without NVLink cross the sockets (SYS): at most one
   of those per round, and the NVLink pairs fill the rounds around them. */
static void test_dgx1_cube_mesh(void **state)
{
    (void)state;
    ls_topo_t *topo = load_topo("topo/dgx1-v100x8.txt");
    ls_fabric_t f;
    ls_schedule_t s;
    assert_int_equal(ls_fabric_from_topo(topo, &f), 0);
    assert_int_equal(ls_schedule_pairs(&f, 0, &s), 0);
    check_cover(&s, 8);
    /* GPUs 0-3 socket 0, 4-7 socket 1; each GPU its own PCIe path (switch = itself) */
    int sw[8] = {0, 1, 2, 3, 4, 5, 6, 7}, sock[8] = {0, 0, 0, 0, 1, 1, 1, 1};
    check_no_sharing(&s, &f, sw, sock);
    print_message("%d GPUs: %d rounds\n", f.n, s.nrounds);
    /* 12 SYS pairs, one per round at most: at least 12 rounds, and no more than 12 +
       the 7 an all-NVLink machine would need */
    assert_true(s.nrounds >= 12 && s.nrounds <= 19);
    ls_schedule_free(&s);
    ls_fabric_free(&f);
    free(topo);
}

/* Seed 000: GPUs 0-4 under one switch, 5-9 under another (7-9 also NV4), 10 on the
   other socket; every cross-switch pair goes through the CPU (PHB) or the socket
   link (SYS). */
static void test_seed000_mixed_pcie(void **state)
{
    (void)state;
    ls_topo_t *topo = load_topo("topo/seed000-gv100x11.txt");
    ls_fabric_t f;
    ls_schedule_t s;
    assert_int_equal(ls_fabric_from_topo(topo, &f), 0);
    assert_int_equal(ls_schedule_pairs(&f, 0, &s), 0);
    check_cover(&s, 11);
    int sw[11] = {0, 0, 0, 0, 0, 5, 5, 5, 5, 5, 10};
    int sock[11] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    check_no_sharing(&s, &f, sw, sock);
    print_message("%d GPUs: %d rounds\n", f.n, s.nrounds);
    /* 25 PHB pairs between the two switches share both uplinks: one a round */
    assert_true(s.nrounds >= 25);
    assert_true(s.nrounds < 55); /* better than one pair at a time */
    ls_schedule_free(&s);
    ls_fabric_free(&f);
    free(topo);
}

/* 4 GPUs, two switches on two sockets (a real forum paste). */
static void test_pcie_two_switches(void **state)
{
    (void)state;
    ls_topo_t *topo = load_topo("topo/pcie-4gpu-2switch.txt");
    ls_fabric_t f;
    ls_schedule_t s;
    assert_int_equal(ls_fabric_from_topo(topo, &f), 0);
    assert_int_equal(ls_schedule_pairs(&f, 0, &s), 0);
    check_cover(&s, 4);
    int sw[4] = {0, 0, 2, 2}, sock[4] = {0, 0, 1, 1};
    check_no_sharing(&s, &f, sw, sock);
    print_message("%d GPUs: %d rounds\n", f.n, s.nrounds);
    /* 0-1 and 2-3 (PIX) together; the 4 SYS pairs one a round */
    assert_int_equal(s.nrounds, 5);
    ls_schedule_free(&s);
    ls_fabric_free(&f);
    free(topo);
}

/* NVL72: 72 GPUs in one NVLink domain: 71 rounds of 36 pairs. */
static void test_nvl72(void **state)
{
    (void)state;
    ls_fabric_t f;
    ls_schedule_t s;
    assert_int_equal(ls_fabric_uniform(72, LS_LINK_NV, &f), 0);
    assert_int_equal(ls_schedule_pairs(&f, 0, &s), 0);
    check_cover(&s, 72);
    assert_int_equal(s.nrounds, 71);
    for (int r = 0; r < s.nrounds; r++)
        assert_int_equal(s.rounds[r].npairs, 36);
    ls_schedule_free(&s);
    ls_fabric_free(&f);
}

/* Odd counts and unknown links: 5 NVLink GPUs take 5 rounds of 2; an unknown topology
   runs every pair alone. */
static void test_odd_and_unknown(void **state)
{
    (void)state;
    ls_fabric_t f;
    ls_schedule_t s;
    assert_int_equal(ls_fabric_uniform(5, LS_LINK_NV, &f), 0);
    assert_int_equal(ls_schedule_pairs(&f, 0, &s), 0);
    check_cover(&s, 5);
    assert_int_equal(s.nrounds, 5);
    ls_schedule_free(&s);
    ls_fabric_free(&f);
    assert_int_equal(ls_fabric_uniform(6, LS_LINK_NONE, &f), 0);
    assert_int_equal(ls_schedule_pairs(&f, 0, &s), 0);
    check_cover(&s, 6);
    assert_int_equal(s.nrounds, 15);
    ls_schedule_free(&s);
    ls_fabric_free(&f);
    assert_int_equal(ls_fabric_uniform(1, LS_LINK_NV, &f), 0);
    assert_int_equal(ls_schedule_pairs(&f, 0, &s), 0);
    assert_int_equal(s.nrounds, 0);
    ls_schedule_free(&s);
    ls_fabric_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hgx_nvswitch),
        cmocka_unit_test(test_dgx1_cube_mesh),
        cmocka_unit_test(test_seed000_mixed_pcie),
        cmocka_unit_test(test_pcie_two_switches),
        cmocka_unit_test(test_nvl72),
        cmocka_unit_test(test_odd_and_unknown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
