#define _GNU_SOURCE /* strcasestr */
/* The embedded catalog of CUDA errors (cuda_errors.h). */
#include "cuda_errors.h"
#include "xid.h"

#include "cuda_errors_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define COLUMNS 12
#define MAX_ROWS 160

static ls_cuda_error_t rows[MAX_ROWS];
static int nrows = -1;

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

/* The longest of the '|'-separated texts of list occurring in text (ignoring case):
   its length, with *at its offset; 0 when none does. */
static size_t longest_in(const char *list, const char *text, size_t *at)
{
    size_t best = 0;
    char one[192];
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, "|");
        if (n && n < sizeof one) {
            memcpy(one, p, n);
            one[n] = '\0';
            const char *hit = strcasestr(text, one);
            if (hit && n > best) {
                best = n;
                *at = (size_t)(hit - text);
            }
        }
        p += n + (p[n] == '|');
    }
    return best;
}

const ls_cuda_error_t *ls_cuda_error_in_text(const char *text, int also, size_t *at, size_t *len)
{
    const ls_cuda_error_t *best = NULL, *r;
    size_t best_len = 0;
    for (size_t i = 0; (r = ls_cuda_error_at(i)); i++) {
        size_t where = 0, n;
        if (also) {
            n = longest_in(r->also, text, &where);
        } else {
            n = longest_in(r->string, text, &where);
            size_t dwhere = 0, dn = longest_in(r->driver_string, text, &dwhere);
            if (dn > n)
                n = dn, where = dwhere;
        }
        if (n > best_len) {
            best = r, best_len = n;
            *at = where;
        }
    }
    if (best)
        *len = best_len;
    return best;
}
