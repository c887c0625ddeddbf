#define _GNU_SOURCE /* asprintf */
#include "p2p_index.h"
#include "rules.h"
#include "model/doc.h"
#include "model/entry.h"
#include "model/vocab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ok and above 0 (no value: NaN in a view, 0 from the JSON: neither is) */
static int ok_figure(int ok, double value)
{
    return ok && value > 0;
}

int ls_p2p_uni_word(const char *direction)
{
    return !strcmp(direction ? direction : LS_DIR_UNI, LS_DIR_UNI);
}

int ls_p2p_view_ok(const ls_view_t *v)
{
    return ok_figure(v->ok, v->value);
}

int ls_p2p_ok(const json_t *e)
{
    return ok_figure(!strcmp(ls_json_str(e, "status", ""), "ok"), ls_json_num(e, "value", 0));
}

int ls_p2p_direct(const json_t *e)
{
    const json_t *p = json_object_get(e, "p2p");
    return p ? json_is_true(p) : strcmp(ls_json_str(e, "method", ""), LS_P2P_STAGED) != 0;
}

int ls_p2p_uni(const json_t *e)
{
    return ls_p2p_uni_word(ls_json_str(e, "direction", NULL));
}

int ls_p2p_status_blocks(enum ls_p2p_status s)
{
    return s == LS_P2P_CNS || s == LS_P2P_GNS || s == LS_P2P_TNS || s == LS_P2P_NS ||
           s == LS_P2P_DR;
}

int ls_p2p_word_blocks(const char *w)
{
    enum ls_p2p_status s;
    return w && !ls_p2p_parse(w, &s) && ls_p2p_status_blocks(s);
}

/* Tool, mode and pair of a partner: "D" direct (then also its method) or "S" staged.
   Sanitized strings hold no control character, so the separator cannot be forged. */
static char *partner_key(const json_t *e, const char *method, long long a, long long b, int direct,
                         int uni)
{
    char *key = NULL;
    int n = asprintf(&key, "%c%d %lld %lld %s\x1f%s\x1f%s", direct ? 'D' : 'S', uni, a, b,
                     ls_json_str(e, "source", ""), ls_json_str(e, "mode", ""),
                     direct ? method : "");
    return n < 0 ? NULL : key;
}

static char *peer_group_key(const json_t *e, const char *method, const char *word)
{
    char *key = NULL;
    int n = asprintf(&key, "%s\x1f%s\x1f%s", ls_json_str(e, "source", ""), method, word);
    return n < 0 ? NULL : key;
}

static char *peer_pair_key(const json_t *e, const char *method, long long a, long long b)
{
    char *key = NULL;
    int n = asprintf(&key, "%s\x1f%s\x1f%lld %lld", ls_json_str(e, "source", ""), method,
                     a < b ? a : b, a < b ? b : a);
    return n < 0 ? NULL : key;
}

static int in_range(long long g, int ngpus)
{
    return g >= 0 && g < ngpus && g < LS_MAX_GPUS;
}

/* The keys of position i, entry v (its view: status, value, pair, direction and method
   without a lookup); 0, or -1 when out of memory. */
static int entry_keys(const ls_machine_t *m, ls_p2p_index_t *ix, size_t i, const ls_view_t *v)
{
    const json_t *e = v->json;
    long long a = v->src, b = v->dst;
    char word[16];
    int partner = ok_figure(v->ok, v->value) && !json_object_get(e, "under");
    int direct = partner && ls_p2p_direct(e), uni = ls_p2p_uni_word(v->direction);
    int bidir_direct = partner && !uni && direct; /* ok, both ways, peer access, idle */
    ix->pair_key[i] = partner ? partner_key(e, v->method_word, a, b, direct, uni) : strdup("");
    int peer = m->has_topo && bidir_direct && in_range(a, m->ngpus) && in_range(b, m->ngpus);
    ix->word_key[i] = peer ? peer_group_key(e, v->method_word,
                                            ls_machine_link_word(m, (int)a, (int)b, word,
                                                                 sizeof word))
                           : strdup("");
    ix->peer_key[i] = bidir_direct ? peer_pair_key(e, v->method_word, a, b) : strdup("");
    ix->peer_count[i] = -1;
    return ix->pair_key[i] && ix->word_key[i] && ix->peer_key[i] ? 0 : -1;
}

/* The first link of each pair that says it has no peer access. */
static void blocking_links(const ls_machine_t *m, ls_p2p_index_t *ix)
{
    size_t i;
    const json_t *l;
    json_array_foreach(json_object_get(m->doc, "links"), i, l) {
        long long a = ls_json_int(l, "a", -1), b = ls_json_int(l, "b", -1);
        if (in_range(a, LS_MAX_GPUS) && in_range(b, LS_MAX_GPUS) && !ix->blocking_link[a][b] &&
            (json_is_false(json_object_get(l, "cuda_peer_access")) ||
             ls_p2p_word_blocks(ls_json_str(l, "p2p_status", NULL))))
            ix->blocking_link[a][b] = l;
    }
}

/* The first no_p2p figure of each pair (either direction). */
static void blocking_entry(ls_p2p_index_t *ix, const ls_view_t *v)
{
    int s = v->src, d = v->dst;
    if (!in_range(s, LS_MAX_GPUS) || !in_range(d, LS_MAX_GPUS) || !(v->flags & LS_VF_NO_P2P))
        return;
    if (!ix->no_p2p_entry[s][d])
        ix->no_p2p_entry[s][d] = v->json;
    if (!ix->no_p2p_entry[d][s])
        ix->no_p2p_entry[d][s] = v->json;
}

static int build(const ls_machine_t *m, ls_p2p_index_t *ix)
{
    blocking_links(m, ix);
    LS_DOC_FOREACH(v, m->doc, &ls_fam_p2p)
    {
        ix->entry[ix->n] = v.json;
        if (entry_keys(m, ix, ix->n++, &v))
            return -1;
        blocking_entry(ix, &v);
    }
    if (ls_strindex_build(&ix->pair_ix, (const char *const *)ix->pair_key, ix->n) ||
        ls_strindex_build(&ix->word_ix, (const char *const *)ix->word_key, ix->n) ||
        ls_strindex_build(&ix->peer_ix, (const char *const *)ix->peer_key, ix->n))
        return -1;
    return 0;
}

ls_p2p_index_t *ls_p2p_index_new(const ls_machine_t *m)
{
    size_t cap = json_array_size(json_object_get(m->doc, "measurements")) + 1;
    ls_p2p_index_t *ix = calloc(1, sizeof *ix);
    if (!ix)
        return NULL;
    ix->entry = calloc(cap, sizeof *ix->entry);
    ix->pair_key = calloc(cap, sizeof *ix->pair_key);
    ix->word_key = calloc(cap, sizeof *ix->word_key);
    ix->peer_key = calloc(cap, sizeof *ix->peer_key);
    ix->peer_median = calloc(cap, sizeof *ix->peer_median);
    ix->peer_count = calloc(cap, sizeof *ix->peer_count);
    if (!ix->entry || !ix->pair_key || !ix->word_key || !ix->peer_key || !ix->peer_median ||
        !ix->peer_count || build(m, ix)) {
        ls_p2p_index_free(ix);
        return NULL;
    }
    return ix;
}

void ls_p2p_index_free(ls_p2p_index_t *ix)
{
    if (!ix)
        return;
    for (size_t i = 0; i < ix->n; i++) {
        free(ix->pair_key ? ix->pair_key[i] : NULL);
        free(ix->word_key ? ix->word_key[i] : NULL);
        free(ix->peer_key ? ix->peer_key[i] : NULL);
    }
    ls_strindex_free(&ix->pair_ix);
    ls_strindex_free(&ix->word_ix);
    ls_strindex_free(&ix->peer_ix);
    free(ix->entry);
    free(ix->pair_key);
    free(ix->word_key);
    free(ix->peer_key);
    free(ix->peer_median);
    free(ix->peer_count);
    free(ix);
}

const json_t *ls_p2p_partner(const ls_p2p_index_t *ix, const json_t *e, long long a, long long b,
                             int want_direct, int want_uni)
{
    char *key = partner_key(e, ls_json_str(e, "method", ""), a, b, want_direct, want_uni);
    size_t pos = key ? ls_strindex_first(&ix->pair_ix, key) : LS_STRINDEX_NONE;
    free(key);
    return pos == LS_STRINDEX_NONE ? NULL : ix->entry[pos];
}

/* The figures of e's word group in document order, those of pair {a, b} left out. */
static int collect_peers(const ls_p2p_index_t *ix, const char *group, long long a, long long b,
                         double *vals, int cap)
{
    int n = 0;
    for (size_t p = ls_strindex_first(&ix->word_ix, group); p != LS_STRINDEX_NONE && n < cap;
         p = ls_strindex_next(&ix->word_ix, p)) {
        long long c = ls_json_int(ix->entry[p], "src", -1),
                  d = ls_json_int(ix->entry[p], "dst", -1);
        if (!((c == a && d == b) || (c == b && d == a)))
            vals[n++] = ls_json_num(ix->entry[p], "value", 0);
    }
    return n;
}

double ls_p2p_bidir_peers(const ls_machine_t *m, ls_p2p_index_t *ix, const json_t *e, int *peers)
{
    *peers = 0;
    if (!m->has_topo)
        return 0; /* without the topology, pairs of different links would be compared */
    long long a = ls_json_int(e, "src", -1), b = ls_json_int(e, "dst", -1);
    const char *method = ls_json_str(e, "method", "");
    char *key = in_range(a, LS_MAX_GPUS) && in_range(b, LS_MAX_GPUS)
                    ? peer_pair_key(e, method, a, b)
                    : NULL;
    if (!key)
        return 0;
    size_t memo = ls_strindex_first(&ix->peer_ix, key);
    free(key);
    if (memo != LS_STRINDEX_NONE && ix->peer_count[memo] >= 0) {
        *peers = ix->peer_count[memo];
        return ix->peer_median[memo];
    }
    char word[16];
    ls_machine_link_word(m, (int)a, (int)b, word, sizeof word);
    if (!strcmp(word, "?"))
        return 0; /* a link of no known kind (a connectivity matrix's links, no topo -m):
                     pairs of one NVLink, two and none would be compared */
    char *group = peer_group_key(e, method, word);
    double vals[LS_MAX_GPUS * 4];
    int n = group ? collect_peers(ix, group, a, b, vals, (int)(sizeof vals / sizeof *vals)) : 0;
    free(group);
    double med = n >= LS_DEGRADED_MIN_PEERS ? ls_median(vals, n) : 0;
    if (memo != LS_STRINDEX_NONE)
        ix->peer_count[memo] = n, ix->peer_median[memo] = med;
    *peers = n;
    return med;
}
