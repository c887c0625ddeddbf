/* ls_doc_add_unique: the one place a measurement's id is made unique in its document. */
#include "doc.h"
#include "idset.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* The ids of the document last added to, kept between calls. It is trusted only while the
   measurements array is the one indexed, with the count and last entry seen; anything
   else (another document, an entry added or removed elsewhere) rebuilds it. The cache
   holds a reference to that array and that entry, so that neither can be freed and its
   address given to another one while it is trusted. */
static struct {
    json_t *list, *last;
    size_t count;
    ls_idset_t ids;
} cache;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

/* Points cache.list and cache.last at list and last, holding a reference to each. */
static void cache_hold(json_t *list, json_t *last)
{
    json_incref(list);
    json_incref(last);
    json_decref(cache.list);
    json_decref(cache.last);
    cache.list = list;
    cache.last = last;
    cache.count = json_array_size(list);
}

static void cache_sync(json_t *list)
{
    size_t n = json_array_size(list);
    json_t *last = n ? json_array_get(list, n - 1) : NULL;
    if (cache.list == list && cache.count == n && cache.last == last)
        return;
    ls_idset_free(&cache.ids);
    for (size_t i = 0; i < n; i++)
        ls_idset_add(&cache.ids, ls_json_str(json_array_get(list, i), "id", ""));
    cache_hold(list, last);
}

/* The first of ID, ID-2, ID-3 ... not taken; the base remembers where its search ended
   (ids are only added, so every suffix below it stays taken). */
static void pick_id(const char *id, char *out, size_t outlen)
{
    ls_idslot_t *base = ls_idset_find(&cache.ids, id);
    snprintf(out, outlen, "%s", id);
    if (!base)
        return;
    long long k = base->value;
    for (;; k++) {
        snprintf(out, outlen, "%s-%lld", id, k);
        if (!ls_idset_find(&cache.ids, out))
            break;
    }
    base->value = k + 1;
}

void ls_doc_add_unique(json_t *doc, json_t *entry)
{
    json_t *list = json_object_get(doc, "measurements");
    if (!json_is_array(list)) {
        ls_doc_add_measurement(doc, entry); /* no list: dropped there, as before */
        return;
    }
    pthread_mutex_lock(&cache_lock);
    cache_sync(list);
    const char *id = ls_json_str(entry, "id", NULL);
    if (id) {
        char next[256];
        pick_id(id, next, sizeof next);
        if (strcmp(next, id) != 0)
            json_object_set_new(entry, "id", json_string(next));
    }
    ls_doc_add_measurement(doc, entry);
    ls_idset_add(&cache.ids, ls_json_str(entry, "id", ""));
    cache_hold(list, entry);
    pthread_mutex_unlock(&cache_lock);
}
