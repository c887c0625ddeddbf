#include "strbuf.h"
#include "util/sanitize.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reserve(ls_buf_t *b, size_t more)
{
    if (b->len + more + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + more + 1)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        fputs("linkscope: out of memory while rendering\n", stderr);
        abort();
    }
    b->data = p, b->cap = cap;
}

void ls_buf_puts(ls_buf_t *b, const char *s)
{
    size_t n = strlen(s);
    reserve(b, n);
    memcpy(b->data + b->len, s, n + 1);
    b->len += n;
}

void ls_buf_printf(ls_buf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    reserve(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void ls_buf_html(ls_buf_t *b, const char *s)
{
    char one[2] = {0, 0};
    for (; s && *s; s++) {
        switch (*s) {
        case '&': ls_buf_puts(b, "&amp;"); break;
        case '<': ls_buf_puts(b, "&lt;"); break;
        case '>': ls_buf_puts(b, "&gt;"); break;
        case '"': ls_buf_puts(b, "&quot;"); break;
        default: one[0] = *s; ls_buf_puts(b, one);
        }
    }
}

void ls_buf_md(ls_buf_t *b, const char *s)
{
    size_t cap = (s ? strlen(s) : 0) * 5 + 1; /* "&amp;" is the longest replacement */
    char *out = malloc(cap);
    if (!out) {
        fputs("linkscope: out of memory while rendering\n", stderr);
        abort();
    }
    ls_buf_puts(b, ls_md_escape(s, out, cap));
    free(out);
}

static void ls_buf_csv_quoted(ls_buf_t *b, const char *s);

void ls_buf_csv(ls_buf_t *b, const char *s)
{
    if (!s)
        return;
    if (ls_csv_is_formula(s)) { /* OWASP: a leading quote makes the cell text */
        ls_buf_t guarded = {0};
        ls_buf_puts(&guarded, "'");
        ls_buf_puts(&guarded, s);
        char *text = ls_buf_take(&guarded);
        ls_buf_csv_quoted(b, text);
        free(text);
        return;
    }
    ls_buf_csv_quoted(b, s);
}

void ls_buf_prom_label(ls_buf_t *b, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '\\' || *s == '"')
            ls_buf_printf(b, "\\%c", *s);
        else if (*s == '\n')
            ls_buf_puts(b, "\\n");
        else
            ls_buf_printf(b, "%c", *s);
    }
}

static void ls_buf_csv_quoted(ls_buf_t *b, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        ls_buf_puts(b, s);
        return;
    }
    char one[2] = {0, 0};
    ls_buf_puts(b, "\"");
    for (; *s; s++) {
        if (*s == '"')
            ls_buf_puts(b, "\"\"");
        else
            one[0] = *s, ls_buf_puts(b, one);
    }
    ls_buf_puts(b, "\"");
}

char *ls_buf_take(ls_buf_t *b)
{
    reserve(b, 0);
    b->data[b->len] = '\0'; /* an empty buffer was never written */
    char *s = b->data;
    b->data = NULL, b->len = b->cap = 0;
    return s;
}

void ls_fmt_num(double v, char *buf, size_t len)
{
    if (!isfinite(v)) {
        snprintf(buf, len, "-");
        return;
    }
    double a = fabs(v);
    const char *fmt = a >= 1000 ? "%.0f" : a >= 100 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f";
    snprintf(buf, len, fmt, v);
    if (!strcmp(buf, "-0") || !strcmp(buf, "-0.000"))
        snprintf(buf, len, fmt, 0.0);
}

void ls_buf_num(ls_buf_t *b, double v)
{
    char s[48];
    ls_fmt_num(v, s, sizeof s);
    ls_buf_puts(b, s);
}

void ls_fmt_bytes(double bytes, char *buf, size_t len)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4)
        bytes /= 1024, u++;
    if (bytes == floor(bytes))
        snprintf(buf, len, "%.0f %s", bytes, units[u]);
    else
        snprintf(buf, len, "%.1f %s", bytes, units[u]);
}

/* Display width of n bytes of UTF-8 (code points). */
static int width_of(const char *s, size_t n)
{
    int w = 0;
    for (size_t i = 0; i < n; i++)
        w += ((unsigned char)s[i] & 0xC0) != 0x80;
    return w;
}

void ls_buf_wrap(ls_buf_t *b, const char *text, int col, int indent, int width)
{
    int first = 1;
    while (*text) {
        while (*text == ' ')
            text++;
        size_t n = strcspn(text, " ");
        if (!n)
            break;
        int w = width_of(text, n);
        if (!first && col + 1 + w > width) {
            ls_buf_printf(b, "\n%*s", indent, "");
            col = indent, first = 1;
        }
        ls_buf_printf(b, "%s%.*s", first ? "" : " ", (int)n, text);
        col += w + !first, first = 0;
        text += n;
    }
    ls_buf_puts(b, "\n");
}

void ls_fmt_full(double v, char *buf, size_t len)
{
    if (!isfinite(v)) {
        snprintf(buf, len, "%s", "");
        return;
    }
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, len, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}
