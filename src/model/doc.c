#include "doc.h"
#include "../util/fileio.h"
#include "../util/log.h"
#include "version.h"
#include "idset.h"
#include "view.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DUMP_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))

json_t *ls_doc_new(void)
{
    char created[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return json_pack("{s:s, s:s, s:{s:s, s:s}, s:{}, s:{}, s:[], s:[], s:[], s:[], s:{}, s:[]}",
                     "schema", LS_SCHEMA, "created", created, "tool", "version", LS_VERSION,
                     "commit", LS_GIT_COMMIT, "host", "software", "gpus", "links", "nics",
                     "gpu_nic_links", "env", "measurements");
}

char *ls_doc_dumps(const json_t *doc)
{
    char *text = json_dumps(doc, DUMP_FLAGS);
    if (!text)
        return NULL;
    size_t n = strlen(text);
    char *withnl = realloc(text, n + 2);
    if (!withnl) {
        free(text);
        return NULL;
    }
    withnl[n] = '\n';
    withnl[n + 1] = '\0';
    return withnl;
}

int ls_doc_write(const json_t *doc, const char *path, char *err, size_t errlen)
{
    char why[256];
    if (ls_doc_validate(doc, why, sizeof why) != 0)
        return ls_seterr(err, errlen, "%s: not written: the document would not be readable (%s)",
                         path, why);
    char *text = ls_doc_dumps(doc);
    if (!text)
        return ls_seterr(err, errlen, "%s: cannot serialize the run document", path);
    if (strlen(text) > ls_max_input_bytes()) {
        free(text);
        return ls_seterr(err, errlen,
                         "%s: not written: the document is larger than the %zu MiB "
                         "input limit (set LINKSCOPE_MAX_INPUT_MB to raise it)",
                         path, ls_max_input_bytes() >> 20);
    }
    int rc = ls_write_file_atomic(path, text, strlen(text), err, errlen);
    free(text);
    return rc;
}

json_t *ls_json_parse_checked(const char *text, const char *name, ls_json_check_fn check, char *err,
                              size_t errlen)
{
    json_error_t jerr;
    json_t *doc = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
    if (!doc) {
        ls_seterr(err, errlen, "%s: not a valid JSON document (line %d: %s)", name, jerr.line,
                  jerr.text);
        return NULL;
    }
    char why[256];
    if (check(doc, why, sizeof why) != 0) {
        ls_seterr(err, errlen, "%s: %s", name, why);
        json_decref(doc);
        return NULL;
    }
    ls_doc_sanitize(doc); /* a document is untrusted input too (docs/safety.md) */
    return doc;
}

json_t *ls_json_read_checked(const char *path, ls_json_check_fn check, char *err, size_t errlen)
{
    char *text = ls_read_file(path, NULL, err, errlen);
    if (!text)
        return NULL;
    json_t *doc = ls_json_parse_checked(text, path, check, err, errlen);
    free(text);
    return doc;
}

json_t *ls_doc_parse(const char *text, const char *name, char *err, size_t errlen)
{
    return ls_json_parse_checked(text, name, ls_doc_validate, err, errlen);
}

void ls_doc_release_at_exit(json_t *doc)
{
#ifdef LS_SANITIZED
    json_decref(doc);
#else
    static json_t *kept;
    json_decref(kept); /* a second document: the first one is freed */
    kept = doc;
#endif
}

json_t *ls_doc_read(const char *path, char *err, size_t errlen)
{
    return ls_json_read_checked(path, ls_doc_validate, err, errlen);
}

static int check_schema(const json_t *doc, char *err, size_t errlen)
{
    const json_t *schema = json_object_get(doc, "schema");
    if (!json_is_string(schema))
        return ls_seterr(err, errlen, "schema: missing; not a linkscope run document");
    const char *s = json_string_value(schema);
    size_t nlen = strlen(LS_SCHEMA_NAME);
    if (strncmp(s, LS_SCHEMA_NAME "/", nlen + 1) != 0)
        return ls_seterr(err, errlen, "schema: \"%s\" is not %s", s, LS_SCHEMA);
    char *end = NULL;
    const char *digits = s + nlen + 1;
    long version = isdigit((unsigned char)*digits) ? strtol(digits, &end, 10) : 0;
    if (version > 0 && *end)
        version = 0; /* "linkscope.run/1x": not a version */
    if (version > LS_SCHEMA_VERSION)
        return ls_seterr(err, errlen,
                         "schema: \"%s\" is newer than this linkscope reads (%s); upgrade "
                         "linkscope",
                         s, LS_SCHEMA);
    if (version < 1)
        return ls_seterr(err, errlen, "schema: \"%s\" has no valid version", s);
    return 0;
}

static int check_types(const json_t *doc, char *err, size_t errlen)
{
    static const struct {
        const char *key;
        int is_array;
    } sections[] = {{"host", 0}, {"software", 0},      {"gpus", 1}, {"links", 1},
                    {"nics", 1}, {"gpu_nic_links", 1}, {"env", 0},  {"measurements", 1}};
    if (!json_is_string(json_object_get(doc, "created")))
        return ls_seterr(err, errlen, "created: missing or not a string");
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
        const json_t *v = json_object_get(doc, sections[i].key);
        if (!v)
            return ls_seterr(err, errlen, "%s: missing (the document is truncated?)",
                             sections[i].key);
        if (sections[i].is_array ? !json_is_array(v) : !json_is_object(v))
            return ls_seterr(err, errlen, "%s: expected %s", sections[i].key,
                             sections[i].is_array ? "an array" : "an object");
    }
    return 0;
}

/* Indices may skip GPUs (an import of a run on some of them), never repeat: each index
   is looked up in a set of those seen (a document of many GPU entries stays linear). */
static int check_gpu_index(ls_idset_t *seen, size_t i, json_int_t index, char *err, size_t errlen)
{
    char key[32];
    snprintf(key, sizeof key, "%lld", (long long)index);
    ls_idslot_t *first = ls_idset_find(seen, key);
    if (first)
        return ls_seterr(err, errlen, "gpus[%zu].index: %lld is also gpus[%lld]'s", i,
                         (long long)index, first->value);
    ls_idslot_t *slot = ls_idset_add(seen, key);
    if (slot)
        slot->value = (long long)i;
    return 0;
}

static int check_gpus(const json_t *doc, char *err, size_t errlen)
{
    size_t i;
    const json_t *gpu;
    ls_idset_t seen;
    ls_idset_init(&seen);
    int rc = 0;
    json_array_foreach(json_object_get(doc, "gpus"), i, gpu) {
        if (!json_is_object(gpu) || !json_is_integer(json_object_get(gpu, "index"))) {
            rc = ls_seterr(err, errlen, "gpus[%zu].index: missing or not an integer", i);
            break;
        }
        json_int_t index = json_integer_value(json_object_get(gpu, "index"));
        if (index < 0)
            rc = ls_seterr(err, errlen, "gpus[%zu].index: %lld is negative", i, (long long)index);
        if (rc || (rc = check_gpu_index(&seen, i, index, err, errlen)) != 0)
            break;
    }
    ls_idset_free(&seen);
    if (rc)
        return rc;
    const json_t *link;
    json_array_foreach(json_object_get(doc, "links"), i, link) {
        if (!json_is_integer(json_object_get(link, "a")) ||
            !json_is_integer(json_object_get(link, "b")) ||
            !json_is_string(json_object_get(link, "type")))
            return ls_seterr(err, errlen, "links[%zu]: needs integer a, b and string type", i);
    }
    return 0;
}

static int check_measurements(const json_t *doc, char *err, size_t errlen)
{
    size_t i;
    const json_t *m;
    json_array_foreach(json_object_get(doc, "measurements"), i, m) {
        static const char *required[] = {"id", "family", "metric", "unit", "status"};
        if (!json_is_object(m))
            return ls_seterr(err, errlen, "measurements[%zu]: expected an object", i);
        for (size_t k = 0; k < sizeof required / sizeof required[0]; k++)
            if (!json_is_string(json_object_get(m, required[k])))
                return ls_seterr(err, errlen, "measurements[%zu].%s: missing or not a string", i,
                                 required[k]);
        const json_t *samples = json_object_get(m, "samples");
        if (samples && !json_is_array(samples))
            return ls_seterr(err, errlen, "measurements[%zu].samples: expected an array", i);
        size_t k;
        const json_t *s;
        json_array_foreach(samples, k, s) {
            if (!json_is_number(s))
                return ls_seterr(err, errlen, "measurements[%zu].samples[%zu]: not a number", i, k);
        }
    }
    return 0;
}

int ls_doc_validate(const json_t *doc, char *err, size_t errlen)
{
    if (!json_is_object(doc))
        return ls_seterr(err, errlen, "top level: expected an object");
    if (check_schema(doc, err, errlen) || check_types(doc, err, errlen) ||
        check_gpus(doc, err, errlen) || check_measurements(doc, err, errlen) ||
        ls_doc_check_indices(doc, err, errlen))
        return -1;
    return 0;
}

void ls_doc_add_measurement(json_t *doc, json_t *entry)
{
    json_t *list = json_object_get(doc, "measurements");
    if (!json_object_get(entry, "id")) {
        char id[96];
        snprintf(id, sizeof id, "%s-%zu", ls_json_str(entry, "family", "m"), json_array_size(list));
        json_object_set_new(entry, "id", json_string(id));
    }
    json_array_append_new(list, entry);
}

const char *ls_json_str(const json_t *obj, const char *key, const char *fallback)
{
    const json_t *v = json_object_get(obj, key);
    return json_is_string(v) ? json_string_value(v) : fallback;
}

double ls_json_num(const json_t *obj, const char *key, double fallback)
{
    const json_t *v = json_object_get(obj, key);
    return json_is_number(v) ? json_number_value(v) : fallback;
}

long long ls_json_int(const json_t *obj, const char *key, long long fallback)
{
    const json_t *v = json_object_get(obj, key);
    if (json_is_integer(v))
        return json_integer_value(v);
    /* A real outside long long's range (1e300 in a hand-edited file) has no integer
       value: converting it would be undefined behaviour. */
    if (json_is_real(v) && fabs(json_real_value(v)) < 9.2e18)
        return (long long)json_real_value(v);
    return fallback;
}

long ls_doc_next_measurement(const json_t *doc, const char *family, long start)
{
    if (ls_view_pinned(doc)) { /* the decoded views: one family's chain, no JSON lookup */
        const ls_fam_t *fam = family ? ls_fam_find(family) : NULL;
        if (!family || fam) {
            ls_view_t v = ls_view_from(doc, fam, start < 0 ? 0 : (size_t)start);
            return v.json ? (long)v.index : -1;
        }
    }
    const json_t *list = json_object_get(doc, "measurements");
    for (size_t i = start < 0 ? 0 : (size_t)start; i < json_array_size(list); i++) {
        const json_t *m = json_array_get(list, i);
        if (!family || strcmp(ls_json_str(m, "family", ""), family) == 0)
            return (long)i;
    }
    return -1;
}

void ls_json_add_string_once(json_t *strings, const char *s)
{
    ls_json_append_once(strings, json_string(s));
}

json_t *ls_json_list_index(json_t *holder, const char *index_key, const char *list)
{
    json_t *all = json_object_get(holder, index_key);
    if (!all) {
        all = json_object();
        json_object_set_new(holder, index_key, all);
    }
    json_t *ix = json_object_get(all, list);
    if (!ix) {
        ix = json_object();
        json_object_set_new_nocheck(all, list, ix);
    }
    return ix;
}

int ls_json_append_once(json_t *list, json_t *value)
{
    size_t i;
    const json_t *v;
    json_array_foreach(list, i, v) {
        if (json_equal(v, value)) {
            json_decref(value);
            return 0;
        }
    }
    return json_array_append_new(list, value) == 0;
}

const json_t *ls_doc_gpu(const json_t *doc, long long index)
{
    return ls_json_find_int(json_object_get(doc, "gpus"), "index", index, NULL, 0);
}

int ls_gpu_nvlinks_active(const json_t *gpu)
{
    int active = 0;
    size_t i;
    const json_t *l;
    json_array_foreach(json_object_get(gpu, "nvlinks"), i, l)
        active += json_is_true(json_object_get(l, "active"));
    return active;
}

json_t *ls_json_array_at(json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_array(v) && json_is_object(obj))
        json_object_set_new(obj, key, v = json_array());
    return json_is_array(v) ? v : NULL;
}

int ls_json_add_int_once(json_t *list, long long v)
{
    size_t i;
    const json_t *x;
    json_array_foreach(list, i, x) {
        if (json_integer_value(x) == v)
            return 0;
    }
    return json_array_append_new(list, json_integer(v)) == 0;
}

json_t *ls_json_object_at(json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_object(v) && json_is_object(obj))
        json_object_set_new(obj, key, v = json_object());
    return json_is_object(v) ? v : NULL;
}

json_t *ls_json_find_or_add(json_t *array, json_t *fresh, const char *key1, const char *key2)
{
    json_t *o = ls_json_find_int(array, key1, ls_json_int(fresh, key1, -1), key2,
                                 key2 ? ls_json_int(fresh, key2, -1) : 0);
    if (o) {
        json_decref(fresh);
        return o;
    }
    return json_array_append_new(array, fresh) == 0 ? fresh : NULL;
}

json_t *ls_json_find_int(const json_t *array, const char *key1, long long v1, const char *key2,
                         long long v2)
{
    size_t i;
    json_t *o;
    json_array_foreach(array, i, o) {
        if (ls_json_int(o, key1, -1) == v1 && (!key2 || ls_json_int(o, key2, -1) == v2))
            return o;
    }
    return NULL;
}
