/* Plain nvidia-smi output: the banner, the GPU table, then the MIG devices and Processes
   tables (smi_table_lines.c), or the failure line NVML's error gave instead.

   The GPU table is read by its column header, whatever the driver's widths: each header
   line (between "GPU  Name ..." and the "===" rule) names the cells of the same line of
   every GPU's block, so the narrow layout of drivers up to 520, the wide one from 525
   and the lines later drivers add ("MIG M.", "Addressing Mode") are read alike. Rows
   pasted without the header are read by the layout every driver since 450 prints (name,
   bus id, ECC; fan, temperature, perf, power, memory, utilization, compute mode; MIG
   mode). A cell nvidia-smi printed N/A stays absent, an ERR! cell is named in the GPU's
   smi_err[] (NVML answered an error for it), a name cut to "..." is kept as name_cut. */
#include "smi_table.h"
#include "import_note.h"
#include "import_util.h"
#include "model/busid.h"
#include "model/topo.h"
#include "util/log.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CELLS 8
#define MAX_HDR 4
#define CELL 256

enum section { SEC_NONE, SEC_GPUS, SEC_MIG, SEC_PROCS };

typedef struct {
    json_t *doc, *smi, *mig;
    enum section sec;
    int in_header, header_lines;
    char label[MAX_HDR][MAX_CELLS][CELL];
    json_t *gpu; /* the GPU block being read; NULL between blocks */
    int gpu_index, line_no;
    int gpus, banner, cut, cut_gpu, elided;
    int procs, proc_body, proc_closed, proc_type, proc_gi, proc_header;
    int migs, mig_body, mig_last_border, mig_cut;
} table_t;

/* The layout of every driver since 450 (a paste without the column header). */
static const char *const default_label[MAX_HDR][3] = {{"GPU Name Persistence-M", "Bus-Id Disp.A",
                                                       "Volatile Uncorr. ECC"},
                                                      {"Fan Temp Perf Pwr:Usage/Cap",
                                                       "Memory-Usage", "GPU-Util Compute M."},
                                                      {"", "", "MIG M."},
                                                      {"", "", ""}};

/* The line without the blanks around it and without what a paste puts before a table
   line: a Markdown quote ("> "), a shell comment ("# "), a backtick. */
static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *t = s;
    while (*t == '>' || *t == '#' || *t == '`' || *t == ' ')
        t++;
    if (t > s && (*t == '|' || *t == '+'))
        s = t;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '`'))
        s[--n] = '\0';
    return s;
}

/* "+----+----+", "|====+====|", "|----|": a rule of the table. */
static int border(const char *s)
{
    if (*s != '+' && *s != '|')
        return 0;
    int dash = 0;
    for (; *s; s++) {
        if (*s == '-' || *s == '=')
            dash++;
        else if (*s != '+' && *s != '|' && *s != ' ')
            return 0;
    }
    return dash >= 3;
}

/* The cells between a line's bars (blanks trimmed); *cut = 1 when text follows the last
   bar (a line cut before its closing bar: that last cell may be cut and is dropped). */
static int cells(const char *line, char out[][CELL], int *cut, char *partial, size_t plen)
{
    int n = 0;
    const char *p = strchr(line, '|');
    *cut = 0;
    while (p) {
        const char *q = strchr(p + 1, '|');
        const char *end = q ? q : p + 1 + strlen(p + 1);
        while (p + 1 < end && p[1] == ' ')
            p++;
        size_t len = (size_t)(end - (p + 1));
        while (len && (p[len] == ' ' || p[len] == '\t'))
            len--;
        if (!q) {
            *cut = len > 0;
            if (partial)
                snprintf(partial, plen, "%.*s", (int)len, p + 1);
            break;
        }
        if (n < MAX_CELLS)
            snprintf(out[n++], CELL, "%.*s", (int)(len < CELL - 1 ? len : CELL - 1), p + 1);
        p = q;
    }
    return n;
}

static int words(char *s, char **w, int max)
{
    int n = 0;
    for (char *t = strtok(s, " \t"); t && n < max; t = strtok(NULL, " \t"))
        w[n++] = t;
    return n;
}

/* A number with exactly this suffix ("30%", "28C", "88W"); 0 when not one, or when past
   what any cell of the table can hold (a forged "1e999W"). */
static int number(const char *w, const char *suffix, double *out)
{
    char *end;
    if (!isdigit((unsigned char)*w))
        return 0;
    double v = strtod(w, &end);
    if (strcmp(end, suffix) != 0 || !isfinite(v) || v > 1e12)
        return 0;
    *out = v;
    return 1;
}

static int is_err(const char *w)
{
    return strcmp(w, "ERR!") == 0;
}

/* Names cell what of the GPU in its smi_err[] (once). */
static void err_cell(json_t *gpu, const char *what)
{
    json_t *list = json_object_get(gpu, "smi_err");
    if (!json_is_array(list)) {
        list = json_array();
        json_object_set_new(gpu, "smi_err", list);
    }
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v) {
        if (strcmp(json_string_value(v), what) == 0)
            return;
    }
    json_array_append_new(list, json_string(what));
}

static json_t *child(json_t *gpu, const char *key)
{
    json_t *o = json_object_get(gpu, key);
    if (!json_is_object(o)) {
        o = json_object();
        json_object_set_new(gpu, key, o);
    }
    return o;
}

/* A word of a cell: ERR! named, a number with its unit set, N/A and the rest left out. */
static void word_value(json_t *gpu, const char *w, const char *suffix, json_t *obj, const char *key,
                       const char *what)
{
    double v;
    if (is_err(w))
        err_cell(gpu, what);
    else if (number(w, suffix, &v) && !json_object_get(obj, key))
        json_object_set_new(obj, key, json_real(v));
}

/* "0  NVIDIA H100 80GB HBM3  On": index, name, persistence mode ("TCC"/"WDDM" on
   Windows: the driver model, no persistence column). */
static void name_cell(json_t *gpu, char *cell)
{
    char *w[24];
    int n = words(cell, w, 24), last = n;
    if (n < 2)
        return;
    if (!strcmp(w[n - 1], "On") || !strcmp(w[n - 1], "Off")) {
        if (!json_object_get(gpu, "persistence_mode"))
            json_object_set_new(gpu, "persistence_mode", json_boolean(!strcmp(w[n - 1], "On")));
        last = n - 1;
    } else if (!strcmp(w[n - 1], "WDDM") || !strcmp(w[n - 1], "TCC")) {
        ls_set_if_absent(gpu, "driver_model", w[n - 1]);
        last = n - 1;
    } else if (n > 2 && is_err(w[n - 1])) {
        err_cell(gpu, "persistence_mode");
        last = n - 1;
    }
    char name[CELL] = "";
    for (int i = 1; i < last; i++) {
        size_t used = strlen(name);
        snprintf(name + used, sizeof name - used, "%s%s", used ? " " : "", w[i]);
    }
    size_t len = strlen(name);
    if (is_err(name))
        err_cell(gpu, "name");
    else if (len > 3 && strcmp(name + len - 3, "...") == 0) { /* cut to the column's width */
        name[len - 3] = '\0';
        ls_set_if_absent(gpu, "name_cut", name);
    } else
        ls_set_if_absent(gpu, "name", name);
}

/* "00000000:18:00.0 Off": the bus id (Disp.A is not kept); "ERR!" where NVML answered an
   error for the GPU's PCI information (the block is still the GPU's). */
static int bus_cell(json_t *gpu, char *cell)
{
    char *w[4], norm[32];
    int n = words(cell, w, 4);
    if (n >= 1 && is_err(w[0])) {
        if (gpu)
            err_cell(gpu, "pci_bus_id");
        return 1;
    }
    if (n < 1 || ls_busid_normalize(w[0], norm, sizeof norm) != 0)
        return 0;
    if (gpu)
        ls_set_if_absent(gpu, "pci_bus_id", norm);
    return 1;
}

/* "0" (ECC on, no uncorrected error since the driver loaded), "Off", "N/A", "ERR!". */
static void ecc_cell(json_t *gpu, char *cell)
{
    char *w[2];
    double v;
    if (words(cell, w, 2) != 1)
        return;
    if (is_err(w[0]))
        err_cell(gpu, "ecc");
    else if (!strcmp(w[0], "Off"))
        json_object_set_new(child(gpu, "ecc"), "enabled", json_false());
    else if (number(w[0], "", &v) && v == (double)(long long)v) { /* a count, below 1e12 */
        json_t *ecc = child(gpu, "ecc");
        json_object_set_new(ecc, "enabled", json_true());
        json_object_set_new(ecc, "volatile_uncorrected", json_integer((json_int_t)v));
    }
}

/* "N/A   28C    P0    88W /  700W": fan, temperature, perf state, power draw / cap. */
static void fan_cell(json_t *gpu, char *cell)
{
    char *w[12];
    int n = words(cell, w, 12), s = 0;
    while (s < n && strcmp(w[s], "/"))
        s++;
    if (s == n || s < 4)
        return;
    json_t *power = child(gpu, "power");
    word_value(gpu, w[s - 4], "%", gpu, "fan_pct", "fan");
    word_value(gpu, w[s - 3], "C", gpu, "temperature_c", "temperature");
    if (is_err(w[s - 2]))
        err_cell(gpu, "perf_state");
    else if (w[s - 2][0] == 'P' && isdigit((unsigned char)w[s - 2][1]))
        ls_set_if_absent(gpu, "perf_state", w[s - 2]);
    word_value(gpu, w[s - 1], "W", power, "draw_w", "power_draw");
    if (s + 1 < n)
        word_value(gpu, w[s + 1], "W", power, "limit_w", "power_limit");
    if (json_object_size(power) == 0)
        json_object_del(gpu, "power");
}

/* "0MiB /  81559MiB": used and total memory. */
static void memory_cell(json_t *gpu, char *cell)
{
    char *w[6];
    int n = words(cell, w, 6);
    if (n == 1 && is_err(w[0]))
        err_cell(gpu, "memory");
    if (n != 3 || strcmp(w[1], "/"))
        return;
    long long used = ls_smi_mib_bytes(w[0]), total = ls_smi_mib_bytes(w[2]);
    if (used >= 0 && !json_object_get(gpu, "memory_used_bytes"))
        json_object_set_new(gpu, "memory_used_bytes", json_integer(used));
    if (total >= 0 && !json_object_get(gpu, "memory_total_bytes"))
        json_object_set_new(gpu, "memory_total_bytes", json_integer(total));
}

/* "0%      Default": utilization, compute mode ("E. Process" holds a blank). */
static void util_cell(json_t *gpu, char *cell)
{
    char *w[6];
    int n = words(cell, w, 6);
    if (n < 1)
        return;
    word_value(gpu, w[0], "%", gpu, "utilization_pct", "utilization");
    char mode[64] = "";
    for (int i = 1; i < n; i++) {
        size_t used = strlen(mode);
        snprintf(mode + used, sizeof mode - used, "%s%s", used ? " " : "", w[i]);
    }
    if (is_err(mode))
        err_cell(gpu, "compute_mode");
    else if (strcmp(mode, "N/A"))
        ls_set_if_absent(gpu, "compute_mode", mode);
}

/* A one-word cell ("Disabled", "None"): key, or ERR! named. */
static void word_cell(json_t *gpu, char *cell, const char *key)
{
    char *w[4];
    if (words(cell, w, 4) != 1 || !strcmp(w[0], "N/A"))
        return;
    if (is_err(w[0]))
        err_cell(gpu, key);
    else
        ls_set_if_absent(gpu, key, w[0]);
}

/* One cell of a GPU's block, read by the label of its column in the header line of the
   same rank. */
static void gpu_cell(json_t *gpu, const char *label, char *cell)
{
    if (strstr(label, "Name"))
        name_cell(gpu, cell);
    else if (strstr(label, "Bus-Id"))
        bus_cell(gpu, cell);
    else if (strstr(label, "ECC"))
        ecc_cell(gpu, cell);
    else if (strstr(label, "Temp") || strstr(label, "Pwr"))
        fan_cell(gpu, cell);
    else if (strstr(label, "Memory-Usage"))
        memory_cell(gpu, cell);
    else if (strstr(label, "GPU-Util"))
        util_cell(gpu, cell);
    else if (strstr(label, "MIG M"))
        word_cell(gpu, cell, "mig_mode");
    else if (strstr(label, "Addressing Mode"))
        word_cell(gpu, cell, "addressing_mode");
}

static const char *label_of(const table_t *t, int line, int cell)
{
    if (line < t->header_lines && t->label[line][cell][0])
        return t->label[line][cell];
    if (t->header_lines == 0 && line < MAX_HDR && cell < 3)
        return default_label[line][cell];
    return "";
}

/* The first line of a GPU's block: its index first, a bus id in the second cell. */
static int first_line(char c[][CELL], int n, int *index)
{
    char buf[CELL], *w[2];
    snprintf(buf, sizeof buf, "%s", c[0]);
    if (n < 2 || words(buf, w, 2) < 2 || !isdigit((unsigned char)w[0][0]))
        return 0;
    char *end;
    long v = strtol(w[0], &end, 10);
    if (*end || v < 0 || v >= LS_MAX_GPUS)
        return 0;
    snprintf(buf, sizeof buf, "%s", c[1]);
    if (!bus_cell(NULL, buf))
        return 0;
    *index = (int)v;
    return 1;
}

static void gpu_row(table_t *t, const char *line)
{
    char c[MAX_CELLS][CELL], partial[CELL] = "";
    int cut, n = cells(line, c, &cut, partial, sizeof partial), index;
    if (first_line(c, n, &index)) {
        t->gpu = ls_import_gpu(t->doc, index);
        t->gpu_index = index, t->line_no = 0;
        t->gpus++;
        t->sec = SEC_GPUS;
    } else if (t->gpu)
        t->line_no++;
    else if (cut && isdigit((unsigned char)partial[0])) { /* "|   2  NVIDIA": cut in its name */
        t->cut = 1, t->cut_gpu = atoi(partial);
        return;
    } else
        return;
    for (int i = 0; i < n; i++)
        gpu_cell(t->gpu, label_of(t, t->line_no, i), c[i]);
    if (cut && !t->cut)
        t->cut = 1, t->cut_gpu = t->gpu_index;
}

static void header_line(table_t *t, const char *line)
{
    if (t->header_lines >= MAX_HDR)
        return;
    int cut;
    int n = cells(line, t->label[t->header_lines], &cut, NULL, 0);
    for (int i = n; i < MAX_CELLS; i++)
        t->label[t->header_lines][i][0] = '\0';
    t->header_lines++;
}

static void on_border(table_t *t, const char *line)
{
    if (t->sec == SEC_GPUS) {
        if (t->in_header && strchr(line, '='))
            t->in_header = 0;
        t->gpu = NULL;
    } else if (t->sec == SEC_PROCS) {
        if (strchr(line, '='))
            t->proc_body = 1;
        else if (t->proc_body)
            t->proc_closed = 1;
    } else if (t->sec == SEC_MIG) {
        if (strchr(line, '='))
            t->mig_body = 1;
        t->mig_last_border = 1;
    }
}

static void proc_line(table_t *t, const char *line)
{
    char c[MAX_CELLS][CELL];
    int cut, n = cells(line, c, &cut, NULL, 0);
    if (!t->proc_body) { /* the column header */
        t->proc_type |= strstr(line, "Type") != NULL;
        t->proc_gi |= strstr(line, " GI ") != NULL;
        t->proc_header |= strstr(line, "PID") != NULL;
        return;
    }
    if (cut || n < 1) {
        t->proc_closed = 0, t->proc_body = 2; /* 2: a row cut */
        return;
    }
    if (strstr(c[0], "No running processes found"))
        json_object_set_new(t->smi, "processes_none", json_true());
    else if (ls_smi_process_row(t->doc, c[0], t->proc_type, t->proc_gi))
        t->procs++;
}

static void mig_line(table_t *t, const char *line)
{
    char c[MAX_CELLS][CELL];
    int cut, n = cells(line, c, &cut, NULL, 0);
    t->mig_last_border = 0;
    if (!t->mig_body)
        return;
    if (cut)
        t->mig_cut = 1;
    if (n > 0 && ls_smi_mig_row(t->doc, t->mig, c, n))
        t->migs++;
}

/* "| NVIDIA-SMI 550.54.15   Driver Version: 550.54.15   CUDA Version: 12.4 |"; from 610
   "KMD Version" and "CUDA UMD Version" name the same two. */
static int banner(table_t *t, const char *line)
{
    const char *v = strstr(line, "NVIDIA-SMI ");
    if (!v || !isdigit((unsigned char)v[11]))
        return 0;
    char word[64];
    t->banner = 1;
    if (sscanf(v + 11, "%63s", word) == 1)
        json_object_set_new(t->smi, "smi_version", json_string(word));
    static const char *const keys[][2] = {{"Driver Version:", "driver"},
                                          {"KMD Version:", "driver"},
                                          {"CUDA UMD Version:", "cuda_driver"},
                                          {"CUDA Version:", "cuda_driver"}};
    json_t *sw = json_object_get(t->doc, "software");
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *k = strstr(line, keys[i][0]);
        if (!k || sscanf(k + strlen(keys[i][0]), "%63s", word) != 1 ||
            !isdigit((unsigned char)word[0]))
            continue;
        if (!json_object_get(t->smi, keys[i][1]))
            json_object_set_new(t->smi, keys[i][1], json_string(word));
        if (json_is_object(sw))
            ls_set_if_absent(sw, keys[i][1], word);
    }
    return 1;
}

/* A section title line: the GPU table's column header, "Processes:", "MIG devices:". */
static int title(table_t *t, const char *line)
{
    if (strstr(line, "Persistence-M") || (strstr(line, "Name") && strstr(line, "Bus-Id"))) {
        t->sec = SEC_GPUS, t->in_header = 1, t->header_lines = 0, t->gpu = NULL;
        header_line(t, line);
    } else if (strstr(line, "rocesses:")) /* "Processes:", drivers <= 331 "Compute processes:" */
        t->sec = SEC_PROCS, t->proc_body = 0, t->proc_closed = 0;
    else if (strstr(line, "MIG devices:"))
        t->sec = SEC_MIG, t->mig_body = 0;
    else
        return 0;
    return 1;
}

static void table_line(table_t *t, char *raw)
{
    char *line = trim(raw);
    if (!*line || ls_smi_failure_line(t->smi, line) || banner(t, line))
        return;
    if (!strcmp(line, "[...]") || !strcmp(line, "...")) {
        t->elided = 1;
        return;
    }
    if (*line != '|' && *line != '+') /* prose, a prompt, the date line */
        return;
    if (border(line))
        on_border(t, line);
    else if (title(t, line))
        return;
    else if (t->sec == SEC_GPUS && t->in_header)
        header_line(t, line);
    else if (t->sec == SEC_PROCS)
        proc_line(t, line);
    else if (t->sec == SEC_MIG)
        mig_line(t, line);
    else
        gpu_row(t, line);
}

/* A table line a terminal or a forum wrapped: "| N/A 28C P0 88W /" then "700W | ... |". */
static int joins(const char *line, const char *next)
{
    char a[1024], b[1024];
    snprintf(a, sizeof a, "%s", line);
    snprintf(b, sizeof b, "%s", next);
    char *x = trim(a), *y = trim(b);
    size_t nx = strlen(x), ny = strlen(y);
    return *x == '|' && nx && x[nx - 1] != '|' && x[nx - 1] != '+' && ny && *y != '|' &&
           *y != '+' && y[ny - 1] == '|' && !border(x);
}

/* nvidia-smi's Processes table pasted without the GPU table: its title and column header
   ("GPU ... PID ... Process name") read, no GPU row, banner, MIG device or failure. */
static int processes_alone(const table_t *t, int failures)
{
    return t->proc_header && !t->gpus && !t->banner && !failures && !json_array_size(t->mig);
}

static void notes(const table_t *t, int failures)
{
    if (t->gpus && !t->banner)
        ls_import_note_missing("no 'NVIDIA-SMI ... Driver Version' banner: the driver and CUDA "
                               "versions are not in the paste");
    if (t->cut || (t->gpu && t->sec == SEC_GPUS))
        ls_import_note_missing("the table stops inside GPU %d's rows: what follows is not in "
                               "the paste",
                               t->cut ? t->cut_gpu : t->gpu_index);
    else if (t->gpus && t->sec == SEC_GPUS && !failures)
        ls_import_note_missing("the paste stops before the Processes table");
    else if (!t->gpus && t->sec == SEC_GPUS && !failures) /* a table lists GPUs or says none */
        ls_import_note_missing("the table stops %s its first GPU row: no GPU is in the paste",
                               t->in_header ? "in its column header, before" : "before");
    if (t->sec == SEC_PROCS && !t->proc_closed)
        ls_import_note_missing("the Processes table is cut");
    if (t->mig_cut || (t->sec == SEC_MIG && !t->mig_last_border))
        ls_import_note_missing("the MIG devices table is cut");
    if (json_array_size(t->mig) && !t->gpus)
        ls_import_note_missing("the MIG devices table without the GPU table above it");
    if (processes_alone(t, failures))
        ls_import_note_missing("only the Processes table: the GPU table above it is not in the "
                               "paste (the GPUs' state, memory and ECC are unknown)");
    if (t->elided)
        ls_import_note_missing("lines left out ('[...]')");
}

int ls_import_smi_table(json_t *doc, const char *text, const char *name, char *err, size_t errlen)
{
    table_t *t = calloc(1, sizeof *t);
    if (!t)
        return ls_seterr(err, errlen, "%s: out of memory", name);
    const char *base = strrchr(name, '/');
    t->doc = doc, t->smi = json_pack("{s:s}", "file", base ? base + 1 : name);
    t->mig = json_array();
    if (!json_is_array(json_object_get(doc, "gpus")))
        json_object_set_new(doc, "gpus", json_array());
    const char *p = text;
    ls_line_t line, next;
    while (ls_next_line(&p, &line)) {
        const char *after = p;
        while (ls_next_line(&after, &next) && joins(line.buf, next.buf)) {
            size_t used = strlen(line.buf);
            snprintf(line.buf + used, sizeof line.buf - used, " %s", trim(next.buf));
            p = after;
        }
        table_line(t, line.buf);
    }
    size_t nfail = json_array_size(json_object_get(t->smi, "failures"));
    int rc = 0;
    if (!t->gpus && !nfail && !t->banner && !json_array_size(t->mig) && !processes_alone(t, 0)) {
        json_decref(t->smi);
        rc = ls_seterr(err, errlen,
                       "%s: plain nvidia-smi text without a GPU row, a MIG device, a "
                       "Processes table or a failure line: nothing to read",
                       name);
    } else {
        notes(t, (int)nfail);
        json_object_set_new(t->smi, "gpus_shown", json_integer(t->gpus));
        if (json_array_size(t->mig))
            json_object_set(t->smi, "mig_devices", t->mig);
        json_t *list = json_object_get(doc, "smi");
        if (!json_is_array(list)) {
            list = json_array();
            json_object_set_new(doc, "smi", list);
        }
        json_array_append_new(list, t->smi);
    }
    json_decref(t->mig);
    free(t);
    return rc;
}

/* ---- detection ------------------------------------------------------------------ */

static int gpu_first_line(const char *raw)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", raw);
    char *line = trim(buf);
    if (*line != '|')
        return 0;
    char c[MAX_CELLS][CELL];
    int cut, index, n = cells(line, c, &cut, NULL, 0);
    return first_line(c, n, &index);
}

/* A table line (past a quote mark) holding every word of words, NULL-ended. */
static int box_line_with(const char *raw, const char *const *words)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", raw);
    const char *line = trim(buf);
    if (*line != '|')
        return 0;
    for (; *words; words++)
        if (!strstr(line, *words))
            return 0;
    return 1;
}

int ls_smi_table_detect(const char *text)
{
    if (strstr(text, "Persistence-M") || strstr(text, "MIG devices:"))
        return 1;
    static const char *const title_words[] = {"rocesses:", NULL};
    static const char *const header_words[] = {"GPU", "PID", "Process name", NULL};
    int title_seen = 0; /* the Processes table's title, its column header next */
    const char *p = text;
    ls_line_t line;
    while (ls_next_line(&p, &line)) {
        if (title_seen && box_line_with(line.buf, header_words))
            return 1;
        title_seen = box_line_with(line.buf, title_words);
        const char *v = strstr(line.buf, "NVIDIA-SMI ");
        if ((v && isdigit((unsigned char)v[11]) &&
             (strstr(line.buf, "Driver Version") || strstr(line.buf, "KMD Version"))) ||
            ls_smi_failure_text(line.buf) || gpu_first_line(line.buf))
            return 1;
    }
    return 0;
}
