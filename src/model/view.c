#include "view.h"
#include "doc.h"
#include "vocab.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static unsigned flag_bits(const json_t *flags)
{
    static const struct {
        const char *word;
        unsigned bit;
    } words[] = {
        {.word = LS_FLAG_NO_P2P, .bit = LS_VF_NO_P2P},
        {.word = LS_FLAG_THROUGH_HOST, .bit = LS_VF_THROUGH_HOST},
        {.word = LS_FLAG_THROTTLED, .bit = LS_VF_THROTTLED},
        {.word = LS_FLAG_BELOW_APP_CLOCKS, .bit = LS_VF_BELOW_APP_CLOCKS},
        {.word = LS_FLAG_IMPORTED, .bit = LS_VF_IMPORTED},
    };
    unsigned bits = 0;
    size_t i;
    const json_t *f;
    json_array_foreach(flags, i, f) {
        for (size_t k = 0; json_is_string(f) && k < sizeof words / sizeof words[0]; k++)
            if (!strcmp(json_string_value(f), words[k].word))
                bits |= words[k].bit;
    }
    return bits;
}

static int int_field(const json_t *e, const char *key)
{
    const json_t *v = json_object_get(e, key);
    return json_is_integer(v) && json_integer_value(v) >= -1 && json_integer_value(v) < 1 << 30
               ? (int)json_integer_value(v)
               : -1;
}

ls_view_t ls_view_of(const json_t *e)
{
    ls_view_t v = {.json = e, .src = -1, .dst = -1, .gpu = -1, .value = NAN};
    if (!e)
        return v;
    v.family = ls_json_str(e, "family", "");
    v.fam = ls_fam_find(v.family);
    v.method_word = ls_json_str(e, "method", "");
    v.method = v.fam ? ls_fam_method(v.fam, v.method_word) : NULL;
    v.id = ls_json_str(e, "id", "");
    v.status = ls_json_str(e, "status", "");
    v.ok = !strcmp(v.status, "ok");
    v.metric = ls_json_str(e, "metric", "");
    v.unit = ls_json_str(e, "unit", "");
    v.direction = ls_json_str(e, "direction", NULL);
    v.src = int_field(e, "src");
    v.dst = int_field(e, "dst");
    v.gpu = int_field(e, "gpu");
    const json_t *value = json_object_get(e, "value");
    if (json_is_number(value))
        v.value = json_number_value(value);
    const json_t *stats = json_object_get(e, "stats");
    v.cv = ls_json_num(stats, "cv", 0);
    long long n = ls_json_int(stats, "n", 0); /* a forged 2^32 + 1 is not 1 */
    v.n = n > INT_MAX ? INT_MAX : n < INT_MIN ? INT_MIN : (int)n;
    v.flags = flag_bits(json_object_get(e, "flags"));
    return v;
}

/* The views of one document's entries, decoded once while the document is pinned
   (ls_view_pin): the rules and the plan walk measurements[] dozens of times, and each
   walk through the JSON costs a hash lookup per field of every entry, most of them cache
   misses on a large document. One cache per thread (fleet's workers run the rules on
   their own documents). */
typedef struct {
    const json_t *doc, *list; /* the pinned document and its measurements[] when decoded */
    size_t n;                 /* entries decoded */
    ls_view_t *views;         /* views[i]: measurements[i] */
    signed char *slot;        /* views[i]'s family: its place in ls_fams[], -1 none */
    size_t *next;             /* the next index of the same family; n past the last */
    size_t first[LS_VIEW_FAMS];
    int pins;
} view_cache_t;

static _Thread_local view_cache_t cache;

/* The family's place in ls_fams[], or -1 (a descriptor outside the table). */
static int fam_slot(const ls_fam_t *fam)
{
    for (int k = 0; fam && k < LS_VIEW_FAMS && ls_fams[k]; k++)
        if (ls_fams[k] == fam)
            return k;
    return -1;
}

static void cache_drop(void)
{
    free(cache.views);
    free(cache.slot);
    free(cache.next);
    cache.views = NULL, cache.slot = NULL, cache.next = NULL;
    cache.list = NULL, cache.n = 0;
}

/* Decodes every entry of list; 0, or -1 out of memory (nothing cached). */
static int cache_fill(const json_t *list)
{
    cache_drop();
    size_t n = json_array_size(list), last[LS_VIEW_FAMS];
    cache.views = malloc((n ? n : 1) * sizeof *cache.views);
    cache.slot = malloc(n ? n : 1);
    cache.next = malloc((n ? n : 1) * sizeof *cache.next);
    if (!cache.views || !cache.slot || !cache.next) {
        cache_drop();
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        cache.views[i] = ls_view_of(json_array_get(list, i));
        cache.views[i].index = i;
        cache.slot[i] = (signed char)fam_slot(cache.views[i].fam);
    }
    for (int k = 0; k < LS_VIEW_FAMS; k++)
        last[k] = n;
    for (size_t i = n; i-- > 0;) {
        if (cache.slot[i] >= 0) {
            cache.next[i] = last[cache.slot[i]];
            last[cache.slot[i]] = i;
        }
    }
    memcpy(cache.first, last, sizeof last);
    cache.list = list, cache.n = n;
    return 0;
}

/* The cache when doc is pinned and its views are decoded from measurements[] as it is
   now (decoded again when the list was replaced or changed size), else NULL. */
static const view_cache_t *cached(const json_t *doc)
{
    if (!cache.pins || cache.doc != doc)
        return NULL;
    const json_t *list = json_object_get(doc, "measurements");
    if ((list != cache.list || json_array_size(list) != cache.n || !cache.views) &&
        cache_fill(list) != 0)
        return NULL;
    return &cache;
}

void ls_view_pin(const json_t *doc)
{
    if (cache.pins && cache.doc != doc)
        return; /* another document is pinned: this one is read from its JSON */
    if (!cache.pins++)
        cache.doc = doc;
}

void ls_view_unpin(const json_t *doc)
{
    if (!cache.pins || cache.doc != doc || --cache.pins)
        return;
    cache_drop();
    cache.doc = NULL;
}

static ls_view_t end_view(size_t i)
{
    ls_view_t end = ls_view_of(NULL);
    end.index = i;
    return end;
}

/* ls_view_from through the cache: the family's chain where fam is in the table. */
static ls_view_t cached_from(const view_cache_t *c, const ls_fam_t *fam, size_t i)
{
    int slot = fam_slot(fam);
    if (fam && slot >= 0 && i == 0)
        i = c->first[slot];
    else if (fam && slot >= 0 && i > 0 && i <= c->n && c->slot[i - 1] == slot)
        i = c->next[i - 1];
    while (i < c->n && fam &&
           (slot >= 0 ? c->slot[i] != slot : strcmp(c->views[i].family, fam->name) != 0))
        i++;
    return i < c->n ? c->views[i] : end_view(i);
}

ls_view_t ls_view_at(const json_t *doc, size_t i)
{
    const view_cache_t *c = cached(doc);
    if (c)
        return i < c->n ? c->views[i] : end_view(i);
    ls_view_t v = ls_view_of(json_array_get(json_object_get(doc, "measurements"), i));
    v.index = i;
    return v;
}

ls_view_t ls_view_from(const json_t *doc, const ls_fam_t *fam, size_t i)
{
    const view_cache_t *c = cached(doc);
    if (c)
        return cached_from(c, fam, i);
    const json_t *list = json_object_get(doc, "measurements");
    for (; i < json_array_size(list); i++) {
        const json_t *e = json_array_get(list, i);
        if (!fam || !strcmp(ls_json_str(e, "family", ""), fam->name))
            return ls_view_at(doc, i);
    }
    return end_view(i);
}

int ls_view_pinned(const json_t *doc)
{
    return cached(doc) != NULL;
}

int ls_doc_has(const json_t *doc, const ls_fam_t *fam)
{
    return ls_view_from(doc, fam, 0).json != NULL;
}
