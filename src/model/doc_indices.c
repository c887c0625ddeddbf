/* Every GPU index a measurement entry names (src, dst, gpu, gpus[]) checked against the
   machine view it indexes (LS_MAX_GPUS wide, model/topo.h), where a document is read: a
   forged index (2000000000, 64, -2) is refused here, so no reader behind it can index
   out of bounds (docs/safety.md "Forged indices"). */
#include "doc.h"
#include "entries.h"
#include "topo.h"
#include "../util/log.h"
#include "vocab.h"

#include <stdio.h>
#include <string.h>

/* 0 when v is absent or an integer in [lowest, LS_MAX_GPUS); else the reason in why. */
static int check_index(const json_t *v, long long lowest, char *why, size_t len)
{
    if (!v)
        return 0;
    if (!json_is_integer(v))
        return ls_seterr(why, len, "is not an integer");
    long long x = json_integer_value(v);
    if (x < lowest || x >= LS_MAX_GPUS)
        return ls_seterr(why, len, "%lld is not a GPU index (0-%d%s)", x, LS_MAX_GPUS - 1,
                         lowest < 0 ? ", or -1 for host memory" : "");
    return 0;
}

static int check_entry(const json_t *m, size_t i, char *err, size_t errlen)
{
    static const struct {
        const char *key;
        long long lowest;
    } fields[] = {{"src", 0}, {"dst", LS_HOST_SIDE}, {"gpu", 0}};
    char why[128];
    const char *id = ls_json_str(m, "id", "?");
    /* only a latency entry's dst may be host memory (docs/schema.md) */
    int host_dst = strcmp(ls_json_str(m, "family", ""), LS_FAMILY_LATENCY) == 0;
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
        long long lowest = fields[k].lowest < 0 && !host_dst ? 0 : fields[k].lowest;
        if (check_index(json_object_get(m, fields[k].key), lowest, why, sizeof why))
            return ls_seterr(err, errlen, "measurements[%zu] (%s).%s: %s", i, id, fields[k].key,
                             why);
    }
    const json_t *gpus = json_object_get(m, "gpus");
    if (gpus && !json_is_array(gpus))
        return ls_seterr(err, errlen, "measurements[%zu] (%s).gpus: expected an array", i, id);
    size_t k;
    const json_t *g;
    json_array_foreach(gpus, k, g) {
        if (check_index(g, 0, why, sizeof why))
            return ls_seterr(err, errlen, "measurements[%zu] (%s).gpus[%zu]: %s", i, id, k, why);
    }
    return 0;
}

int ls_doc_check_indices(const json_t *doc, char *err, size_t errlen)
{
    size_t i;
    const json_t *m;
    json_array_foreach(json_object_get(doc, "measurements"), i, m) {
        if (check_entry(m, i, err, errlen))
            return -1;
    }
    json_array_foreach(json_object_get(doc, "gpus"), i, m) {
        long long index = ls_json_int(m, "index", -1);
        if (index >= LS_MAX_GPUS)
            return ls_seterr(err, errlen,
                             "gpus[%zu].index: %lld: linkscope reads up to %d GPUs "
                             "per machine",
                             i, index, LS_MAX_GPUS);
    }
    json_array_foreach(json_object_get(doc, "links"), i, m) {
        long long a = ls_json_int(m, "a", -1), b = ls_json_int(m, "b", -1);
        if (a < 0 || b < 0 || a >= LS_MAX_GPUS || b >= LS_MAX_GPUS)
            return ls_seterr(err, errlen,
                             "links[%zu]: %lld-%lld is not a pair of GPU indices "
                             "(0-%d)",
                             i, a, b, LS_MAX_GPUS - 1);
    }
    return 0;
}
