/* A growing text buffer for the renderers. Out of memory aborts the program: a report
   is never written half-way. */
#ifndef LS_RENDER_STRBUF_H
#define LS_RENDER_STRBUF_H

#include <stddef.h>

typedef struct {
    char *data;
    size_t len, cap;
} ls_buf_t;

void ls_buf_puts(ls_buf_t *b, const char *s);
void ls_buf_printf(ls_buf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Text with &, <, >, " escaped for HTML and SVG. */
void ls_buf_html(ls_buf_t *b, const char *s);
/* Text for a Markdown table cell: &, <, > HTML-escaped, | as \|, newlines as spaces. */
void ls_buf_md(ls_buf_t *b, const char *s);
/* A CSV field, quoted when it holds a comma, quote or newline; a formula (=, +, -, @,
   tab, CR first) prefixed with a single quote. */
void ls_buf_csv(ls_buf_t *b, const char *s);
/* A Prometheus label value (text exposition format): backslash, double quote and
   newline escaped; the quotes around it are the caller's. */
void ls_buf_prom_label(ls_buf_t *b, const char *s);
/* Words of text, wrapped so that no line passes width columns: the first line starts
   at column col (already written), later lines after indent spaces; ends with '\n'. */
void ls_buf_wrap(ls_buf_t *b, const char *text, int col, int indent, int width);
/* Hands the text over (never NULL; "" when empty) and resets the buffer. */
char *ls_buf_take(ls_buf_t *b);

/* Deterministic number formatting (C locale, no exponent): 3 significant decimals
   below 1, 2 decimals below 100, 1 below 1000, none above; "-" for NaN or infinite. */
void ls_fmt_num(double v, char *buf, size_t len);
/* Same into the buffer. */
void ls_buf_num(ls_buf_t *b, double v);
/* Full precision: the shortest decimal (up to 17 significant digits) that reads back as
   the same double; "" for NaN or infinite. For the data formats (CSV, Prometheus). */
void ls_fmt_full(double v, char *buf, size_t len);
/* Bytes as "8 B", "1 MiB", "4 GiB", "1.5 GiB". */
void ls_fmt_bytes(double bytes, char *buf, size_t len);

#endif
