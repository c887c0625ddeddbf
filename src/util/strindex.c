#include "strindex.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a, 64 bits */
static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

int ls_strindex_build(ls_strindex_t *ix, const char *const *keys, size_t n)
{
    memset(ix, 0, sizeof *ix);
    size_t nb = 16;
    while (nb < 2 * n)
        nb *= 2;
    ix->head = malloc(nb * sizeof *ix->head);
    ix->next = malloc((n ? n : 1) * sizeof *ix->next);
    if (!ix->head || !ix->next) {
        ls_strindex_free(ix);
        return -1;
    }
    ix->nbuckets = nb, ix->n = n, ix->keys = keys;
    for (size_t b = 0; b < nb; b++)
        ix->head[b] = LS_STRINDEX_NONE;
    for (size_t i = n; i-- > 0;) { /* backwards, so that each chain runs in order */
        size_t b = hash(keys[i]) & (nb - 1);
        ix->next[i] = ix->head[b];
        ix->head[b] = i;
    }
    return 0;
}

static size_t same_from(const ls_strindex_t *ix, size_t pos, const char *key)
{
    while (pos != LS_STRINDEX_NONE && strcmp(ix->keys[pos], key) != 0)
        pos = ix->next[pos];
    return pos;
}

size_t ls_strindex_first(const ls_strindex_t *ix, const char *key)
{
    if (!ix->head)
        return LS_STRINDEX_NONE;
    return same_from(ix, ix->head[hash(key) & (ix->nbuckets - 1)], key);
}

size_t ls_strindex_next(const ls_strindex_t *ix, size_t pos)
{
    return same_from(ix, ix->next[pos], ix->keys[pos]);
}

void ls_strindex_free(ls_strindex_t *ix)
{
    free(ix->head);
    free(ix->next);
    memset(ix, 0, sizeof *ix);
}
