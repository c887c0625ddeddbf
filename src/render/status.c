#include "status.h"
#include "model/doc.h"
#include "model/view.h"
#include "model/vocab.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int row_wrong(const json_t *row)
{
    return ls_json_num(json_object_get(row, "oop"), "wrong", 0) > 0 ||
           ls_json_num(json_object_get(row, "ip"), "wrong", 0) > 0;
}

static int listed(const json_t *ids, const char *id)
{
    size_t i;
    const json_t *v;
    json_array_foreach(ids, i, v) {
        if (json_is_string(v) && !strcmp(json_string_value(v), id))
            return 1;
    }
    return 0;
}

const char *ls_status_row_word(const json_t *plan, const json_t *entry, const json_t *row)
{
    if (!entry)
        return "-";
    const char *status = ls_json_str(entry, "status", "ok");
    if (strcmp(status, "ok"))
        return status;
    if (row && row_wrong(row))
        return "wrong";
    if (!row) {
        size_t i;
        const json_t *r;
        json_array_foreach(json_object_get(entry, "rows"), i, r) {
            if (row_wrong(r))
                return "wrong";
        }
    }
    return listed(json_object_get(plan, "noisy"), ls_json_str(entry, "id", "")) ? "noisy" : "ok";
}

const char *ls_status_word(const json_t *plan, const json_t *entry)
{
    return ls_status_row_word(plan, entry, NULL);
}

void ls_entry_tail_cells(const json_t *plan, const json_t *entry, const char *cells[3])
{
    cells[0] = ls_json_str(entry, "source", LS_SOURCE_LINKSCOPE);
    cells[1] = ls_json_str(entry, "id", "");
    cells[2] = ls_status_word(plan, entry);
}

double ls_plan_ceiling(const json_t *plan, const json_t *entry)
{
    return ls_json_num(json_object_get(json_object_get(plan, "ceilings"),
                                       ls_json_str(entry, "id", "")),
                       "ceiling_gbps", 0);
}

void ls_peak_cell(const json_t *plan, const json_t *entry, double value, char *buf, size_t len)
{
    double peak = ls_plan_ceiling(plan, entry);
    if (!entry || !isfinite(value) || value <= 0)
        snprintf(buf, len, "-");
    else if (peak <= 0)
        snprintf(buf, len, "unknown");
    else
        snprintf(buf, len, "%.0f%%", 100 * value / peak);
}

const json_t *ls_doc_entry_by_id(const json_t *doc, const char *id)
{
    LS_DOC_FOREACH(v, doc, NULL)
    {
        if (id && *id && !strcmp(v.id, id))
            return v.json;
    }
    return NULL;
}

const char *ls_pair_status(const json_t *doc, const json_t *plan, int a, int b,
                           const json_t *chosen)
{
    int any = 0;
    LS_DOC_FOREACH(v, doc, NULL)
    {
        if (!v.fam || v.fam->per != LS_PER_PAIR || v.src != a || v.dst != b)
            continue;
        any = 1;
        if (strcmp(ls_json_str(v.json, "status", "ok"), "ok"))
            return v.status;
    }
    return chosen ? ls_status_word(plan, chosen) : any ? "ok" : "-";
}
