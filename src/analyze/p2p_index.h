/* Hash indexes over a document's P2P entries for the P2P rules (rules_p2p.c): the entry
   of a pair of the same tool and mode, the figures of other pairs of one link word, and
   which pairs something in the document says have no peer access. Built once per
   findings run, so that each rule is linear in entries, not entries x entries
   (docs/safety.md, "Cost"). */
#ifndef LS_ANALYZE_P2P_INDEX_H
#define LS_ANALYZE_P2P_INDEX_H

#include "machine.h"
#include "model/view.h"
#include "util/strindex.h"

typedef struct {
    size_t n;
    const json_t **entry; /* position -> p2p entry, document order */
    char **pair_key;      /* partner key of each entry ("" when it is no partner) */
    char **word_key;      /* source, method and link word of a bidir peer ("" when none) */
    char **peer_key;      /* source, method and unordered pair of a bidir entry */
    ls_strindex_t pair_ix, word_ix, peer_ix;
    double *peer_median; /* bidir_peers memo at the first position of each peer_key */
    int *peer_count;     /* -1: not computed yet */
    /* no_peer_access: the first blocking link or no_p2p entry of each ordered pair */
    const json_t *blocking_link[LS_MAX_GPUS][LS_MAX_GPUS];
    const json_t *no_p2p_entry[LS_MAX_GPUS][LS_MAX_GPUS];
} ls_p2p_index_t;

/* NULL when out of memory. */
ls_p2p_index_t *ls_p2p_index_new(const ls_machine_t *m);
void ls_p2p_index_free(ls_p2p_index_t *ix);

/* The first ok entry (not under load) from a to b of e's tool and mode, direct
   (want_direct, then also of e's method) or staged, one-way (want_uni) or both ways. */
const json_t *ls_p2p_partner(const ls_p2p_index_t *ix, const json_t *e, long long a, long long b,
                             int want_direct, int want_uni);
/* Median of the first LS_MAX_GPUS * 4 direct bidir figures of e's tool and method on
   other pairs of e's link word (*peers of them); memoised per tool, method and pair. */
double ls_p2p_bidir_peers(const ls_machine_t *m, ls_p2p_index_t *ix, const json_t *e, int *peers);

/* Key helpers shared with the builder: 1 for an ok figure, a direct one, a one-way one. */
int ls_p2p_ok(const json_t *e);
int ls_p2p_view_ok(const ls_view_t *v); /* ls_p2p_ok of an entry's view */
int ls_p2p_direct(const json_t *e);
int ls_p2p_uni(const json_t *e);
/* 1 for a one-way direction word (NULL, none said: one-way), as ls_p2p_uni of an entry. */
int ls_p2p_uni_word(const char *direction);
/* 1 when a topo -p2p status (or its word) says the pair has no peer access. */
int ls_p2p_status_blocks(enum ls_p2p_status s);
int ls_p2p_word_blocks(const char *w);

#endif
