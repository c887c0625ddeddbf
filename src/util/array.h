/* Growable arrays: one push for every list that doubles as it fills. */
#ifndef LS_UTIL_ARRAY_H
#define LS_UTIL_ARRAY_H

#include <stddef.h>

/* A new item, zeroed, at the end of the array whose pointer is at itemsp (any T **),
   with *n items used and *cap allocated: the first allocation holds first items, each
   next one twice as many. NULL when out of memory (the array is left as it was). */
void *ls_array_push(void *itemsp, size_t *n, size_t *cap, size_t size, size_t first);

#endif
