/* The concurrency check (concurrency.h). */
#include "concurrency.h"
#include "doc.h"

int ls_concurrent_lower(double conc_median, double conc_max, double alone_median, double alone_min)
{
    return alone_median > 0 && conc_max < alone_min &&
           (alone_median - conc_median) / alone_median >= LS_CONCURRENT_MIN_DROP;
}

static json_t *summary(const json_t *e)
{
    const json_t *st = json_object_get(e, "stats");
    if (!json_is_object(st))
        return NULL;
    return json_pack("{s:f, s:f, s:f}", "value", ls_json_num(st, "median", 0), "min",
                     ls_json_num(st, "min", 0), "max", ls_json_num(st, "max", 0));
}

json_t *ls_concurrency_check(const json_t *concurrent, const json_t *alone)
{
    json_t *c = summary(concurrent), *a = summary(alone);
    if (!c || !a) {
        json_decref(c);
        json_decref(a);
        return NULL;
    }
    json_object_set_new(c, "pairs",
                        json_integer(
                            ls_json_int(json_object_get(concurrent, "round"), "pairs", 1)));
    int lower = ls_concurrent_lower(ls_json_num(c, "value", 0), ls_json_num(c, "max", 0),
                                    ls_json_num(a, "value", 0), ls_json_num(a, "min", 0));
    return json_pack("{s:o, s:o, s:b}", "concurrent", c, "alone", a, "lower", lower);
}
