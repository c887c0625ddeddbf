#include "journal_prefix.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* n digits at p. */
static int digits(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)p[i]))
            return 0;
    return 1;
}

/* "HH:MM:SS" and an optional ".uuuuuu" at p: its length, else 0. */
static size_t clock_len(const char *p)
{
    if (!digits(p, 2) || p[2] != ':' || !digits(p + 3, 2) || p[5] != ':' || !digits(p + 6, 2))
        return 0;
    size_t n = 8;
    if (p[n] == '.' && isdigit((unsigned char)p[n + 1]))
        n += 1 + strspn(p + n + 1, "0123456789");
    return n;
}

/* journalctl's time stamp at p and the blank after it: "Oct 04 13:19:39" (short, the
   syslog form; short-precise adds ".uuuuuu"), "2025-10-04T13:19:39+0000" (short-iso; "Z",
   "+00:00" and short-iso-precise's fraction too). Its length, else 0. */
static size_t stamp_len(const char *p)
{
    size_t n = 0;
    if (isupper((unsigned char)p[0]) && islower((unsigned char)p[1]) &&
        islower((unsigned char)p[2]) && p[3] == ' ') {
        n = 4 + (p[4] == ' ');
        if (!isdigit((unsigned char)p[n]))
            return 0;
        n += isdigit((unsigned char)p[n + 1]) ? 2 : 1;
        if (p[n++] != ' ')
            return 0;
        size_t c = clock_len(p + n);
        return c && p[n + c] == ' ' ? n + c + 1 : 0;
    }
    if (!digits(p, 4) || p[4] != '-' || !digits(p + 5, 2) || p[7] != '-' || !digits(p + 8, 2) ||
        p[10] != 'T')
        return 0;
    size_t c = clock_len(p + 11);
    if (!c)
        return 0;
    n = 11 + c;
    if (p[n] == 'Z')
        n++;
    else if ((p[n] == '+' || p[n] == '-') && digits(p + n + 1, 2))
        n += 3 + (p[n + 3] == ':') + 2 * digits(p + n + 3 + (p[n + 3] == ':'), 2);
    return p[n] == ' ' ? n + 1 : 0;
}

/* "IDENT[PID]: " at p (IDENT without blanks or brackets): its length, else 0. */
static size_t ident_len(const char *p)
{
    size_t n = strcspn(p, " \t[]:\n");
    if (!n || p[n] != '[' || !isdigit((unsigned char)p[n + 1]))
        return 0;
    n += 1 + strspn(p + n + 1, "0123456789");
    return p[n] == ']' && p[n + 1] == ':' && p[n + 2] == ' ' ? n + 3 : 0;
}

/* The prefix's length at line, else 0; where its "HOST IDENT[PID]" (or "IDENT[PID]")
   begins and how long it is into *who_at and *who_len. */
static size_t prefix_span(const char *line, size_t *who_at, size_t *who_len)
{
    size_t n = stamp_len(line);
    if (!n)
        return 0;
    size_t id = ident_len(line + n), host = 0;
    if (!id) { /* a host before it */
        host = strcspn(line + n, " \t\n");
        if (!host || line[n + host] != ' ')
            return 0;
        id = ident_len(line + n + host + 1);
        if (!id)
            return 0;
        host++;
    }
    *who_at = n;
    *who_len = host + id - 2; /* without the ": " */
    return n + host + id;
}

size_t ls_journal_prefix_len(const char *line, char *who, size_t wholen)
{
    size_t at, len, n = prefix_span(line, &at, &len);
    if (n && who)
        snprintf(who, wholen, "%.*s", (int)len, line + at);
    return n;
}

/* The next line's start after p, or NULL at the end. */
static const char *next_line(const char *p)
{
    const char *nl = strchr(p, '\n');
    return nl ? nl + 1 : NULL;
}

/* Every line with text carries a prefix, all of one host and one IDENT[PID] (compared
   whole, however long: no copy of a fixed size that two long hosts could share). */
static int one_stream(const char *text)
{
    const char *first = NULL;
    size_t first_len = 0;
    for (const char *p = text; p && *p; p = next_line(p)) {
        if (!p[strspn(p, " \t\r")] || p[strspn(p, " \t\r")] == '\n')
            continue;
        size_t at, len;
        if (!prefix_span(p, &at, &len))
            return 0;
        if (!first) {
            first = p + at;
            first_len = len;
        } else if (len != first_len || memcmp(first, p + at, len) != 0) {
            return 0;
        }
    }
    return first != NULL;
}

char *ls_strip_journal_prefixes(const char *text)
{
    if (!one_stream(text))
        return NULL;
    char *out = malloc(strlen(text) + 1), *o = out;
    if (!out)
        return NULL;
    for (const char *p = text; p && *p; p = next_line(p)) {
        p += ls_journal_prefix_len(p, NULL, 0);
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
        memcpy(o, p, len);
        o += len;
    }
    *o = '\0';
    return out;
}
