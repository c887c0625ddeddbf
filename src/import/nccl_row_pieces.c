/* nccl-tests' result rows printed in pieces between NCCL's own log lines (see the
   header). */
#include "nccl_row_pieces.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* p points just past a run of digits ending at *end; returns its start, or NULL when no
   digit is there. */
static const char *digits_back(const char *start, const char *end)
{
    const char *q = end;
    while (q > start && isdigit((unsigned char)q[-1]))
        q--;
    return q < end ? q : NULL;
}

/* Where NCCL's "host:pid:tid [dev] NCCL INFO|WARN " prefix begins in line, when something
   is glued in front of its host; NULL when there is no such prefix or nothing is glued. */
static const char *glued_prefix(const char *line)
{
    const char *mark = strstr(line, "] NCCL INFO ");
    if (!mark)
        mark = strstr(line, "] NCCL WARN ");
    if (!mark)
        return NULL;
    const char *q = digits_back(line, mark); /* the device number */
    if (!q || q == line || q[-1] != '[' || q - 1 == line || q[-2] != ' ')
        return NULL;
    const char *tok_end = q - 2;
    const char *tid = digits_back(line, tok_end);
    if (!tid || tid == line || tid[-1] != ':')
        return NULL;
    const char *pid = digits_back(line, tid - 1);
    if (!pid || pid == line || pid[-1] != ':')
        return NULL;
    const char *host_end = pid - 1, *tok = host_end;
    while (tok > line && !isspace((unsigned char)tok[-1]))
        tok--;
    /* the host begins at the token's first letter; what is before it is the piece's
       last number (a sign, digits, a point) */
    const char *h = tok;
    while (h < host_end && (isdigit((unsigned char)*h) || *h == '-' || *h == '.'))
        h++;
    if (h == tok || h == host_end || !isalpha((unsigned char)*h))
        return NULL;
    return h;
}

/* 1 when the text before a glued prefix starts like a row piece: its first word a
   number with a blank after it (nccl-tests prints four or five columns a piece, so the
   glued number is never the first: "4gpu-node:1:2" is a host, not a piece). */
static int starts_with_number(const char *line, const char *end)
{
    while (line < end && isspace((unsigned char)*line))
        line++;
    char *after;
    strtod(line, &after);
    return after > line && after < end && isspace((unsigned char)*after);
}

const char *ls_row_piece_log_start(const char *line)
{
    const char *h = glued_prefix(line);
    return h && starts_with_number(line, h) ? h : NULL;
}

int ls_row_piece_starts_row(const char *line)
{
    const char *h = ls_row_piece_log_start(line);
    if (!h)
        return 0;
    for (const char *p = line;;) {
        while (p < h && isspace((unsigned char)*p))
            p++;
        if (p >= h)
            return 0; /* numbers only: a later piece */
        char *after;
        strtod(p, &after);
        if (after == p || (after < h && !isspace((unsigned char)*after)))
            return 1; /* a word: the type or the reduction */
        p = after;
    }
}

int ls_row_piece_split(char *line, char *pending, size_t len)
{
    const char *h = ls_row_piece_log_start(line);
    if (!h)
        return 0;
    size_t used = strlen(pending), piece = (size_t)(h - line);
    if (used + piece + 2 > len)
        return 0; /* a row cannot be that long: not pieces of one */
    memcpy(pending + used, line, piece);
    pending[used + piece] = ' ';
    pending[used + piece + 1] = '\0';
    memmove(line, h, strlen(h) + 1);
    return 1;
}

int ls_row_piece_tail(const char *line)
{
    int words = 0;
    for (const char *p = line;;) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        char *after;
        strtod(p, &after);
        if (after == p || (*after && !isspace((unsigned char)*after)))
            return 0;
        p = after;
        words++;
    }
    return words >= 1 && words <= 8;
}
