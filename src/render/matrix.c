#include "matrix.h"
#include "format.h"
#include "strbuf.h"
#include "model/doc.h"
#include "model/entry.h"
#include "model/view.h"
#include "model/vocab.h"
#include "util/fileio.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* nvbandwidth's "mode" of a copy-engine read (import/nvbandwidth.c), not an HBM method */
#define NVBW_READ "read"

void ls_matrix_init(ls_matrix_t *m, int n_fixed)
{
    memset(m, 0, sizeof *m);
    for (int r = 0; r < LS_MAX_GPUS; r++)
        for (int c = 0; c < LS_MAX_GPUS; c++)
            m->v[r][c] = NAN;
    if (n_fixed > LS_MAX_GPUS)
        n_fixed = LS_MAX_GPUS;
    for (int i = 0; i < n_fixed; i++)
        m->index[i] = i;
    m->n = n_fixed > 0 ? n_fixed : 0;
    m->fixed = n_fixed > 0;
    m->scale_lo = m->scale_hi = m->ceiling = NAN;
}

int ls_matrix_slot(ls_matrix_t *m, int gpu)
{
    for (int i = 0; i < m->n; i++)
        if (m->index[i] == gpu)
            return i;
    if (m->fixed || m->n >= LS_MAX_GPUS)
        return -1;
    int i = m->n++;
    /* keep the GPUs sorted */
    while (i > 0 && m->index[i - 1] > gpu) {
        m->index[i] = m->index[i - 1];
        i--;
    }
    m->index[i] = gpu;
    return i;
}

static void set_cell(ls_matrix_t *m, int a, int b, const ls_view_t *v)
{
    int i = ls_matrix_slot(m, a), j = ls_matrix_slot(m, b);
    if (i < 0 || j < 0)
        return;
    m->cell[i][j] = v->ok ? LS_CELL_VALUE : LS_CELL_FAILED;
    m->no_p2p[i][j] = (unsigned char)!!(v->flags & LS_VF_NO_P2P);
    m->v[i][j] = v->value;
    m->cv[i][j] = v->cv;
    if (v->n > m->samples)
        m->samples = v->n;
}

void ls_matrix_put(ls_matrix_t *m, const json_t *e, int both)
{
    ls_view_t v = ls_view_of(e);
    if (v.src < 0 || v.dst < 0 || v.src >= LS_MAX_GPUS || v.dst >= LS_MAX_GPUS)
        return;
    set_cell(m, v.src, v.dst, &v);
    m->direct[v.src][v.dst] = 1;
    if (both && !m->direct[v.dst][v.src])
        set_cell(m, v.dst, v.src, &v);
}

static int matches(const ls_view_t *v, const char *method, const char *direction, int through_host)
{
    if (strcmp(v->method_word, method) != 0)
        return 0;
    if (direction && strcmp(v->direction ? v->direction : "", direction) != 0)
        return 0;
    if (!direction && !!(v->flags & LS_VF_THROUGH_HOST) != !!through_host)
        return 0;
    return v->src >= 0 && v->dst >= 0;
}

/* A command's matrix title: a family with directions says which, one without names the
   path (through host memory or not). */
static void command_title(ls_matrix_t *m, const ls_fam_t *fam, const char *method, int bidir,
                          int through_host)
{
    const char *words = ls_fam_method_words(fam, method);
    if (fam->directions)
        snprintf(m->title, sizeof m->title, "%s, %s, %s", fam->title, words,
                 bidir ? "both directions at once (sum of the two)"
                       : "one direction (bytes copied / time)");
    else if (fam == &ls_fam_latency) /* the words its command has always printed */
        snprintf(m->title, sizeof m->title, "Latency%s, %s",
                 through_host ? " through host memory" : "", words);
    else
        snprintf(m->title, sizeof m->title, "%s%s, %s", fam->title,
                 through_host ? " through host memory" : "", words);
}

int ls_matrix_from_doc(const json_t *doc, const ls_fam_t *fam, const char *method,
                       const char *direction, int through_host, ls_matrix_t *m)
{
    ls_matrix_init(m, 0);
    int bidir = direction && strcmp(direction, LS_DIR_BIDIR) == 0;
    snprintf(m->corner, sizeof m->corner,
             bidir ? "GPU(row) <-> GPU(column)" : "GPU(row) -> GPU(column)");
    snprintf(m->unit, sizeof m->unit, "%s", fam->unit);
    m->lower_is_better = fam->lower_is_better;
    command_title(m, fam, method, bidir, through_host);
    snprintf(m->name, sizeof m->name, "%s-%s-%s", fam->name, method,
             fam->directions ? direction
             : through_host  ? "host"
                             : "p2p");
    LS_DOC_FOREACH(v, doc, fam)
    if (matches(&v, method, direction, through_host)) {
        ls_matrix_slot(m, v.src);
        ls_matrix_slot(m, v.dst);
    }
    int filled = 0;
    LS_DOC_FOREACH(v, doc, fam)
    if (matches(&v, method, direction, through_host)) {
        ls_matrix_put(m, v.json, bidir);
        filled++;
    }
    return filled;
}

/* Report matrices ---------------------------------------------------------------- */

/* One matrix per family, direction, method, read or write, tool, path and, for an
   imported figure, the tool's own matrix (p2pBandwidthLatencyTest prints P2P=Enabled
   and P2P=Disabled matrices that must not share cells; nvbandwidth CE reads and writes). */
static void report_key(const json_t *e, char *key, size_t len)
{
    snprintf(key, len, "%s|%s|%s|%s|%s|%d|%s", ls_json_str(e, "family", ""),
             ls_json_str(e, "direction", LS_DIR_UNI), ls_json_str(e, "method", ""),
             ls_json_str(e, "mode", ""), ls_json_str(e, "source", LS_SOURCE_LINKSCOPE),
             ls_entry_has_flag(e, LS_FLAG_THROUGH_HOST), ls_json_str(e, "matrix", ""));
}

/* "ce (p2pBandwidthLatencyTest: Unidirectional P2P=Disabled Bandwidth Matrix (GB/s))",
   "ce reads (nvbandwidth)", "gpu_copy, through host memory (linkscope)". */
static void method_source(const json_t *e, const char *path, char *buf, size_t len)
{
    const char *mode = ls_json_str(e, "mode", NULL);
    const char *matrix = ls_json_str(e, "matrix", NULL);
    snprintf(buf, len, "%s%s%s%s (%s%s%.120s)", ls_json_str(e, "method", "unknown"),
             mode ? " " : "", mode && !strcmp(mode, NVBW_READ) ? "reads" : (mode ? mode : ""), path,
             ls_json_str(e, "source", LS_SOURCE_LINKSCOPE), matrix ? ": " : "",
             matrix ? matrix : "");
}

/* "P2P bandwidth, GB/s, one direction, GPU(row) -> GPU(column): ce (linkscope)": the
   family's title and unit, the direction for a family with directions, else the path. */
static void report_title(const ls_view_t *v, ls_matrix_t *m)
{
    char how[200];
    const ls_fam_t *f = v->fam;
    if (!f->directions) {
        method_source(v->json, v->flags & LS_VF_THROUGH_HOST ? ", through host memory" : "", how,
                      sizeof how);
        snprintf(m->title, sizeof m->title, "%s, %s, GPU(row) -> GPU(column): %.150s", f->title,
                 f->unit, how);
    } else {
        method_source(v->json, "", how, sizeof how);
        int bidir = v->direction && !strcmp(v->direction, LS_DIR_BIDIR);
        snprintf(m->title, sizeof m->title, "%s, %s, %s, GPU(row) -> GPU(column): %.150s", f->title,
                 f->unit, bidir ? "both directions summed" : "one direction", how);
    }
    snprintf(m->unit, sizeof m->unit, "%s", f->unit);
    m->lower_is_better = f->lower_is_better;
}

/* A GPU-to-GPU entry the report shows: ok, of a family shown as matrices, between two
   GPUs (a figure through host memory gets a matrix of its own, never a cell of the
   direct one). */
static int report_entry(const ls_view_t *v)
{
    return v->fam && v->fam->show == LS_SHOW_MATRIX && v->src >= 0 && v->dst >= 0 &&
           v->src < LS_MAX_GPUS && v->dst < LS_MAX_GPUS && v->ok;
}

/* A new matrix for e's kind at list[n], over the document's GPUs (and e's pair). */
static ls_matrix_t *report_matrix(ls_matrix_t *list, int n, const ls_view_t *v, int ngpus)
{
    ls_matrix_t *grown = realloc(list, (size_t)(n + 1) * sizeof *grown);
    if (!grown)
        abort();
    int a = v->src, b = v->dst;
    ls_matrix_init(&grown[n], ngpus > a && ngpus > b ? ngpus : (a > b ? a : b) + 1);
    report_title(v, &grown[n]);
    return grown;
}

int ls_doc_matrices(const json_t *doc, ls_matrix_t **out)
{
    int n = 0, ngpus = ls_doc_ngpus(doc);
    char keys[64][160];
    ls_matrix_t *list = NULL;
    LS_DOC_FOREACH(v, doc, NULL)
    {
        if (!report_entry(&v))
            continue;
        char key[160];
        report_key(v.json, key, sizeof key);
        int k = 0;
        while (k < n && strcmp(keys[k], key))
            k++;
        if (k == n) {
            if (n == 64)
                continue;
            list = report_matrix(list, n, &v, ngpus);
            snprintf(keys[n++], sizeof keys[0], "%s", key);
        }
        ls_matrix_put(&list[k], v.json, v.direction && !strcmp(v.direction, LS_DIR_BIDIR));
    }
    *out = list;
    return n;
}

static void value_cell(const void *arg, int r, int c, char *buf, size_t len)
{
    const ls_matrix_t *m = arg;
    ls_fmt_num(m->v[r][c], buf, len);
}

ls_table_t *ls_matrix_table(const ls_matrix_t *m)
{
    return ls_gpu_grid_table(m->title, m->n, m->index, value_cell, m);
}

const char *ls_heat_escape(double frac)
{
    /* xterm-256 colours from red (196) through yellow (226) to green (46). */
    static const char *const ramp[] = {"\033[30;48;5;196m", "\033[30;48;5;202m",
                                       "\033[30;48;5;208m", "\033[30;48;5;214m",
                                       "\033[30;48;5;220m", "\033[30;48;5;226m",
                                       "\033[30;48;5;190m", "\033[30;48;5;154m",
                                       "\033[30;48;5;118m", "\033[30;48;5;82m",
                                       "\033[30;48;5;46m"};
    if (!(frac >= 0))
        frac = 0;
    if (frac > 1)
        frac = 1;
    return ramp[(int)lround(frac * 10)];
}

int ls_use_color(FILE *f)
{
    const char *no = getenv("NO_COLOR");
    return isatty(fileno(f)) && !(no && *no);
}

/* The best value of the matrix (highest bandwidth, lowest latency), NaN when none. */
static double best_of(const ls_matrix_t *m)
{
    double best = NAN;
    for (int i = 0; i < m->n; i++)
        for (int j = 0; j < m->n; j++)
            if (m->cell[i][j] == LS_CELL_VALUE) {
                double v = m->v[i][j];
                if (isnan(best) || (m->lower_is_better ? v < best : v > best))
                    best = v;
            }
    return best;
}

static double goodness(const ls_matrix_t *m, double v, double best)
{
    if (!(best > 0) || !(v > 0))
        return 0;
    return m->lower_is_better ? best / v : v / best;
}

/* A cell of the terminal matrix: the value ('*' where the pair has no peer access), or
   "-" on the diagonal, "n/a", "failed"; on a heatmap padded inside its colour. */
static void print_cell(const ls_matrix_t *m, int i, int j, int color, double best, char *buf,
                       size_t len)
{
    if (i == j || m->cell[i][j] == LS_CELL_EMPTY) {
        snprintf(buf, len, "%s", i == j ? "-" : "n/a");
    } else if (m->cell[i][j] == LS_CELL_FAILED) {
        snprintf(buf, len, "failed");
    } else {
        char text[32];
        snprintf(text, sizeof text, m->no_p2p[i][j] ? "%.2f*" : "%.2f", m->v[i][j]);
        if (color)
            snprintf(buf, len, "%s%9s\033[0m", ls_heat_escape(goodness(m, m->v[i][j], best)), text);
        else
            snprintf(buf, len, "%s", text);
    }
}

char *ls_matrix_text(const ls_matrix_t *m, int color)
{
    double best = best_of(m), max_cv = 0;
    int marked = 0;
    char title[320], corner[64], cells[LS_MAX_GPUS + 1][64];
    const char *row[LS_MAX_GPUS + 1];
    ls_column_t cols[LS_MAX_GPUS + 1] = {{24, 0, 0, 0}}; /* the corner, then GPUs 9 wide */
    snprintf(title, sizeof title, "%s: %s, median of %d samples", m->title, m->unit, m->samples);
    snprintf(corner, sizeof corner, "%-24s", m->corner); /* left of the right-aligned row GPUs */
    row[0] = corner;
    for (int j = 0; j < m->n; j++) {
        snprintf(cells[j + 1], sizeof cells[0], "%d", m->index[j]);
        row[j + 1] = cells[j + 1];
        cols[j + 1] = (ls_column_t){9, 0, 0, 0};
    }
    ls_table_t *t = ls_table_new(title, m->n + 1, row);
    for (int i = 0; i < m->n; i++) {
        snprintf(cells[0], sizeof cells[0], "%d", m->index[i]);
        row[0] = cells[0];
        for (int j = 0; j < m->n; j++) {
            print_cell(m, i, j, color, best, cells[j + 1], sizeof cells[0]);
            if (i != j && m->cell[i][j] == LS_CELL_VALUE) {
                max_cv = m->cv[i][j] > max_cv ? m->cv[i][j] : max_cv;
                marked |= m->no_p2p[i][j];
            }
        }
        ls_table_row(t, row);
    }
    ls_buf_t b = {0};
    ls_columns_put(&b, t, cols, 0);
    if (marked)
        ls_buf_puts(&b, "* no P2P between the pair: measured through host memory\n");
    ls_buf_printf(&b, "largest spread (coefficient of variation) over the cells: %.2f%%\n\n",
                  max_cv * 100);
    return ls_buf_take(&b);
}

char *ls_matrix_csv(const ls_matrix_t *m)
{
    ls_buf_t b = {0};
    ls_buf_printf(&b, "\"%s (%s)\"", m->corner, m->unit);
    for (int j = 0; j < m->n; j++)
        ls_buf_printf(&b, ",%d", m->index[j]);
    ls_buf_puts(&b, "\n");
    for (int i = 0; i < m->n; i++) {
        ls_buf_printf(&b, "%d", m->index[i]);
        for (int j = 0; j < m->n; j++) {
            char num[48]; /* shortest decimal that reads back as the double */
            ls_fmt_full(m->v[i][j], num, sizeof num);
            if (m->cell[i][j] == LS_CELL_VALUE && i != j)
                ls_buf_printf(&b, ",%s", num);
            else if (m->cell[i][j] == LS_CELL_FAILED)
                ls_buf_puts(&b, ",failed");
            else
                ls_buf_puts(&b, ",");
        }
        ls_buf_puts(&b, "\n");
    }
    return ls_buf_take(&b);
}

int ls_matrix_write_csv(const ls_matrix_t *m, const char *dir, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.csv", dir, m->name);
    char *csv = ls_matrix_csv(m);
    if (!csv) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = ls_write_file_atomic(path, csv, strlen(csv), err, errlen);
    free(csv);
    return rc;
}

/* Path table -------------------------------------------------------------------- */

typedef struct {
    int a, b;
    double ab, ba, both, write_us, read_us;
    char link[16];
} path_row_t;

/* The best ok figure of fam between a and b (either way for bidir), on the pair's own
   path (through_host 0) or through host; method NULL: any but staged (the path's own
   figure, not the detour through host). NaN when none. */
static double best_value(const json_t *doc, const ls_fam_t *fam, const char *direction,
                         const char *method, int a, int b, int through_host)
{
    double best = NAN;
    int bidir = direction && strcmp(direction, LS_DIR_BIDIR) == 0;
    LS_DOC_FOREACH(v, doc, fam)
    {
        if (!v.ok || (direction && strcmp(v.direction ? v.direction : "", direction) != 0))
            continue;
        if (method ? strcmp(v.method_word, method) != 0 : strcmp(v.method_word, LS_P2P_STAGED) == 0)
            continue;
        if (!!(v.flags & LS_VF_THROUGH_HOST) != through_host)
            continue;
        if (!((v.src == a && v.dst == b) || (bidir && v.src == b && v.dst == a)))
            continue;
        if (isnan(best) || (fam->lower_is_better ? v.value < best : v.value > best))
            best = v.value;
    }
    return best;
}

static void link_word(const json_t *doc, int a, int b, char *buf, size_t len)
{
    snprintf(buf, len, "%s", ls_json_str(ls_doc_link(doc, a, b), "type", "unknown"));
}

static void fmt(char *buf, size_t len, double v, const char *f)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, f, v);
}

/* One pair: its link, each direction's and both directions' best figure, the latencies
   and its one-direction figure against the fastest pair's. */
static void path_row(ls_table_t *t, const path_row_t *p, double fastest)
{
    char pair[32], one[40], both[24], w[16], rd[16], ratio[16], x[16], y[16];
    snprintf(pair, sizeof pair, "%d <-> %d", p->a, p->b);
    fmt(x, sizeof x, p->ab, "%.1f");
    fmt(y, sizeof y, p->ba, "%.1f");
    snprintf(one, sizeof one, "%s / %s", x, y);
    fmt(both, sizeof both, p->both, "%.1f");
    fmt(w, sizeof w, p->write_us, "%.2f");
    fmt(rd, sizeof rd, p->read_us, "%.2f");
    double mine = fmax(isnan(p->ab) ? 0 : p->ab, isnan(p->ba) ? 0 : p->ba);
    fmt(ratio, sizeof ratio, fastest > 0 && mine > 0 ? mine / fastest : NAN, "%.2fx");
    const char *row[] = {pair, p->link, one, both, w, rd, ratio};
    ls_table_row(t, row);
}

int ls_p2p_path_table(FILE *f, const json_t *doc)
{
    ls_matrix_t *m = calloc(1, sizeof *m);
    if (!m)
        return 0;
    /* GPUs that have any P2P figure. */
    if (ls_matrix_from_doc(doc, &ls_fam_p2p, LS_P2P_CE, LS_DIR_UNI, 0, m) == 0 &&
        ls_matrix_from_doc(doc, &ls_fam_p2p, LS_P2P_STAGED, LS_DIR_UNI, 0, m) == 0) {
        free(m);
        return 0;
    }
    int rows = 0;
    path_row_t *r = calloc((size_t)m->n * (size_t)m->n, sizeof *r);
    for (int i = 0; r && i < m->n; i++)
        for (int j = i + 1; j < m->n; j++) {
            path_row_t *p = &r[rows++];
            p->a = m->index[i];
            p->b = m->index[j];
            p->ab = best_value(doc, &ls_fam_p2p, LS_DIR_UNI, NULL, p->a, p->b, 0);
            p->ba = best_value(doc, &ls_fam_p2p, LS_DIR_UNI, NULL, p->b, p->a, 0);
            p->both = best_value(doc, &ls_fam_p2p, LS_DIR_BIDIR, NULL, p->a, p->b, 0);
            p->write_us = best_value(doc, &ls_fam_latency, NULL, LS_LAT_GPU_PINGPONG, p->a, p->b,
                                     0);
            p->read_us = best_value(doc, &ls_fam_latency, NULL, LS_LAT_POINTER_CHASE, p->a, p->b,
                                    0);
            link_word(doc, p->a, p->b, p->link, sizeof p->link);
            if (isnan(p->ab) && isnan(p->ba))
                snprintf(p->link + strlen(p->link), sizeof p->link - strlen(p->link), " no P2P");
        }
    double fastest = 0;
    for (int k = 0; k < rows; k++) {
        double one = fmax(isnan(r[k].ab) ? 0 : r[k].ab, isnan(r[k].ba) ? 0 : r[k].ba);
        fastest = fmax(fastest, one);
    }
    static const char *const header[] = {"pair",      "link",     "one dir a->b / b->a",
                                         "both dirs", "write us", "read us",
                                         "ratio"};
    static const ls_column_t cols[] = {{10, 1, 0, 0}, {10, 1, 0, 0}, {19, 0, 0, 0}, {12, 0, 0, 0},
                                       {9, 0, 0, 0},  {9, 0, 0, 0},  {8, 0, 0, 0}};
    ls_table_t *t =
        ls_table_new("P2P paths (GB/s = 1e9 B/s; one direction = best of ce, sm_read, sm_write; "
                     "latency in us: write = ping-pong one-way trip, read = pointer chase)",
                     7, header);
    for (int k = 0; k < rows; k++)
        path_row(t, &r[k], fastest);
    ls_columns_print(f, t, cols, 0);
    fputc('\n', f);
    free(r);
    free(m);
    return rows;
}
