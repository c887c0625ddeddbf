/* nvloom_cli text and CSV. Layout from nvloom's printing code (cli/util.cpp OutputMatrix,
   cli/testcases.cpp, cli/csv_testcase.cpp at release 1.3; no output was found posted):
     "Process  3 (node-a): device 3: NVIDIA GB200 (00000000:01:00); rackGuid: 0a1b..."
     "Running device_to_device_unidir_write_ce"
     "\t0\t1\t2\t"                      column labels (process, or rack GUID; "|" between racks)
     "0\tN/A\t812.33\t811.90\t"          row label, then one cell per column: GB/s (ns for
                                         latency_*), "N/A" where not measured, a rich-output
                                         cell "812.33;(0-17)" names the pair it sampled
     "Min NAME 811.90 GB/s" / Avg / Max / Total
   Cells: pairwise NAME (src_to_dst_{unidir,bidir}_{write,read}_{ce,sm}) are copies from
   the column's process to the row's (doUnidir(i, j) is set at x = i, y = j); latency_*
   rows are the process reading, columns where the memory is; gpu_to_rack_* rows are the
   tested process, columns the racks (median over sampled peers); rack_to_rack_* rows and
   columns are racks; the rest (bisect, all_to_one, multicast) one column per process.
   CSV (--csvOutputFile): "measurement_id, bandwidth/latency, src, dst, iterations,
   src_mem, dst_mem, write/read, ce/sm/multicast, bytes, comment, result". */
#include "nvloom.h"
#include "import_util.h"
#include "model/doc.h"
#include "model/vocab.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* nvloom's word for its latency testcases and CSV rows (not the document's family) */
#define NVLOOM_LATENCY "latency"

#define CSV_HEADER "measurement_id, bandwidth/latency"

int ls_nvloom_detect(const char *text)
{
    return strstr(text, "nvloom_cli ") || strstr(text, "; rackGuid: ") ||
           strstr(text, CSV_HEADER) ||
           (strstr(text, "Running ") && strstr(text, "\nMax ") && strstr(text, "\nTotal ") &&
            strstr(text, "_to_"));
}

#define MAX_COLS 1024 /* an NVL576 domain's processes, with room */

typedef struct {
    json_t *doc, *top, *procs, *tests, *rows;
    char test[128], unit[16];
    char (*labels)[64]; /* column labels of the current matrix ("|" dropped) */
    int ncols, in_matrix, added;
} nv_t;

/* A line of any length (a 72-process matrix row is wider than ls_line_t), split on
   blanks in place: the number of tokens, at most max. */
static int split(char *line, char **tok, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t\r", &save); t && n < max; t = strtok_r(NULL, " \t\r", &save))
        tok[n++] = t;
    return n;
}

/* The process table entry of index p (NULL when the table did not list it). */
static const json_t *process(const nv_t *s, long long p)
{
    size_t i;
    const json_t *e;
    json_array_foreach(s->procs, i, e) {
        if (ls_json_int(e, "process", -1) == p)
            return e;
    }
    return NULL;
}

/* "Process  3 (node-a): device 3: NVIDIA GB200 (00000000:01:00); rackGuid: 0a1b" */
static void process_line(nv_t *s, const char *raw)
{
    long long p, dev;
    char host[128], rest[256];
    if (sscanf(raw, "Process %lld (%127[^)]): device %lld: %255[^\n]", &p, host, &dev, rest) != 4)
        return;
    json_t *e = json_pack("{s:I, s:s, s:I}", "process", p, "host", host, "device", dev);
    char *rack = strstr(rest, "; rackGuid: ");
    if (rack) {
        json_object_set_new(e, "rack", json_string(rack + strlen("; rackGuid: ")));
        *rack = 0;
    }
    json_object_set_new(e, "name", json_string(rest));
    json_array_append_new(s->procs, e);
}

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* What the cells of a testcase are about, from its name. */
static const char *kind_of(const char *test)
{
    if (starts(test, "gpu_to_rack_"))
        return "gpu_to_rack";
    if (starts(test, "rack_to_rack_"))
        return "rack_to_rack";
    if (starts(test, "latency_"))
        return "latency";
    if (strstr(test, "_to_") && (strstr(test, "_unidir_") || strstr(test, "_bidir_")) &&
        !starts(test, "bisect_") && !starts(test, "multicast"))
        return "pairwise";
    return "per_process";
}

/* key = process index p; host_key = its host when the process table names it. */
static void set_process(json_t *e, const nv_t *s, const char *key, const char *host_key,
                        long long p)
{
    json_object_set_new(e, key, json_integer(p));
    const json_t *pr = process(s, p);
    if (pr)
        json_object_set_new(e, host_key, json_string(ls_json_str(pr, "host", "")));
}

static json_t *new_entry(const char *method, const char *pattern, int lat, double v)
{
    json_t *e = ls_import_entry(LS_FAMILY_MNNVL, lat ? "latency" : "bandwidth", lat ? "us" : "GB/s",
                                lat ? v / 1000 : v);
    json_object_set_new(e, "method", json_string(method));
    json_object_set_new(e, "pattern", json_string(pattern));
    return e;
}

/* A pair of processes: src and dst, the subject naming them either way. */
static void pair(json_t *e, const nv_t *s, long long src, long long dst)
{
    set_process(e, s, "src_process", "src_host", src);
    set_process(e, s, "dst_process", "dst_host", dst);
    char subject[64];
    snprintf(subject, sizeof subject, "processes %lld-%lld", src < dst ? src : dst,
             src < dst ? dst : src);
    json_object_set_new(e, "subject", json_string(subject));
}

/* One cell: the entry naming its row and column as the testcase's kind says. */
static void add_cell(nv_t *s, const char *row, int col, double v, const char *note)
{
    const char *kind = kind_of(s->test);
    json_t *e = new_entry(s->test, kind, strcmp(s->unit, "ns") == 0, v);
    char id[320], subject[160] = "";
    long long r = atoll(row), c = atoll(s->labels[col]);
    if (!strcmp(kind, "pairwise") || !strcmp(kind, NVLOOM_LATENCY)) {
        int lat = !strcmp(kind, NVLOOM_LATENCY); /* latency rows read from the column's memory */
        pair(e, s, lat ? r : c, lat ? c : r);
        snprintf(id, sizeof id, "mnnvl-%s-%lld-%lld", s->test, lat ? r : c, lat ? c : r);
    } else if (!strcmp(kind, "gpu_to_rack")) {
        set_process(e, s, "process", "host", r);
        json_object_set_new(e, "rack", json_string(s->labels[col]));
        json_object_set_new(e, "rack_index", json_integer(col));
        snprintf(id, sizeof id, "mnnvl-%s-%lld-rack%d", s->test, r, col);
        snprintf(subject, sizeof subject, "process %lld", r);
    } else if (!strcmp(kind, "rack_to_rack")) {
        json_object_set_new(e, "src_rack", json_string(s->labels[col]));
        json_object_set_new(e, "dst_rack", json_string(row));
        snprintf(id, sizeof id, "mnnvl-%s-%s-%s", s->test, s->labels[col], row);
        snprintf(subject, sizeof subject, "racks %s-%s", s->labels[col], row);
    } else {
        set_process(e, s, "process", "host", r);
        snprintf(id, sizeof id, "mnnvl-%s-%lld", s->test, r);
        snprintf(subject, sizeof subject, "process %lld", r);
    }
    if (subject[0])
        json_object_set_new(e, "subject", json_string(subject));
    if (note)
        json_object_set_new(e, "sampled_pair", json_string(note));
    ls_import_add(s->doc, e, "nvloom", id);
    s->added++;
}

/* "0\tN/A\t812.33;(0-17)\t|\t..." */
static void matrix_row(nv_t *s, char **tok, int ntok)
{
    int col = 0;
    for (int i = 1; i < ntok && col < s->ncols; i++) {
        char *cell = tok[i];
        if (strcmp(cell, "|") == 0)
            continue;
        char *note = strchr(cell, ';');
        if (note) {
            *note++ = 0;
            note += strspn(note, "(");
            note[strcspn(note, ")")] = 0;
        }
        double v;
        if (ls_tok_double(cell, &v) == 0 && v > 0)
            add_cell(s, tok[0], col, v, note);
        col++;
    }
}

static json_t *last_test(const nv_t *s)
{
    return json_array_get(s->tests, json_array_size(s->tests) - 1);
}

/* "Min NAME 811.90 GB/s" (Avg, Max, Total): the testcase's record; the first ends its
   matrix, whose unit it gives: the rows kept until now become entries. */
static int summary_line(nv_t *s, char **tok, int ntok)
{
    static const char *const stats[] = {"Min", "Avg", "Max", "Total"}, *const keys[] = {"min",
                                                                                        "avg",
                                                                                        "max",
                                                                                        "total"};
    for (size_t i = 0; i < 4; i++) {
        if (ntok != 4 || strcmp(tok[0], stats[i]) != 0)
            continue;
        double v;
        if (last_test(s) && ls_tok_double(tok[2], &v) == 0)
            json_object_set_new(last_test(s), keys[i], json_real(v));
        json_object_set_new(last_test(s), "unit", json_string(tok[3]));
        if (s->in_matrix) {
            snprintf(s->unit, sizeof s->unit, "%s", tok[3]);
            size_t r;
            json_t *row;
            json_array_foreach(s->rows, r, row) {
                char *copy = strdup(json_string_value(row));
                char **t = copy ? malloc((MAX_COLS + 1) * sizeof *t) : NULL;
                if (t)
                    matrix_row(s, t, split(copy, t, MAX_COLS + 1));
                free(t), free(copy);
            }
            json_array_clear(s->rows);
            s->in_matrix = 0;
        }
        return 1;
    }
    return 0;
}

static void start_test(nv_t *s, const char *name)
{
    snprintf(s->test, sizeof s->test, "%s", name);
    char *iter = strstr(s->test, "_iter_"); /* -c / -d repeats of one testcase */
    if (iter)
        *iter = 0;
    json_array_append_new(s->tests,
                          json_pack("{s:s, s:s}", "name", s->test, "pattern", kind_of(s->test)));
    s->in_matrix = 1, s->ncols = 0;
    json_array_clear(s->rows);
}

static void handle(nv_t *s, char *raw)
{
    char name[128];
    if (sscanf(raw, "Running %127s", name) == 1 && strchr(raw, '.') == NULL) {
        start_test(s, name);
        return;
    }
    if (starts(raw, "Process "))
        process_line(s, raw);
    if (strstr(raw, "WAIVED") && s->in_matrix) {
        json_object_set_new(last_test(s), "waived", json_true());
        s->in_matrix = 0;
        return;
    }
    char *keep = strdup(raw), *tok[MAX_COLS + 1];
    int ntok = keep ? split(keep, tok, MAX_COLS + 1) : 0;
    if (ntok > 0 && !summary_line(s, tok, ntok) && s->in_matrix) {
        if (s->ncols == 0) /* the first line under "Running": the column labels */
            for (int i = 0; i < ntok && s->ncols < MAX_COLS; i++) {
                if (strcmp(tok[i], "|") != 0)
                    snprintf(s->labels[s->ncols++], sizeof s->labels[0], "%s", tok[i]);
            }
        else
            json_array_append_new(s->rows, json_string(raw));
    }
    free(keep);
}

/* One field of a CSV line, blanks around it removed. */
static void field(const char *p, size_t len, char *out, size_t outlen)
{
    while (len && (*p == ' ' || *p == '\t'))
        p++, len--;
    while (len && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\r'))
        len--;
    snprintf(out, outlen, "%.*s", (int)(len < outlen ? len : outlen - 1), p);
}

static void csv_line(nv_t *s, const char *raw)
{
    char f[12][128];
    int n = 0;
    for (const char *p = raw; n < 12; n++) {
        size_t len = strcspn(p, ",");
        field(p, len, f[n], sizeof f[n]);
        if (!p[len]) {
            n++;
            break;
        }
        p += len + 1;
    }
    double v;
    long long src, dst, mid;
    if (n != 12 || ls_tok_double(f[11], &v) != 0 || ls_tok_long(f[2], &src) != 0 ||
        ls_tok_long(f[3], &dst) != 0 || ls_tok_long(f[0], &mid) != 0)
        return;
    int lat = strcmp(f[1], NVLOOM_LATENCY) == 0;
    char method[160], id[256];
    snprintf(method, sizeof method, "csv_%s", lat ? "latency" : f[8]);
    json_t *e = new_entry(method, "csv", lat, v);
    pair(e, s, lat ? dst : src,
         lat ? src : dst); /* latency: the executing process reads src's memory */
    json_object_set_new(e, "measurement_id", json_integer(mid));
    if (!lat) {
        json_object_set_new(e, "copy", json_string(f[7]));
        json_object_set_new(e, "memory", json_pack("{s:s, s:s}", "src", f[5], "dst", f[6]));
    }
    if (f[10][0])
        json_object_set_new(e, "comment", json_string(f[10]));
    snprintf(id, sizeof id, "mnnvl-csv-%s-%lld-%lld-%lld", f[1], mid, src, dst);
    ls_import_add(s->doc, e, "nvloom", id);
    s->added++;
}

static void read_lines(nv_t *s, const char *text)
{
    int csv = 0;
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, "\n");
        char *raw = strndup(p, len);
        if (!raw)
            return;
        char version[32];
        if (sscanf(raw, "nvloom_cli %31s", version) == 1)
            json_object_set_new(s->top, "version", json_string(version));
        if (strstr(raw, CSV_HEADER))
            csv = 1;
        else if (csv)
            csv_line(s, raw);
        else
            handle(s, raw);
        free(raw);
        p += len + (p[len] == '\n');
    }
}

int ls_import_nvloom(json_t *doc, const char *text, const char *name, char *err, size_t errlen)
{
    nv_t s = {.doc = doc, .procs = json_array(), .tests = json_array(), .rows = json_array()};
    s.labels = calloc(MAX_COLS, sizeof *s.labels);
    s.top = json_pack("{s:s}", "file", name);
    if (s.labels)
        read_lines(&s, text);
    free(s.labels);
    json_decref(s.rows);
    json_object_set_new(s.top, "processes", s.procs);
    json_object_set_new(s.top, "testcases", s.tests);
    if (s.added == 0) {
        json_decref(s.top);
        return ls_seterr(err, errlen, "%s: nvloom output: no testcase matrix or CSV result", name);
    }
    json_t *list = ls_json_array_at(doc, "nvloom");
    json_array_append_new(list, s.top);
    return s.added;
}
