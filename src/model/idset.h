/* A set of strings (measurement ids) with a counter per string, for making ids unique
   in time proportional to the entries added, not to the document's size (issue 13:
   rescanning made importing concatenated runs cubic). Open addressing, linear probing. */
#ifndef LS_MODEL_IDSET_H
#define LS_MODEL_IDSET_H

#include <stddef.h>

typedef struct {
    char *key;
    long long value; /* the user's: for a base id the suffix to try next, 2 when added */
} ls_idslot_t;

typedef struct {
    ls_idslot_t *slot;
    size_t cap, count;
} ls_idset_t;

void ls_idset_init(ls_idset_t *s);
void ls_idset_free(ls_idset_t *s);
/* The slot holding key, or NULL. */
ls_idslot_t *ls_idset_find(const ls_idset_t *s, const char *key);
/* Adds key (copied) if absent; returns its slot, or NULL when out of memory. */
ls_idslot_t *ls_idset_add(ls_idset_t *s, const char *key);

#endif
