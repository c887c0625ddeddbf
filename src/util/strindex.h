/* A read-only hash index over an array of strings: the positions holding a given
   string, in order, in constant expected time (compare and check match figures with
   it instead of rescanning; docs/safety.md, "Cost"). */
#ifndef LS_UTIL_STRINDEX_H
#define LS_UTIL_STRINDEX_H

#include <stddef.h>

#define LS_STRINDEX_NONE ((size_t)-1)

typedef struct {
    size_t nbuckets, n;
    size_t *head, *next;     /* head[bucket], next[position]: LS_STRINDEX_NONE ends a chain */
    const char *const *keys; /* borrowed */
} ls_strindex_t;

/* Indexes keys[0..n). 0, or -1 when out of memory. */
int ls_strindex_build(ls_strindex_t *ix, const char *const *keys, size_t n);
/* The first position holding key, or LS_STRINDEX_NONE. */
size_t ls_strindex_first(const ls_strindex_t *ix, const char *key);
/* The next position after pos holding the same string, or LS_STRINDEX_NONE. */
size_t ls_strindex_next(const ls_strindex_t *ix, size_t pos);
void ls_strindex_free(ls_strindex_t *ix);

#endif
