/* The embedded catalog of CUDA errors (cuda_errors.h). */
#include "cuda_errors.h"
#include "xid.h"

#include "cuda_errors_text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COLUMNS 12
#define MAX_ROWS 160

static ls_cuda_error_t rows[MAX_ROWS];
static int nrows = -1;

/* Every text a row is matched by, in lower case: its strings and its "also" texts (a
   line is lowered once and searched with strstr: the catalog is matched against every
   line of a 200,000-line log). */
typedef struct {
    const ls_cuda_error_t *row;
    int kind; /* LS_CE_STRINGS or LS_CE_ALSO */
    size_t len;
    char low[192];
} text_t;

#define MAX_TEXTS (MAX_ROWS * 4)
static text_t texts[MAX_TEXTS];
static int ntexts;

/* The '|'-separated texts of list into texts[], lowered. */
static void add_texts(const ls_cuda_error_t *r, const char *list, int kind)
{
    for (const char *p = list; *p && ntexts < MAX_TEXTS;) {
        size_t n = strcspn(p, "|");
        if (n && n < sizeof texts[0].low) {
            text_t *t = &texts[ntexts++];
            t->row = r, t->kind = kind, t->len = n;
            for (size_t i = 0; i < n; i++)
                t->low[i] = (char)tolower((unsigned char)p[i]);
            t->low[n] = '\0';
        }
        p += n + (p[n] == '|');
    }
}

/* col into dst, "" for "-". */
static void put(char *dst, size_t len, const char *col)
{
    snprintf(dst, len, "%s", strcmp(col, "-") ? col : "");
}

static int severity_of(const char *s)
{
    return !strcmp(s, "error") ? 2 : !strcmp(s, "warning") ? 1 : 0;
}

/* One row's columns (split in place) into r: 0, or -1 when it is not a row. */
static int parse_row(char *line, ls_cuda_error_t *r)
{
    char *col[COLUMNS];
    char *p = line;
    for (int c = 0; c < COLUMNS; c++) {
        col[c] = p;
        char *tab = strchr(p, '\t');
        if (c < COLUMNS - 1 && !tab)
            return -1;
        if (tab)
            *tab = '\0';
        p = tab ? tab + 1 : p + strlen(p);
    }
    char *end;
    long code = strtol(col[0], &end, 10);
    if (*end || code <= 0)
        return -1;
    r->code = (int)code;
    put(r->runtime, sizeof r->runtime, col[1]);
    put(r->driver, sizeof r->driver, col[2]);
    put(r->string, sizeof r->string, col[3]);
    put(r->driver_string, sizeof r->driver_string, col[4]);
    put(r->also, sizeof r->also, col[5]);
    put(r->cls, sizeof r->cls, col[6]);
    r->severity = severity_of(col[7]);
    r->action = strcmp(col[8], "-") ? ls_action_parse(col[8]) : -1;
    put(r->meaning, sizeof r->meaning, col[9]);
    put(r->cause, sizeof r->cause, col[10]);
    put(r->next, sizeof r->next, col[11]);
    return 0;
}

static void load(void)
{
    if (nrows >= 0)
        return;
    char *text = strdup(ls_cuda_errors_tsv), *save = NULL;
    nrows = 0;
    for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line && nrows < MAX_ROWS;
         line = strtok_r(NULL, "\n", &save))
        if (line[0] != '#' && parse_row(line, &rows[nrows]) == 0)
            nrows++;
    free(text);
    for (int i = 0; i < nrows; i++) {
        add_texts(&rows[i], rows[i].string, LS_CE_STRINGS);
        add_texts(&rows[i], rows[i].driver_string, LS_CE_STRINGS);
        add_texts(&rows[i], rows[i].also, LS_CE_ALSO);
    }
}

const ls_cuda_error_t *ls_cuda_error_at(size_t i)
{
    load();
    return i < (size_t)nrows ? &rows[i] : NULL;
}

const ls_cuda_error_t *ls_cuda_error_by_code(int code)
{
    const ls_cuda_error_t *r;
    for (size_t i = 0; (r = ls_cuda_error_at(i)); i++)
        if (r->code == code)
            return r;
    return NULL;
}

const ls_cuda_error_t *ls_cuda_error_by_name(const char *name, size_t len)
{
    const ls_cuda_error_t *r;
    for (size_t i = 0; (r = ls_cuda_error_at(i)); i++)
        if ((strlen(r->runtime) == len && !strncmp(r->runtime, name, len)) ||
            (r->driver[0] && strlen(r->driver) == len && !strncmp(r->driver, name, len)))
            return r;
    return NULL;
}

const ls_cuda_error_t *ls_cuda_error_in_text(const char *text, int kinds, size_t min_len,
                                             size_t *at, size_t *len)
{
    load();
    char low[1024];
    size_t n = strlen(text) < sizeof low - 1 ? strlen(text) : sizeof low - 1;
    for (size_t i = 0; i < n; i++)
        low[i] = (char)tolower((unsigned char)text[i]);
    low[n] = '\0';
    const text_t *best = NULL;
    const char *best_hit = NULL;
    for (int i = 0; i < ntexts; i++) {
        const text_t *t = &texts[i];
        if (!(kinds & t->kind) || (t->kind == LS_CE_STRINGS && t->len < min_len) ||
            (best && t->len <= best->len))
            continue;
        const char *hit = strstr(low, t->low);
        if (hit)
            best = t, best_hit = hit;
    }
    if (!best)
        return NULL;
    *at = (size_t)(best_hit - low);
    *len = best->len;
    return best->row;
}
