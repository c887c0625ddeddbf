/* The plan: islands, the best GPU set for each group size with its expected and measured
   all_reduce bus bandwidth, the best pairs, the best GPUs for memory-bound work, and the
   GPUs to keep out of synchronous groups. docs/analysis.md explains the method. */
#include "ceiling.h"
#include "rules.h"
#include "model/doc.h"
#include "model/gpuset.h"
#include "model/vocab.h"
#include "util/parse.h"
#include "util/strindex.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXACT_RING_MAX 12      /* rings of up to 12 GPUs are searched exhaustively */
#define EXHAUSTIVE_SETS_MAX 12 /* machines of up to 12 GPUs: every subset is tried */
#define TIE_BAND 0.98          /* sets within 2% of the best count as equal */
#define PAIR_BAND 0.95
#define HBM_BAND 0.95
#define MAX_PAIRS_LISTED 8
#define MAX_ISLANDS 64
#define MAX_BAD_SETS 32

typedef struct {
    const ls_machine_t *m;
    double bw[LS_MAX_GPUS][LS_MAX_GPUS];
    int measured[LS_MAX_GPUS][LS_MAX_GPUS];
    double *dp;
    signed char *parent;
    uint64_t pool, kept;
    uint64_t present;                    /* GPUs the document has (an import may skip indices) */
    int order[LS_MAX_GPUS][LS_MAX_GPUS]; /* growth order from each GPU (large machines) */
    uint64_t bad_gpus;                   /* GPUs named alone in an error finding */
    uint64_t bad_pair[LS_MAX_GPUS];      /* pairs named in an error finding, by GPU */
    uint64_t bad_sets[MAX_BAD_SETS];     /* larger GPU sets named in an error finding */
    int nbad_sets;
    const json_t **allreduce; /* the ok all_reduce entries, gathered in one pass */
    char **allreduce_key;     /* each one's GPU set and variant (set_key) */
    size_t nallreduce;
    ls_strindex_t allreduce_ix; /* the entries of one set and variant, in constant time */
} plan_ctx_t;

/* "MASK\x1fVARIANT": a GPU set and variant as one key (sanitized strings hold no control
   character). NULL when out of memory. */
static char *set_key(uint64_t mask, const char *variant)
{
    int n = snprintf(NULL, 0, "%llx\x1f%s", (unsigned long long)mask, variant);
    char *key = n < 0 ? NULL : malloc((size_t)n + 1);
    if (key)
        snprintf(key, (size_t)n + 1, "%llx\x1f%s", (unsigned long long)mask, variant);
    return key;
}

typedef struct {
    double bottleneck;
    int order[LS_MAX_GPUS];
    int k;
    int all_measured, any_measured;
} ring_t;

static double round2(double x)
{
    return round(x * 100) / 100;
}

static int members(uint64_t mask, int *idx)
{
    int k = 0;
    for (int g = 0; g < 64; g++)
        if (mask >> g & 1)
            idx[k++] = g;
    return k;
}

/* 1 when a set holds a GPU, a pair or is a set that an error finding names: never
   proposed as best or cleanest while another choice exists. */
static int tainted(const plan_ctx_t *c, uint64_t mask)
{
    if (mask & c->bad_gpus)
        return 1;
    for (int g = 0; g < 64; g++)
        if ((mask >> g & 1) && (c->bad_pair[g] & mask))
            return 1;
    for (int i = 0; i < c->nbad_sets; i++)
        if (c->bad_sets[i] == mask)
            return 1;
    return 0;
}

static void ring_flags(const plan_ctx_t *c, ring_t *r)
{
    r->all_measured = 1, r->any_measured = 0;
    for (int i = 0; i < r->k; i++) {
        int a = r->order[i], b = r->order[(i + 1) % r->k];
        r->all_measured &= c->measured[a][b];
        r->any_measured |= c->measured[a][b];
    }
}

/* Best ring through the set: the cyclic order whose slowest directed edge is fastest
   (exact search over orders by dynamic programming on subsets). */
static void ring_exact(plan_ctx_t *c, const int *idx, int k, ring_t *r)
{
    size_t states = (size_t)1 << k;
    for (size_t i = 0; i < states * (size_t)k; i++)
        c->dp[i] = -1;
    c->dp[1 * (size_t)k + 0] = INFINITY;
    for (size_t sub = 1; sub < states; sub += 2)
        for (int j = 0; j < k; j++) {
            double cur = c->dp[sub * (size_t)k + (size_t)j];
            if (cur < 0)
                continue;
            for (int t = 1; t < k; t++) {
                if (sub >> t & 1)
                    continue;
                double e = c->bw[idx[j]][idx[t]], v = cur < e ? cur : e;
                size_t next = (sub | (size_t)1 << t) * (size_t)k + (size_t)t;
                if (v > c->dp[next])
                    c->dp[next] = v, c->parent[next] = (signed char)j;
            }
        }
    size_t full = states - 1;
    int last = 0;
    double best = -1;
    for (int j = (k > 1); j < k; j++) {
        double d = c->dp[full * (size_t)k + (size_t)j], e = c->bw[idx[j]][idx[0]];
        double v = d < e ? d : e;
        if (v > best)
            best = v, last = j;
    }
    r->k = k;
    r->bottleneck = k > 1 ? best : 0;
    size_t sub = full;
    for (int pos = k - 1; pos >= 0; pos--) {
        r->order[pos] = idx[last];
        int prev = c->parent[sub * (size_t)k + (size_t)last];
        sub &= ~((size_t)1 << last);
        last = prev;
    }
    ring_flags(c, r);
}

/* Larger sets: from the lowest GPU, always step to the fastest unvisited peer. */
static void ring_greedy(plan_ctx_t *c, const int *idx, int k, ring_t *r)
{
    int used[LS_MAX_GPUS] = {0}, cur = 0;
    double bottleneck = INFINITY;
    r->k = k;
    r->order[0] = idx[0];
    used[0] = 1;
    for (int pos = 1; pos < k; pos++) {
        int next = -1;
        for (int t = 0; t < k; t++)
            if (!used[t] && (next < 0 || c->bw[idx[cur]][idx[t]] > c->bw[idx[cur]][idx[next]]))
                next = t;
        bottleneck = fmin(bottleneck, c->bw[idx[cur]][idx[next]]);
        used[next] = 1, cur = next;
        r->order[pos] = idx[next];
    }
    r->bottleneck = fmin(bottleneck, c->bw[idx[cur]][idx[0]]);
    ring_flags(c, r);
}

static void ring_of(plan_ctx_t *c, uint64_t mask, ring_t *r)
{
    int idx[LS_MAX_GPUS], k = members(mask, idx);
    if (k <= EXACT_RING_MAX)
        ring_exact(c, idx, k, r);
    else
        ring_greedy(c, idx, k, r);
}

static int homogeneous(const ls_machine_t *m, uint64_t mask)
{
    int idx[LS_MAX_GPUS], k = members(mask, idx);
    for (int i = 1; i < k; i++)
        if (strcmp(ls_machine_gpu_name(m, idx[i]), ls_machine_gpu_name(m, idx[0])) ||
            m->memory[idx[i]] != m->memory[idx[0]])
            return 0;
    return 1;
}

static int numa_count(const ls_machine_t *m, uint64_t mask)
{
    uint64_t nodes = 0;
    for (int g = 0; g < m->ngpus; g++)
        if (mask >> g & 1)
            nodes |= 1ULL << (m->numa[g] < 0 ? 63 : m->numa[g] & 63);
    return ls_popcount64(nodes);
}

/* Among sets in the tie band: homogeneous boards first, then fewer NUMA nodes, then the
   lowest GPU indices. 1 when a is preferred to b. */
static int preferred(const ls_machine_t *m, uint64_t a, uint64_t b)
{
    int ha = homogeneous(m, a), hb = homogeneous(m, b);
    if (ha != hb)
        return ha > hb;
    int na = numa_count(m, a), nb = numa_count(m, b);
    if (na != nb)
        return na < nb;
    uint64_t diff = a ^ b;
    return diff && (a & diff & -diff);
}

static int admissible(const plan_ctx_t *c, uint64_t mask, int k)
{
    int pool = ls_popcount64(c->pool);
    if (mask & ~c->present)
        return 0; /* never a GPU the document does not have */
    return k <= pool ? (mask & ~c->pool) == 0 : (mask & c->pool) == c->pool;
}

/* From GPU s, the order in which a set grows when it always adds the GPU whose slowest
   link to the set is fastest (pool GPUs before kept-out ones, ties to the lower index). */
static void grow_order(const plan_ctx_t *c, int s, int *order)
{
    int n = c->m->ngpus, pool = ls_popcount64(c->pool);
    double worst[LS_MAX_GPUS];
    uint64_t set = 1ULL << s;
    for (int t = 0; t < n; t++)
        worst[t] = fmin(c->bw[t][s], c->bw[s][t]);
    order[0] = s;
    for (int size = 1; size < n; size++) {
        int best = -1;
        double best_v = -INFINITY;
        for (int t = 0; t < n; t++) {
            if (set >> t & 1)
                continue;
            double v = worst[t] - (!(c->pool >> t & 1) && size < pool ? 1e9 : 0);
            if (v > best_v)
                best_v = v, best = t;
        }
        set |= 1ULL << best;
        order[size] = best;
        for (int t = 0; t < n; t++)
            worst[t] = fmin(worst[t], fmin(c->bw[t][best], c->bw[best][t]));
    }
}

/* Candidate sets of size k: every admissible subset on small machines; on larger ones,
   the first k GPUs of the growth order from each GPU. */
static int candidates(plan_ctx_t *c, int k, uint64_t *out, int max)
{
    int n = c->m->ngpus, count = 0;
    if (n <= EXHAUSTIVE_SETS_MAX) {
        for (uint64_t mask = 1; mask < (1ULL << n) && count < max; mask++)
            if (ls_popcount64(mask) == k && admissible(c, mask, k))
                out[count++] = mask;
        return count;
    }
    for (int s = 0; s < n && count < max; s++) {
        uint64_t set = 0;
        for (int i = 0; i < k; i++)
            set |= 1ULL << c->order[s][i];
        if (admissible(c, set, k))
            out[count++] = set;
    }
    return count;
}

static uint64_t best_set(plan_ctx_t *c, int k, ring_t *ring)
{
    int max = 5000;
    uint64_t *cand = malloc((size_t)max * sizeof *cand);
    double *val = malloc((size_t)max * sizeof *val);
    uint64_t chosen = 0;
    if (!cand || !val)
        goto out;
    int n = candidates(c, k, cand, max), clean = 0;
    for (int i = 0; i < n; i++)
        clean += !tainted(c, cand[i]);
    for (int i = 0, kept = 0; clean && clean < n && i < n;
         i++) /* drop tainted sets while clean ones exist */
        if (!tainted(c, cand[i]))
            cand[kept++] = cand[i];
    n = clean && clean < n ? clean : n;
    double top = -1;
    for (int i = 0; i < n; i++) {
        ring_t r;
        ring_of(c, cand[i], &r);
        val[i] = r.bottleneck;
        top = fmax(top, val[i]);
    }
    for (int i = 0; i < n; i++)
        if (val[i] >= TIE_BAND * top && (!chosen || preferred(c->m, cand[i], chosen)))
            chosen = cand[i];
    if (chosen)
        ring_of(c, chosen, ring);
out:
    free(cand);
    free(val);
    return chosen;
}

static json_t *int_array(const int *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_integer(v[i]));
    return a;
}

static json_t *mask_array(uint64_t mask)
{
    int idx[LS_MAX_GPUS], k = members(mask, idx);
    return int_array(idx, k);
}

/* Median busbw of the ok all_reduce entries on exactly this set with this variant.
   An entry's value is its busbw at its largest size, so only the entries that reached
   the largest size of them all count: a short sweep (tp --measure at a prompt's few
   MB) beside an 8 GiB one would pull the median down to a figure of another size. The
   entries of the set come from the index, in document order. */
static double measured_busbw(const plan_ctx_t *c, uint64_t mask, const char *variant, json_t *ids)
{
    double vals[64], largest = 0;
    int n = 0;
    char *key = set_key(mask, variant);
    size_t first = key ? ls_strindex_first(&c->allreduce_ix, key) : LS_STRINDEX_NONE;
    free(key);
    for (size_t i = first; i != LS_STRINDEX_NONE; i = ls_strindex_next(&c->allreduce_ix, i))
        largest = fmax(largest, ls_nccl_largest_bytes(c->allreduce[i]));
    for (size_t i = first; i != LS_STRINDEX_NONE && n < 64;
         i = ls_strindex_next(&c->allreduce_ix, i)) {
        const json_t *e = c->allreduce[i];
        double size = ls_nccl_largest_bytes(e); /* unknown (0): kept, nothing to compare */
        if (size > 0 && size < largest)
            continue;
        vals[n++] = ls_json_num(e, "value", 0);
        json_array_append_new(ids, json_string(ls_json_str(e, "id", "")));
    }
    return ls_median(vals, n);
}

static const char *expected_from(const ring_t *r)
{
    return r->all_measured ? "measured" : r->any_measured ? "mixed" : "link_class";
}

static json_t *group_json(plan_ctx_t *c, int k, uint64_t mask, const ring_t *r)
{
    json_t *g = json_pack("{s:i, s:o, s:o}", "k", k, "gpus", mask_array(mask), "ring",
                          int_array(r->order, r->k));
    if (r->bottleneck > 0) {
        json_object_set_new(g, "expected_busbw_gbps", json_real(round2(r->bottleneck)));
        json_object_set_new(g, "expected_from", json_string(expected_from(r)));
    } else {
        json_object_set_new(g, "expected_from",
                            json_string("unknown")); /* no link class, no figure */
    }
    json_t *ids = json_array();
    double measured = measured_busbw(c, mask, "default", ids);
    if (measured > 0) {
        json_object_set_new(g, "measured_busbw_gbps", json_real(round2(measured)));
        json_object_set_new(g, "measured_entries", ids);
    } else {
        json_decref(ids);
    }
    return g;
}

static json_t *groups(plan_ctx_t *c)
{
    json_t *list = json_array();
    if (c->m->ngpus > EXHAUSTIVE_SETS_MAX)
        for (int s = 0; s < c->m->ngpus; s++)
            grow_order(c, s, c->order[s]);
    for (int k = 2; k <= ls_popcount64(c->present); k++) {
        ring_t r;
        uint64_t mask = best_set(c, k, &r);
        if (!mask)
            continue;
        json_t *g = group_json(c, k, mask, &r);
        /* nothing expected (links unknown) and nothing measured: the row would say nothing */
        if (!strcmp(ls_json_str(g, "expected_from", ""), "unknown") &&
            !json_object_get(g, "measured_busbw_gbps"))
            json_decref(g);
        else
            json_array_append_new(list, g);
    }
    return list;
}

/* A variant that turns peer access off (NCCL_P2P_DISABLE=1, NCCL_P2P_LEVEL=LOC): its
   traffic goes through host memory, so the P2P links predict nothing about it. */
static int variant_without_p2p(const char *variant)
{
    return strstr(variant, "NCCL_P2P_DISABLE=1") || strstr(variant, "NCCL_P2P_LEVEL=LOC");
}

/* Every all_reduce set and variant that was measured, beside what its links predict
   (each set and variant once, by its first entry: linear in entries). */
static json_t *measured_groups(plan_ctx_t *c)
{
    json_t *list = json_array();
    const ls_machine_t *m = c->m;
    for (size_t i = 0; i < c->nallreduce; i++) {
        const json_t *e = c->allreduce[i];
        uint64_t mask = ls_gpu_mask_of(json_object_get(e, "gpus"));
        const char *variant = ls_json_str(e, "variant", "default");
        /* a set and variant seen before (its first entry is another) was listed then */
        if (!mask || (m->ngpus < 64 && mask >> m->ngpus) ||
            ls_strindex_first(&c->allreduce_ix, c->allreduce_key[i]) != i)
            continue;
        ring_t r;
        ring_of(c, mask, &r);
        json_t *ids = json_array();
        double measured = measured_busbw(c, mask, variant, ids);
        if (variant_without_p2p(variant)) {
            json_array_append_new(list, json_pack("{s:o, s:s, s:f, s:s, s:o}", "gpus",
                                                  mask_array(mask), "variant", variant,
                                                  "measured_busbw_gbps", round2(measured),
                                                  "expected_from", "p2p_off", "entries", ids));
            continue;
        }
        if (r.bottleneck <= 0) { /* links unknown: nothing to compare the figure with */
            json_array_append_new(list, json_pack("{s:o, s:s, s:f, s:s, s:o}", "gpus",
                                                  mask_array(mask), "variant", variant,
                                                  "measured_busbw_gbps", round2(measured),
                                                  "expected_from", "unknown", "entries", ids));
            continue;
        }
        json_array_append_new(list, json_pack("{s:o, s:s, s:f, s:f, s:s, s:f, s:o}", "gpus",
                                              mask_array(mask), "variant", variant,
                                              "measured_busbw_gbps", round2(measured),
                                              "expected_busbw_gbps", round2(r.bottleneck),
                                              "expected_from", expected_from(&r), "ratio",
                                              r.bottleneck > 0
                                                  ? round(1000 * measured / r.bottleneck) / 1000
                                                  : 0.0,
                                              "entries", ids));
    }
    return list;
}

/* Bron-Kerbosch with pivot over bit masks: every maximal clique of at least 2 GPUs. */
static void cliques(const uint64_t *adj, uint64_t r, uint64_t p, uint64_t x, uint64_t *out, int *n)
{
    if (!p && !x) {
        if (ls_popcount64(r) >= 2 && *n < MAX_ISLANDS)
            out[(*n)++] = r;
        return;
    }
    int pivot = -1, best = -1;
    for (int u = 0; u < 64; u++)
        if (((p | x) >> u & 1) && ls_popcount64(p & adj[u]) > best)
            best = ls_popcount64(p & adj[u]), pivot = u;
    uint64_t cand = p & ~adj[pivot];
    for (int v = 0; v < 64 && *n < MAX_ISLANDS; v++) {
        if (!(cand >> v & 1))
            continue;
        uint64_t bit = 1ULL << v;
        cliques(adj, r | bit, p & adj[v], x & adj[v], out, n);
        p &= ~bit, x |= bit;
    }
}

static const char *rank_class(int rank)
{
    static const char *names[] = {"?", "NV", "PIX", "PXB", "PHB", "NODE", "SYS"};
    return rank >= 1 && rank <= 6 ? names[rank] : "?";
}

static int lower_first(uint64_t a, uint64_t b)
{
    uint64_t diff = a ^ b;
    return diff && (a & diff & -diff);
}

/* A pair the topology text does not show (a cut paste): its link is unknown, not
   absent, so it never splits an island. */
static int link_unknown(const ls_machine_t *m, int a, int b)
{
    return m->topo->gpu_gpu[a][b].type == LS_LINK_NONE &&
           m->topo->gpu_gpu[b][a].type == LS_LINK_NONE;
}

/* a and b are in one island of class rank: joined by rank or better, or their link is
   unknown while each has a known link of rank or better (a GPU the text shows nothing
   of joins no island). */
static int island_adjacent(const ls_machine_t *m, int a, int b, int rank, const int *best)
{
    if (ls_machine_rank(m, a, b) <= rank)
        return 1;
    return link_unknown(m, a, b) && best[a] <= rank && best[b] <= rank;
}

/* The pairs of an island whose link the text does not show: the plan says it could
   not judge them. */
static void note_unknown_pairs(const ls_machine_t *m, uint64_t mask, json_t *island)
{
    json_t *pairs = json_array();
    for (int a = 0; a < m->ngpus; a++)
        for (int b = a + 1; b < m->ngpus; b++)
            if ((mask >> a & 1) && (mask >> b & 1) && link_unknown(m, a, b))
                json_array_append_new(pairs, json_pack("[i,i]", a, b));
    if (json_array_size(pairs))
        json_object_set_new(island, "unknown_pairs", pairs);
    else
        json_decref(pairs);
}

static int best_known_rank(const ls_machine_t *m, int g)
{
    int best = 7;
    for (int o = 0; o < m->ngpus; o++)
        if (o != g && !link_unknown(m, g, o) && ls_machine_rank(m, g, o) < best)
            best = ls_machine_rank(m, g, o);
    return best;
}

/* Islands: maximal groups whose every pair is joined by class c or better, for c from
   NVLink to NODE; a group already found at a faster class is not repeated. */
static json_t *islands(const ls_machine_t *m)
{
    json_t *list = json_array();
    uint64_t found[MAX_ISLANDS * 5];
    int nfound = 0, best[64];
    if (!m->has_topo)
        return list;
    for (int g = 0; g < m->ngpus; g++)
        best[g] = best_known_rank(m, g);
    for (int rank = 1; rank <= 5; rank++) {
        uint64_t adj[64] = {0}, out[MAX_ISLANDS], all = 0;
        int n = 0;
        for (int a = 0; a < m->ngpus; a++) {
            all |= 1ULL << a;
            for (int b = 0; b < m->ngpus; b++)
                if (a != b && island_adjacent(m, a, b, rank, best))
                    adj[a] |= 1ULL << b;
        }
        cliques(adj, 0, all, 0, out, &n);
        /* order: larger first, then lower GPU indices */
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                if (ls_popcount64(out[j]) > ls_popcount64(out[i]) ||
                    (ls_popcount64(out[j]) == ls_popcount64(out[i]) &&
                     lower_first(out[j], out[i]))) {
                    uint64_t t = out[i];
                    out[i] = out[j], out[j] = t;
                }
        for (int i = 0; i < n; i++) {
            int dup = 0;
            for (int j = 0; j < nfound; j++)
                dup |= found[j] == out[i];
            if (dup || nfound >= MAX_ISLANDS * 5)
                continue;
            found[nfound++] = out[i];
            json_t *island = json_pack("{s:o, s:s, s:i}", "gpus", mask_array(out[i]), "link_class",
                                       rank_class(rank), "size", ls_popcount64(out[i]));
            note_unknown_pairs(m, out[i], island);
            json_array_append_new(list, island);
        }
    }
    return list;
}

static double pair_bidir(const plan_ctx_t *c, int a, int b, int *measured)
{
    const ls_pair_bw_t *bd = &c->m->bidir[a][b];
    if (bd->value > 0) {
        *measured = 1;
        return bd->value;
    }
    *measured = c->measured[a][b] && c->measured[b][a];
    return c->bw[a][b] + c->bw[b][a];
}

static void add_pair(const plan_ctx_t *c, json_t *list, int a, int b)
{
    int meas;
    char word[16];
    double v = pair_bidir(c, a, b, &meas);
    ls_machine_link_word(c->m, a, b, word, sizeof word);
    json_array_append_new(list,
                          json_pack("{s:[i,i], s:s, s:f, s:s, s:I}", "gpus", a, b, "link",
                                    strcmp(word, "?") ? word : "unknown", "bidir_gbps", round2(v),
                                    "from", meas ? "measured" : "link_class", "memory_total_bytes",
                                    (json_int_t)(c->m->memory[a] + c->m->memory[b])));
}

/* Pairs within 5% of the fastest pair count as equal. Listed: first disjoint pairs
   (lowest GPU indices first, so that a machine can be packed with them), then the
   remaining equal pairs, at most MAX_PAIRS_LISTED. */
static json_t *best_pairs(const plan_ctx_t *c, int *in_band)
{
    const ls_machine_t *m = c->m;
    double top = 0;
    int meas;
    for (int a = 0; a < m->ngpus; a++)
        for (int b = a + 1; b < m->ngpus; b++)
            if (!tainted(c, 1ULL << a | 1ULL << b))
                top = fmax(top, pair_bidir(c, a, b, &meas));
    json_t *list = json_array();
    uint64_t used = 0, listed[LS_MAX_GPUS] = {0};
    *in_band = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int a = 0; a < m->ngpus; a++)
            for (int b = a + 1; b < m->ngpus; b++) {
                if (top <= 0 || pair_bidir(c, a, b, &meas) < PAIR_BAND * top ||
                    (listed[a] >> b & 1) || tainted(c, 1ULL << a | 1ULL << b))
                    continue;
                *in_band += pass == 0;
                if ((pass == 0 && ((used >> a & 1) || (used >> b & 1))) ||
                    json_array_size(list) >= MAX_PAIRS_LISTED)
                    continue;
                used |= 1ULL << a | 1ULL << b;
                listed[a] |= 1ULL << b;
                add_pair(c, list, a, b);
            }
    return list;
}

static json_t *best_hbm(const plan_ctx_t *c, int *in_band)
{
    const ls_machine_t *m = c->m;
    int measured = 0;
    double top = 0;
    for (int g = 0; g < m->ngpus; g++)
        measured |= m->hbm[g] > 0;
    const double *v = measured ? m->hbm : m->hbm_theoretical;
    for (int g = 0; g < m->ngpus; g++)
        top = fmax(top, v[g]);
    json_t *list = json_array();
    int used[LS_MAX_GPUS] = {0};
    *in_band = 0;
    for (int g = 0; g < m->ngpus; g++)
        *in_band += v[g] > 0 && v[g] >= HBM_BAND * top;
    while ((int)json_array_size(list) < MAX_PAIRS_LISTED) {
        int best = -1;
        for (int g = 0; g < m->ngpus; g++)
            if (!used[g] && v[g] > 0 && v[g] >= HBM_BAND * top && !(c->bad_gpus >> g & 1)) {
                best = g; /* equal within 5%: by GPU index */
                break;
            }
        if (best < 0)
            break;
        used[best] = 1;
        json_t *o = json_pack("{s:i, s:s, s:f, s:s}", "gpu", best, "name",
                              ls_machine_gpu_name(m, best), "gbps", round2(v[best]), "from",
                              measured ? "measured" : "theoretical");
        if (measured && m->hbm_theoretical[best] > 0)
            json_object_set_new(o, "efficiency",
                                json_real(round(1000 * v[best] / m->hbm_theoretical[best]) / 1000));
        if (measured)
            json_object_set_new(o, "entry", json_string(m->hbm_id[best]));
        json_array_append_new(list, o);
    }
    return list;
}

static long long common_memory(const ls_machine_t *m)
{
    long long best = 0;
    int best_n = 0;
    for (int g = 0; g < m->ngpus; g++) {
        int n = 0;
        for (int o = 0; o < m->ngpus; o++)
            n += m->memory[o] == m->memory[g];
        if (m->memory[g] > 0 && (n > best_n || (n == best_n && m->memory[g] > best)))
            best = m->memory[g], best_n = n;
    }
    return best;
}

static void reason(json_t *codes, json_t *reasons, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void reason(json_t *codes, json_t *reasons, const char *code, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    json_array_append_new(codes, json_string(code));
    json_array_append_new(reasons, json_string(line));
}

static int p2p_peers(const ls_machine_t *m, int g)
{
    int n = 0;
    for (int o = 0; o < m->ngpus; o++)
        n += o != g && ls_machine_p2p_ok(m, g, o);
    return n;
}

static int best_rank_of(const ls_machine_t *m, int g)
{
    int best = 7;
    for (int o = 0; o < m->ngpus; o++)
        if (o != g && ls_machine_rank(m, g, o) < best)
            best = ls_machine_rank(m, g, o);
    return best;
}

static json_t *keep_out_gpu(const ls_machine_t *m, int g, long long mem)
{
    json_t *codes = json_array(), *reasons = json_array();
    int largest, node = ls_numa_majority(m, &largest), others_p2p = 0, others_near = 0;
    for (int o = 0; o < m->ngpus; o++)
        if (o != g) {
            others_p2p |= p2p_peers(m, o) > (ls_machine_p2p_ok(m, o, g) ? 1 : 0);
            others_near |= best_rank_of(m, o) < 6;
        }
    if (ls_numa_minority(m, g))
        reason(codes, reasons, "numa", "on NUMA node %d, away from the %d GPUs on node %d",
               m->numa[g], largest, node);
    if (m->ngpus > 2 && p2p_peers(m, g) == 0 && others_p2p)
        reason(codes, reasons, "no_p2p",
               "no P2P to any other GPU: its traffic is staged through host memory");
    if (mem > 0 && m->memory[g] > 0 && m->memory[g] < 0.9 * (double)mem)
        reason(codes, reasons, "smaller_memory",
               "%.0f GiB of memory where the others have %.0f GiB: caps the group's model size",
               (double)m->memory[g] / (1 << 30), (double)mem / (1 << 30));
    if (m->has_topo && m->ngpus > 2 && best_rank_of(m, g) >= 6 && others_near)
        reason(codes, reasons, "sys",
               "reaches every other GPU only across the SMP interconnect (SYS)");
    if (!json_array_size(codes)) {
        json_decref(codes);
        json_decref(reasons);
        return NULL;
    }
    return json_pack("{s:i, s:s, s:o, s:o}", "gpu", g, "name", ls_machine_gpu_name(m, g), "codes",
                     codes, "reasons", reasons);
}

static json_t *keep_out(plan_ctx_t *c)
{
    json_t *list = json_array();
    long long mem = common_memory(c->m);
    for (int g = 0; g < c->m->ngpus; g++) {
        json_t *k = keep_out_gpu(c->m, g, mem);
        if (k) {
            json_array_append_new(list, k);
            c->kept |= 1ULL << g;
        }
    }
    c->pool &= ~c->kept;
    return list;
}

static void ctx_free(plan_ctx_t *c)
{
    if (!c)
        return;
    free(c->dp);
    free(c->parent);
    for (size_t i = 0; c->allreduce_key && i < c->nallreduce; i++)
        free(c->allreduce_key[i]);
    free(c->allreduce_key);
    free(c->allreduce);
    ls_strindex_free(&c->allreduce_ix);
    free(c);
}

/* The ok all_reduce entries, each with its set key, indexed. 0, or -1 out of memory. */
static int gather_allreduce(plan_ctx_t *c)
{
    const ls_machine_t *m = c->m;
    size_t cap = json_array_size(json_object_get(m->doc, "measurements")) + 1;
    c->allreduce = malloc(cap * sizeof *c->allreduce);
    c->allreduce_key = calloc(cap, sizeof *c->allreduce_key);
    if (!c->allreduce || !c->allreduce_key)
        return -1;
    for (long i = ls_doc_next_measurement(m->doc, "nccl", 0); i >= 0;
         i = ls_doc_next_measurement(m->doc, "nccl", i + 1)) {
        const json_t *e = ls_measurement(m, (size_t)i);
        /* a sweep that never left the latency-bound sizes measured no bandwidth: its
           busbw at the largest size is not quoted as one */
        if (strcmp(ls_json_str(e, "collective", ""), "all_reduce") ||
            strcmp(ls_json_str(e, "status", ""), "ok") || ls_nccl_latency_bound(e, NULL, NULL))
            continue;
        c->allreduce_key[c->nallreduce] = set_key(ls_gpu_mask_of(json_object_get(e, "gpus")),
                                                  ls_json_str(e, "variant", "default"));
        c->allreduce[c->nallreduce] = e;
        if (!c->allreduce_key[c->nallreduce++])
            return -1;
    }
    return ls_strindex_build(&c->allreduce_ix, (const char *const *)c->allreduce_key,
                             c->nallreduce);
}

static plan_ctx_t *ctx_new(const ls_machine_t *m)
{
    plan_ctx_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    size_t cells = ((size_t)1 << EXACT_RING_MAX) * EXACT_RING_MAX;
    c->dp = malloc(cells * sizeof *c->dp);
    c->parent = calloc(cells, 1);
    c->m = m;
    if (!c->dp || !c->parent || gather_allreduce(c) != 0) {
        ctx_free(c);
        return NULL;
    }
    for (int a = 0; a < m->ngpus; a++)
        for (int b = 0; b < m->ngpus; b++)
            if (a != b)
                c->bw[a][b] = ls_machine_pair_gbps(m, a, b, &c->measured[a][b]);
    c->pool = m->ngpus >= 64 ? ~0ULL : (1ULL << m->ngpus) - 1;
    for (int g = 0; g < m->ngpus; g++)
        if (m->gpu[g])
            c->present |= 1ULL << g;
    c->pool &= c->present;
    return c;
}

/* The largest island of identical boards with no kept-out GPU (ties: the faster class,
   then lower GPU indices); NULL when there is none. */
static const json_t *cleanest_island(const plan_ctx_t *c, const json_t *isl)
{
    const json_t *best = NULL;
    size_t i;
    const json_t *is;
    json_array_foreach(isl, i, is) {
        uint64_t mask = ls_gpu_mask_of(json_object_get(is, "gpus"));
        if ((mask & c->kept) || !homogeneous(c->m, mask) || tainted(c, mask))
            continue;
        if (!best ||
            ls_popcount64(mask) > ls_popcount64(ls_gpu_mask_of(json_object_get(best, "gpus"))))
            best = is; /* islands come ordered by class, then size, then index */
    }
    return best;
}

static int bad_pairs(const plan_ctx_t *c)
{
    for (int g = 0; g < 64; g++)
        if (c->bad_pair[g])
            return 1;
    return 0;
}

static void summary_line(json_t *summary, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void summary_line(json_t *summary, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    json_array_append_new(summary, json_vsprintf(fmt, ap));
    va_end(ap);
}

/* Group sizes where the expected bus bandwidth falls by more than STEP_DROP. */
#define STEP_DROP 0.15
static void summary_steps(const json_t *groups, json_t *summary)
{
    for (size_t i = 1; i < json_array_size(groups); i++) {
        const json_t *prev = json_array_get(groups, i - 1), *cur = json_array_get(groups, i);
        double a = ls_json_num(prev, "expected_busbw_gbps", 0),
               b = ls_json_num(cur, "expected_busbw_gbps", 0);
        if (a > 0 && b < (1 - STEP_DROP) * a)
            summary_line(summary,
                         "From %lld GPUs the best ring drops a step: expected busbw %.2f -> %.2f "
                         "GB/s",
                         ls_json_int(cur, "k", 0), a, b);
    }
}

/* A box with no island (every known pair SYS, or across host bridges only): the GPUs
   grouped by NUMA node instead, so that a synchronous group at least stays on one
   socket. Empty when no node is known or no node holds two GPUs. */
static json_t *fallback_groups(const ls_machine_t *m, const json_t *isl)
{
    json_t *list = json_array();
    if (!m->has_topo || m->ngpus < 2 || json_array_size(isl))
        return list;
    for (int node = 0; node < 64; node++) {
        uint64_t mask = 0;
        for (int g = 0; g < m->ngpus; g++)
            if (m->numa[g] == node)
                mask |= 1ULL << g;
        if (ls_popcount64(mask) >= 2)
            json_array_append_new(list, json_pack("{s:o, s:s, s:i}", "gpus", mask_array(mask), "by",
                                                  "numa_node", "numa_node", node));
    }
    return list;
}

static int any_known_link(const ls_machine_t *m)
{
    for (int a = 0; m->has_topo && a < m->ngpus; a++)
        for (int b = a + 1; b < m->ngpus; b++)
            if (!link_unknown(m, a, b))
                return 1;
    return 0;
}

static void fallback_summary(const json_t *plan, json_t *out)
{
    char line[320] = "", set[96];
    size_t i, used = 0;
    const json_t *f;
    json_array_foreach(json_object_get(plan, "fallback_groups"), i, f) {
        ls_format_gpu_mask(ls_gpu_mask_of(json_object_get(f, "gpus")), set, sizeof set);
        if (used < sizeof line)
            used += (size_t)snprintf(line + used, sizeof line - used, "%sGPUs %s (node %lld)",
                                     i ? ", " : "", set, ls_json_int(f, "numa_node", -1));
    }
    if (used)
        summary_line(out,
                     "No island (no GPU pair closer than across the CPU): group by NUMA node "
                     "instead, "
                     "so that a group stays on one socket: %s",
                     line);
}

/* No figure or rate for the pairs (a topo -m paste of boards linkscope cannot rate): the
   NVLink-joined pairs the topology shows are still the pairs for two-GPU work. */
static void nvlink_pairs_summary(const json_t *plan, json_t *out)
{
    char line[256] = "";
    size_t i, used = 0, n = 0;
    const json_t *is;
    json_array_foreach(json_object_get(plan, "islands"), i, is) {
        const json_t *g = json_object_get(is, "gpus");
        if (strcmp(ls_json_str(is, "link_class", ""), "NV") || json_array_size(g) != 2 ||
            used >= sizeof line)
            continue;
        used += (size_t)snprintf(line + used, sizeof line - used, "%s%lld+%lld", n++ ? ", " : "",
                                 (long long)json_integer_value(json_array_get(g, 0)),
                                 (long long)json_integer_value(json_array_get(g, 1)));
    }
    if (n)
        summary_line(out,
                     "NVLink pair%s: GPUs %s (the pairs for two-GPU work; no figure or link rate "
                     "in the "
                     "text to rank them)",
                     n == 1 ? "" : "s", line);
}

static json_t *summary(const plan_ctx_t *c, const json_t *plan)
{
    json_t *out = json_array();
    char set[160];
    const json_t *isl = cleanest_island(c, json_object_get(plan, "islands"));
    if (isl) {
        uint64_t mask = ls_gpu_mask_of(json_object_get(isl, "gpus"));
        int idx[LS_MAX_GPUS];
        members(mask, idx);
        ls_format_gpu_mask(mask, set, sizeof set);
        const char *name = ls_machine_gpu_name(c->m, idx[0]); /* a name not known is left out */
        char unknown[96] = "";
        size_t nu = json_array_size(json_object_get(isl, "unknown_pairs"));
        if (nu)
            snprintf(unknown, sizeof unknown, "; %zu pair%s not shown in the text, not judged", nu,
                     nu == 1 ? "" : "s");
        if (*name)
            summary_line(out, "Cleanest island: GPUs %s (%s, %d x %s%s)", set,
                         ls_json_str(isl, "link_class", "?"), ls_popcount64(mask), name, unknown);
        else
            summary_line(out, "Cleanest island: GPUs %s (%s, %d GPUs%s)", set,
                         ls_json_str(isl, "link_class", "?"), ls_popcount64(mask), unknown);
    } else if (json_array_size(json_object_get(plan, "islands")) &&
               (c->bad_gpus || c->nbad_sets || bad_pairs(c))) {
        summary_line(out,
                     "No clean island: every island holds a GPU or pair named in an error finding");
    }
    summary_steps(json_object_get(plan, "groups"), out);
    const json_t *pairs = json_object_get(plan, "best_pairs"), *p0 = json_array_get(pairs, 0);
    const char *link = p0 && strcmp(ls_json_str(p0, "link", "unknown"), "unknown")
                           ? ls_json_str(p0, "link", "")
                           : "link unknown";
    if (p0 && c->m->ngpus == 2) /* "the only one of its speed" says nothing with one pair */
        summary_line(out, "The pair: GPUs %lld and %lld (%s, %.1f GB/s both directions)",
                     (long long)json_integer_value(json_array_get(json_object_get(p0, "gpus"), 0)),
                     (long long)json_integer_value(json_array_get(json_object_get(p0, "gpus"), 1)),
                     link, ls_json_num(p0, "bidir_gbps", 0));
    else if (p0 && ls_json_int(plan, "equal_best_pairs", 0) == 1)
        summary_line(out,
                     "Fastest pair: GPUs %lld and %lld (%s, %.1f GB/s both directions), the only "
                     "one of its speed",
                     (long long)json_integer_value(json_array_get(json_object_get(p0, "gpus"), 0)),
                     (long long)json_integer_value(json_array_get(json_object_get(p0, "gpus"), 1)),
                     link, ls_json_num(p0, "bidir_gbps", 0));
    else if (p0)
        summary_line(out, "%lld pairs are equally fast (%s, about %.0f GB/s both directions)",
                     ls_json_int(plan, "equal_best_pairs", 0), link,
                     ls_json_num(p0, "bidir_gbps", 0));
    else
        nvlink_pairs_summary(plan, out);
    size_t i;
    const json_t *h;
    json_array_foreach(json_object_get(plan, "needs"), i, h) {
        summary_line(out, "To judge more: %s", json_string_value(h));
    }
    uint64_t hbm = 0;
    json_array_foreach(json_object_get(plan, "best_hbm_gpus"), i, h) {
        hbm |= 1ULL << (ls_json_int(h, "gpu", 0) & 63);
    }
    if (hbm && ls_popcount64(hbm) < c->m->ngpus) {
        ls_format_gpu_mask(hbm, set, sizeof set);
        /* best_hbm falls back on the datasheet where nothing was measured: said so */
        const char *from = ls_json_str(json_array_get(json_object_get(plan, "best_hbm_gpus"), 0),
                                       "from", "measured");
        summary_line(out, "Memory-bound single-GPU work: GPU%s %s (highest %s HBM bandwidth)",
                     ls_popcount64(hbm) > 1 ? "s" : "", set,
                     strcmp(from, "measured") ? "datasheet" : "measured");
    }
    const json_t *k;
    json_array_foreach(json_object_get(plan, "keep_out"), i, k) {
        char codes[128] = "";
        size_t j;
        const json_t *code;
        json_array_foreach(json_object_get(k, "codes"), j, code) {
            size_t len = strlen(codes);
            snprintf(codes + len, sizeof codes - len, "%s%s", j ? ", " : "",
                     json_string_value(code));
        }
        summary_line(out, "Keep GPU %lld out of synchronous groups (%s): give it independent work",
                     ls_json_int(k, "gpu", -1), codes);
    }
    if (isl)
        json_object_set_new((json_t *)plan, "cleanest_island",
                            json_incref(json_object_get(isl, "gpus")));
    fallback_summary(plan, out);
    /* ngpus 0 is no GPU list, not "no GPU in the text": a kernel log, a DCGM table or an
       NCCL log names GPUs by bus id, DCGM number or rank without listing the machine's */
    if (!json_array_size(out) && !c->m->ngpus)
        summary_line(out, "No group or pair to plan: the document holds no list of the "
                          "machine's GPUs (a GPU the text names by bus id, rank or a tool's "
                          "number is not one); next: import `nvidia-smi topo -m` for it");
    else if (!json_array_size(out) && c->m->ngpus >= 2 && (c->bad_gpus || bad_pairs(c)))
        /* the pair's figure is there, but an error finding keeps it out of every proposal */
        summary_line(out,
                     "%d GPUs, and a GPU or pair among them named in an error finding: no "
                     "group to plan until it is mended",
                     c->m->ngpus);
    else if (!json_array_size(out)) /* never a heading over nothing */
        summary_line(out,
                     c->m->ngpus < 2 ? "%d GPU in the text: no group or pair to plan"
                     : any_known_link(c->m)
                         /* "no NUMA node known" was false where one GPU's node is given
                            (topo-club178: GPU1 on node 1, GPU0's cell blank) */
                         ? "%d GPUs, no two of them closer than across the CPU, nor on one "
                           "known NUMA node: no group to plan"
                         : "%d GPUs and no link or figure between them in the text: no group to "
                           "plan",
                     c->m->ngpus);
    return out;
}

/* GPUs, pairs and sets that error findings name: never proposed as best or cleanest. */
static void mark_errors(plan_ctx_t *c, const json_t *found)
{
    size_t i;
    const json_t *f;
    json_array_foreach(found, i, f) {
        uint64_t mask = ls_finding_gpus(f);
        if (ls_finding_action(f) != LS_FA_AVOID || !mask)
            continue;
        int n = ls_popcount64(mask);
        if (n == 1) {
            c->bad_gpus |= mask;
        } else if (n == 2) {
            for (int g = 0; g < 64; g++)
                if (mask >> g & 1)
                    c->bad_pair[g] |= mask & ~(1ULL << g);
        } else if (c->nbad_sets < MAX_BAD_SETS) {
            c->bad_sets[c->nbad_sets++] = mask;
        }
    }
}

/* Every bandwidth figure's hardware ceiling, by entry id: {ceiling_gbps, percent, path,
   basis}; figures whose ceiling is unknown are absent (reports print "unknown"). */
static json_t *ceilings(const ls_machine_t *m)
{
    json_t *out = json_object();
    LS_DOC_FOREACH(ent, m->doc, NULL)
    {
        ls_ceiling_t c;
        const char *id = ent.id;
        if (!*id || !ls_ceiling_family(ent.fam) || ls_ceiling_entry(m, ent.json, &c) <= 0)
            continue;
        double v = ent.value; /* NaN when none: no percent */
        json_t *o = json_pack("{s:f, s:s, s:s}", "ceiling_gbps", round2(c.gbps), "path",
                              ls_path_name(c.path), "basis", c.basis);
        if (v > 0 && ent.ok)
            json_object_set_new(o, "percent", json_real(round(1000 * v / c.gbps) / 10));
        json_object_set_new(out, id, o);
    }
    return out;
}

/* Ids of the figures whose spread is above their noisy limit: reports mark them "noisy". */
static json_t *noisy_entries(const ls_machine_t *m)
{
    json_t *out = json_array();
    LS_DOC_FOREACH(v, m->doc, NULL)
    {
        if (ls_view_noisy(&v))
            json_array_append_new(out, json_string(v.id));
    }
    return out;
}

/* What the plan would need to say more: facts missing from the document. */
/* An ok nccl sweep whose largest size is latency-bound (machine.h): what it measured is
   latency, so the plan quotes no bandwidth of it and says what would give one. */
static void latency_bound_needs(const ls_machine_t *m, json_t *list)
{
    for (long i = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, 0); i >= 0;
         i = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, i + 1)) {
        const json_t *e = ls_measurement(m, (size_t)i);
        double t0, t1;
        if (strcmp(ls_json_str(e, "status", ""), "ok") || !ls_nccl_latency_bound(e, &t0, &t1))
            continue;
        char set[96] = "", size[32];
        uint64_t mask = ls_gpu_mask_of(json_object_get(e, "gpus"));
        if (mask)
            ls_format_gpu_mask(mask, set, sizeof set);
        ls_format_size((uint64_t)ls_nccl_largest_bytes(e), size, sizeof size);
        const char *on = !mask ? "" : ls_popcount64(mask) > 1 ? " on GPUs " : " on GPU ";
        static const char fmt[] =
            "the %s sweep%s%s stops at %s, a latency-bound size (%.2f us there, %.2f us at "
            "its smallest): its busbw there is latency, not bandwidth; run it to sizes where "
            "the time grows with the size (nccl-tests `-e 1G`)";
        json_array_append_new(list, json_sprintf(fmt, ls_json_str(e, "collective", "unknown"), on,
                                                 set, size, t1, t0));
    }
}

static json_t *needs(const ls_machine_t *m)
{
    json_t *list = json_array();
    latency_bound_needs(m, list);
    if (!m->has_topo && m->ngpus > 1) /* GPUs of the document or only of its figures */
        json_array_append_new(list, json_string("import `nvidia-smi topo -m` to judge links: "
                                                "without it no link "
                                                "class, expected figure or island is given"));
    return list;
}

json_t *ls_plan(const json_t *doc)
{
    json_t *found = ls_findings(doc), *plan = ls_plan_with(doc, found);
    json_decref(found);
    return plan;
}

json_t *ls_plan_with(const json_t *doc, const json_t *findings)
{
    ls_machine_t *m = ls_machine_new(doc);
    plan_ctx_t *c = m ? ctx_new(m) : NULL;
    if (!c) {
        ls_machine_free(m);
        return json_object();
    }
    json_t *plan = json_object();
    mark_errors(c, findings);
    json_object_set_new(plan, "islands", islands(m));
    json_t *fallback = fallback_groups(m, json_object_get(plan, "islands"));
    if (json_array_size(fallback))
        json_object_set_new(plan, "fallback_groups", fallback);
    else
        json_decref(fallback);
    json_t *kept = keep_out(c); /* before groups: kept-out GPUs join last */
    json_object_set_new(plan, "groups", groups(c));
    json_object_set_new(plan, "measured_groups", measured_groups(c));
    int equal_pairs;
    json_object_set_new(plan, "best_pairs", best_pairs(c, &equal_pairs));
    json_object_set_new(plan, "equal_best_pairs", json_integer(equal_pairs));
    int equal_hbm;
    json_object_set_new(plan, "best_hbm_gpus", best_hbm(c, &equal_hbm));
    json_object_set_new(plan, "equal_best_hbm_gpus", json_integer(equal_hbm));
    json_object_set_new(plan, "keep_out", kept);
    json_object_set_new(plan, "needs", needs(m));
    json_object_set_new(plan, "ceilings", ceilings(m));
    json_object_set_new(plan, "noisy", noisy_entries(m));
    json_object_set_new(plan, "summary", summary(c, plan));
    ctx_free(c);
    ls_machine_free(m);
    return plan;
}
