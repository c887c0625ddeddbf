/* The CSV exports (report --format csv): one value per column, numbers at full precision
   (the shortest decimal that reads back as the document's double, integers as integers), unknown as
   an empty field. The display tables (table.c) round and combine values for people;
   these are for spreadsheets and scripts. Columns: docs/reports.md. */
#include "format.h"
#include "render.h"
#include "status.h"
#include "model/doc.h"
#include "model/entry.h"
#include "model/vocab.h"
#include "model/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CELL = 48 };

/* A number at full precision, "" when unknown (NAN, or absent). */
static void full(char *buf, double v)
{
    ls_fmt_full(v, buf, CELL);
}

/* An integer field, "" when absent or below min (unknown: -1 NUMA node, 0 clocks). */
static void integer(char *buf, const json_t *obj, const char *key, long long min)
{
    const json_t *v = json_object_get(obj, key);
    double d = json_number_value(v); /* a real past long long's range has no integer value */
    if (json_is_number(v) && fabs(d) < 9.2e18 && (long long)d >= min)
        snprintf(buf, CELL, "%lld", (long long)d);
    else
        buf[0] = '\0';
}

static void number(char *buf, const json_t *obj, const char *key)
{
    full(buf, json_is_number(json_object_get(obj, key))
                  ? json_number_value(json_object_get(obj, key))
                  : NAN);
}

static ls_table_t *boards(const json_t *doc)
{
    static const char *header[] = {"gpu",           "name",
                                   "pci_bus_id",    "memory_bytes",
                                   "sm_app_mhz",    "sm_max_mhz",
                                   "mem_mhz",       "hbm_theoretical_gbps",
                                   "pcie_gen",      "pcie_width",
                                   "pcie_gen_max",  "pcie_width_max",
                                   "power_limit_w", "power_default_w",
                                   "numa_node",     "nvlinks_active",
                                   "nvlinks"};
    ls_table_t *t = ls_table_new("boards_clocks", 17, header);
    size_t i;
    const json_t *g;
    json_array_foreach(json_object_get(doc, "gpus"), i, g) {
        const json_t *clk = json_object_get(g, "clocks"), *p = json_object_get(g, "pcie"),
                     *pw = json_object_get(g, "power"), *links = json_object_get(g, "nvlinks");
        char c[17][CELL];
        integer(c[0], g, "index", 0);
        integer(c[3], g, "memory_total_bytes", 1);
        integer(c[4], clk, "sm_app_mhz", 1);
        integer(c[5], clk, "sm_max_mhz", 1);
        integer(c[6], clk, json_object_get(clk, "mem_max_mhz") ? "mem_max_mhz" : "mem_mhz", 1);
        number(c[7], g, "hbm_theoretical_gbps");
        integer(c[8], p, "gen_current", 1);
        integer(c[9], p, "width_current", 1);
        integer(c[10], p, "gen_max", 1);
        integer(c[11], p, "width_max", 1);
        number(c[12], pw, "limit_w");
        number(c[13], pw, "default_limit_w");
        integer(c[14], g, "numa_node", 0);
        snprintf(c[15], CELL, "%d", ls_gpu_nvlinks_active(g));
        snprintf(c[16], CELL, "%zu", json_array_size(links));
        if (!json_array_size(links))
            c[15][0] = c[16][0] = '\0';
        const char *row[17];
        for (int k = 0; k < 17; k++)
            row[k] = c[k];
        row[1] = ls_json_str(g, "name", "");
        row[2] = ls_json_str(g, "pci_bus_id", "");
        ls_table_row(t, row);
    }
    return t;
}

/* value as a percentage of the entry's hardware ceiling (plan.ceilings), "" unknown. */
static void pct_cell(const json_t *plan, const json_t *e, double value, char *buf, size_t len)
{
    double c = ls_plan_ceiling(plan, e);
    ls_fmt_full(e && c > 0 && isfinite(value) ? 100 * value / c : NAN, buf, len);
}

/* The document's word as it is, "" when it has none. */
static const char *link_word(const json_t *l, const char *key)
{
    return ls_json_str(l, key, "");
}

static ls_table_t *paths(const json_t *doc, const json_t *plan)
{
    static const ls_path_cells_t cells = {.figure = ls_fmt_full,
                                          .peak = pct_cell,
                                          .link_word = link_word};
    return ls_paths_table(doc, plan, "p2p_paths", &cells);
}

static void collective_rows(ls_table_t *t, const json_t *e, const json_t *plan)
{
    ls_buf_t gb = {0};
    ls_buf_gpus(&gb, json_object_get(e, "gpus"));
    char *gpus = ls_buf_take(&gb), nr[CELL];
    integer(nr, e, "nranks", 1);
    size_t k;
    const json_t *r;
    json_array_foreach(json_object_get(e, "rows"), k, r) {
        const json_t *o = json_object_get(r, "oop"), *p = json_object_get(r, "ip");
        char c[9][CELL];
        integer(c[0], r, "bytes", 0);
        number(c[1], o, "time_us");
        number(c[2], o, "algbw");
        number(c[3], o, "busbw");
        integer(c[4], o, "wrong", 0);
        number(c[5], p, "time_us");
        number(c[6], p, "algbw");
        number(c[7], p, "busbw");
        integer(c[8], p, "wrong", 0);
        char share[CELL];
        pct_cell(plan, e, ls_json_num(json_is_object(o) ? o : p, "busbw", NAN), share, CELL);
        const char *row[16] = {ls_json_str(e, "id", ""), ls_json_str(e, "collective", ""),
                               ls_json_str(e, "variant", "default"), gpus, nr};
        for (int m = 0; m < 9; m++)
            row[5 + m] = c[m];
        row[14] = share;
        row[15] = ls_status_row_word(plan, e, r);
        ls_table_row(t, row);
    }
    free(gpus);
}

static ls_table_t *collectives(const json_t *doc, const json_t *plan)
{
    static const char *header[] = {"entry",         "collective",     "variant",
                                   "gpus",          "nranks",         "bytes",
                                   "oop_time_us",   "oop_algbw_gbps", "oop_busbw_gbps",
                                   "oop_wrong",     "ip_time_us",     "ip_algbw_gbps",
                                   "ip_busbw_gbps", "ip_wrong",       "busbw_pct_of_peak",
                                   "status"};
    ls_table_t *t = ls_table_new("collectives", 16, header);
    LS_DOC_FOREACH(v, doc, &ls_fam_nccl)
    {
        collective_rows(t, v.json, plan);
    }
    return t;
}

/* The statistics of an entry's samples: median, min, max, cv, samples. */
static void stats(char c[5][CELL], const json_t *e)
{
    const json_t *s = json_object_get(e, "stats");
    full(c[0], ls_json_num(e, "value", NAN));
    number(c[1], s, "min");
    number(c[2], s, "max");
    number(c[3], s, "cv");
    integer(c[4], s, "n", 0);
}

/* One row per entry of family, its own columns first (cols fills them), then the
   statistics, the ceiling, % of it, source, entry and status. */
static ls_table_t *family_table(const json_t *doc, const json_t *plan, const ls_fam_t *family,
                                const char *name, int nown, const char *const *own,
                                void (*cols)(const json_t *e, char c[][CELL]))
{
    static const char *const tail[] = {"median", "min",         "max",    "cv",    "samples",
                                       "peak",   "pct_of_peak", "source", "entry", "status"};
    const char *header[16];
    for (int i = 0; i < nown; i++)
        header[i] = own[i];
    for (int i = 0; i < 10; i++)
        header[nown + i] = tail[i];
    ls_table_t *t = ls_table_new(name, nown + 10, header);
    LS_DOC_FOREACH(v, doc, family)
    {
        const json_t *e = v.json;
        char c[16][CELL];
        cols(e, c);
        stats(c + nown, e);
        double peak = ls_plan_ceiling(plan, e);
        full(c[nown + 5], peak > 0 ? peak : NAN);
        pct_cell(plan, e, ls_json_num(e, "value", NAN), c[nown + 6], CELL);
        const char *row[16];
        for (int k = 0; k < nown + 7; k++)
            row[k] = c[k];
        ls_entry_tail_cells(plan, e, row + nown + 7);
        ls_table_row(t, row);
    }
    return t;
}

static void hbm_cols(const json_t *e, char c[][CELL])
{
    integer(c[0], e, "gpu", 0);
    snprintf(c[1], CELL, "%s", ls_json_str(e, "method", ""));
}

static void host_cols(const json_t *e, char c[][CELL])
{
    integer(c[0], e, "gpu", 0);
    integer(c[1], e, "numa_node", 0);
    snprintf(c[2], CELL, "%s", ls_json_str(e, "direction", ""));
    snprintf(c[3], CELL, "%s", ls_json_str(e, "memory", ""));
}

/* dst is empty for the host (a GPU reading host memory) */
static void latency_cols(const json_t *e, char c[][CELL])
{
    snprintf(c[0], CELL, "%s", ls_json_str(e, "method", ""));
    integer(c[1], e, "src", 0);
    integer(c[2], e, "dst", 0);
    snprintf(c[3], CELL, "%s", ls_entry_has_flag(e, LS_FLAG_THROUGH_HOST) ? "yes" : "no");
}

char *ls_report_csv(const json_t *doc, const json_t *plan, const char *name)
{
    static const char *const hbm_own[] = {"gpu", "method"};
    static const char *const host_own[] = {"gpu", "numa_node", "direction", "memory"};
    static const char *const lat_own[] = {"method", "src", "dst", "through_host"};
    ls_table_t *t = !strcmp(name, "boards_clocks") ? boards(doc)
                    : !strcmp(name, "p2p_paths")   ? paths(doc, plan)
                    : !strcmp(name, "collectives") ? collectives(doc, plan)
                    : !strcmp(name, LS_FAMILY_HBM)
                        ? family_table(doc, plan, &ls_fam_hbm, LS_FAMILY_HBM, 2, hbm_own, hbm_cols)
                    : !strcmp(name, "host_copies")
                        ? family_table(doc, plan, &ls_fam_host, "host_copies", 4, host_own,
                                       host_cols)
                    : !strcmp(name, LS_FAMILY_LATENCY)
                        ? family_table(doc, plan, &ls_fam_latency, LS_FAMILY_LATENCY, 4, lat_own,
                                       latency_cols)
                        : NULL;
    if (!t)
        return NULL;
    char *text = ls_format_table(&ls_format_csv, t);
    ls_table_free(t);
    return text;
}
