#include "sanitize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ESC 0x1b
#define BEL 0x07

/* Length of the escape sequence at s (s[0] == ESC), up to the end of the string. */
static size_t escape_length(const unsigned char *s)
{
    size_t i = 1;
    unsigned char kind = s[1];
    if (kind == '[') { /* CSI: parameters and intermediates, then a final byte @..~ */
        for (i = 2; s[i] && !(s[i] >= 0x40 && s[i] <= 0x7e); i++)
            ;
        return s[i] ? i + 1 : i;
    }
    if (kind == ']' || kind == 'P' || kind == 'X' || kind == '^' || kind == '_') {
        /* a control string: up to BEL, ESC \ (ST) or the end */
        for (i = 2; s[i]; i++) {
            if (s[i] == BEL)
                return i + 1;
            if (s[i] == ESC)
                return s[i + 1] == '\\' ? i + 2 : i;
        }
        return i;
    }
    while (s[i] >= 0x20 && s[i] <= 0x2f) /* intermediates, e.g. ESC ( B */
        i++;
    return s[i] >= 0x30 && s[i] <= 0x7e ? i + 1 : i;
}

/* Length of the valid UTF-8 sequence at s, or 0 when it is not one. *cp gets the code
   point. Overlong forms and surrogates are not valid. */
static size_t utf8_length(const unsigned char *s, unsigned *cp)
{
    size_t n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (n == 0 || (s[0] >= 0xf5))
        return 0;
    unsigned v = s[0] & (0x7f >> n);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3f);
    }
    if ((n == 3 && (v < 0x800 || (v >= 0xd800 && v <= 0xdfff))) ||
        (n == 4 && (v < 0x10000 || v > 0x10ffff)))
        return 0;
    *cp = v;
    return n;
}

/* What to do with the text at s: returns how many bytes it spans and sets *keep to the
   number of them to copy (0: drop) and *space when it becomes one space. */
static size_t classify(const unsigned char *s, size_t *keep, int *space, int keep_tabs)
{
    *keep = 0, *space = 0;
    if (s[0] == ESC)
        return escape_length(s);
    if (s[0] == '\t' && keep_tabs) {
        *keep = 1;
        return 1;
    }
    if (s[0] == '\t' || s[0] == '\n' || s[0] == '\r') {
        *space = 1;
        return 1;
    }
    if (s[0] < 0x20 || s[0] == 0x7f)
        return 1;
    if (s[0] < 0x80) {
        *keep = 1;
        return 1;
    }
    unsigned cp = 0;
    size_t n = utf8_length(s, &cp);
    if (n == 0)
        return 1; /* not UTF-8: dropped */
    if (cp >= 0x80 && cp <= 0x9f)
        return n; /* C1 control, e.g. U+009B (a one-character CSI) */
    *keep = n;
    return n;
}

static size_t sanitize(char *s, int keep_tabs)
{
    if (!s)
        return 0;
    unsigned char *in = (unsigned char *)s, *out = (unsigned char *)s;
    while (*in) {
        size_t keep;
        int space;
        size_t n = classify(in, &keep, &space, keep_tabs);
        if (space)
            *out++ = ' ';
        memmove(out, in, keep);
        out += keep;
        in += n;
    }
    *out = '\0';
    return (size_t)(out - (unsigned char *)s);
}

size_t ls_sanitize_text(char *s)
{
    return sanitize(s, 0);
}

size_t ls_sanitize_line(char *s)
{
    return sanitize(s, 1);
}

int ls_text_needs_sanitize(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (p && *p) {
        size_t keep;
        int space;
        size_t n = classify(p, &keep, &space, 0);
        if (keep != n)
            return 1;
        p += n;
    }
    return 0;
}

/* Appends text to out at *o, never past outlen - 1. */
static void put(char *out, size_t outlen, size_t *o, const char *text)
{
    size_t n = strlen(text);
    if (*o + n >= outlen)
        n = outlen - 1 - *o;
    memcpy(out + *o, text, n);
    *o += n;
}

/* Length of a colour sequence (SGR: ESC [ digits and semicolons m) at p, or 0. */
static size_t sgr_length(const unsigned char *p)
{
    if (p[0] != ESC || p[1] != '[')
        return 0;
    size_t i = 2;
    while ((p[i] >= '0' && p[i] <= '9') || p[i] == ';')
        i++;
    return p[i] == 'm' ? i + 1 : 0;
}

static char *term_escape(const char *s, char *out, size_t outlen, int keep_sgr)
{
    size_t o = 0;
    if (!out || outlen == 0)
        return out;
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p && o + 1 < outlen) {
        size_t sgr = keep_sgr ? sgr_length(p) : 0;
        if (sgr) {
            char seq[64] = {0};
            memcpy(seq, p, sgr < sizeof seq ? sgr : sizeof seq - 1);
            put(out, outlen, &o, seq);
            p += sgr;
            continue;
        }
        unsigned cp = 0;
        size_t n = *p >= 0x80 ? utf8_length(p, &cp) : 1;
        if (*p < 0x20 || *p == 0x7f || n == 0 || (cp >= 0x80 && cp <= 0x9f)) {
            char hex[16];
            snprintf(hex, sizeof hex, "\\x%02x", n > 1 ? cp : *p);
            put(out, outlen, &o, hex);
            p += n ? n : 1;
            continue;
        }
        char one[5] = {0};
        memcpy(one, p, n);
        put(out, outlen, &o, one);
        p += n;
    }
    out[o] = '\0';
    return out;
}

char *ls_term_escape(const char *s, char *out, size_t outlen)
{
    return term_escape(s, out, outlen, 0);
}

char *ls_term_escape_keep_colour(const char *s, char *out, size_t outlen)
{
    return term_escape(s, out, outlen, 1);
}

int ls_csv_is_formula(const char *s)
{
    if (!s || !strchr("=+-@\t\r", s[0]) || !s[0])
        return 0;
    if (s[0] == '-' || s[0] == '+') { /* a number is data */
        char *end;
        strtod(s, &end);
        if (end != s && *end == '\0')
            return 0;
    }
    return 1;
}

char *ls_md_escape(const char *s, char *out, size_t outlen)
{
    size_t o = 0;
    if (!out || outlen == 0)
        return out;
    const unsigned char *start = (const unsigned char *)(s ? s : "");
    for (const unsigned char *p = start; *p && o + 1 < outlen; p++) {
        char one[2] = {(char)*p, 0};
        /* "](" escaped: [text](url) and ![x](url) from a name stay text, never a live
           link or image (the brackets alone are shown as they are) */
        const char *text = *p == '(' && p > start && p[-1] == ']'   ? "\\("
                           : *p == '&'                              ? "&amp;"
                           : *p == '<'                              ? "&lt;"
                           : *p == '>'                              ? "&gt;"
                           : *p == '|'                              ? "\\|"
                           : *p == '\n' || *p == '\r' || *p == '\t' ? " "
                           : *p < 0x20 || *p == 0x7f                ? ""
                                                                    : one;
        put(out, outlen, &o, text);
    }
    out[o] = '\0';
    return out;
}
