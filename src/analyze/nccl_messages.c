/* Reads the embedded WARN catalog (data/nccl-messages.tsv; its header says the columns)
   and matches a WARN line's text against its patterns. */
#include "nccl_messages.h"
#include "nccl_messages_text.h"

#include <stdio.h>
#include <string.h>

#define COLUMNS 7

/* 1 when the '*'-separated fragments of pattern occur in text in that order. */
static int pattern_matches(const char *pattern, const char *text)
{
    char frag[128];
    const char *at = text;
    while (*pattern) {
        size_t n = strcspn(pattern, "*");
        if (n >= sizeof frag)
            return 0;
        memcpy(frag, pattern, n);
        frag[n] = '\0';
        pattern += n + (pattern[n] == '*');
        if (!n)
            continue;
        const char *hit = strstr(at, frag);
        if (!hit)
            return 0;
        at = hit + n;
    }
    return 1;
}

static void copy_field(char *dst, size_t len, const char *src, size_t n)
{
    if (n >= len)
        n = len - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* One row (no newline) into its columns; 0 when it has all of them. */
static int split_row(const char *row, size_t rowlen, const char *col[COLUMNS], size_t len[COLUMNS])
{
    const char *p = row, *end = row + rowlen;
    for (int c = 0; c < COLUMNS; c++) {
        const char *tab = memchr(p, '\t', (size_t)(end - p));
        const char *stop = c == COLUMNS - 1 || !tab ? end : tab;
        col[c] = p, len[c] = (size_t)(stop - p);
        if (c < COLUMNS - 1 && !tab)
            return -1;
        p = stop + 1;
    }
    return 0;
}

/* A pattern "@FILE:REST" is a message printed by one source file of NCCL (the FILE:LINE
   before "NCCL WARN"): 1 when at names that file (its last path component, so "nvls.cc"
   matches "transport/nvls.cc:598"), *rest then the text pattern after it; a pattern
   without '@' matches wherever the line was printed (*rest = pattern). */
static int source_matches(const char *pattern, const char *at, const char **rest)
{
    *rest = pattern;
    if (pattern[0] != '@')
        return 1;
    size_t n = strcspn(pattern + 1, ":");
    if (!at || pattern[1 + n] != ':')
        return 0;
    size_t file = strcspn(at, ":");
    *rest = pattern + 2 + n;
    return file >= n && !strncmp(at + file - n, pattern + 1, n) &&
           (file == n || at[file - n - 1] == '/');
}

int ls_nccl_message_match(const char *text, ls_nccl_message_t *out)
{
    return ls_nccl_message_match_at(NULL, text, out);
}

int ls_nccl_message_match_at(const char *at, const char *text, ls_nccl_message_t *out)
{
    for (const char *row = ls_nccl_messages_tsv; *row;) {
        size_t rowlen = strcspn(row, "\n");
        const char *col[COLUMNS];
        size_t len[COLUMNS];
        char pattern[160];
        if (row[0] != '#' && split_row(row, rowlen, col, len) == 0) {
            const char *rest;
            copy_field(pattern, sizeof pattern, col[1], len[1]);
            if (source_matches(pattern, at, &rest) && pattern_matches(rest, text)) {
                copy_field(out->id, sizeof out->id, col[0], len[0]);
                copy_field(out->subsystem, sizeof out->subsystem, col[2], len[2]);
                out->severity = len[3] == 5 && !strncmp(col[3], "error", 5)  ? 2
                                : len[3] == 4 && !strncmp(col[3], "info", 4) ? 0
                                                                             : 1;
                copy_field(out->meaning, sizeof out->meaning, col[4], len[4]);
                copy_field(out->cause, sizeof out->cause, col[5], len[5]);
                copy_field(out->next, sizeof out->next, col[6], len[6]);
                return 0;
            }
        }
        row += rowlen + (row[rowlen] == '\n');
    }
    return -1;
}
