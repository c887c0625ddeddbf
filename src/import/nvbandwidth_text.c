/* nvbandwidth text output, as printed by its main loop:

     nvbandwidth Version: v0.8            (then CUDA Runtime / Driver versions)
     Device 0: NVIDIA H200 (00000000:00:06)
     Running device_to_device_memcpy_read_ce.
     memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)
                0         1
      0       N/A    393.76
      1    393.60       N/A
     SUM device_to_device_memcpy_read_ce 787.36

   Bidirectional device tests print three such blocks (Read1/Write1, Read2/Write2,
   Total), which the -j JSON stacks as 3N rows: they are stacked the same way here.
   "Waiving <testcase>." replaces the block when the test cannot run (no peer access);
   an assertion or error line inside a running test means it failed. */
#include "nvbandwidth_text.h"
#include "util/lines.h"
#include "import_note.h"
#include "import_util.h"
#include "model/doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int last_line;              /* the line being read is the last of the paste */
    json_t *nvb, *tc;           /* the object; the testcase being read */
    json_t *matrix;             /* its bandwidth_matrix (rows stacked over blocks) */
    int ncols, want_rows, rows; /* the block being read; ncols 0 = no block */
    int header_next;            /* the next line is the block's column header */
} nvbt_t;

/* A testcase name as nvbandwidth spells them: lower case, digits and '_'. */
static int testcase_word(const char *t, char *out, size_t outlen)
{
    size_t n = 0;
    while ((t[n] >= 'a' && t[n] <= 'z') || t[n] == '_' || (t[n] >= '0' && t[n] <= '9'))
        n++;
    if (n == 0 || n >= outlen || !strchr(t, '_'))
        return 0;
    memcpy(out, t, n);
    out[n] = '\0';
    return 1;
}

static int is_description(const char *t)
{
    return strstr(t, "(column)") && (strstr(t, "bandwidth (GB/s)") || strstr(t, "(ns)"));
}

int ls_nvbandwidth_text_detect(const char *text)
{
    if (strstr(text, "nvbandwidth Version:"))
        return 1;
    const char *p = text;
    ls_line_t line;
    while (ls_next_line(&p, &line)) {
        const char *t = ls_skip_quote(line.buf);
        char word[96];
        if ((strncmp(t, "Running ", 8) == 0 || strncmp(t, "Waiving ", 8) == 0 ||
             strncmp(t, "SUM ", 4) == 0) &&
            testcase_word(t + (t[0] == 'S' ? 4 : 8), word, sizeof word) &&
            (strstr(word, "_to_") || strstr(word, "latency") || strstr(word, "local_copy")))
            return 1;
        if (is_description(t) && (strstr(t, "memcpy") || strstr(t, "latency")))
            return 1;
    }
    return 0;
}

static void end_block(nvbt_t *s)
{
    if (s->ncols && s->rows < s->want_rows)
        ls_import_note_missing("%s: matrix cut after %d of %d rows",
                               ls_json_str(s->tc, "name", "?"), s->rows, s->want_rows);
    else if (s->header_next && s->tc) /* the paste stops at a matrix's description line */
        ls_import_note_missing("%s: the paste stops after its matrix title, before any row",
                               ls_json_str(s->tc, "name", "?"));
    s->ncols = 0;
    s->header_next = 0;
}

static void start_testcase(nvbt_t *s, const char *name, const char *status)
{
    end_block(s);
    s->tc = json_pack("{s:s, s:s}", "name", name, "status", status);
    s->matrix = NULL;
    json_array_append_new(json_object_get(s->nvb, "testcases"), s->tc);
}

static void start_block(nvbt_t *s, const char *desc)
{
    end_block(s);
    if (!s->tc) /* a pasted block without its "Running" line: named by its SUM line */
        start_testcase(s, "", "Passed");
    json_object_set_new(s->tc, "bandwidth_description", json_string(desc));
    if (!s->matrix) {
        s->matrix = json_array();
        json_object_set_new(s->tc, "bandwidth_matrix", s->matrix);
    }
    s->header_next = 1;
}

/* "           0         1": the column indices 0..n-1. */
static int read_header(nvbt_t *s, const ls_line_t *text)
{
    ls_line_t copy = *text, *line = &copy;
    ls_tokenize(line);
    for (int i = 0; i < line->ntok; i++) {
        long long c;
        if (ls_tok_long(line->tok[i], &c) != 0 || c != i)
            return 0;
    }
    s->ncols = line->ntok;
    s->rows = 0;
    /* host testcases print the CPU as one row, device_local_copy and the all_to_one /
       one_to_all tests one row of figures; device-to-device tests one row per GPU */
    const char *desc = ls_json_str(s->tc, "bandwidth_description", "");
    const char *name = ls_json_str(s->tc, "name", "");
    int one_row = strstr(desc, "CPU(") || strstr(name, "host") || strstr(desc, "local") ||
                  strstr(name, "all_to_one") || strstr(name, "one_to_all");
    s->want_rows = one_row ? 1 : s->ncols;
    return s->ncols > 0;
}

/* " 0       N/A    393.76": a row index, then a value (or N/A) per column. A row cut
   short keeps its complete cells; its last cell may be cut and is dropped. */
static int read_row(nvbt_t *s, const ls_line_t *text)
{
    ls_line_t copy = *text, *line = &copy;
    ls_tokenize(line);
    long long r;
    if (line->ntok < 2 || ls_tok_long(line->tok[0], &r) != 0 || r != s->rows)
        return 0;
    int cells = line->ntok - 1;
    if (cells > s->ncols)
        return 0;
    if (cells < s->ncols || s->last_line) { /* the paste ends in this row: its end may be cut */
        ls_import_note_missing("%s: row %lld cut after %d of %d cells",
                               ls_json_str(s->tc, "name", "?"), r, cells - 1, s->ncols);
        cells--;
    }
    json_t *row = json_array();
    for (int c = 0; c < s->ncols; c++)
        json_array_append_new(row, json_string(c < cells ? line->tok[c + 1] : "N/A"));
    json_array_append_new(s->matrix, row);
    s->rows++;
    return 1;
}

static void read_version(json_t *nvb, const char *t)
{
    static const char *const keys[][2] = {{"nvbandwidth Version:", "version"},
                                          {"Built from Git version:", "git_version"},
                                          {"Driver Version:", "Driver Version"}};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (strncmp(t, keys[k][0], strlen(keys[k][0])) == 0) {
            char v[64];
            if (sscanf(t + strlen(keys[k][0]), "%63s", v) == 1)
                json_object_set_new(nvb, keys[k][1], json_string(v));
        }
    long long rt;
    if (sscanf(t, "CUDA Runtime Version: %lld", &rt) == 1)
        json_object_set_new(nvb, "CUDA Runtime Version", json_integer(rt));
}

/* "Device 0: NVIDIA H200 (00000000:00:06)" as the JSON's "0: NVIDIA H200 (...)". */
static void read_device(json_t *nvb, const char *t)
{
    int index, used = 0;
    if (sscanf(t, "Device %d:%n", &index, &used) != 1 || used == 0)
        return;
    const char *rest = t + used;
    while (*rest == ' ')
        rest++;
    char item[256];
    snprintf(item, sizeof item, "%d: %s", index, rest);
    json_array_append_new(json_object_get(nvb, "GPU Device list"), json_string(item));
}

/* A line inside a running test that is no part of a matrix: an assertion or an error
   message fails the testcase (nvbandwidth aborts there). */
static void read_failure(nvbt_t *s, const char *t)
{
    if (!s->tc || !(strstr(t, "ASSERT") || strstr(t, "ERROR") || strstr(t, "Error") ||
                    strstr(t, "Invalid value")))
        return;
    if (strcmp(ls_json_str(s->tc, "status", ""), "Error") != 0) {
        json_object_set_new(s->tc, "status", json_string("Error"));
        json_object_set_new(s->tc, "error", json_string(t));
    }
}

/* "SUM device_to_device_bidirectional_memcpy_read_ce_read1": the testcase name is the
   word without the block's suffix. */
static void name_from_sum(json_t *tc, char *word)
{
    static const char *const suffixes[] = {"_read1", "_read2", "_write1", "_write2", "_total"};
    size_t n = strlen(word);
    for (size_t k = 0; k < sizeof suffixes / sizeof suffixes[0]; k++) {
        size_t len = strlen(suffixes[k]);
        if (n > len && strcmp(word + n - len, suffixes[k]) == 0)
            word[n - len] = '\0';
    }
    json_object_set_new(tc, "name", json_string(word));
}

static void read_line(nvbt_t *s, ls_line_t *line)
{
    const char *t = ls_skip_quote(line->buf);
    char word[96];
    if (strncmp(t, "Running ", 8) == 0 && testcase_word(t + 8, word, sizeof word)) {
        start_testcase(s, word, "Passed");
    } else if (strncmp(t, "Waiving ", 8) == 0 && testcase_word(t + 8, word, sizeof word)) {
        start_testcase(s, word, "Waived");
        s->tc = NULL;
    } else if (is_description(t)) {
        start_block(s, t);
    } else if (s->header_next) {
        s->header_next = 0;
        if (!read_header(s, line))
            end_block(s);
    } else if (s->ncols && read_row(s, line)) {
        if (s->rows == s->want_rows)
            end_block(s);
    } else if (strncmp(t, "SUM ", 4) == 0) {
        end_block(s);
        if (s->tc && !*ls_json_str(s->tc, "name", "") && testcase_word(t + 4, word, sizeof word))
            name_from_sum(s->tc, word);
        if (s->tc && !json_object_get(s->tc, "sum"))
            json_object_set_new(s->tc, "sum", json_real(atof(strrchr(t, ' ') + 1)));
    } else if (strncmp(t, "Device ", 7) == 0) {
        read_device(s->nvb, t);
    } else {
        if (*t)
            end_block(s);
        read_version(s->nvb, t);
        read_failure(s, t);
    }
}

json_t *ls_nvbandwidth_text_parse(const char *text)
{
    nvbt_t s = {0};
    s.nvb = json_pack("{s:[], s:[]}", "testcases", "GPU Device list");
    if (!s.nvb)
        return NULL;
    const char *p = text;
    ls_line_t line;
    while (ls_next_line(&p, &line)) {
        const char *rest = p;
        while (*rest == ' ' || *rest == '\t' || *rest == '\n' || *rest == '\r')
            rest++;
        s.last_line = *rest == '\0';
        read_line(&s, &line);
    }
    end_block(&s);
    size_t i;
    json_t *tc;
    json_array_foreach(json_object_get(s.nvb, "testcases"), i, tc) {
        if (!*ls_json_str(tc, "name", ""))
            ls_import_note_missing("a matrix without its 'Running <testcase>.' or SUM line "
                                   "(not imported: which test it is cannot be told)");
        else if (strcmp(ls_json_str(tc, "status", ""), "Passed") == 0 &&
                 !json_object_get(tc, "bandwidth_matrix")) {
            json_object_set_new(tc, "status", json_string("Cut"));
            ls_import_note_missing("%s: no matrix after its 'Running' line",
                                   ls_json_str(tc, "name", "?"));
        }
    }
    return json_pack("{s:o}", "nvbandwidth", s.nvb);
}
