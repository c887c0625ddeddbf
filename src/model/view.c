#include "view.h"
#include "doc.h"
#include "vocab.h"

#include <math.h>
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
    v.n = (int)ls_json_int(stats, "n", 0);
    v.flags = flag_bits(json_object_get(e, "flags"));
    return v;
}

ls_view_t ls_view_at(const json_t *doc, size_t i)
{
    ls_view_t v = ls_view_of(json_array_get(json_object_get(doc, "measurements"), i));
    v.index = i;
    return v;
}

ls_view_t ls_view_from(const json_t *doc, const ls_fam_t *fam, size_t i)
{
    const json_t *list = json_object_get(doc, "measurements");
    for (; i < json_array_size(list); i++) {
        const json_t *e = json_array_get(list, i);
        if (!fam || !strcmp(ls_json_str(e, "family", ""), fam->name))
            return ls_view_at(doc, i);
    }
    ls_view_t end = ls_view_of(NULL);
    end.index = i;
    return end;
}

int ls_doc_has(const json_t *doc, const ls_fam_t *fam)
{
    return ls_view_from(doc, fam, 0).json != NULL;
}
