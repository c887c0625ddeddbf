/* dcgmi diag's text table (dcgmi/Diag.cpp and outputs posted in NVIDIA/DCGM issues):
     Successfully ran diagnostic for group.
     +---------------------------+------------------------------------------------+
     | Diagnostic                | Result                                         |
     +===========================+================================================+
     |-----  Metadata  ----------+------------------------------------------------|
     | DCGM Version              | 4.2.3                                          |
     | Driver Version Detected   | 570.148.08                                     |
     | GPU Device IDs Detected   | 26b9, 26b9, 26b9, 26b9                         |
     |-----  Deployment  --------+------------------------------------------------|
     | Denylist                  | Pass                                           |
     +-----  Hardware  ----------+------------------------------------------------+
     | GPU Memory                | Pass - GPU: 1                                  |   (3.x: a
     |                           | Fail - GPU: 0                                  |    result a GPU)
     | Warning                   | GPU 0 Error using CUDA API cuCtxCreate Check   |
     |                           | DCGM and system logs for errors. Reset GPU. R  |
     | PCIe                      | Fail - All                                     |
     | software                  | Pass                                           |   (4.x: then
     |                           | GPU0: Pass                                     |    one a GPU)
   dcgmi prints a result for all GPUs ("Pass - All", "Skip - All") or lists them ("Pass -
   GPUs: 0, 1, 3" then "Fail - GPU: 2"); a message ("Warning" per GPU, "Error" under a
   deployment test, "Info" when verbose) is cut into pieces of 45 characters whatever the
   words (DATA_INFO_TAG_LEN): a piece that fills the column runs on into the next. Pieces
   of the table are read as a cut: result rows without the header and category lines
   (known by the row stencil, DCGM's row names and its result words), a Deployment
   "Error" row without its check's row (that check's failure). */
#include "dcgm_diag_text.h"
#include "import_note.h"
#include "import_util.h"
#include "model/doc.h"
#include "model/topo.h"
#include "util/log.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A category line: "|-----  Deployment  ----" or "+-----  Integration  ---". */
static int category_of(const char *line, char *out, size_t len)
{
    if ((line[0] != '|' && line[0] != '+') || strncmp(line + 1, "-----  ", 7) != 0)
        return 0;
    const char *w = line + 8;
    size_t n = strcspn(w, " -");
    snprintf(out, len, "%.*s", (int)n, w);
    return n > 0;
}

/* The rows' names DCGM prints: its deployment checks and tests as 2.x and 3.x display them
   (dcgmi/Diag.cpp DISPLAY_*), its plugins' names as 4.x does (*_PLUGIN_NAME). */
static const char *const test_names[] = {"Blacklist",
                                         "Denylist",
                                         "NVML Library",
                                         "CUDA Main Library",
                                         "CUDA Toolkit Library",
                                         "Permissions and OS Blocks",
                                         "Persistence Mode",
                                         "Environment Variables",
                                         "Page Retirement/Row Remap",
                                         "Graphics Processes",
                                         "Inforom",
                                         "GPU Memory",
                                         "Context Create",
                                         "SM Stress",
                                         "Targeted Power",
                                         "Targeted Stress",
                                         "Diagnostic",
                                         "PCIe",
                                         "Memory Bandwidth",
                                         "Memtest",
                                         "Pulse Test",
                                         "EUD Test",
                                         "CPU EUD Test",
                                         "software",
                                         "memory",
                                         "context_create",
                                         "sm_stress",
                                         "targeted_power",
                                         "targeted_stress",
                                         "diagnostic",
                                         "pcie",
                                         "memory_bandwidth",
                                         "memtest",
                                         "pulse_test",
                                         "nvbandwidth",
                                         "eud",
                                         "nccl_tests"};

static int test_name(const char *name, size_t n)
{
    for (size_t i = 0; i < sizeof test_names / sizeof *test_names; i++)
        if (strlen(test_names[i]) == n && strncmp(name, test_names[i], n) == 0)
            return 1;
    return 0;
}

/* A result row of dcgmi's own table without its header: DIAG_DATA's stencil ("| " + a
   25-character name + " | " + the result: the second bar at column 28), a name DCGM
   prints and a result as it words one ("Pass", "Fail - GPU: 0", "Skip - All"). */
static int bare_row(const char *line)
{
    while (*line == ' ')
        line++;
    if (line[0] != '|' || line[1] != ' ' || strlen(line) < 34 || line[28] != '|')
        return 0;
    size_t n = 26;
    while (n > 2 && line[n] == ' ')
        n--;
    const char *cell = line + 30;
    return test_name(line + 2, n - 1) && (!strncmp(cell, "Pass", 4) || !strncmp(cell, "Fail", 4) ||
                                          !strncmp(cell, "Skip", 4) || !strncmp(cell, "Warn", 4));
}

static int has_bare_row(const char *text)
{
    const char *p = text;
    ls_line_t line;
    while (ls_next_line(&p, &line))
        if (bare_row(line.buf))
            return 1;
    return 0;
}

int ls_dcgm_diag_text_detect(const char *text)
{
    return strstr(text, "Successfully ran diagnostic for group") || strstr(text, "|-----  ") ||
           strstr(text, "+-----  ") || has_bare_row(text);
}

typedef struct {
    json_t *dcgm, *tests;
    json_t *test;    /* the test the rows below belong to */
    json_t *problem; /* the message being joined, NULL in an Info message */
    char category[32];
    int in_message, width, piece_full, ngpus, nresults;
    int headed;     /* a header or category line was read */
    int orphans;    /* Error rows under Deployment without their check's row */
    json_t *orphan; /* the check such rows stand for (in tests) */
} reader_t;

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
}

/* "Pass", "Fail - All", "Pass - GPU: 1", "Fail - GPUs: 0, 2", "GPU0: Pass" -> the status
   (lower case) and the GPU (-1: every GPU, -2: a test's summary without a GPU, -3: the
   list at *list). 0 if no status ("Not Run" and the like). */
/* The GPU index s starts with ("3 has ...", "12, 13"), -2 (no GPU said) when it is not a
   number below LS_MAX_GPUS: atoi's wrap of "99999999999" (undefined) must not name a GPU,
   nor a wrap to -1 read as "All". */
static int gpu_index(const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return end != s && errno == 0 && v >= 0 && v < LS_MAX_GPUS ? (int)v : -2;
}

static int status_of(const char *cell, char *st, size_t len, int *gpu, const char **list)
{
    static const char *const words[] = {"Pass", "Fail", "Warn", "Skip"};
    const char *s = cell;
    *gpu = -2;
    if (strncmp(s, "GPU", 3) == 0 && isdigit((unsigned char)s[3])) {
        *gpu = gpu_index(s + 3);
        s = strchr(s, ':');
        if (!s)
            return 0;
        while (*++s == ' ')
            ;
    }
    for (size_t i = 0; i < 4; i++)
        if (strncmp(s, words[i], 4) == 0) {
            snprintf(st, len, "%c%s", words[i][0] + 32, words[i] + 1);
            const char *g = strstr(s, " - GPU: "), *gs = strstr(s, " - GPUs: ");
            if (g)
                *gpu = gpu_index(g + 8);
            else if (gs) {
                *gpu = -3;
                *list = gs + 9;
            } else if (strstr(s, " - All"))
                *gpu = -1;
            return 1;
        }
    return 0;
}

static json_t *gpus_json(const reader_t *r, int gpu, const char *list)
{
    json_t *a = json_array();
    if (gpu >= 0)
        json_array_append_new(a, json_integer(gpu));
    for (const char *p = gpu == -3 ? list : NULL; p && *p;) { /* "0, 2, 5" */
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p)
            break;
        if (v >= 0 && v < LS_MAX_GPUS) /* no GPU index wraps into another */
            json_array_append_new(a, json_integer(v));
        p = end + strspn(end, ", ");
    }
    for (int i = 0; gpu == -1 && i < r->ngpus; i++)
        json_array_append_new(a, json_integer(i)); /* "All": the GPUs the metadata counts */
    return a;
}

static void add_result(reader_t *r, const char *st, int gpu, const char *list)
{
    json_t *res = json_pack("{s:s, s:o, s:[]}", "status", st, "gpus", gpus_json(r, gpu, list),
                            "problems");
    /* "Fail - All" where no metadata counts the GPUs: every GPU, how many unknown (its gpus
       stay empty, never a guessed count) */
    if (gpu == -1)
        json_object_set_new(res, "all_gpus", json_true());
    json_array_append_new(json_object_get(r->test, "results"), res);
    r->nresults++;
}

/* A test row: its summary waits for per-GPU rows (4.x); a result that names its GPUs
   (3.x "Pass - GPU: 1", "Fail - All") is one. */
static void start_test(reader_t *r, const char *name, const char *cell)
{
    char st[16];
    int gpu;
    r->test = json_pack("{s:s, s:s, s:[]}", "name", name, "category", r->category, "results");
    json_array_append_new(r->tests, r->test);
    r->in_message = 0;
    const char *list = NULL;
    if (!status_of(cell, st, sizeof st, &gpu, &list))
        return;
    if (gpu == -2)
        json_object_set_new(r->test, "status", json_string(st));
    else
        add_result(r, st, gpu, list);
}

/* A test whose rows gave only its summary: one result for every GPU ("summary": its row
   names no GPU, where "Fail - All" says All). */
static void finish_test(reader_t *r)
{
    const char *st = ls_json_str(r->test, "status", NULL);
    json_t *results = json_object_get(r->test, "results");
    if (r->test && st && json_array_size(results) == 0) {
        add_result(r, st, -1, NULL);
        json_object_set_new(json_array_get(results, 0), "summary", json_true());
    }
}

/* The result a message belongs to: the failed or warned one of the GPU it starts with,
   else the test's first failed or warned one, else its last. */
static json_t *result_for(const reader_t *r, const char *msg)
{
    const json_t *results = json_object_get(r->test, "results");
    int gpu = strncmp(msg, "GPU ", 4) == 0 ? gpu_index(msg + 4) : -1;
    json_t *bad = NULL, *x;
    size_t i;
    json_array_foreach(results, i, x) {
        const char *st = ls_json_str(x, "status", "");
        if (strcmp(st, "fail") && strcmp(st, "warn"))
            continue;
        size_t k;
        const json_t *g;
        json_array_foreach(json_object_get(x, "gpus"), k, g) {
            if (gpu >= 0 && json_integer_value(g) == gpu)
                return x;
        }
        if (!bad)
            bad = x;
    }
    return bad ? bad : json_array_get(results, json_array_size(results) - 1);
}

static void append_piece(reader_t *r, const char *piece)
{
    const char *old = ls_json_str(r->problem, "message", "");
    char msg[2048];
    snprintf(msg, sizeof msg, "%s%s%s", old, *old && !r->piece_full ? " " : "", piece);
    json_object_set_new(r->problem, "message", json_string(msg));
    r->piece_full = (int)strlen(piece) >= r->width;
}

/* 1 when a result of test t names GPU g. */
static int names_gpu(const json_t *t, int g)
{
    size_t i, k;
    const json_t *x, *v;
    json_array_foreach(json_object_get(t, "results"), i, x) {
        json_array_foreach(json_object_get(x, "gpus"), k, v) {
            if (json_integer_value(v) == g)
                return 1;
        }
    }
    return 0;
}

/* An "Error" row under Deployment with no check's row above it (the paste left the rows
   out): dcgmi prints an Error only under a deployment check it rated Fail
   (HelperDisplayDeploymentResult), so it is that check's failure, for the GPU the message
   starts with ("GPU 3 has ..."), the check's name unknown. A later such row about another
   GPU adds that GPU's failure to it. */
static void orphan_error(reader_t *r, const char *piece)
{
    int gpu = strncmp(piece, "GPU ", 4) == 0 ? gpu_index(piece + 4) : -2;
    if (!r->test) {
        r->test = json_pack("{s:s, s:s, s:[]}", "name", "Deployment check", "category", r->category,
                            "results");
        json_array_append_new(r->tests, r->test);
        r->orphan = r->test;
        r->orphans++;
    } else if (gpu < 0 || names_gpu(r->test, gpu)) {
        return;
    }
    add_result(r, "fail", gpu, NULL);
}

static void start_message(reader_t *r, const char *kind, const char *piece)
{
    finish_test(r);
    r->in_message = 1;
    r->problem = NULL;
    if ((!r->test || r->test == r->orphan) && !strcmp(kind, "Error") &&
        !strcmp(r->category, "Deployment"))
        orphan_error(r, piece);
    if (strcmp(kind, "Info") == 0 || !r->test)
        return;
    json_t *res = result_for(r, piece);
    if (!res)
        return;
    r->problem = json_object();
    json_array_append_new(json_object_get(res, "problems"), r->problem);
    r->piece_full = 0;
    append_piece(r, piece);
}

static void metadata(reader_t *r, const char *name, const char *cell)
{
    if (strcmp(name, "DCGM Version") == 0)
        json_object_set_new(r->dcgm, "version", json_string(cell));
    else if (strcmp(name, "Driver Version Detected") == 0)
        json_object_set_new(r->dcgm, "driver", json_string(cell));
    else if (strcmp(name, "GPU Device IDs Detected") == 0)
        for (const char *p = cell; p && *p; p = strchr(p + 1, ','))
            r->ngpus++;
}

static void continuation(reader_t *r, const char *cell)
{
    char st[16];
    int gpu;
    const char *list = NULL;
    if (r->in_message) {
        if (r->problem)
            append_piece(r, cell);
    } else if (r->test && status_of(cell, st, sizeof st, &gpu, &list) && gpu != -2) {
        add_result(r, st, gpu, list);
    }
}

/* One table row "| NAME | CELL |" (the last may be cut: no closing bar). */
static void row(reader_t *r, char *line)
{
    char *bar = strchr(line + 1, '|');
    char name[64];
    snprintf(name, sizeof name, "%.*s", bar ? (int)(bar - line - 1) : (int)strlen(line + 1),
             line + 1);
    trim(name);
    char *cell = bar ? bar + 1 : line + strlen(line);
    char *end = strchr(cell, '|');
    if (end) {
        r->width = (int)(end - cell) - 3; /* " " + the text + "  " */
        *end = 0;
    }
    if (*cell == ' ')
        cell++;
    trim(cell);
    const char *n = name[0] == ' ' ? name + 1 : name;
    while (*n == ' ')
        n++;
    if (!*n)
        continuation(r, cell);
    else if (!strcmp(n, "Diagnostic") && !strcmp(cell, "Result"))
        r->headed = 1;
    else if (!strcmp(r->category, "Metadata"))
        metadata(r, n, cell);
    else if (!strcmp(n, "Warning") || !strcmp(n, "Error") || !strcmp(n, "Info"))
        start_message(r, n, cell);
    else {
        finish_test(r);
        start_test(r, n, cell);
    }
}

static int read_table(reader_t *r, const char *text)
{
    const char *pos = text;
    ls_line_t line;
    int closed = 0;
    while (ls_next_line(&pos, &line)) {
        char *s = line.buf;
        while (*s == ' ')
            s++;
        char cat[32];
        if (category_of(s, cat, sizeof cat)) {
            finish_test(r);
            r->headed = 1;
            snprintf(r->category, sizeof r->category, "%s", cat);
            r->test = NULL;
            r->orphan = NULL;
            r->in_message = 0;
        } else if (*s == '|') {
            row(r, s);
            closed = 0;
        } else if (*s == '+') {
            closed = 1; /* a border: the table's end when nothing follows */
        }
    }
    finish_test(r);
    return closed;
}

/* What the paste left out, in the document ("incomplete") and noted. */
static void note_cuts(reader_t *r, int closed)
{
    const char *cut = !r->headed   ? "rows without the table's header and category lines"
                      : r->orphans ? "a Deployment Error row without its check's row above it"
                      : !closed    ? "the table stops before its closing border"
                                   : NULL;
    if (!cut)
        return;
    json_object_set_new(r->dcgm, "incomplete", json_string(cut));
    if (!r->headed || r->orphans)
        ls_import_note_missing("dcgmi diag: %s", cut);
    else
        ls_import_note_missing("the dcgmi diag table stops before its closing border");
}

int ls_import_dcgm_diag_text(json_t *doc, const char *text, const char *name, char *err,
                             size_t errlen)
{
    reader_t r = {.dcgm = json_pack("{s:s, s:[]}", "file", name, "tests"), .width = 45};
    r.tests = json_object_get(r.dcgm, "tests");
    snprintf(r.category, sizeof r.category, "unknown");
    int closed = read_table(&r, text);
    if (json_array_size(r.tests) == 0 && !json_object_get(r.dcgm, "version")) {
        json_decref(r.dcgm);
        return ls_seterr(err, errlen, "%s: dcgmi diag text: no test row in the table", name);
    }
    note_cuts(&r, closed);
    json_array_append_new(ls_json_array_at(doc, "dcgm"), r.dcgm);
    return r.nresults;
}
