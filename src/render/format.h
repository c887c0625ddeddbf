/* The format interface: every report is the outline (outline.c: which sections, in which
   order, what each holds) written through one backend (format_term.c, format_md.c,
   format_html.c, format_csv.c). A backend says how a heading, a table, a list, a figure,
   a note and preformatted text look in its format; it never decides what is shown. A new
   output format is one new file defining one ls_format_t, listed in ls_formats
   (formats.c). docs/design.md walks through adding one. */
#ifndef LS_RENDER_FORMAT_H
#define LS_RENDER_FORMAT_H

#include <jansson.h>
#include <stdio.h>

#include "strbuf.h"
#include "table.h"

/* What a backend can show beyond headings, tables and lists; the outline picks the
   content of a section by these, so the same outline serves every format. */
enum {
    LS_FMT_FIGURES = 1,    /* draws figures (SVG); a matrix is shown as a figure, not a table */
    LS_FMT_PROSE = 2,      /* the analysis as plain text (headline, findings and plan) */
    LS_FMT_EMPTY_NOTE = 4, /* a list with nothing in it is said in a sentence, not an empty table */
};

/* Table flags. */
enum {
    LS_TABLE_SEVERITY_ROWS = 1, /* column 0 is a severity: rows styled by it */
    LS_TABLE_EVIDENCE_LAST = 2, /* the last column is a space-separated list of entry ids: a
                                   text format caps it, HTML collapses it (<details>) */
};

typedef struct ls_out ls_out_t;
typedef struct ls_format ls_format_t;

/* One output being written: the backend's buffer and what the report is about. */
struct ls_out {
    const ls_format_t *fmt;
    ls_buf_t b;
    const json_t *doc, *findings, *plan;
    int figures; /* figures drawn so far */
};

/* A figure: draw writes it into b and returns how many pictures it drew (0: none). */
typedef struct {
    int (*draw)(ls_buf_t *b, const ls_out_t *o, const void *arg);
    const void *arg;
    const char *caption; /* NULL: the pictures stand bare, without a caption */
    const char *none;    /* said in the picture's place when it draws nothing */
} ls_figure_t;

/* A section of the outline. */
typedef struct {
    const char *id;          /* anchor: "summary", "findings", ... */
    const char *title;       /* in full, where a format has room (a navigation bar) */
    const char *short_title; /* in a flowing document; NULL: title */
    const char *prose_title; /* in a LS_FMT_PROSE format, whose text covers more; NULL: short */
    int flags;
    void (*content)(ls_out_t *o);
    int (*present)(const json_t *doc); /* NULL: always; else shown (and listed) only when
                                          the document has what it shows */
} ls_section_t;

enum {
    LS_SEC_PREAMBLE = 1, /* under the document's own title: formats with one leave it untitled */
    LS_SEC_IN_PROSE = 2, /* said by the previous section's prose: a LS_FMT_PROSE format skips it */
};

/* Any operation but table may be NULL: the format writes nothing for it. */
struct ls_format {
    const char *name;           /* as --format names it */
    const char *ext;            /* the file name ending that selects it (".md"), NULL: none */
    int caps;                   /* LS_FMT_* */
    void (*begin)(ls_out_t *o); /* the document's title */
    void (*heading)(ls_out_t *o, const ls_section_t *s); /* opens a section */
    void (*section_end)(ls_out_t *o);
    void (*table)(ls_out_t *o, const ls_table_t *t, int flags);
    void (*list)(ls_out_t *o, const json_t *strings);         /* a JSON array of strings */
    int (*figures)(ls_out_t *o, const ls_figure_t *f, int n); /* a group; returns pictures drawn */
    void (*note)(ls_out_t *o, const char *sentence);          /* "No ... measurements." */
    void (*text)(ls_out_t *o, const char *text);              /* preformatted lines */
    char *(*end)(ls_out_t *o);                                /* the whole output; caller frees */
    /* The report's first line (render.h's ls_render_verdict); worst: 2 error, 1 warning,
       0 healthy. NULL: said as text. */
    void (*verdict)(ls_out_t *o, const char *line, int worst);
    /* What --format NAME writes, for report's usage (lines joined by \n); NULL: not a
       report format. */
    const char *help;
};

extern const ls_format_t ls_format_term, ls_format_md, ls_format_html, ls_format_csv;
/* Data formats (format_json.c, format_prom.c): the whole document at full precision. */
extern const ls_format_t ls_format_json, ls_format_prom;
/* Fixed columns (table.h's ls_column_t), for a command's own tables; not a report format. */
extern const ls_format_t ls_format_columns;

/* Every format, NULL-terminated (formats.c), and one by name (NULL when unknown). */
extern const ls_format_t *const ls_formats[];
const ls_format_t *ls_format_find(const char *name);
/* The formats' names (formats.c): NULL-terminated, and in one line joined by sep
   with last before the last one ("term, md, ... or prom"; static, valid until the next
   call). */
const char *const *ls_format_names(void);
const char *ls_format_names_joined(const char *sep, const char *last);
/* The format whose ext ends path (".htm" reads as ".html"); NULL when none. */
const ls_format_t *ls_format_of_path(const char *path);

/* The outline, ended by a section with a NULL id. */
extern const ls_section_t ls_outline[];
/* Whether a section of the outline is shown for doc. */
int ls_section_present(const ls_section_t *s, const json_t *doc);
/* The title a flowing-text format prints for a section. */
const char *ls_section_short_title(const ls_format_t *fmt, const ls_section_t *s);

/* The report of a document through a format (the outline). Caller frees. */
char *ls_report(const ls_format_t *fmt, const json_t *doc, const json_t *findings,
                const json_t *plan);

/* One table alone through a format (a command's table, a CSV export). Caller frees. */
char *ls_format_table(const ls_format_t *fmt, const ls_table_t *t);
/* A command's table flag: the header row is not printed (fixed columns); a format that
   needs a header prints it. */
enum { LS_TABLE_NO_HEADER = 1 << 8 };
/* The same appended to b, with table flags (LS_TABLE_*). */
void ls_format_table_to(ls_buf_t *b, const ls_format_t *fmt, const ls_table_t *t, int flags);
/* A command's table in fixed columns (cols: t->ncols of them), appended to b or printed
   on f; t is freed. */
void ls_columns_put(ls_buf_t *b, ls_table_t *t, const ls_column_t *cols, int flags);
void ls_columns_print(FILE *f, ls_table_t *t, const ls_column_t *cols, int flags);

/* Helpers the backends share. */
/* The evidence cell cut to its first few ids and "and N more" (text formats). Caller frees. */
char *ls_evidence_capped(const char *ids, int shown);
int ls_text_width(const char *s);   /* display width of UTF-8 text (code points) */
int ls_cell_numeric(const char *s); /* a number or "-": right-aligned */
/* Each string of a JSON array, escaped by esc, between before and after. */
void ls_format_items(ls_buf_t *b, const json_t *strings, const char *before, const char *after,
                     void (*esc)(ls_buf_t *, const char *));

#endif
