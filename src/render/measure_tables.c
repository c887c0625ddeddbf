#include "measure_tables.h"
#include "format.h"
#include "strbuf.h"
#include "model/doc.h"
#include "model/entries.h"
#include "model/view.h"
#include "model/vocab.h"
#include "util/fileio.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The entry of a family matching the filters, or NULL. memory/direction may be NULL. */
static const json_t *find(const json_t *doc, const ls_fam_t *family, long long gpu,
                          const char *method, long long node, const char *memory,
                          const char *direction)
{
    LS_DOC_FOREACH(v, doc, family)
    {
        const json_t *e = v.json;
        if (ls_json_int(e, "gpu", -9) != gpu)
            continue;
        if (method && strcmp(ls_json_str(e, "method", ""), method) != 0)
            continue;
        if (node >= 0 && ls_json_int(e, "numa_node", -9) != node)
            continue;
        if (memory && strcmp(ls_json_str(e, "memory", ""), memory) != 0)
            continue;
        if (direction && strcmp(ls_json_str(e, "direction", ""), direction) != 0)
            continue;
        return e;
    }
    return NULL;
}

static void cell(char *buf, size_t len, const json_t *e, const char *key, double scale)
{
    if (!e)
        snprintf(buf, len, "-");
    else if (strcmp(ls_json_str(e, "status", ""), "ok") != 0)
        snprintf(buf, len, "%s", ls_json_str(e, "status", "?"));
    else
        snprintf(buf, len, "%.1f", ls_json_num(e, key, NAN) * scale);
}

/* Distinct values of an integer key among a family's entries, sorted. */
static int distinct(const json_t *doc, const ls_fam_t *family, const char *key, long long *out,
                    int max)
{
    int n = 0;
    LS_DOC_FOREACH(ent, doc, family)
    {
        long long v = ls_json_int(ent.json, key, -9);
        if (v == -9)
            continue;
        int seen = 0;
        for (int i = 0; i < n; i++)
            seen |= out[i] == v;
        if (!seen && n < max) {
            int i = n++;
            while (i > 0 && out[i - 1] > v) {
                out[i] = out[i - 1];
                i--;
            }
            out[i] = v;
        }
    }
    return n;
}

static double max_cv(const json_t *const *es, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++)
        if (es[i] && strcmp(ls_json_str(es[i], "status", ""), "ok") == 0)
            m = fmax(m, ls_json_num(json_object_get(es[i], "stats"), "cv", 0));
    return m;
}

/* The best of a GPU's HBM figures against its theoretical peak: th and eff ("-" unknown). */
static void hbm_peak(const json_t *const *e, char *th, char *eff, size_t len)
{
    double theo = 0, best = 0;
    for (int k = 0; k < 4; k++)
        if (e[k]) {
            theo = fmax(theo, ls_json_num(e[k], "theoretical", 0));
            if (strcmp(ls_json_str(e[k], "status", ""), "ok") == 0)
                best = fmax(best, ls_json_num(e[k], "value", 0));
        }
    if (theo > 0) {
        snprintf(th, len, "%.1f", theo);
        snprintf(eff, len, "%.1f%%", 100 * best / theo);
    } else {
        snprintf(th, len, "-");
        snprintf(eff, len, "-");
    }
}

int ls_hbm_table(FILE *f, const json_t *doc)
{
    static const char *const header[] = {"GPU",         "read",         "write",
                                         "copy SM",     "copy(copied)", "copy CE",
                                         "theoretical", "best/th.",     "spread"};
    static const ls_column_t cols[] = {{4, 0, 0, 0},  {9, 0, 0, 0},  {9, 0, 0, 0},
                                       {9, 0, 0, 0},  {12, 0, 0, 0}, {9, 0, 0, 0},
                                       {12, 0, 0, 0}, {9, 0, 0, 0},  {7, 0, 0, 0}};
    long long gpus[256];
    int n = distinct(doc, &ls_fam_hbm, "gpu", gpus, 256);
    if (!n)
        return 0;
    ls_table_t *t = ls_table_new("HBM bandwidth per GPU: traffic = bytes read + bytes written per "
                                 "second "
                                 "(GB/s = 1e9 B/s), median; copy also as bytes copied",
                                 9, header);
    for (int i = 0; i < n; i++) {
        const json_t *e[4] = {find(doc, &ls_fam_hbm, gpus[i], LS_HBM_READ, -1, NULL, NULL),
                              find(doc, &ls_fam_hbm, gpus[i], LS_HBM_WRITE, -1, NULL, NULL),
                              find(doc, &ls_fam_hbm, gpus[i], LS_HBM_COPY, -1, NULL, NULL),
                              find(doc, &ls_fam_hbm, gpus[i], LS_HBM_COPY_CE, -1, NULL, NULL)};
        char g[24], r[16], w[16], c[16], cc[16], ce[16], th[16], eff[16], spread[24];
        snprintf(g, sizeof g, "%lld", gpus[i]);
        cell(r, sizeof r, e[0], "value", 1);
        cell(w, sizeof w, e[1], "value", 1);
        cell(c, sizeof c, e[2], "value", 1);
        cell(cc, sizeof cc, e[2], "copied_gbps", 1);
        cell(ce, sizeof ce, e[3], "value", 1);
        hbm_peak(e, th, eff, sizeof th);
        snprintf(spread, sizeof spread, "%.2f%%", 100 * max_cv(e, 4));
        const char *row[] = {g, r, w, c, cc, ce, th, eff, spread};
        ls_table_row(t, row);
    }
    ls_columns_print(f, t, cols, 0);
    fputc('\n', f);
    return n;
}

int ls_host_table(FILE *f, const json_t *doc)
{
    static const char *const header[] = {"GPU",       "node",     "local",    "h2d pin",  "d2h pin",
                                         "bidir pin", "h2d page", "d2h page", "bidir pg", "spread"};
    static const ls_column_t cols[] = {{4, 0, 0, 0}, {5, 0, 0, 0}, {6, 0, 0, 0}, {9, 0, 0, 0},
                                       {9, 0, 0, 0}, {9, 0, 0, 0}, {9, 0, 0, 0}, {9, 0, 0, 0},
                                       {9, 0, 0, 0}, {7, 0, 0, 0}};
    long long gpus[256], nodes[64];
    int ng = distinct(doc, &ls_fam_host, "gpu", gpus, 256),
        nn = distinct(doc, &ls_fam_host, "numa_node", nodes, 64);
    if (!ng)
        return 0;
    ls_table_t *t = ls_table_new("Host <-> GPU copies (GB/s = 1e9 B/s, bytes copied / time, "
                                 "median; bidir = "
                                 "sum of both directions); host memory bound to the NUMA node",
                                 10, header);
    for (int i = 0; i < ng; i++)
        for (int k = 0; k < nn; k++) {
            const char *dirs[3] = {LS_DIR_H2D, LS_DIR_D2H, LS_DIR_BIDIR};
            const json_t *e[6];
            char c[6][16], g[24], node[24], spread[24];
            for (int m = 0; m < 6; m++) {
                e[m] = find(doc, &ls_fam_host, gpus[i], NULL, nodes[k],
                            m < 3 ? LS_MEM_PINNED : LS_MEM_PAGEABLE, dirs[m % 3]);
                cell(c[m], sizeof c[m], e[m], "value", 1);
            }
            const json_t *any = e[0] ? e[0] : e[3];
            if (!any)
                continue;
            const json_t *local = json_object_get(any, "local");
            snprintf(g, sizeof g, "%lld", gpus[i]);
            snprintf(node, sizeof node, "%lld", nodes[k]);
            snprintf(spread, sizeof spread, "%.2f%%", 100 * max_cv(e, 6));
            const char *row[] = {g,     node, !local ? "?" : json_is_true(local) ? "yes" : "remote",
                                 c[0],  c[1], c[2],
                                 c[3],  c[4], c[5],
                                 spread};
            ls_table_row(t, row);
        }
    int rows = t->nrows;
    ls_columns_print(f, t, cols, 0);
    fputc('\n', f);
    return rows;
}

/* A failed figure shows its status in the median column and its error under the table
   (the fixed columns have no place for free text). */
int ls_latency_host_table(FILE *f, const json_t *doc)
{
    static const char *const header[] = {"GPU", "median", "min", "max", "spread"};
    static const ls_column_t cols[] = {{4, 0, 0, 0},
                                       {9, 0, 0, 0},
                                       {9, 0, 0, 0},
                                       {9, 0, 0, 0},
                                       {7, 0, 0, 0}};
    ls_table_t *t = ls_table_new("GPU reading pinned host memory: pointer chase, us per dependent "
                                 "8-byte read",
                                 5, header);
    ls_buf_t errors = {0};
    LS_DOC_FOREACH(v, doc, &ls_fam_latency)
    {
        const json_t *e = v.json;
        if (ls_json_int(e, "dst", 0) != LS_HOST_SIDE)
            continue;
        const json_t *s = json_object_get(e, "stats");
        int ok = strcmp(ls_json_str(e, "status", ""), "ok") == 0;
        char c[5][32] = {"", "", "-", "-", "-"};
        snprintf(c[0], sizeof c[0], "%lld", ls_json_int(e, "src", -1));
        if (ok) {
            snprintf(c[1], sizeof c[1], "%.3f", ls_json_num(e, "value", 0));
            snprintf(c[2], sizeof c[2], "%.3f", ls_json_num(s, "min", 0));
            snprintf(c[3], sizeof c[3], "%.3f", ls_json_num(s, "max", 0));
            snprintf(c[4], sizeof c[4], "%.2f%%", 100 * ls_json_num(s, "cv", 0));
        } else {
            snprintf(c[1], sizeof c[1], "%s", ls_json_str(e, "status", "?"));
            ls_buf_printf(&errors, "GPU %s: %s\n", c[0], ls_json_str(e, "error", ""));
        }
        const char *row[] = {c[0], c[1], c[2], c[3], c[4]};
        ls_table_row(t, row);
    }
    int rows = t->nrows;
    char *errs = ls_buf_take(&errors);
    if (rows) {
        ls_columns_print(f, t, cols, 0);
        fprintf(f, "%s\n", errs);
    } else {
        ls_table_free(t);
    }
    free(errs);
    return rows;
}

static int write_csv(const char *dir, const char *name, const char *text, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return ls_write_file_atomic(path, text, strlen(text), err, errlen);
}

/* CSV rows: one per entry of the family, with the fields that identify it. */
static int family_csv(const json_t *doc, const ls_fam_t *family, const char *dir, const char *name,
                      char *err, size_t errlen)
{
    ls_buf_t b = {0};
    ls_buf_puts(&b, "gpu,numa_node,method,direction,memory,status,value_gbps,min,max,cv,"
                    "theoretical_gbps\n");
    LS_DOC_FOREACH(ent, doc, family)
    {
        const json_t *e = ent.json, *s = json_object_get(e, "stats");
        ls_buf_printf(&b, "%lld,%lld,", ls_json_int(e, "gpu", -1), ls_json_int(e, "numa_node", -1));
        const char *words[] = {ls_json_str(e, "method", ""), ls_json_str(e, "direction", ""),
                               ls_json_str(e, "memory", ""), ls_json_str(e, "status", "")};
        for (int w = 0; w < 4; w++) {
            ls_buf_csv(&b, words[w]);
            ls_buf_puts(&b, ",");
        }
        double v[5] = {ls_json_num(e, "value", 0), ls_json_num(s, "min", 0),
                       ls_json_num(s, "max", 0), ls_json_num(s, "cv", 0),
                       ls_json_num(e, "theoretical", 0)};
        for (int f = 0; f < 5; f++) { /* shortest decimal that reads back as the double */
            char num[48];
            ls_fmt_full(v[f], num, sizeof num);
            ls_buf_printf(&b, "%s%s", num, f < 4 ? "," : "\n");
        }
    }
    char *out = ls_buf_take(&b);
    int rc = write_csv(dir, name, out, err, errlen);
    free(out);
    return rc;
}

int ls_hbm_csv(const json_t *doc, const char *dir, char *err, size_t errlen)
{
    return family_csv(doc, &ls_fam_hbm, dir, "hbm.csv", err, errlen);
}

int ls_host_csv(const json_t *doc, const char *dir, char *err, size_t errlen)
{
    return family_csv(doc, &ls_fam_host, dir, "host.csv", err, errlen);
}
