/* Reader of saved `nvidia-smi topo -m` and `nvidia-smi topo -p2p r|w` output.

   The text is a matrix: a header row naming the devices (GPU0.., NIC0.. or, from older
   drivers, NIC names such as mlx5_0) followed by the affinity columns ("CPU Affinity",
   "NUMA Affinity", "GPU NUMA ID"), then one row per device. Cells are separated by tabs
   (as nvidia-smi writes them) or by runs of spaces (as a terminal copy has them); the
   header carries ANSI underline escapes. A legend follows, and on machines with RDMA
   devices a "NIC Legend:" with lines "NIC0: mlx5_0".

   nvidia-smi pads each header name to its column; a name as wide as the column runs
   into the next ("NIC11NIC12"), and is split at its device labels; a row's cell that
   fills its column likewise ("NODENODE"), split where that is unique. A pasted excerpt
   (import, topo --from) is read leniently: NIC columns past the model's limit and header
   columns nvidia-smi does not print (an edited "NUMA") are kept for alignment but not
   read, and rows pasted without their header are named from their diagonal where that
   is certain (topo_text_infer below). Each of these is noted. */
#include "topo_text.h"
#include "util/sanitize.h"
#include "util/log.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEVS (LS_MAX_GPUS + LS_MAX_NICS)
#define MAX_TOKENS (MAX_DEVS + 16)
#define NPHRASES 3 /* the affinity columns nvidia-smi prints */
#define MAX_AFF 6  /* those, and columns it does not print, kept unread */

/* ---- lines and tokens ---------------------------------------------------------- */

typedef struct {
    const char *start; /* start of the current line in the text */
    const char *pos;   /* start of the next line in the text */
    char *line;        /* current line: ANSI escapes and CR removed */
    int lineno;        /* 1-based number of the current line */
} reader_t;

typedef struct {
    const char *s;
    size_t len;
    size_t end; /* offset just past the token in the line */
} tok_t;

/* Length of the escape sequence starting at s (s[0] == ESC). */
static size_t escape_length(const char *s, size_t left)
{
    size_t i = 1;
    if (left > 1 && s[1] == '[') { /* CSI: parameters, then a final byte @..~ */
        for (i = 2; i < left && !(s[i] >= 0x40 && s[i] <= 0x7e); i++)
            ;
        return i < left ? i + 1 : left;
    }
    if (left > 2 && (s[1] == '(' || s[1] == ')')) /* character set selection */
        return 3;
    return left > 1 ? 2 : 1;
}

static void copy_visible(const char *src, size_t len, char *dst)
{
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)src[i];
        if (c == 0x1b) {
            i += escape_length(src + i, len - i);
            continue;
        }
        if (c >= 0x20 || c == '\t')
            dst[o++] = (char)c;
        i++;
    }
    dst[o] = '\0';
}

static int reader_init(reader_t *r, const char *text)
{
    r->pos = text;
    r->lineno = 0;
    r->line = malloc(strlen(text) + 1);
    return r->line ? 0 : -1;
}

/* Advances to the next line; 0 at the end of the text. */
static int reader_next(reader_t *r)
{
    if (!*r->pos)
        return 0;
    const char *nl = strchr(r->pos, '\n');
    size_t len = nl ? (size_t)(nl - r->pos) : strlen(r->pos);
    r->start = r->pos;
    copy_visible(r->pos, len, r->line);
    ls_sanitize_line(r->line); /* C1 controls and broken UTF-8 too */
    r->pos += nl ? len + 1 : len;
    r->lineno++;
    return 1;
}

/* Splits a line at tabs and spaces. Returns the count, or max + 1 when there are more. */
static int tokenize(const char *line, tok_t *toks, int max)
{
    int n = 0;
    const char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            return n;
        if (n == max)
            return max + 1;
        const char *start = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        toks[n++] = (tok_t){start, (size_t)(p - start), (size_t)(p - line)};
    }
}

static int tok_eq(tok_t t, const char *word)
{
    return strlen(word) == t.len && memcmp(t.s, word, t.len) == 0;
}

static int tok_copy(tok_t t, char *buf, size_t buflen)
{
    if (t.len >= buflen)
        return -1;
    memcpy(buf, t.s, t.len);
    buf[t.len] = '\0';
    return 0;
}

static int is_blank(const char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    return *s == '\0';
}

/* "GPU" followed by decimal digits only. */
static int is_gpu_label(tok_t t)
{
    if (t.len < 4 || memcmp(t.s, "GPU", 3) != 0)
        return 0;
    for (size_t i = 3; i < t.len; i++)
        if (!isdigit((unsigned char)t.s[i]))
            return 0;
    return 1;
}

static int parse_link_tok(tok_t t, ls_link_t *link)
{
    char word[16];
    if (tok_copy(t, word, sizeof word) != 0)
        return -1;
    /* Drivers before the NODE class existed printed SOC for what is now SYS. */
    if (strcmp(word, "SOC") == 0) {
        *link = (ls_link_t){LS_LINK_SYS, 0};
        return 0;
    }
    return ls_link_parse(word, link);
}

static int parse_p2p_tok(tok_t t, enum ls_p2p_status *status)
{
    char word[16];
    if (tok_copy(t, word, sizeof word) != 0)
        return -1;
    return ls_p2p_parse(word, status);
}

/* The matrix ends at a blank line or at the legend. */
static int ends_matrix(const tok_t *toks, int n)
{
    return n == 0 || tok_eq(toks[0], "Legend:");
}

/* ---- the topo -m header ------------------------------------------------------- */

enum aff_col { AFF_CPU, AFF_NUMA, AFF_GPU_NUMA, AFF_UNREAD };

static const struct {
    const char *words[3];
    int nwords;
    const char *name;
} aff_phrases[NPHRASES] = {
    {{"CPU", "Affinity"}, 2, "CPU Affinity"},
    {{"NUMA", "Affinity"}, 2, "NUMA Affinity"},
    {{"GPU", "NUMA", "ID"}, 3, "GPU NUMA ID"},
};

typedef struct {
    int ndev, ngpus, nnics;
    int is_nic[MAX_DEVS];
    int index[MAX_DEVS]; /* index among GPUs or among NICs; -1: a column kept unread */
    char label[MAX_DEVS][32];
    int has_row[MAX_DEVS];
    int naff;
    enum aff_col aff[MAX_AFF];
    size_t aff_pos[MAX_AFF]; /* column of each affinity phrase in the header line */
    int lenient;             /* an excerpt: what cannot be read is kept unread and noted */
    int nunread;             /* NIC columns past LS_MAX_NICS (lenient) */
    char unread_col[48];     /* the first header column nvidia-smi does not print (lenient) */
    int inferred;            /* no header row: columns named from the rows' diagonal */
    int after_command;       /* the header follows the command on its line: positions shifted */
    int nrow_nics;           /* NICs with a row but no column (lenient): indices after nnics */
    char row_nic[LS_MAX_NICS][32];
} header_t;

/* Which affinity column starts at toks[i], or -1. */
static int aff_phrase_at(const tok_t *toks, int n, int i)
{
    for (int c = 0; c < NPHRASES; c++) {
        int w = 0;
        while (w < aff_phrases[c].nwords && i + w < n &&
               tok_eq(toks[i + w], aff_phrases[c].words[w]))
            w++;
        if (w == aff_phrases[c].nwords)
            return c;
    }
    return -1;
}

/* A header row: GPU0 first, and next to it no link word (a device or an affinity column). */
static int looks_like_header(const tok_t *toks, int n)
{
    ls_link_t link;
    return n >= 1 && is_gpu_label(toks[0]) && (n == 1 || parse_link_tok(toks[1], &link) != 0);
}

static int looks_like_row(const tok_t *toks, int n)
{
    ls_link_t link;
    return n >= 2 && parse_link_tok(toks[1], &link) == 0;
}

static int find_device(const header_t *h, tok_t t)
{
    for (int d = 0; d < h->ndev; d++)
        if (tok_eq(t, h->label[d]))
            return d;
    return -1;
}

static int add_device(header_t *h, tok_t t, int lineno, char *err, size_t errlen)
{
    int d = h->ndev, nic = !is_gpu_label(t);
    if (find_device(h, t) >= 0)
        return ls_seterr(err, errlen, "line %d: column '%.*s' appears twice", lineno, (int)t.len,
                         t.s);
    /* the limits first: the label is written into h->label[d] */
    int past = nic ? h->nnics >= LS_MAX_NICS : h->ngpus >= LS_MAX_GPUS;
    if (d >= MAX_DEVS || (past && !(nic && h->lenient)))
        return ls_seterr(err, errlen, "line %d: more than %d %s columns", lineno,
                         nic ? LS_MAX_NICS : LS_MAX_GPUS, nic ? "NIC" : "GPU");
    if (tok_copy(t, h->label[d], sizeof h->label[d]) != 0)
        return ls_seterr(err, errlen, "line %d: column name '%.*s' is too long", lineno, (int)t.len,
                         t.s);
    h->is_nic[d] = nic;
    h->index[d] = past ? -1 : nic ? h->nnics++ : h->ngpus++;
    h->nunread += past;
    h->ndev++;
    return 0;
}

/* Device names carry a number: GPU0, NIC3, mlx5_0, hfi1_0. */
static int is_device_name(tok_t t)
{
    for (size_t i = 0; i < t.len; i++)
        if (isdigit((unsigned char)t.s[i]))
            return 1;
    return 0;
}

/* The length of the device label ("GPU12", "NIC3") at the start of s, or 0. */
static size_t label_length(const char *s, size_t len)
{
    if (len < 4 || (memcmp(s, "GPU", 3) != 0 && memcmp(s, "NIC", 3) != 0))
        return 0;
    size_t n = 3;
    while (n < len && isdigit((unsigned char)s[n]))
        n++;
    return n > 3 ? n : 0;
}

/* The length of the first of two NIC names of older drivers run together ("mlx5_2mlx5_3":
   the name's letters begin it again after a number), or 0 where s is one name. */
static size_t name_run_length(const char *s, size_t len)
{
    size_t letters = 0;
    while (letters < len && isalpha((unsigned char)s[letters]))
        letters++;
    if (letters < 2)
        return 0;
    for (size_t p = letters + 1; p + letters <= len; p++)
        if (isdigit((unsigned char)s[p - 1]) && memcmp(s + p, s, letters) == 0)
            return p;
    return 0;
}

/* The length of the next name of a header token at s: a GPUn / NICn label, else the
   first of two run-together NIC names; 0 when s is one name or none. */
static size_t next_name_length(const char *s, size_t len)
{
    size_t n = label_length(s, len);
    return n ? n : name_run_length(s, len);
}

/* A header token made of device names run together ("NIC11NIC12", "mlx5_2mlx5_3": each
   padded name fills its column): each name, or the token itself when it is not such a
   run. */
static int add_devices(header_t *h, tok_t t, int lineno, char *err, size_t errlen)
{
    size_t off = 0, n;
    while (off < t.len && (n = next_name_length(t.s + off, t.len - off)) > 0 && n < t.len - off)
        off += n;
    if (off == 0) /* one name */
        return add_device(h, t, lineno, err, errlen);
    if (!is_device_name((tok_t){t.s + off, t.len - off, t.end})) /* "NIC1xyz": one name */
        return add_device(h, t, lineno, err, errlen);
    for (off = 0; off < t.len; off += n) {
        n = next_name_length(t.s + off, t.len - off);
        if (n == 0 || n > t.len - off)
            n = t.len - off; /* the last name */
        if (add_device(h, (tok_t){t.s + off, n, t.end - t.len + off + n}, lineno, err, errlen) != 0)
            return -1;
    }
    return 0;
}

static int add_affinity(header_t *h, int col, int lineno, char *err, size_t errlen)
{
    for (int i = 0; i < h->naff; i++)
        if (h->aff[i] == (enum aff_col)col)
            return ls_seterr(err, errlen, "line %d: column '%s' appears twice", lineno,
                             aff_phrases[col].name);
    if (h->naff >= MAX_AFF) /* unread columns (lenient) fill the table too */
        return ls_seterr(err, errlen, "line %d: more than %d columns after the devices", lineno,
                         MAX_AFF);
    h->aff[h->naff++] = (enum aff_col)col;
    return 0;
}

/* Lenient: a header word nvidia-smi does not print after the devices (an edited paste's
   "NUMA"): a column whose values are kept apart and not read. */
static int add_unread(header_t *h, tok_t t, int lineno, char *err, size_t errlen)
{
    if (!h->lenient || h->naff >= MAX_AFF)
        return ls_seterr(err, errlen,
                         "line %d: unknown header column at '%.*s' (expected CPU Affinity, "
                         "NUMA Affinity or GPU NUMA ID)",
                         lineno, (int)t.len, t.s);
    if (!h->unread_col[0])
        tok_copy(t, h->unread_col, sizeof h->unread_col);
    h->aff_pos[h->naff] = t.end - t.len;
    h->aff[h->naff++] = AFF_UNREAD;
    return 0;
}

/* Devices up to the first affinity phrase, then only affinity phrases. */
static int parse_header(const tok_t *toks, int n, header_t *h, int lenient, int lineno, char *err,
                        size_t errlen)
{
    memset(h, 0, sizeof *h);
    h->lenient = lenient;
    int i = 0;
    for (; i < n && aff_phrase_at(toks, n, i) < 0 && is_device_name(toks[i]); i++)
        if (add_devices(h, toks[i], lineno, err, errlen) != 0)
            return -1;
    while (i < n) {
        int col = aff_phrase_at(toks, n, i);
        if (col < 0) {
            if (add_unread(h, toks[i++], lineno, err, errlen) != 0)
                return -1;
            continue;
        }
        if (add_affinity(h, col, lineno, err, errlen) != 0)
            return -1;
        h->aff_pos[h->naff - 1] = toks[i].end - toks[i].len;
        i += aff_phrases[col].nwords;
    }
    return 0;
}

/* ---- the topo -m rows ------------------------------------------------------------ */

typedef struct {
    reader_t rd;
    header_t hdr;
    tok_t toks[MAX_TOKENS];
    int ntok;
    int lenient;   /* a pasted excerpt: keep the rows that are whole (import) */
    int cut;       /* lenient: a row was cut short; the matrix ends there */
    char *missing; /* lenient: what was absent or cut, for the caller */
    size_t missinglen;
} parser_t;

static void note_missing(parser_t *p, const char *what)
{
    if (!p->missing) /* format detection: nothing to report */
        return;
    size_t used = strlen(p->missing);
    snprintf(p->missing + used, p->missinglen - used, "%s%s", used ? "; " : "", what);
}

static void store_link(const header_t *h, int row, int col, ls_link_t link, ls_topo_t *topo)
{
    int r = h->index[row], c = h->index[col];
    if (r < 0 || c < 0) /* a column kept unread */
        return;
    if (!h->is_nic[row] && !h->is_nic[col])
        topo->gpu_gpu[r][c] = link;
    else if (!h->is_nic[row])
        topo->gpu_nic[r][c] = link;
    else if (!h->is_nic[col]) {
        if (topo->gpu_nic[c][r].type == LS_LINK_NONE) /* GPU rows come first and win */
            topo->gpu_nic[c][r] = link;
    } else
        topo->nic_nic[r][c] = link;
}

static int parse_cells(parser_t *p, int row, ls_topo_t *topo, char *err, size_t errlen)
{
    const header_t *h = &p->hdr;
    for (int c = 0; c < h->ndev; c++) {
        tok_t t = p->toks[1 + c];
        ls_link_t link;
        if (parse_link_tok(t, &link) != 0)
            return ls_seterr(err, errlen,
                             "line %d: row %s, column %s: '%.*s' is not a link type (expected X, "
                             "NV#, PIX, PXB, PHB, NODE or SYS)",
                             p->rd.lineno, h->label[row], h->label[c], (int)t.len, t.s);
        if ((link.type == LS_LINK_X) != (c == row))
            return ls_seterr(err, errlen, "line %d: row %s, column %s: '%.*s' %s", p->rd.lineno,
                             h->label[row], h->label[c], (int)t.len, t.s,
                             c == row ? "where X (self) was expected"
                                      : "is X (self) off the diagonal");
        store_link(h, row, c, link, topo);
    }
    return 0;
}

/* Splits the text after the link cells into affinity values. With tabs, empty values
   count, except that nvidia-smi writes one tab too many before "GPU NUMA ID": extra
   empty fields are dropped from the right. Without tabs, values are space-separated. */
static int split_values(char *rest, char **vals, int max)
{
    while (*rest == ' ')
        rest++;
    if (*rest == '\t')
        rest++;
    int n = 0, tabs = strchr(rest, '\t') != NULL;
    char *save = NULL;
    if (!tabs) {
        for (char *v = strtok_r(rest, " ", &save); v; v = strtok_r(NULL, " ", &save))
            if (n < max + 1)
                vals[n++] = v;
        return n;
    }
    for (char *v = rest; v && n < max + 1; n++) {
        char *tab = strchr(v, '\t');
        if (tab)
            *tab = '\0';
        vals[n] = v;
        v = tab ? tab + 1 : NULL;
    }
    return n;
}

static void trim(char *s)
{
    size_t len = strlen(s), start = 0;
    while (len && s[len - 1] == ' ')
        s[--len] = '\0';
    while (s[start] == ' ')
        start++;
    memmove(s, s + start, len - start + 1);
}

/* Drops trailing empty values, then empty ones from the right while too many remain. */
static int drop_empty(char **vals, int n, int want)
{
    while (n > 0 && !*vals[n - 1])
        n--;
    for (int i = n - 1; i >= 0 && n > want; i--)
        if (!*vals[i]) {
            memmove(vals + i, vals + i + 1, (size_t)(n - i - 1) * sizeof *vals);
            n--;
        }
    return n;
}

static int store_value(const header_t *h, int g, int col, const char *v, ls_topo_t *topo)
{
    char *dst = topo->cpu_affinity[g];
    size_t size = sizeof topo->cpu_affinity[g];
    if (h->aff[col] == AFF_UNREAD || g < 0)
        return 0;
    if (h->aff[col] == AFF_NUMA)
        dst = topo->numa_affinity[g], size = sizeof topo->numa_affinity[g];
    else if (h->aff[col] == AFF_GPU_NUMA)
        dst = topo->gpu_numa_id[g], size = sizeof topo->gpu_numa_id[g];
    if (strlen(v) >= size)
        return -1;
    strcpy(dst, v);
    return 0;
}

/* Space-separated values with some left empty (a copy from a terminal of a machine
   where nvidia-smi printed no CPU or NUMA affinity): each value belongs to the header
   column it stands under, not to the next column in order. cols[i] = that column. */
static void columns_by_position(const header_t *h, const char *line, char **vals, int n, int *cols)
{
    int next = 0;
    for (int i = 0; i < n; i++) {
        size_t pos = (size_t)(vals[i] - line);
        int c = next;
        while (c + 1 < h->naff && h->aff_pos[c + 1] <= pos + 2 && c + 1 < h->naff - (n - 1 - i))
            c++;
        cols[i] = c;
        next = c + 1;
    }
}

static int parse_values(parser_t *p, int row, ls_topo_t *topo, char *err, size_t errlen)
{
    const header_t *h = &p->hdr;
    if (h->inferred) /* no header: which affinity column is which is not in the text */
        return 0;
    char *vals[MAX_AFF + 2];
    char *rest = p->rd.line + p->toks[h->ndev].end;
    int tabs = strchr(rest, '\t') != NULL;
    int n = split_values(rest, vals, MAX_AFF + 1);
    for (int i = 0; i < n; i++)
        trim(vals[i]);
    n = drop_empty(vals, n, h->naff);
    int cols[MAX_AFF + 2];
    for (int i = 0; i < n; i++)
        cols[i] = i;
    if (!tabs && n > 0 && n < h->naff && !h->is_nic[row] && !h->after_command)
        columns_by_position(h, p->rd.line, vals, n, cols);
    int allowed = h->is_nic[row] ? 0 : h->naff;
    if (n > allowed)
        return ls_seterr(err, errlen,
                         "line %d: row %s has %d more cells than the header has columns",
                         p->rd.lineno, h->label[row], n - allowed);
    for (int i = 0; i < n; i++)
        if (store_value(h, h->index[row], cols[i], vals[i], topo) != 0)
            return ls_seterr(err, errlen, "line %d: row %s: %s value '%s' is too long",
                             p->rd.lineno, h->label[row], aff_phrases[h->aff[cols[i]]].name,
                             vals[i]);
    return 0;
}

/* A row cut short (the paste ends inside it): its complete cells are kept, the last
   one may be cut ("N" of NODE) and is dropped, and the matrix ends here. */
static int parse_cut_row(parser_t *p, int row, ls_topo_t *topo)
{
    const header_t *h = &p->hdr;
    int cells = p->ntok - 2;
    for (int c = 0; c < cells; c++) {
        ls_link_t link;
        if (parse_link_tok(p->toks[1 + c], &link) != 0 || (link.type == LS_LINK_X) != (c == row))
            break;
        store_link(h, row, c, link, topo);
    }
    char what[96];
    snprintf(what, sizeof what, "row %s cut after %d of %d cells", h->label[row],
             cells > 0 ? cells : 0, h->ndev);
    note_missing(p, what);
    p->cut = 1;
    return 0;
}

/* The ways s[0..len) reads as link words back to back ("NODENODE": NODE NODE): 0, 1, or
   2 for two or more. first = the length of the first word of the one reading. */
static int link_readings(const char *s, size_t len, size_t *first)
{
    if (len == 0)
        return 1;
    if (len > 64) /* a few cells at most: longer is no run of cells (and bounds the depth) */
        return 0;
    int ways = 0;
    ls_link_t link;
    for (size_t n = 1; n <= len && n < 8 && ways < 2; n++) { /* "NV1000" is the longest */
        size_t rest;
        int sub = parse_link_tok((tok_t){s, n, n}, &link) == 0
                      ? link_readings(s + n, len - n, &rest)
                      : 0;
        if (sub > 0 && ways == 0)
            *first = n;
        ways += sub;
    }
    return ways > 2 ? 2 : ways;
}

/* nvidia-smi prints each cell padded to its column; a cell that fills it runs into the
   next ("NODENODE"). Such tokens are split where they read one way only as link words
   and the row then has one link cell per header device, followed by no further link
   cell (its affinity values or its end). Otherwise the row is left as it is. */
static void split_run_cells(parser_t *p)
{
    tok_t *out = calloc(MAX_TOKENS, sizeof *out);
    if (!out)
        return;
    int n = 0, cells = 0, split = 0, i = 1, ndev = p->hdr.ndev;
    ls_link_t link;
    size_t first;
    out[n++] = p->toks[0];
    for (; i < p->ntok && cells < ndev && n < MAX_TOKENS; i++) {
        tok_t t = p->toks[i];
        if (parse_link_tok(t, &link) == 0) {
            out[n++] = t, cells++;
            continue;
        }
        if (link_readings(t.s, t.len, &first) != 1)
            break;
        for (size_t off = 0; off < t.len && n < MAX_TOKENS; off += first, cells++, split = 1) {
            link_readings(t.s + off, t.len - off, &first);
            out[n++] = (tok_t){t.s + off, first, t.end - t.len + off + first};
        }
    }
    int next_is_cell = i < p->ntok && (parse_link_tok(p->toks[i], &link) == 0 ||
                                       link_readings(p->toks[i].s, p->toks[i].len, &first) == 1);
    if (split && cells == ndev && !next_is_cell && n + (p->ntok - i) <= MAX_TOKENS) {
        memcpy(out + n, p->toks + i, (size_t)(p->ntok - i) * sizeof *out);
        p->ntok = n + (p->ntok - i);
        memcpy(p->toks, out, (size_t)p->ntok * sizeof *out);
    }
    free(out);
}

/* The index a NIC row without a header column gets (after the header's NICs), or -1:
   its label a NIC's ("NIC2" only as the next index, so no NIC is misnamed; "mlx5_0"), not
   seen before, within the model's NICs. */
static int row_nic_index(const header_t *h, tok_t t)
{
    int n = h->nnics + h->nrow_nics;
    char want[16];
    snprintf(want, sizeof want, "NIC%d", n);
    if (is_gpu_label(t) || !is_device_name(t) || n >= LS_MAX_NICS || t.len >= sizeof h->row_nic[0])
        return -1;
    for (int k = 0; k < h->nrow_nics; k++)
        if (tok_eq(t, h->row_nic[k]))
            return -1;
    return label_length(t.s, t.len) == t.len && !tok_eq(t, want) ? -1 : n;
}

/* Lenient: a NIC row whose NIC the header has no column for (a paste whose NIC columns
   were cut from the header and the GPU rows: nvidia-smi prints the matrix square, every
   device a row and a column, GPUs first). Its first cells are the header's columns in
   their order: its links to them are read (none may be X: its own column is not there);
   the cells of its missing columns are noted missing (note_absent_rows). 0, or -1 when
   the row is not such a row. */
static int parse_row_only_nic(parser_t *p, ls_topo_t *topo)
{
    header_t *h = &p->hdr;
    int n = p->lenient && p->ntok <= MAX_TOKENS ? row_nic_index(h, p->toks[0]) : -1;
    if (n < 0 || p->ntok - 1 < h->ndev)
        return -1;
    ls_link_t links[MAX_DEVS];
    for (int c = 0; c < h->ndev; c++)
        if (parse_link_tok(p->toks[1 + c], &links[c]) != 0 || links[c].type == LS_LINK_X)
            return -1;
    for (int c = 0; c < h->ndev; c++) {
        int i = h->index[c];
        if (i < 0)
            continue;
        if (!h->is_nic[c] && topo->gpu_nic[i][n].type == LS_LINK_NONE)
            topo->gpu_nic[i][n] = links[c];
        else if (h->is_nic[c])
            topo->nic_nic[n][i] = links[c];
    }
    tok_copy(p->toks[0], h->row_nic[h->nrow_nics], sizeof h->row_nic[0]);
    h->nrow_nics++;
    return 0;
}

/* 1 when the row is the text's last line, ends in its last link cell (no affinity after
   it) and that cell is no link word: the paste was cut inside it. */
static int last_cell_cut(const parser_t *p)
{
    ls_link_t link;
    const char *rest = p->rd.pos + strspn(p->rd.pos, " \t\r\n");
    return *rest == '\0' && p->ntok >= 2 && parse_link_tok(p->toks[p->ntok - 1], &link) != 0;
}

static int parse_row(parser_t *p, ls_topo_t *topo, char *err, size_t errlen)
{
    header_t *h = &p->hdr;
    tok_t first = p->toks[0];
    int row = find_device(h, first);
    if (row < 0 && parse_row_only_nic(p, topo) == 0)
        return 0;
    if (row < 0)
        return ls_seterr(err, errlen, "line %d: row '%.*s' is not a column of the header",
                         p->rd.lineno, (int)first.len, first.s);
    if (h->has_row[row])
        return ls_seterr(err, errlen, "line %d: second row for %s", p->rd.lineno, h->label[row]);
    if (p->ntok <= MAX_TOKENS)
        split_run_cells(p);
    if (p->lenient && p->ntok <= MAX_TOKENS && p->ntok - 1 < h->ndev)
        return parse_cut_row(p, row, topo);
    if (p->lenient && p->ntok - 1 == h->ndev && last_cell_cut(p))
        return parse_cut_row(p, row, topo); /* "NO" of NODE: the paste ends in that cell */
    if (p->ntok > MAX_TOKENS || p->ntok - 1 < h->ndev)
        return ls_seterr(err, errlen, "line %d: row %s has %d cells, the header names %d devices",
                         p->rd.lineno, h->label[row], p->ntok - 1, h->ndev);
    h->has_row[row] = 1;
    if (parse_cells(p, row, topo, err, errlen) != 0)
        return -1;
    return parse_values(p, row, topo, err, errlen);
}

static int next_tokens(parser_t *p)
{
    if (!reader_next(&p->rd))
        return 0;
    p->ntok = tokenize(p->rd.line, p->toks, MAX_TOKENS);
    return 1;
}

/* ---- rows pasted without their header (lenient) ---------------------------------- */

/* One row as printed: its label ("GPU3", "NIC1"), how many link cells lead it, where its
   X (self) stands, and whether it is whole: a GPU row ends in its affinity values (a
   CPU list, a node or N/A), a NIC row in its last cell. */
typedef struct {
    int gpu, number, cells, x, whole;
} rowshape_t;

static int row_shape(const tok_t *toks, int n, rowshape_t *r)
{
    if (n < 2 || label_length(toks[0].s, toks[0].len) != toks[0].len || toks[0].len > 3 + 4)
        return -1; /* a label of up to 4 digits: more devices than the model holds is no row */
    *r = (rowshape_t){.gpu = toks[0].s[0] == 'G', .number = atoi(toks[0].s + 3), .x = -1};
    ls_link_t link;
    for (int i = 1; i < n && parse_link_tok(toks[i], &link) == 0; i++) {
        if (link.type == LS_LINK_X && r->x >= 0)
            return -1;
        if (link.type == LS_LINK_X)
            r->x = r->cells;
        r->cells++;
    }
    tok_t next = 1 + r->cells < n ? toks[1 + r->cells] : (tok_t){"", 0, 0};
    int value = next.len && (tok_eq(next, "N/A") || memchr(next.s, '-', next.len) ||
                             isdigit((unsigned char)next.s[0]));
    r->whole = r->gpu ? value : next.len == 0;
    return r->cells > 0 && (r->x < 0 || r->x < r->cells) ? 0 : -1;
}

typedef struct {
    int cells;    /* link cells of a whole row; -1 until one is seen */
    int ngpus;    /* from a NIC row's X: its column less its number; -1 until one is seen */
    int top_gpu;  /* the highest GPU number with a row */
    int top_nic;  /* the highest NIC number with a row */
    int last_gpu; /* a row for GPU<cells - 1>: every column is a GPU */
} shape_t;

/* Adds one row; -1 where it contradicts the rows before it or its own label. */
static int shape_add(shape_t *sh, const rowshape_t *r)
{
    if (r->whole && sh->cells >= 0 && r->cells != sh->cells)
        return -1;
    if (r->whole)
        sh->cells = r->cells;
    if (r->gpu && r->x >= 0 && r->x != r->number)
        return -1;
    if (!r->gpu && r->x >= 0) {
        int g = r->x - r->number;
        if (g < 1 || (sh->ngpus >= 0 && g != sh->ngpus))
            return -1;
        sh->ngpus = g;
    }
    if (r->gpu && r->number > sh->top_gpu)
        sh->top_gpu = r->number;
    if (!r->gpu && r->number > sh->top_nic)
        sh->top_nic = r->number;
    return 0;
}

/* The rows from the line at text on, up to the end of the matrix. */
static int shape_rows(const char *text, shape_t *sh)
{
    reader_t rd;
    tok_t *toks = calloc(MAX_TOKENS, sizeof *toks);
    if (!toks || reader_init(&rd, text) != 0) {
        free(toks);
        return -1;
    }
    *sh = (shape_t){.cells = -1, .ngpus = -1, .top_gpu = -1, .top_nic = -1};
    int rc = 0, n;
    rowshape_t r;
    while (rc == 0 && reader_next(&rd) && (n = tokenize(rd.line, toks, MAX_TOKENS)) > 0 &&
           n <= MAX_TOKENS && !ends_matrix(toks, n) && row_shape(toks, n, &r) == 0) {
        shape_t before = *sh;
        rc = shape_add(sh, &r);
        /* the text's last line, fewer cells than the rows before: the paste ends inside
           it (parse_cut_row reads it so), it names nothing */
        if (rc != 0 && !*rd.pos && before.cells >= 0 && r.cells < before.cells) {
            *sh = before;
            rc = 0;
        }
    }
    free(rd.line);
    free(toks);
    return rc;
}

/* A column the rows do not name (a GPU or a NIC): kept unread. -1 past the table. */
static int add_unnamed(header_t *h, int d, int lineno, char *err, size_t errlen)
{
    if (d >= MAX_DEVS)
        return ls_seterr(err, errlen, "line %d: more than %d columns", lineno, MAX_DEVS);
    snprintf(h->label[d], sizeof h->label[d], "column %d", d + 1);
    h->is_nic[d] = 1;
    h->index[d] = -1;
    h->ndev++;
    return 0;
}

/* Names the columns of rows pasted without their header, where the rows make it
   certain: nvidia-smi prints a row per device in header order, GPUs first, each with X
   in its own column, so a NIC row's X gives the GPU count, and a row for the GPU of the
   last column says every column is a GPU. With neither, the GPU rows name the columns up
   to the highest of them (GPU0 to GPUn come first), and the columns after it are kept
   unread: GPUs or NICs, the text does not say. Else -1 with err saying what is missing. */
static int infer_header(parser_t *p, char *err, size_t errlen)
{
    shape_t sh;
    if (shape_rows(p->rd.start, &sh) != 0 || sh.cells < 0)
        return ls_seterr(err, errlen,
                         "line %d: rows of nvidia-smi topo -m without their header row, and "
                         "their diagonal does not name the columns; paste from the header line on",
                         p->rd.lineno);
    int ngpus = sh.ngpus >= 0 ? sh.ngpus : sh.top_gpu == sh.cells - 1 ? sh.cells : -1;
    int unnamed = 0;
    if (ngpus < 0 && sh.top_gpu >= 0) {
        ngpus = sh.top_gpu + 1;
        unnamed = sh.cells - ngpus;
    }
    if (ngpus < 0)
        return ls_seterr(err, errlen,
                         "line %d: rows of nvidia-smi topo -m without their header row and "
                         "without a GPU row: which of their %d columns are GPUs is not in the "
                         "text; paste from the header line on",
                         p->rd.lineno, sh.cells);
    if (ngpus > sh.cells || sh.top_gpu >= ngpus || sh.top_nic >= sh.cells - ngpus ||
        ngpus > LS_MAX_GPUS)
        return ls_seterr(err, errlen,
                         "line %d: rows of nvidia-smi topo -m without their header row, and "
                         "their diagonal does not name the columns; paste from the header line on",
                         p->rd.lineno);
    header_t *h = &p->hdr;
    memset(h, 0, sizeof *h);
    h->lenient = h->inferred = 1;
    for (int d = 0; d < sh.cells; d++) {
        char label[16];
        if (d >= ngpus && unnamed) {
            if (add_unnamed(h, d, p->rd.lineno, err, errlen) != 0)
                return -1;
            continue;
        }
        int n = d < ngpus ? snprintf(label, sizeof label, "GPU%d", d)
                          : snprintf(label, sizeof label, "NIC%d", d - ngpus);
        if (add_device(h, (tok_t){label, (size_t)n, (size_t)n}, p->rd.lineno, err, errlen) != 0)
            return -1;
    }
    char what[240];
    if (unnamed)
        snprintf(what, sizeof what,
                 "no header row: %d GPU columns named from the rows' diagonal (rows up to "
                 "GPU%d); the %d column%s after them not read (GPUs or NICs: the text does not "
                 "say, no NIC row, no row for GPU%d), the affinity columns not read",
                 ngpus, ngpus - 1, unnamed, unnamed == 1 ? "" : "s", sh.cells - 1);
    else
        snprintf(what, sizeof what,
                 "no header row: %d GPU and %d NIC columns named from the rows' diagonal, the "
                 "affinity columns not read",
                 ngpus, sh.cells - ngpus);
    note_missing(p, what);
    p->rd.pos = p->rd.start; /* the rows are read again under the header */
    p->rd.lineno--;
    return 0;
}

/* "nvidia-smi topo -m   GPU0  GPU1 ... CPU Affinity" (a terminal copy that kept the
   command and the header on one line): where the header starts, after the command's
   words, or -1. */
static int header_after_command(const tok_t *toks, int n)
{
    int smi = -1;
    for (int i = 0; i < n; i++) {
        if (tok_eq(toks[i], "nvidia-smi"))
            smi = i;
        else if (smi >= 0 && tok_eq(toks[i], "GPU0"))
            return looks_like_header(toks + i, n - i) && i > smi + 1 &&
                           tok_eq(toks[smi + 1], "topo")
                       ? i
                       : -1;
    }
    return -1;
}

static int find_header(parser_t *p, char *err, size_t errlen)
{
    while (next_tokens(p)) {
        if (p->ntok > MAX_TOKENS && looks_like_header(p->toks, MAX_TOKENS))
            return ls_seterr(err, errlen,
                             "line %d: a header of more than %d columns; at most %d GPU and "
                             "%d NIC columns are read",
                             p->rd.lineno, MAX_TOKENS, LS_MAX_GPUS, LS_MAX_NICS);
        if (p->ntok > MAX_TOKENS)
            continue;
        if (looks_like_header(p->toks, p->ntok))
            return parse_header(p->toks, p->ntok, &p->hdr, p->lenient, p->rd.lineno, err, errlen);
        int at = p->lenient ? header_after_command(p->toks, p->ntok) : -1;
        if (at > 0) { /* nothing is lost: the columns are named as on a line of their own */
            if (parse_header(p->toks + at, p->ntok - at, &p->hdr, 1, p->rd.lineno, err, errlen) !=
                0)
                return -1;
            p->hdr.after_command = 1;
            return 0;
        }
        if (looks_like_row(p->toks, p->ntok) &&
            label_length(p->toks[0].s, p->toks[0].len) == p->toks[0].len)
            return p->lenient ? infer_header(p, err, errlen)
                              : ls_seterr(err, errlen, "line %d: matrix row before any header row",
                                          p->rd.lineno);
        if (p->lenient &&
            strstr(p->rd.line,
                   "NICs found in the topology")) { /* "76 NICs found ..., only displaying 56" */
            char *say = p->rd.line + strspn(p->rd.line, " \t");
            say[strcspn(say, ".")] = '\0'; /* without its full stop */
            note_missing(p, say);
        }
    }
    return ls_seterr(err, errlen,
                     "line %d: no header row (expected a line like 'GPU0 GPU1 ... CPU Affinity')",
                     p->rd.lineno);
}

/* Lenient: the rows that are absent. A GPU without a row keeps its links to the GPUs
   whose rows name it (the matrix is symmetric); NIC rows only repeat what the GPU rows
   say, so their absence loses nothing but NIC-NIC links. */
static void note_absent_rows(parser_t *p, ls_topo_t *topo)
{
    const header_t *h = &p->hdr;
    char what[256] = "";
    size_t used = 0;
    int gpus = 0, nics = 0;
    for (int d = 0; d < h->ndev; d++) {
        if (h->has_row[d] || h->index[d] < 0)
            continue;
        if (h->is_nic[d]) {
            nics++;
            continue;
        }
        gpus++;
        if (used < sizeof what)
            used += (size_t)snprintf(what + used, sizeof what - used, "%s%s", used ? " " : "",
                                     h->label[d]);
        for (int c = 0; c < h->ndev; c++)
            if (!h->is_nic[c] && h->has_row[c] && c != d && h->index[c] >= 0)
                topo->gpu_gpu[h->index[d]][h->index[c]] = topo->gpu_gpu[h->index[c]][h->index[d]];
        topo->gpu_gpu[h->index[d]][h->index[d]].type = LS_LINK_X;
    }
    char line[320];
    if (gpus) {
        snprintf(line, sizeof line, "no row for %.250s", what);
        note_missing(p, line);
    }
    if (nics) {
        snprintf(line, sizeof line, "%d of %d NIC rows absent", nics, h->nnics);
        note_missing(p, line);
    }
    if (h->nrow_nics) {
        snprintf(line, sizeof line,
                 "%d NIC row%s (%s%s) without a column in the header: their links to the GPUs "
                 "read from their rows, the GPU rows' NIC cells and the NIC-to-NIC cells not in "
                 "the paste",
                 h->nrow_nics, h->nrow_nics == 1 ? "" : "s", h->row_nic[0],
                 h->nrow_nics > 1 ? " ..." : "");
        note_missing(p, line);
    }
    if (h->nunread) {
        snprintf(line, sizeof line, "%d NIC columns past the first %d not read", h->nunread,
                 LS_MAX_NICS);
        note_missing(p, line);
    }
    if (h->unread_col[0]) {
        snprintf(line, sizeof line, "header column '%s' (not one nvidia-smi prints) not read",
                 h->unread_col);
        note_missing(p, line);
    }
}

/* Lenient: a line that names no device (no digit in its first word: a Markdown code
   fence, "</details>", prose) ends a pasted matrix as a blank line does. */
static int ends_paste(const parser_t *p)
{
    return p->lenient && p->ntok > 0 && !is_device_name(p->toks[0]);
}

static int read_rows(parser_t *p, ls_topo_t *topo, char *err, size_t errlen)
{
    while (!p->cut && next_tokens(p) && !ends_matrix(p->toks, p->ntok) && !ends_paste(p))
        if (parse_row(p, topo, err, errlen) != 0)
            return -1;
    int gpu_rows = 0;
    for (int d = 0; d < p->hdr.ndev; d++) {
        gpu_rows += !p->hdr.is_nic[d] && p->hdr.has_row[d];
        if (!p->hdr.has_row[d] && !p->lenient)
            return ls_seterr(err, errlen, "line %d: the matrix ends without a row for %s",
                             p->rd.lineno, p->hdr.label[d]);
    }
    if (p->lenient && gpu_rows == 0 && !p->cut)
        return ls_seterr(err, errlen, "line %d: no GPU row under the header", p->rd.lineno);
    if (p->lenient)
        note_absent_rows(p, topo);
    return 0;
}

static void fill_labels(const header_t *h, ls_topo_t *topo)
{
    topo->ngpus = h->ngpus;
    topo->nnics = h->nnics;
    for (int d = 0; d < h->ndev; d++) {
        int i = h->index[d];
        if (i < 0)
            continue;
        if (!h->is_nic[d]) {
            /* "GPU0".."GPU63" fit; a longer label is cut to the field (GCC 12 checks) */
            snprintf(topo->gpu_label[i], sizeof topo->gpu_label[i], "%.*s",
                     (int)sizeof topo->gpu_label[i] - 1, h->label[d]);
            continue;
        }
        snprintf(topo->nic_label[i], sizeof topo->nic_label[i], "NIC%d", i);
        if (strcmp(h->label[d], topo->nic_label[i]) != 0) /* older drivers: "mlx5_0" */
            snprintf(topo->nic_name[i], sizeof topo->nic_name[i], "%s", h->label[d]);
    }
    for (int k = 0; k < h->nrow_nics; k++) { /* NICs known from their rows alone */
        int i = h->nnics + k;
        snprintf(topo->nic_label[i], sizeof topo->nic_label[i], "NIC%d", i);
        if (strcmp(h->row_nic[k], topo->nic_label[i]) != 0) /* older drivers: "mlx5_0" */
            snprintf(topo->nic_name[i], sizeof topo->nic_name[i], "%s", h->row_nic[k]);
    }
    topo->nnics = h->nnics + h->nrow_nics;
    for (int g = 0; g < h->ngpus; g++)
        topo->p2p_read[g][g] = topo->p2p_write[g][g] = LS_P2P_SELF;
}

/* "NIC0: mlx5_0" lines of the NIC legend, anywhere after the matrix. */
static void read_nic_legend(parser_t *p, ls_topo_t *topo)
{
    while (next_tokens(p)) {
        if (p->ntok != 2 || p->toks[0].len < 2 || p->toks[0].s[p->toks[0].len - 1] != ':')
            continue;
        tok_t label = p->toks[0];
        label.len--;
        for (int n = 0; n < topo->nnics; n++)
            if (tok_eq(label, topo->nic_label[n]))
                tok_copy(p->toks[1], topo->nic_name[n], sizeof topo->nic_name[n]);
    }
}

static int parse_text(const char *text, ls_topo_t *topo, char *missing, size_t missinglen,
                      char *err, size_t errlen)
{
    memset(topo, 0, sizeof *topo);
    if (is_blank(text))
        return ls_seterr(err, errlen, "line 1: empty input (expected nvidia-smi topo -m output)");
    parser_t *p = calloc(1, sizeof *p);
    if (!p || reader_init(&p->rd, text) != 0) {
        free(p);
        return ls_seterr(err, errlen, "out of memory");
    }
    p->lenient = missing != NULL;
    p->missing = missing;
    p->missinglen = missinglen;
    if (missing)
        missing[0] = '\0';
    int rc = find_header(p, err, errlen);
    if (rc == 0)
        rc = read_rows(p, topo, err, errlen);
    if (rc == 0) {
        fill_labels(&p->hdr, topo);
        read_nic_legend(p, topo);
    }
    free(p->rd.line);
    free(p);
    return rc;
}

int ls_topo_parse_text(const char *text, ls_topo_t *topo, char *err, size_t errlen)
{
    return parse_text(text, topo, NULL, 0, err, errlen);
}

int ls_topo_parse_text_partial(const char *text, ls_topo_t *topo, char *missing, size_t missinglen,
                               char *err, size_t errlen)
{
    return parse_text(text, topo, missing, missinglen, err, errlen);
}

/* ---- topo -p2p r|w ----------------------------------------------------------------- */

typedef enum ls_p2p_status p2p_matrix_t[LS_MAX_GPUS][LS_MAX_GPUS];

static int all_gpu_labels(const tok_t *toks, int n)
{
    for (int i = 0; i < n; i++)
        if (!is_gpu_label(toks[i]))
            return 0;
    return n >= 1;
}

static int topo_gpu_index(const ls_topo_t *topo, tok_t t)
{
    for (int g = 0; g < topo->ngpus; g++)
        if (tok_eq(t, topo->gpu_label[g]))
            return g;
    return -1;
}

static int is_p2p_header(const parser_t *p)
{
    return p->ntok <= LS_MAX_GPUS && all_gpu_labels(p->toks, p->ntok);
}

/* Header of GPU labels; cols[i] = topology index of column i. Returns the count. */
static int p2p_header(parser_t *p, const ls_topo_t *topo, int *cols, char *err, size_t errlen)
{
    int found = 0;
    while (!found && next_tokens(p))
        found = is_p2p_header(p);
    if (!found)
        return ls_seterr(err, errlen, "line %d: no header row (expected a line like 'GPU0 GPU1')",
                         p->rd.lineno);
    if (p->ntok != topo->ngpus)
        return ls_seterr(err, errlen, "line %d: the P2P header names %d GPUs, the topology has %d",
                         p->rd.lineno, p->ntok, topo->ngpus);
    for (int i = 0; i < p->ntok; i++)
        if ((cols[i] = topo_gpu_index(topo, p->toks[i])) < 0)
            return ls_seterr(err, errlen, "line %d: column %.*s is not a GPU of the topology",
                             p->rd.lineno, (int)p->toks[i].len, p->toks[i].s);
    return p->ntok;
}

static int p2p_cells(parser_t *p, const ls_topo_t *topo, int row, const int *cols, int n,
                     p2p_matrix_t m, char *err, size_t errlen)
{
    for (int c = 0; c < n; c++) {
        enum ls_p2p_status s;
        tok_t t = p->toks[1 + c];
        if (parse_p2p_tok(t, &s) != 0 || (s == LS_P2P_SELF) != (cols[c] == row))
            return ls_seterr(err, errlen,
                             "line %d: row %s, column %s: '%.*s' is not a P2P status here "
                             "(expected X on the diagonal, else OK, CNS, GNS, TNS, NS or U)",
                             p->rd.lineno, topo->gpu_label[row], topo->gpu_label[cols[c]],
                             (int)t.len, t.s);
        m[row][cols[c]] = s;
    }
    return 0;
}

static int p2p_row(parser_t *p, const ls_topo_t *topo, const int *cols, int n, int *seen,
                   p2p_matrix_t m, char *err, size_t errlen)
{
    int line = p->rd.lineno, row = topo_gpu_index(topo, p->toks[0]);
    if (row < 0)
        return ls_seterr(err, errlen, "line %d: row '%.*s' is not a GPU of the topology", line,
                         (int)p->toks[0].len, p->toks[0].s);
    if (seen[row]++)
        return ls_seterr(err, errlen, "line %d: second row for %s", line, topo->gpu_label[row]);
    if (p->ntok - 1 != n)
        return ls_seterr(err, errlen, "line %d: row %s has %s%d cells, the header names %d GPUs",
                         line, topo->gpu_label[row], p->ntok > MAX_TOKENS ? "over " : "",
                         p->ntok - 1, n);
    return p2p_cells(p, topo, row, cols, n, m, err, errlen);
}

static int p2p_rows(parser_t *p, const ls_topo_t *topo, p2p_matrix_t m, char *err, size_t errlen)
{
    int cols[LS_MAX_GPUS], seen[LS_MAX_GPUS] = {0}, rows = 0;
    int n = p2p_header(p, topo, cols, err, errlen);
    if (n < 0)
        return -1;
    while (next_tokens(p) && !ends_matrix(p->toks, p->ntok)) {
        if (p2p_row(p, topo, cols, n, seen, m, err, errlen) != 0)
            return -1;
        rows++;
    }
    if (rows != n)
        return ls_seterr(err, errlen, "line %d: the matrix has %d rows, the header names %d GPUs",
                         p->rd.lineno, rows, n);
    return 0;
}

int ls_topo_parse_p2p_text(const char *text, int write, ls_topo_t *topo, char *err, size_t errlen)
{
    if (is_blank(text))
        return ls_seterr(err, errlen,
                         "line 1: empty input (expected nvidia-smi topo -p2p %c output)",
                         write ? 'w' : 'r');
    parser_t *p = calloc(1, sizeof *p);
    enum ls_p2p_status(*m)[LS_MAX_GPUS] = calloc(LS_MAX_GPUS, sizeof *m);
    if (!p || !m || reader_init(&p->rd, text) != 0) {
        free(p);
        free(m);
        return ls_seterr(err, errlen, "out of memory");
    }
    int rc = p2p_rows(p, topo, m, err, errlen);
    if (rc == 0) {
        memcpy(write ? topo->p2p_write : topo->p2p_read, m, sizeof topo->p2p_read);
        topo->has_p2p = 1;
    }
    free(p->rd.line);
    free(p);
    free(m);
    return rc;
}

/* topo -p2p pasted without topo -m: the GPUs its header names, every link between
   them unknown (the P2P words say nothing of the path). */
int ls_topo_from_p2p_header(const char *text, ls_topo_t *topo)
{
    parser_t *p = calloc(1, sizeof *p);
    int n = -1;
    if (!p || reader_init(&p->rd, text) != 0) {
        free(p);
        return -1;
    }
    while (n < 0 && next_tokens(p))
        if (is_p2p_header(p))
            n = p->ntok;
    if (n > 0) {
        memset(topo, 0, sizeof *topo);
        topo->ngpus = n;
        for (int g = 0; g < n; g++) {
            tok_copy(p->toks[g], topo->gpu_label[g], sizeof topo->gpu_label[g]);
            topo->gpu_gpu[g][g].type = LS_LINK_X;
            topo->p2p_read[g][g] = topo->p2p_write[g][g] = LS_P2P_SELF;
        }
    }
    free(p->rd.line);
    free(p);
    return n > 0 ? 0 : -1;
}

/* ---- format detection ---------------------------------------------------------- */

/* The cells of the row under a topo -m header to check: all ndev, or, where the paste ends
   inside that row (its last line, at least one whole cell and a cut one after "GPUn"),
   those before the last, which may be cut ("NV1" of NV12), as the reader keeps them
   (parse_cut_row); 0 for a row too short elsewhere. */
static int cut_first_row(const parser_t *p, int ndev)
{
    if (p->ntok >= ndev + 1)
        return ndev;
    const char *rest = p->rd.pos + strspn(p->rd.pos, " \t\r\n");
    return *rest == '\0' && p->ntok >= 3 &&
                   label_length(p->toks[0].s, p->toks[0].len) == p->toks[0].len
               ? p->ntok - 2
               : 0;
}

/* 1 when the line after a header row is a row whose cells are all words of kind
   (0 = link types, 1 = P2P status). */
static int detect(const char *text, int p2p)
{
    parser_t *p = calloc(1, sizeof *p);
    int found = 0;
    if (!p || reader_init(&p->rd, text) != 0) {
        free(p);
        return 0;
    }
    while (!found && next_tokens(p)) {
        if (!p2p && p->ntok > MAX_TOKENS && looks_like_header(p->toks, MAX_TOKENS)) {
            found = 1; /* too wide: the parser says so, naming the limit */
            break;
        }
        char err[256];
        if (!p2p && p->ntok <= MAX_TOKENS && looks_like_row(p->toks, p->ntok) &&
            label_length(p->toks[0].s, p->toks[0].len) == p->toks[0].len) {
            p->lenient =
                1; /* rows without their header: read when their diagonal names the columns */
            found = infer_header(p, err, sizeof err) == 0;
            break;
        }
        int at = p->ntok <= MAX_TOKENS ? header_after_command(p->toks, p->ntok) : -1;
        if (at > 0) { /* the command, then the header, on one line */
            memmove(p->toks, p->toks + at, (size_t)(p->ntok - at) * sizeof *p->toks);
            p->ntok -= at;
        }
        if (p->ntok > MAX_TOKENS || !looks_like_header(p->toks, p->ntok))
            continue;
        int ndev = p2p ? (all_gpu_labels(p->toks, p->ntok) ? p->ntok : -1)
                       : (parse_header(p->toks, p->ntok, &p->hdr, 1, 0, err, sizeof err) == 0
                              ? p->hdr.ndev
                              : -1);
        if (!p2p && ndev < 0 && strstr(err, "more than")) {
            found = 1; /* too many GPU or NIC columns: the parser names the limit */
            break;
        }
        if (ndev < 1 || !next_tokens(p))
            continue;
        if (!p2p)
            split_run_cells(p); /* "SYSSYS": cells that filled their column, as parse_row */
        int cells = !p2p ? cut_first_row(p, ndev) : p->ntok >= ndev + 1 ? ndev : 0;
        if (p->ntok > MAX_TOKENS || cells < 1)
            continue;
        found = 1;
        for (int c = 1; c <= cells && found; c++) {
            ls_link_t link;
            enum ls_p2p_status s;
            found = p2p ? parse_p2p_tok(p->toks[c], &s) == 0
                        : parse_link_tok(p->toks[c], &link) == 0;
        }
    }
    free(p->rd.line);
    free(p);
    return found;
}

int ls_topo_text_detect(const char *text)
{
    return detect(text, 0);
}

int ls_topo_p2p_text_detect(const char *text)
{
    return detect(text, 1);
}
