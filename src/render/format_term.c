/* The terminal format: plain text tables within the terminal's width (COLUMNS, then the
   tty's, 100 when stdout is not a terminal), no colour (the same bytes
   on a terminal, in a pipe or in a file; cli colours the verdict and severities on a
   terminal, term_colour.c). */
#include "format.h"
#include "model/doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void pad(ls_buf_t *b, const char *s, int w, int right)
{
    int n = w - ls_text_width(s);
    if (right)
        for (int i = 0; i < n; i++)
            ls_buf_puts(b, " ");
    ls_buf_puts(b, s);
    if (!right)
        for (int i = 0; i < n; i++)
            ls_buf_puts(b, " ");
}

/* Reports fit a terminal of ls_term_width() columns (width.c): a wider table wraps its
   header words, then its last text column, then leaves out its least important columns
   (the table's drop order, else from the right) and says which under it; never split
   into blocks, whose rows could not be matched. */
enum { MIN_WRAP = 24, MAXCOLS = 128, MIN_KEPT = 2 };

typedef struct {
    const ls_table_t *t;
    int flags, ncols;
    int w[MAXCOLS], right[MAXCOLS];
    char **cells; /* the table's cells, the evidence column capped */
} layout_t;

static const char *cell(const layout_t *l, int r, int c)
{
    return l->cells[r * l->t->ncols + c];
}

static int longest_word(const char *s)
{
    int best = 0;
    while (*s) {
        size_t n = strcspn(s, " ");
        char word[256];
        snprintf(word, sizeof word, "%.*s", (int)n, s);
        if (ls_text_width(word) > best)
            best = ls_text_width(word);
        s += n + (s[n] == ' ');
    }
    return best;
}

static int span(const layout_t *l, const int *cols, int n)
{
    int total = 1;
    for (int i = 0; i < n; i++)
        total += 1 + l->w[cols[i]];
    return total;
}

/* Line k of text wrapped to width w (greedy, on spaces), into out; 0 when none. */
static int wrapped_line(const char *s, int w, int k, char *out, size_t len)
{
    int line = 0;
    while (*s) {
        ls_buf_t b = {0};
        int col = 0;
        while (*s) {
            size_t n = strcspn(s, " ");
            char word[512];
            snprintf(word, sizeof word, "%.*s", (int)n, s);
            int ww = ls_text_width(word);
            if (col && col + 1 + ww > w)
                break;
            ls_buf_printf(&b, "%s%s", col ? " " : "", word);
            col += ww + (col > 0);
            s += n;
            while (*s == ' ')
                s++;
        }
        char *text = ls_buf_take(&b);
        if (line++ == k) {
            snprintf(out, len, "%s", text);
            free(text);
            return 1;
        }
        free(text);
    }
    return 0;
}

static int lines_of(const char *s, int w)
{
    char tmp[1024];
    int n = 0;
    while (wrapped_line(s, w, n, tmp, sizeof tmp))
        n++;
    return n ? n : 1;
}

static void rule(ls_buf_t *b, const layout_t *l, const int *cols, int n)
{
    ls_buf_puts(b, " ");
    for (int i = 0; i < n; i++) {
        ls_buf_puts(b, " ");
        for (int k = 0; k < l->w[cols[i]]; k++)
            ls_buf_puts(b, "-");
    }
    ls_buf_puts(b, "\n");
}

/* One row of the columns cols (the header when r == 0), each cell wrapped to its width. */
static void row(ls_buf_t *b, const layout_t *l, const int *cols, int n, int r)
{
    int height = 1;
    for (int i = 0; i < n; i++) {
        int h = lines_of(cell(l, r, cols[i]), l->w[cols[i]]);
        height = h > height ? h : height;
    }
    for (int k = 0; k < height; k++) {
        ls_buf_t line = {0};
        ls_buf_puts(&line, " ");
        for (int i = 0; i < n; i++) {
            char part[1024] = "";
            int c = cols[i];
            if (!wrapped_line(cell(l, r, c), l->w[c], k, part, sizeof part) && k == 0)
                snprintf(part, sizeof part, "%s", cell(l, r, c));
            ls_buf_puts(&line, " ");
            pad(&line, part, l->w[c], r > 0 && l->right[c]);
        }
        char *text = ls_buf_take(&line);
        size_t len = strlen(text);
        while (len && text[len - 1] == ' ')
            text[--len] = '\0'; /* no trailing blanks */
        ls_buf_printf(b, "%s\n", text);
        free(text);
    }
}

static void block(ls_buf_t *b, const layout_t *l, const int *cols, int n)
{
    for (int r = 0; r <= l->t->nrows; r++) {
        row(b, l, cols, n, r);
        if (r == 0)
            rule(b, l, cols, n);
    }
    ls_buf_puts(b, "\n");
}

static void measure(layout_t *l, int wrap_header)
{
    for (int c = 0; c < l->ncols; c++) {
        l->w[c] = wrap_header ? longest_word(cell(l, 0, c)) : ls_text_width(cell(l, 0, c));
        l->right[c] = 1;
        for (int r = 1; r <= l->t->nrows; r++) {
            if (ls_text_width(cell(l, r, c)) > l->w[c])
                l->w[c] = ls_text_width(cell(l, r, c));
            if (!ls_cell_numeric(cell(l, r, c)))
                l->right[c] = 0; /* a column of numbers is right-aligned */
        }
    }
}

/* A GPU x GPU matrix too wide for the terminal heads its columns "0" .. "n" instead of
   "GPU0" .. (its title says GPU(row) -> GPU(column)); 1 when it did. */
static int short_gpu_headers(layout_t *l)
{
    int done = 0;
    for (int c = 1; c < l->ncols; c++) {
        char *h = l->cells[c];
        if (strncmp(h, "GPU", 3) || !h[3] || strspn(h + 3, "0123456789") != strlen(h + 3))
            continue;
        memmove(h, h + 3, strlen(h + 3) + 1);
        done = 1;
    }
    return done;
}

/* Whether the active columns cols[0..n) fit the width: the last one, a text column,
   wraps into what is left when that is at least MIN_WRAP. */
static int fits(layout_t *l, const int *cols, int n, int width)
{
    if (span(l, cols, n) <= width)
        return 1;
    int last = cols[n - 1], rest = width - span(l, cols, n - 1) - 1;
    if (l->right[last] || rest < MIN_WRAP)
        return 0;
    l->w[last] = rest;
    return 1;
}

/* The column to leave out next: the first of the drop order still shown, else the
   rightmost but the first and "status"; -1 when none may go. */
static int next_drop(const layout_t *l, const int *cols, int n)
{
    char order[1024];
    snprintf(order, sizeof order, "%s", l->t->drop ? l->t->drop : "");
    for (char *save = NULL, *h = strtok_r(order, ",", &save); h; h = strtok_r(NULL, ",", &save))
        for (int i = 1; i < n; i++)
            if (!strcmp(cell(l, 0, cols[i]), h))
                return i;
    for (int i = n - 1; i > 0; i--)
        if (strcmp(cell(l, 0, cols[i]), "status"))
            return i;
    return -1;
}

/* Leaves out columns until the rest fit; says which under the table. */
static void drop_columns(ls_buf_t *b, layout_t *l, int width)
{
    int cols[MAXCOLS], n = l->ncols;
    for (int c = 0; c < n; c++)
        cols[c] = c;
    ls_buf_t gone = {0};
    while (n > MIN_KEPT && !fits(l, cols, n, width)) {
        int i = next_drop(l, cols, n);
        if (i < 0)
            break;
        ls_buf_printf(&gone, "%s%s", gone.len ? ", " : "", cell(l, 0, cols[i]));
        memmove(cols + i, cols + i + 1, (size_t)(n - i - 1) * sizeof *cols);
        n--;
    }
    block(b, l, cols, n);
    if (!gone.len) /* nothing could go: the table stays as wide as it is */
        return;
    char *names = ls_buf_take(&gone), note[1400];
    snprintf(note, sizeof note, "(left out at %d columns: %s; --format md shows every column)",
             width, names);
    b->len--; /* under the table, before its blank line */
    ls_buf_puts(b, "  ");
    ls_buf_wrap(b, note, 2, 3, width);
    ls_buf_puts(b, "\n");
    free(names);
}

static void table(ls_out_t *o, const ls_table_t *t, int flags)
{
    ls_buf_t *b = &o->b;
    int width = ls_term_width();
    layout_t l = {t, flags, t->ncols < MAXCOLS ? t->ncols : MAXCOLS, {0}, {0}, NULL};
    int ncells = (t->nrows + 1) * t->ncols, all[MAXCOLS];
    l.cells = calloc((size_t)ncells + 1, sizeof *l.cells);
    if (!l.cells)
        abort();
    for (int i = 0; i < ncells; i++)
        l.cells[i] = (flags & LS_TABLE_EVIDENCE_LAST) && i >= t->ncols &&
                             i % t->ncols == t->ncols - 1
                         ? ls_evidence_capped(t->cells[i], 3)
                         : strdup(t->cells[i] ? t->cells[i] : "");
    for (int c = 0; c < l.ncols; c++)
        all[c] = c;
    ls_buf_wrap(b, t->title, 0, 2, width);
    if (!t->nrows) {
        ls_buf_puts(b, "  (none)\n\n");
    } else {
        measure(&l, 0);
        if (span(&l, all, l.ncols) > width)
            measure(&l, 1);
        if (!fits(&l, all, l.ncols, width) && short_gpu_headers(&l))
            measure(&l, 1);
        if (fits(&l, all, l.ncols, width))
            block(b, &l, all, l.ncols);
        else
            drop_columns(b, &l, width);
    }
    for (int i = 0; i < ncells; i++)
        free(l.cells[i]);
    free(l.cells);
}

static void begin(ls_out_t *o)
{
    ls_buf_printf(&o->b, "linkscope report: %s, %s\n\n",
                  ls_json_str(json_object_get(o->doc, "host"), "hostname", "host unknown"),
                  ls_json_str(o->doc, "created", "unknown"));
}

static void heading(ls_out_t *o, const ls_section_t *s)
{
    if (s->flags & LS_SEC_PREAMBLE)
        return;
    const char *text = ls_section_short_title(o->fmt, s);
    ls_buf_printf(&o->b, "== %s ", text);
    int end = ls_term_width() - 12 < 88 ? ls_term_width() - 12 : 88; /* 88 at the usual 100 */
    for (int i = ls_text_width(text) + 4; i < end; i++)
        ls_buf_puts(&o->b, "=");
    ls_buf_puts(&o->b, "\n\n");
}

static void list(ls_out_t *o, const json_t *strings)
{
    ls_format_items(&o->b, strings, "  * ", "\n", ls_buf_puts);
    ls_buf_puts(&o->b, "\n");
}

/* "No P2P measurements." reads "  (no P2P measurements)". */
static void note(ls_out_t *o, const char *sentence)
{
    size_t n = strlen(sentence);
    if (!n)
        return;
    if (sentence[n - 1] == '.')
        n--;
    char first = sentence[0] >= 'A' && sentence[0] <= 'Z' ? (char)(sentence[0] - 'A' + 'a')
                                                          : sentence[0];
    ls_buf_printf(&o->b, "  (%c%.*s)\n\n", first, (int)n - 1, sentence + 1);
}

static void verdict(ls_out_t *o, const char *line, int worst)
{
    (void)worst;
    ls_buf_printf(&o->b, "%s\n\n", line);
}

static void text(ls_out_t *o, const char *s)
{
    ls_buf_puts(&o->b, s);
    ls_buf_puts(&o->b, "\n");
}

/* No pictures in plain text (the tables say it), no section end. */
const ls_format_t ls_format_term = {
    .name = "term",
    .caps = LS_FMT_PROSE,
    .begin = begin,
    .heading = heading,
    .table = table,
    .list = list,
    .note = note,
    .text = text,
    .verdict = verdict,
    .help = "plain text tables (default; the format of FILE's extension\n"
            ".md/.html when -o names one)",
};
