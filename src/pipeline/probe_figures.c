/* The probe's figures of a run document (probe.h): each measurement the probe takes,
   reduced to what health judges, beside the ceiling of its own path. */
#include "probe.h"

#include "analyze/ceiling.h"
#include "analyze/machine.h"
#include "model/doc.h"
#include "model/view.h"

#include <string.h>

static int is(const json_t *e, const char *key, const char *want)
{
    return strcmp(ls_json_str(e, key, ""), want) == 0;
}

/* status, gbps (ok only), verified (where the entry says), error (where it has one) */
static void outcome(json_t *f, const json_t *e, const char *value_key)
{
    const char *status = ls_json_str(e, "status", "failed");
    json_object_set_new(f, "status", json_string(status));
    if (!strcmp(status, "ok"))
        json_object_set_new(f, value_key, json_real(ls_json_num(e, "value", 0)));
    const json_t *v = json_object_get(e, "verified");
    if (json_is_boolean(v))
        json_object_set(f, "verified", (json_t *)v);
    const char *err = ls_json_str(e, "error", NULL);
    if (err)
        json_object_set_new(f, "error", json_string(err));
}

static void ceiling(json_t *f, const ls_machine_t *m, const json_t *e)
{
    ls_ceiling_t c;
    if (!m || ls_ceiling_entry(m, e, &c) <= 0)
        return; /* unknown: left out */
    json_object_set_new(f, "ceiling_gbps", json_real(c.gbps));
    json_object_set_new(f, "path", json_string(ls_path_name(c.path)));
    json_object_set_new(f, "basis", json_string(c.basis));
}

/* #wrong over every row and both placements; NULL when no row was checked. */
static json_t *wrong_of(const json_t *e)
{
    long long sum = 0;
    int checked = 0;
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(e, "rows"), i, row)
        for (int k = 0; k < 2; k++) {
            const json_t *w = json_object_get(json_object_get(row, k ? "ip" : "oop"), "wrong");
            if (json_is_integer(w)) {
                sum += json_integer_value(w);
                checked = 1;
            }
        }
    return checked ? json_integer(sum) : json_null();
}

static json_t *figure_of(const ls_machine_t *m, const json_t *e)
{
    json_t *f = NULL;
    if (is(e, "family", "p2p") && is(e, "method", "ce") && is(e, "direction", "uni")) {
        f = json_pack("{s:s, s:I, s:I}", "kind", "p2p_ce", "src",
                      (json_int_t)ls_json_int(e, "src", -1), "dst",
                      (json_int_t)ls_json_int(e, "dst", -1));
        outcome(f, e, "gbps");
    } else if (is(e, "family", "hbm") && is(e, "method", "copy")) {
        f = json_pack("{s:s, s:I}", "kind", "hbm_copy", "gpu",
                      (json_int_t)ls_json_int(e, "gpu", -1));
        outcome(f, e, "gbps");
    } else if (is(e, "family", "nccl") && is(e, "collective", "all_reduce")) {
        const json_t *gpus = json_object_get(e, "gpus");
        f = json_pack("{s:s, s:o, s:f}", "kind", "all_reduce", "gpus",
                      gpus ? json_deep_copy(gpus) : json_array(), "bytes",
                      ls_nccl_largest_bytes(e));
        outcome(f, e, "busbw");
        json_object_set_new(f, "wrong", wrong_of(e));
    }
    if (f)
        ceiling(f, m, e);
    return f;
}

json_t *ls_probe_figures(const json_t *doc)
{
    json_t *out = json_array();
    ls_machine_t *m = ls_machine_new(doc);
    LS_DOC_FOREACH(e, doc, NULL)
    {
        json_t *f = figure_of(m, e.json);
        if (f)
            json_array_append_new(out, f);
    }
    ls_machine_free(m);
    return out;
}
