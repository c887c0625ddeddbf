/* A hash index over a document's one-way P2P entries for the asymmetry rule
   (rules_links.c): an entry's reverse (b -> a of the same tool and method) and the
   other tools' figures of one pair, found in constant expected time instead of a scan
   of every entry per entry (docs/safety.md, "Cost"). */
#ifndef LS_ANALYZE_UNI_INDEX_H
#define LS_ANALYZE_UNI_INDEX_H

#include "machine.h"
#include "util/strindex.h"

typedef struct {
    size_t n;
    const json_t **entry; /* position -> p2p entry, document order */
    char **figure_key;    /* pair, method and source of an ok one-way entry ("" otherwise) */
    char **pair_key;      /* ordered pair of a one-way entry, any status ("" otherwise) */
    ls_strindex_t figure_ix, pair_ix;
    const json_t **witness; /* memo at the first position of each figure_key */
    char *witness_done;
} ls_uni_index_t;

/* NULL when out of memory. */
ls_uni_index_t *ls_uni_index_new(const ls_machine_t *m);
void ls_uni_index_free(ls_uni_index_t *ix);

/* The first ok one-way entry b -> a (in document order) of e's tool and method, where e
   is a -> b; NULL when there is none (or out of memory). */
const json_t *ls_uni_reverse(const ls_uni_index_t *ix, const json_t *e);

/* The first one-way entry of e's pair and direction by another tool or method (not
   staged) for which found(entry, its reverse) says yes; NULL when none. Memoised per
   pair, tool and method, so one index serves one found function. e must be an ok
   one-way entry of the index. */
const json_t *ls_uni_witness(ls_uni_index_t *ix, const json_t *e,
                             int (*found)(const json_t *o, const json_t *r));

#endif
