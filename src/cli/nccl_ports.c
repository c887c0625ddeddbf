/* linkscope nccl --each-hca: plan and table (nccl_ports.h). */
#include "nccl_ports.h"
#include "analyze/ports.h"
#include "discover/nics.h"
#include "discover/discover.h"
#include "model/doc.h"
#include "render/format.h"

#include <stdlib.h>

const json_t *ls_each_hca_plan(const char *root)
{
    static json_t *kept; /* the settings are variant strings until the program ends */
    if (kept)
        return kept;
    ls_nic_t *nics = calloc(LS_MAX_NICS, sizeof *nics);
    json_t *list = json_array();
    int n = nics ? ls_nics_list(root, nics, LS_MAX_NICS) : 0;
    for (int i = 0; i < n; i++)
        json_array_append_new(list, ls_nic_to_json(&nics[i], i));
    free(nics);
    kept = ls_port_sweep_plan(list);
    json_decref(list);
    return kept;
}

static void fmt(double v, const char *unit, char *buf, size_t len)
{
    if (v > 0)
        snprintf(buf, len, "%.1f%s", v, unit);
    else
        snprintf(buf, len, "-"); /* unknown: the port's rate is not in the document */
}

void ls_each_hca_print(FILE *out, const json_t *doc)
{
    static const char *head[] = {"collective",   "ports (NCCL_IB_HCA)", "line rate Gb/s",
                                 "ceiling GB/s", "busbw GB/s",          "of ceiling"};
    ls_table_t *t = ls_table_new("Per-port sweep: busbw at the largest size; ceiling = the ports' "
                                 "line rate / 8",
                                 6, head);
    json_t *rows = ls_port_sweep_rows(doc);
    size_t i;
    const json_t *r;
    json_array_foreach(rows, i, r) {
        char rate[32], ceil[32], bw[32], frac[32];
        fmt(ls_json_num(r, "rate_gbps", 0), "", rate, sizeof rate);
        fmt(ls_json_num(r, "ceiling_gbs", 0), "", ceil, sizeof ceil);
        fmt(ls_json_num(r, "busbw", 0), "", bw, sizeof bw);
        fmt(100 * ls_json_num(r, "fraction", 0), " %", frac, sizeof frac);
        const char *setting = ls_json_str(r, "setting", "");
        const char *cells[] = {ls_json_str(r, "collective", ""),
                               setting + sizeof "NCCL_IB_HCA=" - 1,
                               rate,
                               ceil,
                               bw,
                               frac};
        ls_table_row(t, cells);
    }
    char *text = ls_format_table(&ls_format_term, t);
    fputs(text, out);
    free(text);
    ls_table_free(t);
    json_decref(rows);
    json_t *found = json_array();
    ls_port_sweep_findings(doc, found);
    const json_t *f;
    json_array_foreach(found, i, f)
        fprintf(out, "  warning: %s\n", ls_json_str(f, "message", ""));
    if (json_array_size(found) == 0)
        fprintf(out, "  no port far below its rate, none below a slower port, all together not "
                     "slower\n");
    json_decref(found);
}
