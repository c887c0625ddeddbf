/* Every string of a document (values and keys) passed through ls_sanitize_text: applied
   where untrusted text enters, on import and on reading a run document. */
#include "doc.h"
#include "../util/sanitize.h"

#include <stdlib.h>
#include <string.h>

static void sanitize_object(json_t *obj);

static void sanitize_value(json_t *v)
{
    if (json_is_string(v) && ls_text_needs_sanitize(json_string_value(v))) {
        char *copy = strdup(json_string_value(v));
        if (copy) {
            ls_sanitize_text(copy);
            json_string_set(v, copy);
            free(copy);
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *item;
        json_array_foreach(v, i, item)
            sanitize_value(item);
    } else if (json_is_object(v)) {
        sanitize_object(v);
    }
}

/* A key with a control character is re-inserted clean, at the end (rare: a hostile log). */
static void sanitize_object(json_t *obj)
{
    const char *key;
    json_t *val;
    void *tmp;
    json_object_foreach_safe(obj, tmp, key, val) {
        sanitize_value(val);
        if (!ls_text_needs_sanitize(key))
            continue;
        char *clean = strdup(key);
        if (!clean)
            continue;
        ls_sanitize_text(clean);
        json_incref(val);
        json_object_del(obj, key);
        if (!json_object_get(obj, clean))
            json_object_set(obj, clean, val);
        json_decref(val);
        free(clean);
    }
}

void ls_doc_sanitize(json_t *doc)
{
    sanitize_value(doc);
}
