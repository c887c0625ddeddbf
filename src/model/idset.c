#include "idset.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a, 64 bit */
static size_t hash(const char *key)
{
    uint64_t h = 14695981039346656037ull;
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    return (size_t)h;
}

void ls_idset_init(ls_idset_t *s)
{
    memset(s, 0, sizeof *s);
}

void ls_idset_free(ls_idset_t *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->slot[i].key);
    free(s->slot);
    ls_idset_init(s);
}

static ls_idslot_t *probe(ls_idslot_t *slot, size_t cap, const char *key)
{
    size_t i = hash(key) & (cap - 1);
    while (slot[i].key && strcmp(slot[i].key, key) != 0)
        i = (i + 1) & (cap - 1);
    return &slot[i];
}

ls_idslot_t *ls_idset_find(const ls_idset_t *s, const char *key)
{
    if (!s->cap)
        return NULL;
    ls_idslot_t *e = probe(s->slot, s->cap, key);
    return e->key ? e : NULL;
}

/* Doubles the table (capacity stays a power of two, load at most one half). */
static int grow(ls_idset_t *s)
{
    size_t cap = s->cap ? s->cap * 2 : 64;
    ls_idslot_t *slot = calloc(cap, sizeof *slot);
    if (!slot)
        return -1;
    for (size_t i = 0; i < s->cap; i++)
        if (s->slot[i].key)
            *probe(slot, cap, s->slot[i].key) = s->slot[i];
    free(s->slot);
    s->slot = slot;
    s->cap = cap;
    return 0;
}

ls_idslot_t *ls_idset_add(ls_idset_t *s, const char *key)
{
    if ((s->count + 1) * 2 > s->cap && grow(s) != 0)
        return NULL;
    ls_idslot_t *e = probe(s->slot, s->cap, key);
    if (!e->key) {
        if (!(e->key = strdup(key)))
            return NULL;
        e->value = 2;
        s->count++;
    }
    return e;
}
