/* Rounds of disjoint GPU pairs (docs/schedule.md).

   A round is a set of pairs measured at once. Two pairs may share a round when they
   have no GPU in common and their paths share no link that either could saturate:
   - NVLink (NV#): the pair's own links, or an NVSwitch, which is non-blocking (every
     GPU's links reach every other at full rate): no shared resource;
   - PIX: both GPUs under one PCIe switch, switched inside it: no shared resource;
   - PXB: through a switch tree: each GPU's switch uplink;
   - PHB / NODE: up to the CPU: each switch uplink and each switch tree's root port;
   - SYS: as PHB, plus the SMP interconnect between the sockets (one for the machine);
   - unknown link: everything (the pair runs alone).
   Resources are taken undirected: a one-way copy uses an uplink in one direction only,
   but the bidirectional measurement of the same round uses both. */
#include "analyze/schedule.h"

#include <stdlib.h>
#include <string.h>

static int find(int *parent, int g)
{
    while (parent[g] != g)
        g = parent[g] = parent[parent[g]];
    return g;
}

/* Groups GPUs joined by links of type <= max_type among PIX..NODE; the group id is the
   lowest GPU index of the group. */
static void group_by(const ls_fabric_t *f, enum ls_link_type max_type, int *group)
{
    for (int g = 0; g < f->n; g++)
        group[g] = g;
    for (int a = 0; a < f->n; a++)
        for (int b = a + 1; b < f->n; b++) {
            enum ls_link_type t = f->type[a * f->n + b];
            if (t >= LS_LINK_PIX && t <= max_type) {
                int ra = find(group, a), rb = find(group, b);
                if (ra != rb)
                    group[ra > rb ? ra : rb] = ra < rb ? ra : rb;
            }
        }
    for (int g = 0; g < f->n; g++)
        group[g] = find(group, g);
}

static int fabric_alloc(int n, ls_fabric_t *f)
{
    memset(f, 0, sizeof *f);
    f->n = n;
    f->type = calloc((size_t)n * n, sizeof *f->type);
    f->pix_group = calloc(n, sizeof *f->pix_group);
    f->complex_group = calloc(n, sizeof *f->complex_group);
    if (!f->type || !f->pix_group || !f->complex_group) {
        ls_fabric_free(f);
        return -1;
    }
    return 0;
}

static void fabric_groups(ls_fabric_t *f)
{
    group_by(f, LS_LINK_PIX, f->pix_group);
    group_by(f, LS_LINK_PXB, f->complex_group);
}

int ls_fabric_from_topo(const ls_topo_t *topo, ls_fabric_t *f)
{
    if (fabric_alloc(topo->ngpus, f) != 0)
        return -1;
    for (int a = 0; a < f->n; a++)
        for (int b = 0; b < f->n; b++)
            f->type[a * f->n + b] = a == b ? LS_LINK_X : topo->gpu_gpu[a][b].type;
    fabric_groups(f);
    return 0;
}

int ls_fabric_uniform(int n, enum ls_link_type type, ls_fabric_t *f)
{
    if (fabric_alloc(n, f) != 0)
        return -1;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            f->type[a * n + b] = a == b ? LS_LINK_X : type;
    fabric_groups(f);
    return 0;
}

void ls_fabric_free(ls_fabric_t *f)
{
    free(f->type);
    free(f->pix_group);
    free(f->complex_group);
    memset(f, 0, sizeof *f);
}

int ls_path_resources(const ls_fabric_t *f, int a, int b, int res[LS_PATH_MAX_RES])
{
    int n = f->n, k = 0;
    enum ls_link_type t = f->type[a * n + b];
    if (t == LS_LINK_NONE) { /* unknown path: it may share anything */
        res[k++] = 3 * n;
        return k;
    }
    if (t <= LS_LINK_PIX) /* X, NV#, PIX */
        return 0;
    res[k++] = f->pix_group[a]; /* switch uplinks: 0 .. n-1 */
    res[k++] = f->pix_group[b];
    if (t >= LS_LINK_PHB) { /* root ports of the switch trees: n .. 2n-1 */
        res[k++] = n + f->complex_group[a];
        res[k++] = n + f->complex_group[b];
    }
    if (t == LS_LINK_SYS) /* the SMP interconnect (QPI/UPI/xGMI) */
        res[k++] = 2 * n;
    return k;
}

static int shares(const int *r, int nr, const int *q, int nq)
{
    for (int i = 0; i < nr; i++)
        for (int j = 0; j < nq; j++)
            if (r[i] == q[j])
                return 1;
    return 0;
}

int ls_pairs_compatible(const ls_fabric_t *f, ls_pair_t p, ls_pair_t q)
{
    if (p.a == q.a || p.a == q.b || p.b == q.a || p.b == q.b)
        return 0;
    int rp[LS_PATH_MAX_RES], rq[LS_PATH_MAX_RES];
    int np = ls_path_resources(f, p.a, p.b, rp), nq = ls_path_resources(f, q.a, q.b, rq);
    return !shares(rp, np, rq, nq);
}

/* Rounds are built into a flat pair array (every pair once) with each pair's round, and
   per round which GPUs and resources it already uses (width: n GPUs + 3n + 1 ids). */
typedef struct {
    ls_pair_t *pair;
    int *round_of;
    unsigned char *used; /* nrounds_max x width */
    int npairs, nrounds, width;
} builder_t;

static unsigned char *round_use(const builder_t *b, int r)
{
    return b->used + (size_t)r * b->width;
}

static int fits(const ls_fabric_t *f, const builder_t *b, ls_pair_t p, int r)
{
    const unsigned char *u = round_use(b, r);
    if (u[p.a] || u[p.b])
        return 0;
    int res[LS_PATH_MAX_RES], k = ls_path_resources(f, p.a, p.b, res);
    for (int i = 0; i < k; i++)
        if (u[f->n + res[i]])
            return 0;
    return 1;
}

static void mark(const ls_fabric_t *f, builder_t *b, ls_pair_t p, int r, unsigned char v)
{
    unsigned char *u = round_use(b, r);
    u[p.a] = u[p.b] = v;
    int res[LS_PATH_MAX_RES], k = ls_path_resources(f, p.a, p.b, res);
    for (int i = 0; i < k; i++)
        u[f->n + res[i]] = v;
}

/* First round (from `first`) where p fits; a new round when none. */
static void place(const ls_fabric_t *f, builder_t *b, int serial, ls_pair_t p, int first)
{
    int r = serial ? b->nrounds : first;
    while (r < b->nrounds && !fits(f, b, p, r))
        r++;
    b->pair[b->npairs] = p;
    b->round_of[b->npairs++] = r;
    mark(f, b, p, r, 1);
    if (r >= b->nrounds)
        b->nrounds = r + 1;
}

/* Moves pairs of later rounds into earlier ones where they fit (conflicts split circle
   rounds into part-filled ones), then drops the rounds left empty. */
static void compact(const ls_fabric_t *f, builder_t *b)
{
    for (int i = 0; i < b->npairs; i++) {
        int from = b->round_of[i];
        for (int r = 0; r < from; r++)
            if (fits(f, b, b->pair[i], r)) {
                mark(f, b, b->pair[i], from, 0);
                mark(f, b, b->pair[i], r, 1);
                b->round_of[i] = r;
                break;
            }
    }
    int *renum = calloc(b->nrounds ? b->nrounds : 1, sizeof *renum), k = 0;
    if (!renum)
        return; /* rounds stay valid, only some empty */
    for (int i = 0; i < b->npairs; i++)
        renum[b->round_of[i]] = 1;
    for (int r = 0; r < b->nrounds; r++)
        renum[r] = renum[r] ? k++ : -1;
    for (int i = 0; i < b->npairs; i++)
        b->round_of[i] = renum[b->round_of[i]];
    b->nrounds = k;
    free(renum);
}

/* The circle method: with an even count m (a dummy added for odd n), round r pairs
   position 0 with r+1 and the others symmetrically around it; m-1 rounds hold every
   pair once and no GPU twice. Each circle round starts a fresh group of rounds so that
   a conflict-free fabric gets exactly m-1 rounds. */
static void circle_rounds(const ls_fabric_t *f, builder_t *b, int serial)
{
    int n = f->n, m = n + (n & 1);
    for (int r = 0; r < m - 1; r++) {
        int base = b->nrounds;
        for (int i = 0; i < m / 2; i++) {
            int x = i == 0 ? m - 1 : (r + i) % (m - 1);
            int y = (r + m - 1 - i) % (m - 1);
            if (x >= n || y >= n)
                continue; /* the dummy GPU of an odd count */
            ls_pair_t p = {x < y ? x : y, x < y ? y : x};
            place(f, b, serial, p, base);
        }
    }
}

static int compare_pairs(const void *x, const void *y)
{
    const int *p = x, *q = y; /* round, then a, then b */
    for (int i = 0; i < 3; i++)
        if (p[i] != q[i])
            return p[i] < q[i] ? -1 : 1;
    return 0;
}

/* Rounds that hold pairs again from the builder, with pairs ordered by (a, b). */
static int to_schedule(const builder_t *b, ls_schedule_t *s)
{
    int(*key)[3] = malloc(sizeof *key * (b->npairs ? b->npairs : 1));
    s->rounds = calloc(b->nrounds ? b->nrounds : 1, sizeof *s->rounds);
    if (!key || !s->rounds) {
        free(key);
        return -1;
    }
    for (int i = 0; i < b->npairs; i++) {
        key[i][0] = b->round_of[i];
        key[i][1] = b->pair[i].a;
        key[i][2] = b->pair[i].b;
    }
    qsort(key, b->npairs, sizeof *key, compare_pairs);
    s->nrounds = b->nrounds;
    for (int i = 0; i < b->npairs; i++) {
        ls_round_t *r = &s->rounds[key[i][0]];
        if (!r->pairs && !(r->pairs = calloc(b->npairs, sizeof *r->pairs)))
            return free(key), -1;
        r->pairs[r->npairs++] = (ls_pair_t){key[i][1], key[i][2]};
    }
    free(key);
    return 0;
}

int ls_schedule_pairs(const ls_fabric_t *f, int serial, ls_schedule_t *s)
{
    memset(s, 0, sizeof *s);
    size_t total = f->n > 1 ? (size_t)f->n * (f->n - 1) / 2 : 1;
    builder_t b = {malloc(total * sizeof *b.pair),
                   malloc(total * sizeof *b.round_of),
                   NULL,
                   0,
                   0,
                   4 * f->n + 1};
    b.used = calloc(total, (size_t)b.width);
    int rc = -1;
    if (b.pair && b.round_of && b.used) {
        circle_rounds(f, &b, serial);
        if (!serial)
            compact(f, &b);
        rc = to_schedule(&b, s);
    }
    free(b.pair);
    free(b.round_of);
    free(b.used);
    if (rc != 0)
        ls_schedule_free(s);
    return rc;
}

void ls_schedule_free(ls_schedule_t *s)
{
    for (int r = 0; r < s->nrounds && s->rounds; r++)
        free(s->rounds[r].pairs);
    free(s->rounds);
    memset(s, 0, sizeof *s);
}
