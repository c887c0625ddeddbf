/* The report's tables, built from the run document and its analysis. */
#include "table.h"
#include "status.h"
#include "model/doc.h"
#include "model/view.h"
#include "model/vocab.h"
#include "util/sanitize.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A cell's own copy, every control character but the heatmap's colours shown as \xNN:
   the lowest point all formats share, so no cell carries another terminal escape
   (docs/safety.md). */
static char *cell_copy(const char *s)
{
    s = s ? s : "";
    size_t cap = strlen(s) * 4 + 1;
    char *out = malloc(cap);
    if (!out)
        abort();
    return ls_term_escape_keep_colour(s, out, cap);
}

ls_table_t *ls_table_new(const char *title, int ncols, const char *const *header)
{
    ls_table_t *t = calloc(1, sizeof *t);
    if (!t)
        abort();
    t->title = strdup(title ? title : "");
    t->ncols = ncols;
    t->cells = calloc((size_t)ncols, sizeof *t->cells);
    if (!t->title || !t->cells)
        abort();
    for (int c = 0; c < ncols; c++)
        t->cells[c] = cell_copy(header[c]);
    return t;
}

void ls_table_row(ls_table_t *t, const char *const *cells)
{
    char **grown = realloc(t->cells, (size_t)(t->nrows + 2) * (size_t)t->ncols * sizeof *grown);
    if (!grown)
        abort();
    t->cells = grown;
    t->nrows++;
    for (int c = 0; c < t->ncols; c++)
        t->cells[t->nrows * t->ncols + c] = cell_copy(cells[c]);
}

void ls_table_drop(ls_table_t *t, const char *headers)
{
    free(t->drop);
    t->drop = strdup(headers);
    if (!t->drop)
        abort();
}

const char *ls_table_cell(const ls_table_t *t, int row, int col)
{
    return t->cells[row * t->ncols + col];
}

void ls_table_free(ls_table_t *t)
{
    if (!t)
        return;
    for (int i = 0; i < (t->nrows + 1) * t->ncols; i++)
        free(t->cells[i]);
    free(t->cells);
    free(t->cols);
    free(t->drop);
    free(t->title);
    free(t);
}

void ls_table_columns(ls_table_t *t, const ls_column_t *cols)
{
    free(t->cols);
    t->cols = malloc((size_t)t->ncols * sizeof *t->cols);
    if (!t->cols)
        abort();
    memcpy(t->cols, cols, (size_t)t->ncols * sizeof *t->cols);
}

void ls_buf_gpus(ls_buf_t *b, const json_t *gpus)
{
    size_t i;
    const json_t *g;
    json_array_foreach(gpus, i, g) {
        ls_buf_printf(b, "%s%lld", i ? "," : "", (long long)json_integer_value(g));
    }
}

static char *gpus_str(const json_t *gpus)
{
    ls_buf_t b = {0};
    ls_buf_gpus(&b, gpus);
    return ls_buf_take(&b);
}

int ls_doc_ngpus(const json_t *doc)
{
    int n = 0;
    size_t i;
    const json_t *g;
    json_array_foreach(json_object_get(doc, "gpus"), i, g) {
        long long idx = ls_json_int(g, "index", -1);
        if (idx >= 0 && idx < LS_MAX_GPUS && idx + 1 > n)
            n = (int)idx + 1;
    }
    return n;
}

/* Formats a number field of obj ("-" when absent). */
static const char *num(char *buf, size_t len, const json_t *obj, const char *key)
{
    const json_t *v = json_object_get(obj, key);
    if (!json_is_number(v))
        snprintf(buf, len, "-");
    else
        ls_fmt_num(json_number_value(v), buf, len);
    return buf;
}

/* Bytes as GiB; "-" when absent or 0 (imported documents often know no memory size). */
static void gib(char *buf, size_t len, const json_t *obj, const char *key)
{
    if (ls_json_num(obj, key, 0) > 0)
        ls_fmt_num(ls_json_num(obj, key, 0) / (1 << 30), buf, len);
    else
        snprintf(buf, len, "-");
}

static const char *intstr(char *buf, size_t len, const json_t *obj, const char *key)
{
    const json_t *v = json_object_get(obj, key);
    if (json_is_number(v))
        snprintf(buf, len, "%lld", ls_json_int(obj, key, 0));
    else
        snprintf(buf, len, "-");
    return buf;
}

/* ---- GPU x GPU tables ------------------------------------------------------------- */

ls_table_t *ls_gpu_grid_table(const char *title, int n, const int *index,
                              void (*cell)(const void *arg, int r, int c, char *buf, size_t len),
                              const void *arg)
{
    const char *header[LS_MAX_GPUS + 1];
    char names[LS_MAX_GPUS + 1][16];
    snprintf(names[0], sizeof names[0], "row->col");
    header[0] = names[0];
    for (int c = 0; c < n; c++) {
        snprintf(names[c + 1], sizeof names[c + 1], "GPU%d", index[c]);
        header[c + 1] = names[c + 1];
    }
    ls_table_t *t = ls_table_new(title, n + 1, header);
    for (int r = 0; r < n; r++) {
        char cells[LS_MAX_GPUS + 1][32];
        const char *row[LS_MAX_GPUS + 1];
        snprintf(cells[0], sizeof cells[0], "GPU%d", index[r]);
        for (int c = 0; c < n; c++)
            cell(arg, r, c, cells[c + 1], sizeof cells[c + 1]);
        for (int c = 0; c <= n; c++)
            row[c] = cells[c];
        ls_table_row(t, row);
    }
    return t;
}

const json_t *ls_doc_link(const json_t *doc, int a, int b)
{
    return ls_json_find_int(json_object_get(doc, "links"), "a", a, "b", b);
}

/* ---- document tables ---------------------------------------------------------------- */

ls_table_t *ls_table_host_summary(const json_t *doc)
{
    static const char *header[] = {"field", "value"};
    ls_table_t *t = ls_table_new("Run", 2, header);
    const json_t *host = json_object_get(doc, "host"), *sw = json_object_get(doc, "software");
    char buf[64];
    const char *rows[][2] = {
        {"host", ls_json_str(host, "hostname", "-")},
        {"created (UTC)", ls_json_str(doc, "created", "-")},
        {"source", ls_json_str(doc, "source", "linkscope")},
        {"linkscope", ls_json_str(json_object_get(doc, "tool"), "version", "-")},
        {"driver", ls_json_str(sw, "driver", "-")},
        {"CUDA driver / runtime", NULL},
        {"NCCL", ls_json_str(sw, "nccl", "-")},
        {"CPU", ls_json_str(host, "cpu_model", "-")},
        {"NUMA nodes", intstr(buf, sizeof buf, host, "numa_nodes")},
        {"GPU numbering", "PCI bus order (CUDA_DEVICE_ORDER=PCI_BUS_ID), as nvidia-smi"},
    };
    char cuda[96];
    snprintf(cuda, sizeof cuda, "%s / %s", ls_json_str(sw, "cuda_driver", "-"),
             ls_json_str(sw, "cuda_runtime", "-"));
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const char *row[2] = {rows[i][0], rows[i][1] ? rows[i][1] : cuda};
        if (!row[1][0])
            row[1] = "-";
        ls_table_row(t, row);
    }
    return t;
}

ls_table_t *ls_table_inventory(const json_t *doc)
{
    static const char *header[] = {"GPU",
                                   "name",
                                   "PCI bus id",
                                   "memory GiB",
                                   "SM MHz app/max",
                                   "mem MHz",
                                   "HBM theoretical GB/s",
                                   "PCIe gen/width (max)",
                                   "power limit/default W",
                                   "NUMA",
                                   "NVLinks active"};
    ls_table_t *t = ls_table_new("Boards and clocks (NVML; theoretical HBM = memory clock x 2 x "
                                 "bus width / 8)",
                                 11, header);
    ls_table_drop(t, "power limit/default W,mem MHz,SM MHz app/max,NVLinks active");
    size_t i;
    const json_t *g;
    json_array_foreach(json_object_get(doc, "gpus"), i, g) {
        const json_t *clk = json_object_get(g, "clocks"), *p = json_object_get(g, "pcie"),
                     *pw = json_object_get(g, "power");
        char idx[16], mem[32], sm[48], mm[24], hbm[24], pcie[48], power[48], numa[16], nvl[24];
        snprintf(idx, sizeof idx, "%lld", ls_json_int(g, "index", -1));
        /* unknown (imported documents, -1 NUMA node) reads "-", never 0 */
        gib(mem, sizeof mem, g, "memory_total_bytes");
        if (ls_json_int(clk, "sm_max_mhz", 0) > 0)
            snprintf(sm, sizeof sm, "%lld/%lld", ls_json_int(clk, "sm_app_mhz", 0),
                     ls_json_int(clk, "sm_max_mhz", 0));
        else
            snprintf(sm, sizeof sm, "-");
        long long mem_mhz = ls_json_int(clk, "mem_max_mhz", ls_json_int(clk, "mem_mhz", 0));
        if (mem_mhz > 0)
            snprintf(mm, sizeof mm, "%lld", mem_mhz);
        else
            snprintf(mm, sizeof mm, "-");
        num(hbm, sizeof hbm, g, "hbm_theoretical_gbps");
        snprintf(pcie, sizeof pcie, "Gen%lld x%lld (Gen%lld x%lld)",
                 ls_json_int(p, "gen_current", 0), ls_json_int(p, "width_current", 0),
                 ls_json_int(p, "gen_max", 0), ls_json_int(p, "width_max", 0));
        snprintf(power, sizeof power, "%.0f/%.0f", ls_json_num(pw, "limit_w", 0),
                 ls_json_num(pw, "default_limit_w", 0));
        intstr(numa, sizeof numa, g, "numa_node");
        if (ls_json_int(g, "numa_node", -1) < 0)
            snprintf(numa, sizeof numa, "-");
        if (json_array_size(json_object_get(g, "nvlinks")))
            snprintf(nvl, sizeof nvl, "%d/%zu", ls_gpu_nvlinks_active(g),
                     json_array_size(json_object_get(g, "nvlinks")));
        else
            snprintf(nvl, sizeof nvl, "-");
        const char *row[] = {idx,
                             ls_json_str(g, "name", "-"),
                             ls_json_str(g, "pci_bus_id", "-"),
                             mem,
                             sm,
                             mm,
                             hbm,
                             p ? pcie : "-",
                             pw ? power : "-",
                             numa,
                             nvl};
        ls_table_row(t, row);
    }
    return t;
}

/* A topo -p2p word pasted without the capability it answers (read, write, ...): the
   link's p2p_status, "OK" when the paste gave none. */
static const char *p2p_word(const json_t *l)
{
    return ls_json_str(l, "p2p_status", "OK");
}

/* Whether P2P from GPU r to GPU c is not OK (nvidia-smi topo -p2p: read, write, or a
   word whose capability the paste did not name). */
static int p2p_not_ok(const json_t *l)
{
    return l && (strcmp(ls_json_str(l, "p2p_read", "OK"), "OK") ||
                 strcmp(ls_json_str(l, "p2p_write", "OK"), "OK") || strcmp(p2p_word(l), "OK"));
}

/* A link's topo -m word; a cut or absent one ("?") is printed as unknown. */
static const char *link_type(const json_t *l)
{
    const char *type = ls_json_str(l, "type", "unknown");
    return strcmp(type, "?") ? type : "unknown";
}

/* Link word, marked '*' where P2P is not OK (the statuses: ls_table_p2p_status). */
static void topology_cell(const void *doc, int r, int c, char *buf, size_t len)
{
    const json_t *l = ls_doc_link(doc, r, c);
    const char *type = link_type(l);
    if (r == c)
        snprintf(buf, len, "X");
    else if (!l)
        snprintf(buf, len, "unknown");
    else
        snprintf(buf, len, "%s%s", type, p2p_not_ok(l) ? "*" : "");
}

ls_table_t *ls_table_topology(const json_t *doc)
{
    if (!json_array_size(json_object_get(doc, "links")))
        return NULL; /* no topology recorded: no grid of unknowns */
    int index[LS_MAX_GPUS];
    for (int i = 0; i < LS_MAX_GPUS; i++)
        index[i] = i;
    int marked = 0, n = ls_doc_ngpus(doc);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            marked |= r != c && p2p_not_ok(ls_doc_link(doc, r, c));
    return ls_gpu_grid_table(marked ? "Link types as nvidia-smi topo -m (*: P2P read or write not "
                                      "OK, the next table)"
                                    : "Link types as nvidia-smi topo -m, with P2P read/write "
                                      "status where not OK",
                             n, index, topology_cell, doc);
}

ls_table_t *ls_table_p2p_status(const json_t *doc)
{
    static const char *header[] = {"GPU", "to GPU", "link", "P2P read", "P2P write"};
    ls_table_t *t = ls_table_new("P2P status where not OK (nvidia-smi topo -p2p r and w)", 5,
                                 header);
    int n = ls_doc_ngpus(doc);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            const json_t *l = r == c ? NULL : ls_doc_link(doc, r, c);
            if (!p2p_not_ok(l))
                continue;
            char a[16], b[16];
            snprintf(a, sizeof a, "%d", r);
            snprintf(b, sizeof b, "%d", c);
            /* a word without its capability stands in both columns */
            const char *row[] = {a, b, link_type(l), ls_json_str(l, "p2p_read", p2p_word(l)),
                                 ls_json_str(l, "p2p_write", p2p_word(l))};
            ls_table_row(t, row);
        }
    return t;
}

/* Value of the first ok entry of family for the ordered pair with this direction;
   id and method written out. */
double ls_doc_pair_value(const json_t *doc, const ls_fam_t *fam, const char *direction, int a,
                         int b, const char **label)
{
    double best = NAN;
    int bidir = direction && !strcmp(direction, LS_DIR_BIDIR);
    LS_DOC_FOREACH(v, doc, fam)
    {
        int match = (v.src == a && v.dst == b) || (bidir && v.src == b && v.dst == a);
        if (!match || !v.ok ||
            (direction && fam->directions &&
             strcmp(v.direction ? v.direction : LS_DIR_UNI, direction)))
            continue;
        if (isnan(best) || (fam->lower_is_better ? v.value < best : v.value > best)) {
            best = v.value;
            if (label)
                *label = v.id;
        }
    }
    return best;
}

/* One row of the paths table: the ordered pair a -> b. */
static void path_row(ls_table_t *t, const json_t *doc, const json_t *plan, int a, int b,
                     const ls_path_cells_t *how)
{
    const json_t *l = ls_doc_link(doc, a, b);
    const char *uid = "";
    char sa[16], sb[16], uni[48], pct[48], bid[48], lat[48];
    snprintf(sa, sizeof sa, "%d", a);
    snprintf(sb, sizeof sb, "%d", b);
    double u = ls_doc_pair_value(doc, &ls_fam_p2p, LS_DIR_UNI, a, b, &uid);
    const json_t *ue = ls_doc_entry_by_id(doc, uid);
    how->figure(u, uni, sizeof uni);
    how->peak(plan, ue, u, pct, sizeof pct);
    how->figure(ls_doc_pair_value(doc, &ls_fam_p2p, LS_DIR_BIDIR, a, b, NULL), bid, sizeof bid);
    how->figure(ls_doc_pair_value(doc, &ls_fam_latency, NULL, a, b, NULL), lat, sizeof lat);
    const char *row[] = {sa,
                         sb,
                         how->link_word(l, "type"),
                         how->link_word(l, "class"),
                         how->link_word(l, "p2p_read"),
                         how->link_word(l, "p2p_write"),
                         uni,
                         pct,
                         uid,
                         bid,
                         lat,
                         ls_pair_status(doc, plan, a, b, ue)};
    ls_table_row(t, row);
}

ls_table_t *ls_paths_table(const json_t *doc, const json_t *plan, const char *title,
                           const ls_path_cells_t *how)
{
    static const char *header[] = {"src",       "dst",        "link",       "class",
                                   "p2p_read",  "p2p_write",  "uni_gbps",   "uni_pct_of_peak",
                                   "uni_entry", "bidir_gbps", "latency_us", "status"};
    ls_table_t *t = ls_table_new(title, 12, header);
    int n = ls_doc_ngpus(doc);
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            if (a != b)
                path_row(t, doc, plan, a, b, how);
    return t;
}

/* For people: a link word the document leaves unknown ("?" or none) reads "unknown", a
   P2P status it lacks "-". */
static const char *path_word(const json_t *l, const char *key)
{
    if (!strncmp(key, "p2p_", 4))
        return ls_json_str(l, key, "-");
    const char *w = ls_json_str(l, key, "unknown");
    return strcmp(w, "?") ? w : "unknown";
}

ls_table_t *ls_table_p2p_paths(const json_t *doc, const json_t *plan)
{
    static const ls_path_cells_t cells = {.figure = ls_fmt_num,
                                          .peak = ls_peak_cell,
                                          .link_word = path_word};
    return ls_paths_table(doc, plan,
                          "P2P paths: best one-direction and bidirectional bandwidth "
                          "(GB/s), the one-direction figure as % of its hardware ceiling, "
                          "and lowest latency (us) per ordered pair",
                          &cells);
}

ls_table_t *ls_table_hbm(const json_t *doc, const json_t *plan)
{
    static const char *header[] = {"GPU",       "method",    "HBM traffic GB/s (median)",
                                   "min",       "max",       "cv %",
                                   "peak GB/s", "% of peak", "samples",
                                   "source",    "entry",     "status"};
    ls_table_t *t = ls_table_new("Device memory bandwidth, counted as HBM traffic (bytes read + "
                                 "bytes written) per second; peak = the hardware ceiling (bus "
                                 "width x memory clock)",
                                 12, header);
    LS_DOC_FOREACH(view, doc, &ls_fam_hbm)
    {
        const json_t *e = view.json, *st = json_object_get(e, "stats");
        char g[16], v[24], mn[24], mx[24], cv[24], th[24], eff[24], n[16];
        snprintf(g, sizeof g, "%lld",
                 ls_json_int(e, "gpu",
                             json_integer_value(json_array_get(json_object_get(e, "gpus"), 0))));
        num(v, sizeof v, e, "value");
        num(mn, sizeof mn, st, "min");
        num(mx, sizeof mx, st, "max");
        ls_fmt_num(100 * ls_json_num(st, "cv", 0), cv, sizeof cv);
        /* the ceiling the analysis derived (bus width x memory clock), else unknown */
        if (ls_plan_ceiling(plan, e) > 0)
            ls_fmt_num(ls_plan_ceiling(plan, e), th, sizeof th);
        else
            snprintf(th, sizeof th, "unknown");
        ls_peak_cell(plan, e, ls_json_num(e, "value", NAN), eff, sizeof eff);
        intstr(n, sizeof n, st, "n");
        const char *row[12] = {g, ls_json_str(e, "method", "unknown"), v, mn, mx, cv, th, eff, n};
        ls_entry_tail_cells(plan, e, row + 9);
        ls_table_row(t, row);
    }
    return t;
}

ls_table_t *ls_table_host_copies(const json_t *doc, const json_t *plan)
{
    if (!ls_doc_has(doc, &ls_fam_host))
        return NULL;
    static const char *header[] = {"GPU",       "NUMA node", "direction", "memory", "GB/s (median)",
                                   "% of peak", "source",    "entry",     "status"};
    ls_table_t *t = ls_table_new("Host <-> device copies, GB/s (bytes copied per second); peak = "
                                 "the GPU's PCIe link after encoding and TLP overhead",
                                 9, header);
    LS_DOC_FOREACH(view, doc, &ls_fam_host)
    {
        const json_t *e = view.json;
        char g[16], node[16], v[24], th[24];
        intstr(g, sizeof g, e, "gpu");
        intstr(node, sizeof node, e, "numa_node");
        num(v, sizeof v, e, "value");
        ls_peak_cell(plan, e, ls_json_num(e, "value", NAN), th, sizeof th);
        const char *row[9] = {g,
                              node,
                              ls_json_str(e, "direction", "unknown"),
                              ls_json_str(e, "memory", "unknown"),
                              v,
                              th};
        ls_entry_tail_cells(plan, e, row + 6);
        ls_table_row(t, row);
    }
    return t;
}

ls_table_t *ls_table_collectives(const json_t *doc, const json_t *plan)
{
    static const char *header[] =
        {"entry",           "collective", "variant",       "GPUs",           "nranks",
         "bytes",           "size",       "oop time us",   "oop algbw GB/s", "oop busbw GB/s",
         "oop wrong",       "ip time us", "ip algbw GB/s", "ip busbw GB/s",  "ip wrong",
         "busbw % of peak", "status"};
    ls_table_t *t = ls_table_new("Collectives as nccl-tests counts them: time per call (us), algbw "
                                 "= bytes / time, busbw = algbw x the collective's factor (GB/s); "
                                 "peak = the slowest GPU's share of the fabric",
                                 17, header);
    /* a narrow terminal keeps the entry, the size, the out-of-place figures and the status */
    ls_table_drop(t, "bytes,nranks,collective,variant,ip algbw GB/s,oop algbw GB/s,ip wrong,ip "
                     "time us,"
                     "ip busbw GB/s,GPUs");
    LS_DOC_FOREACH(view, doc, &ls_fam_nccl)
    {
        const json_t *e = view.json;
        char *gpus = gpus_str(json_object_get(e, "gpus"));
        const char *gpus_cell = gpus && gpus[0] ? gpus : "unknown"; /* no rank line pasted */
        /* the ranks the run had (its rank lines), never the local GPU count: a 2-node run of
           one GPU each is 2 ranks on "GPU 0"; unknown when the paste printed neither */
        char nr[40] = "unknown";
        if (json_is_integer(json_object_get(e, "nranks")))
            snprintf(nr, sizeof nr, "%lld", ls_json_int(e, "nranks", 0));
        if (ls_json_int(e, "nodes", 1) > 1) {
            size_t n = strlen(nr);
            snprintf(nr + n, sizeof nr - n, " (%lld nodes)", ls_json_int(e, "nodes", 1));
        }
        size_t k;
        const json_t *r;
        json_array_foreach(json_object_get(e, "rows"), k, r) {
            const json_t *o = json_object_get(r, "oop"), *p = json_object_get(r, "ip");
            char bytes[32], size[32], c[8][24];
            snprintf(bytes, sizeof bytes, "%lld", ls_json_int(r, "bytes", 0));
            ls_fmt_bytes(ls_json_num(r, "bytes", 0), size, sizeof size);
            num(c[0], sizeof c[0], o, "time_us");
            num(c[1], sizeof c[1], o, "algbw");
            num(c[2], sizeof c[2], o, "busbw");
            intstr(c[3], sizeof c[3], o, "wrong");
            num(c[4], sizeof c[4], p, "time_us");
            num(c[5], sizeof c[5], p, "algbw");
            num(c[6], sizeof c[6], p, "busbw");
            intstr(c[7], sizeof c[7], p, "wrong");
            char pct[24];
            double bus = ls_json_num(json_is_object(o) ? o : p, "busbw", NAN);
            ls_peak_cell(plan, e, bus, pct, sizeof pct);
            const char *row[] = {ls_json_str(e, "id", ""),
                                 ls_json_str(e, "collective", "unknown"),
                                 ls_json_str(e, "variant", "default"),
                                 gpus_cell,
                                 nr,
                                 bytes,
                                 size,
                                 c[0],
                                 c[1],
                                 c[2],
                                 c[3],
                                 c[4],
                                 c[5],
                                 c[6],
                                 c[7],
                                 pct,
                                 ls_status_row_word(plan, e, r)};
            ls_table_row(t, row);
        }
        free(gpus);
    }
    return t;
}

/* ---- analysis tables ---------------------------------------------------------------- */

/* A list of strings joined by sep (the caller frees it). */
static char *joined(const json_t *strings, const char *sep)
{
    ls_buf_t b = {0};
    size_t i;
    const json_t *v;
    json_array_foreach(strings, i, v) {
        ls_buf_printf(&b, "%s%s", i ? sep : "", json_string_value(v));
    }
    return ls_buf_take(&b);
}

ls_table_t *ls_table_findings(const json_t *findings)
{
    static const char *header[] = {"severity", "rule", "subject", "finding", "evidence"};
    ls_table_t *t = ls_table_new("Findings (docs/analysis.md explains each rule)", 5, header);
    size_t i;
    const json_t *f;
    json_array_foreach(findings, i, f) {
        char *ev = joined(json_object_get(f, "evidence"), " ");
        const char *row[] = {ls_json_str(f, "severity", ""), ls_json_str(f, "rule", ""),
                             ls_json_str(f, "subject", ""), ls_json_str(f, "message", ""), ev};
        ls_table_row(t, row);
        free(ev);
    }
    return t;
}

ls_table_t *ls_table_islands(const json_t *plan)
{
    static const char *header[] = {"link class", "GPUs", "size"};
    ls_table_t *t = ls_table_new("Islands: largest groups whose every pair is joined by the class "
                                 "or a faster one",
                                 3, header);
    size_t i;
    const json_t *is;
    json_array_foreach(json_object_get(plan, "islands"), i, is) {
        char *g = gpus_str(json_object_get(is, "gpus")), size[16];
        intstr(size, sizeof size, is, "size");
        const char *row[] = {ls_json_str(is, "link_class", "unknown"), g, size};
        ls_table_row(t, row);
        free(g);
    }
    return t;
}

/* A group's expected busbw, "unknown" when no link class gave it. */
static void expected_cell(char *buf, size_t len, const json_t *g)
{
    if (!strcmp(ls_json_str(g, "expected_from", ""), "unknown"))
        snprintf(buf, len, "unknown");
    else
        num(buf, len, g, "expected_busbw_gbps");
}

ls_table_t *ls_table_groups(const json_t *plan)
{
    static const char *header[] =
        {"k", "GPUs", "ring", "expected busbw GB/s", "measured busbw GB/s", "expected from"};
    ls_table_t *t = ls_table_new("Best GPU set per group size: all_reduce bus bandwidth expected "
                                 "(slowest link of the best ring, an upper bound) and measured "
                                 "(median of runs)",
                                 6, header);
    size_t i;
    const json_t *g;
    json_array_foreach(json_object_get(plan, "groups"), i, g) {
        char k[16], exp[24], meas[24];
        char *set = gpus_str(json_object_get(g, "gpus")),
             *ring = gpus_str(json_object_get(g, "ring"));
        intstr(k, sizeof k, g, "k");
        expected_cell(exp, sizeof exp, g);
        num(meas, sizeof meas, g, "measured_busbw_gbps");
        const char *row[] = {k, set, ring, exp, meas, ls_json_str(g, "expected_from", "")};
        ls_table_row(t, row);
        free(set);
        free(ring);
    }
    return t;
}

ls_table_t *ls_table_measured_groups(const json_t *plan)
{
    static const char *header[] = {"GPUs",
                                   "variant",
                                   "measured busbw GB/s",
                                   "expected busbw GB/s",
                                   "measured/expected",
                                   "entries"};
    ls_table_t *t = ls_table_new("Measured all_reduce sets beside what their links predict", 6,
                                 header);
    size_t i;
    const json_t *g;
    json_array_foreach(json_object_get(plan, "measured_groups"), i, g) {
        char exp[24], meas[24], ratio[24];
        char *set = gpus_str(json_object_get(g, "gpus")),
             *ids = joined(json_object_get(g, "entries"), " ");
        expected_cell(exp, sizeof exp, g);
        num(meas, sizeof meas, g, "measured_busbw_gbps");
        num(ratio, sizeof ratio, g, "ratio");
        const char *row[] = {set, ls_json_str(g, "variant", ""), meas, exp, ratio, ids};
        ls_table_row(t, row);
        free(set);
        free(ids);
    }
    return t;
}

ls_table_t *ls_table_pairs(const json_t *plan)
{
    static const char *header[] = {"GPUs", "link", "both directions GB/s", "from",
                                   "memory GiB together"};
    ls_table_t *t = ls_table_new("Best pairs for two-GPU model parallelism", 5, header);
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(plan, "best_pairs"), i, p) {
        char bw[24], mem[24];
        char *set = gpus_str(json_object_get(p, "gpus"));
        num(bw, sizeof bw, p, "bidir_gbps");
        gib(mem, sizeof mem, p, "memory_total_bytes");
        const char *row[] = {set, ls_json_str(p, "link", "unknown"), bw, ls_json_str(p, "from", ""),
                             mem};
        ls_table_row(t, row);
        free(set);
    }
    return t;
}

ls_table_t *ls_table_best_hbm(const json_t *plan)
{
    static const char *header[] = {"GPU", "name", "HBM GB/s", "efficiency %", "from"};
    ls_table_t *t = ls_table_new("Best single GPUs for memory-bound work (within 5% of the "
                                 "fastest)",
                                 5, header);
    size_t i;
    const json_t *h;
    json_array_foreach(json_object_get(plan, "best_hbm_gpus"), i, h) {
        char g[16], bw[24], eff[24];
        intstr(g, sizeof g, h, "gpu");
        num(bw, sizeof bw, h, "gbps");
        ls_fmt_num(json_object_get(h, "efficiency") ? 100 * ls_json_num(h, "efficiency", 0) : NAN,
                   eff, sizeof eff);
        const char *row[] = {g, ls_json_str(h, "name", ""), bw, eff, ls_json_str(h, "from", "")};
        ls_table_row(t, row);
    }
    return t;
}

ls_table_t *ls_table_keep_out(const json_t *plan)
{
    static const char *header[] = {"GPU", "name", "why"};
    ls_table_t *t = ls_table_new("GPUs to keep out of synchronous groups", 3, header);
    size_t i;
    const json_t *k;
    json_array_foreach(json_object_get(plan, "keep_out"), i, k) {
        char g[16], *why = joined(json_object_get(k, "reasons"), "; ");
        intstr(g, sizeof g, k, "gpu");
        const char *row[] = {g, ls_json_str(k, "name", ""), why};
        ls_table_row(t, row);
        free(why);
    }
    return t;
}
