#include "array.h"

#include <stdlib.h>
#include <string.h>

void *ls_array_push(void *itemsp, size_t *n, size_t *cap, size_t size, size_t first)
{
    char *items;
    memcpy(&items, itemsp, sizeof items); /* the caller's T *, whatever T is */
    if (*n == *cap) {
        size_t grown_cap = *cap ? *cap * 2 : first;
        char *grown = realloc(items, grown_cap * size);
        if (!grown)
            return NULL;
        items = grown;
        memcpy(itemsp, &items, sizeof items);
        *cap = grown_cap;
    }
    char *slot = items + (*n)++ * size;
    memset(slot, 0, size);
    return slot;
}
