/* Other tools' imported figures in the report (tools_tables.h). */
#include "tools_tables.h"
#include "model/doc.h"
#include "model/view.h"
#include "strbuf.h"
#include "util/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ls_tools_present(const json_t *doc)
{
    return ls_doc_has(doc, &ls_fam_net) || ls_doc_has(doc, &ls_fam_mnnvl) ||
           ls_doc_has(doc, &ls_fam_dcgm);
}

ls_table_t *ls_table_dcgm_figures(const json_t *doc)
{
    if (!ls_doc_has(doc, &ls_fam_dcgm))
        return NULL;
    static const char *header[] = {"test", "figure", "GPU", "value", "unit"};
    ls_table_t *t = ls_table_new("DCGM diagnostic (imported): the figures its tests printed", 5,
                                 header);
    LS_DOC_FOREACH(view, doc, &ls_fam_dcgm)
    {
        const json_t *e = view.json;
        char gpu[24], v[24];
        snprintf(gpu, sizeof gpu, "%lld", ls_json_int(e, "gpu", -1));
        ls_fmt_num(ls_json_num(e, "value", NAN), v, sizeof v);
        const char *row[] = {ls_json_str(e, "test", "?"), ls_json_str(e, "method", "?"), gpu, v,
                             ls_json_str(e, "unit", "?")};
        ls_table_row(t, row);
    }
    return t;
}

static int same_str(const json_t *a, const json_t *b, const char *key)
{
    return strcmp(ls_json_str(a, key, ""), ls_json_str(b, key, "")) == 0;
}

static void size_text(long long bytes, char *out, size_t len)
{
    if (bytes >= (1LL << 20) && bytes % (1LL << 20) == 0)
        snprintf(out, len, "%lld MiB", bytes >> 20);
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(out, len, "%lld KiB", bytes >> 10);
    else
        snprintf(out, len, "%lld B", bytes);
}

/* One row per group of fam's entries: row(t, doc, first, done) writes the group of the
   first entry not yet in one and marks in done every entry it takes. */
static void group_rows(ls_table_t *t, const json_t *doc, const ls_fam_t *fam,
                       void (*row)(ls_table_t *t, const json_t *doc, size_t first, char *done))
{
    char *done = calloc(json_array_size(json_object_get(doc, "measurements")) + 1, 1);
    LS_DOC_FOREACH(v, doc, fam)
    {
        if (done && !done[v.index])
            row(t, doc, v.index, done);
    }
    free(done);
}

/* One row for the entries of one (tool, port, direction), from the first of them. */
static void perftest_row(ls_table_t *t, const json_t *doc, size_t first, char *done)
{
    const json_t *a = ls_view_at(doc, first).json;
    int lat = strcmp(ls_json_str(a, "unit", ""), "us") == 0;
    long long lo = -1, hi = -1;
    double at_hi = NAN, best = NAN;
    int n = 0;
    for (ls_view_t w = ls_view_from(doc, &ls_fam_net, first); w.json;
         w = ls_view_from(doc, &ls_fam_net, w.index + 1)) {
        const json_t *e = w.json;
        if (!same_str(a, e, "method") || !same_str(a, e, "device") || !same_str(a, e, "direction"))
            continue;
        done[w.index] = 1, n++;
        long long b = ls_json_int(e, "bytes", -1);
        double v = ls_json_num(e, "value", NAN);
        lo = lo < 0 || b < lo ? b : lo;
        if (b >= hi)
            hi = b, at_hi = v;
        if (isnan(best) || (lat ? v < best : v > best))
            best = v;
    }
    char sizes[64], los[24], his[24], v1[24], v2[24], count[16];
    size_text(lo, los, sizeof los), size_text(hi, his, sizeof his);
    snprintf(sizes, sizeof sizes, n > 1 ? "%s to %s" : "%s", los, his);
    snprintf(count, sizeof count, "%d", n);
    ls_fmt_num(at_hi, v1, sizeof v1), ls_fmt_num(best, v2, sizeof v2);
    const char *row[] = {ls_json_str(a, "method", "?"),
                         ls_json_str(a, "device", "unknown"),
                         ls_json_str(a, "direction", "?"),
                         ls_json_str(a, "link_layer", "unknown"),
                         count,
                         sizes,
                         v1,
                         v2,
                         ls_json_str(a, "unit", "?")};
    ls_table_row(t, row);
}

ls_table_t *ls_table_perftest(const json_t *doc)
{
    if (!ls_doc_has(doc, &ls_fam_net))
        return NULL;
    static const char *header[] = {"test",  "port",       "direction", "link", "sizes",
                                   "range", "at largest", "best",      "unit"};
    ls_table_t *t = ls_table_new("perftest (imported): per port and test; bandwidth GB/s "
                                 "(perftest's average, "
                                 "1 Gb/s = 0.125 GB/s), latency us (t_typical); best = highest "
                                 "GB/s or lowest us",
                                 9, header);
    group_rows(t, doc, &ls_fam_net, perftest_row);
    return t;
}

static void nvloom_row(ls_table_t *t, const json_t *doc, size_t first, char *done)
{
    const json_t *a = ls_view_at(doc, first).json;
    size_t cap = 64, n = 0;
    double *v = malloc(cap * sizeof *v);
    const char *low_subject = "";
    double low = NAN;
    for (ls_view_t w = ls_view_from(doc, &ls_fam_mnnvl, first); v && w.json;
         w = ls_view_from(doc, &ls_fam_mnnvl, w.index + 1)) {
        const json_t *e = w.json;
        if (!same_str(a, e, "method") || !same_str(a, e, "metric"))
            continue;
        done[w.index] = 1;
        if (n == cap) {
            double *g = realloc(v, (cap *= 2) * sizeof *v);
            if (!g)
                break;
            v = g;
        }
        double x = ls_json_num(e, "value", NAN);
        v[n++] = x;
        int lat = strcmp(ls_json_str(e, "unit", ""), "us") == 0;
        if (isnan(low) || (lat ? x > low : x < low))
            low = x, low_subject = ls_json_str(e, "subject", "");
    }
    if (!v || n == 0) {
        free(v);
        return;
    }
    ls_stats_t st = ls_stats(v, n);
    char cells[24], mn[24], md[24], mx[24], worst[160];
    snprintf(cells, sizeof cells, "%zu", n);
    ls_fmt_num(st.min, mn, sizeof mn);
    ls_fmt_num(st.median, md, sizeof md);
    ls_fmt_num(st.max, mx, sizeof mx);
    snprintf(worst, sizeof worst, "%s", low_subject);
    const char *row[] = {ls_json_str(a, "method", "?"),
                         ls_json_str(a, "pattern", "?"),
                         cells,
                         mn,
                         md,
                         mx,
                         ls_json_str(a, "unit", "?"),
                         worst};
    ls_table_row(t, row);
    free(v);
}

ls_table_t *ls_table_nvloom(const json_t *doc)
{
    if (!ls_doc_has(doc, &ls_fam_mnnvl))
        return NULL;
    static const char *header[] = {"testcase", "pattern", "cells", "min",
                                   "median",   "max",     "unit",  "worst"};
    ls_table_t *t = ls_table_new("nvloom (imported): per testcase; bandwidth GB/s, latency us; "
                                 "worst = the "
                                 "lowest bandwidth or highest latency cell",
                                 8, header);
    /* a narrow terminal keeps the worst cell (the process a finding names) and the min */
    ls_table_drop(t, "pattern,cells,max,median");
    group_rows(t, doc, &ls_fam_mnnvl, nvloom_row);
    return t;
}
