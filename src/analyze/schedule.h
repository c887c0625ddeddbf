/* Rounds of disjoint GPU pairs: which pairs can be measured at the same time without
   sharing a link, so that an N-GPU machine's pairwise figures take about N-1 rounds
   instead of N(N-1)/2 one-at-a-time measurements. Pure: topology in, rounds out
   (docs/schedule.md). */
#ifndef LS_ANALYZE_SCHEDULE_H
#define LS_ANALYZE_SCHEDULE_H

#include "model/topo.h"

/* The link type of every GPU pair, for any number of GPUs (a rack is wider than one
   topology matrix). type[a * n + b]. */
typedef struct {
    int n;
    enum ls_link_type *type;
    int *pix_group;     /* per GPU: lowest GPU joined through PIX links (one PCIe switch) */
    int *complex_group; /* per GPU: lowest GPU joined through PIX/PXB (a switch tree) */
} ls_fabric_t;

/* A GPU pair; a < b. One round measures each of its pairs a->b, then b->a, then both
   ways at once, all pairs of the round together. */
typedef struct {
    int a, b;
} ls_pair_t;

typedef struct {
    int npairs;
    ls_pair_t *pairs;
} ls_round_t;

typedef struct {
    int nrounds;
    ls_round_t *rounds;
} ls_schedule_t;

/* From a topology (ngpus GPUs). Returns 0, -1 when out of memory. */
int ls_fabric_from_topo(const ls_topo_t *topo, ls_fabric_t *f);
/* n GPUs, every pair joined by the same link type (an NVSwitch domain: NVL72). */
int ls_fabric_uniform(int n, enum ls_link_type type, ls_fabric_t *f);
void ls_fabric_free(ls_fabric_t *f);

/* The shared resources a pair's path uses, as small integers (at most LS_PATH_MAX_RES):
   PCIe switch uplinks, root ports, the SMP interconnect. Two pairs of one round may not
   share one. Returns the count. */
#define LS_PATH_MAX_RES 6
int ls_path_resources(const ls_fabric_t *f, int a, int b, int res[LS_PATH_MAX_RES]);

/* Every pair exactly once, in rounds where no GPU appears twice and no two pairs share
   a path resource. serial = 1: one pair a round (the fall-back when concurrent figures
   were found lower than alone). Returns 0, -1 out of memory. */
int ls_schedule_pairs(const ls_fabric_t *f, int serial, ls_schedule_t *s);
void ls_schedule_free(ls_schedule_t *s);

/* 1 when two pairs may run together: no GPU in common, no shared resource. */
int ls_pairs_compatible(const ls_fabric_t *f, ls_pair_t p, ls_pair_t q);

#endif
