/* nccl-tests text output into `nccl` entries. The layout is taken from the column
   header ("size count type redop root time algbw busbw #wrong ..."), so older
   versions without the root column, the "error" column of 2.0-era builds and the
   per-iteration columns of -I are all read the same way. */
#include "nccl_tests.h"
#include "nccl_row_pieces.h"
#include "import_util.h"
#include "nccl_text.h"
#include "model/busid.h"
#include "model/doc.h"
#include "model/nccl_log.h"
#include "model/entry.h"
#include "model/vocab.h"
#include "util/log.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RANKS 4096
#define MAX_GROUPS 2

typedef struct {
    double time_us, algbw, busbw, wrong, error;
    int has_time, has_algbw, has_busbw, has_wrong, has_error;
} result_t;

typedef struct {
    long long bytes, count;
    char type[24], redop[24];
    long long root;
    result_t oop, ip;
    int has_oop, has_ip;
    int nonfinite; /* cells printed as nan or inf (or past a double's range): left out */
} row_t;

typedef struct {
    int rank, device, pid;
    char host[64], bus[32], name[96];
} rank_t;

/* Column positions taken from the header row; -1 = absent. */
typedef struct {
    int known;
    int type_col, redop_col, root_col;
    int group_start[MAX_GROUPS]; /* index of the "time" column of each group */
    int group_is_ip[MAX_GROUPS];
    int ngroups;
} layout_t;

typedef struct {
    char collective[64];
    char tests_version[32], nccl_library[32];
    int started; /* saw a header line of this block */
    long long nthread, ngpus, iters, warmup, validation, graph;
    rank_t *ranks;
    int nranks;
    const rank_t **sorted; /* scratch of MAX_RANKS: the rank lines sorted by one key */
    unsigned char *first;  /* scratch of MAX_RANKS: 1 where a line is its key's first */
    layout_t layout;
    int title_oop, title_ip; /* the line above the column header */
    row_t *rows;
    size_t nrows, caprows;
    double avg_busbw;
    int has_avg;
    long long oob;
    int has_oob;
    size_t rows_at_oob; /* nrows when the footer's verdict was read */
    char failure[256];
    int failure_primary; /* failure[] holds a Test NCCL/CUDA failure line */
    char failed_hosts[8][64];
    int nfailed_hosts;   /* distinct hosts of the failure lines (the first 8 kept) */
    int nfailures;       /* failure lines of either kind */
    int headers;         /* '# nThread' headers before any rank line or row */
    char missing[160];   /* what a partial paste lacked, for the entry's notes */
    long long bad_sizes; /* rows whose size or count is no integer in range (1e26): left out */
} block_t;

typedef struct {
    json_t *transports;
    char nccl_version[32];
    json_t *env;
} debug_t;

int ls_nccl_collective_from_name(const char *text, char *out, size_t outlen)
{
    const char *perf = NULL;
    for (const char *p = strstr(text, "_perf"); p; p = strstr(p + 1, "_perf"))
        perf = p;
    if (!perf)
        return -1;
    const char *start = perf;
    while (start > text && (isalnum((unsigned char)start[-1]) || start[-1] == '_'))
        start--;
    size_t n = (size_t)(perf - start);
    if (n == 0 || n >= outlen)
        return -1;
    memcpy(out, start, n);
    out[n] = '\0';
    return 0;
}

int ls_nccl_tests_detect(const char *text)
{
    return ls_nccl_text_detect(text);
}

static void block_reset(block_t *b)
{
    rank_t *ranks = b->ranks;
    const rank_t **sorted = b->sorted;
    unsigned char *first = b->first;
    row_t *rows = b->rows;
    size_t cap = b->caprows;
    memset(b, 0, sizeof *b);
    b->ranks = ranks;
    b->sorted = sorted;
    b->first = first;
    b->rows = rows;
    b->caprows = cap;
    b->validation = -1;
    b->graph = -1;
    b->iters = -1;
    b->warmup = -1;
}

static int block_has_content(const block_t *b)
{
    return b->started || b->nrows > 0;
}

/* "key value" pairs of the "# nThread 1 nGpus 2 minBytes ... iters: 20 ..." line. */
static long long header_value(const ls_line_t *line, const char *key)
{
    for (int i = 0; i + 1 < line->ntok; i++)
        if (strcmp(line->tok[i], key) == 0) {
            long long v;
            if (ls_tok_long(line->tok[i + 1], &v) == 0)
                return v;
        }
    return -1;
}

static void parse_nthread_line(block_t *b, const ls_line_t *line)
{
    b->nthread = header_value(line, "nThread");
    b->ngpus = header_value(line, "nGpus");
    /* "warmup iters: 1 iters: 20 agg iters: 1": the plain "iters:" follows "warmup" */
    for (int i = 0; i + 1 < line->ntok; i++) {
        long long v;
        if (strcmp(line->tok[i], "iters:") != 0 || ls_tok_long(line->tok[i + 1], &v) != 0)
            continue;
        const char *before = i > 0 ? line->tok[i - 1] : "";
        if (strcmp(before, "warmup") == 0)
            b->warmup = v;
        else if (strcmp(before, "agg") != 0)
            b->iters = v;
    }
    b->validation = header_value(line, "validation:");
    b->graph = header_value(line, "graph:");
}

/* "#  Rank  0 Group  0 Pid    785 on         vm device  0 [0000:00:06] NVIDIA H200"
   (older builds: no Group, bus id "[0x06]"). */
static void parse_rank_line(block_t *b, const char *text)
{
    if (b->nranks >= MAX_RANKS)
        return;
    ls_line_t line;
    snprintf(line.buf, sizeof line.buf, "%s", text);
    ls_tokenize(&line);
    rank_t r = {.rank = -1, .device = -1, .pid = -1};
    int name_from = -1;
    for (int i = 0; i + 1 < line.ntok; i++) {
        long long v;
        const char *k = line.tok[i], *val = line.tok[i + 1];
        if (strcmp(k, "Rank") == 0 && ls_tok_long(val, &v) == 0)
            r.rank = (int)v;
        else if (strcmp(k, "Pid") == 0 && ls_tok_long(val, &v) == 0)
            r.pid = (int)v;
        else if (strcmp(k, "on") == 0)
            snprintf(r.host, sizeof r.host, "%s", val);
        else if (strcmp(k, "device") == 0 && ls_tok_long(val, &v) == 0) {
            r.device = (int)v;
            name_from = i + 2;
        }
    }
    if (r.rank < 0 || r.device < 0)
        return;
    if (name_from >= 0 && name_from < line.ntok && line.tok[name_from][0] == '[') {
        char bus[32];
        snprintf(bus, sizeof bus, "%s", line.tok[name_from] + 1);
        char *close = strchr(bus, ']');
        if (close)
            *close = '\0';
        if (ls_busid_normalize(bus, r.bus, sizeof r.bus) != 0)
            r.bus[0] = '\0';
        name_from++;
    }
    size_t used = 0;
    /* stops at a full buffer: r.name + used must never point past it */
    for (int i = name_from; i >= 0 && i < line.ntok && used + 1 < sizeof r.name; i++) {
        int w = snprintf(r.name + used, sizeof r.name - used, "%s%s", used ? " " : "", line.tok[i]);
        used = w < 0                              ? used
               : used + (size_t)w < sizeof r.name ? used + (size_t)w
                                                  : sizeof r.name - 1;
    }
    b->ranks[b->nranks++] = r;
}

/* The column header row, without its leading '#'. */
static void parse_column_header(block_t *b, const ls_line_t *line)
{
    layout_t *lay = &b->layout;
    memset(lay, 0, sizeof *lay);
    lay->type_col = lay->redop_col = lay->root_col = -1;
    for (int i = 0; i < line->ntok; i++) {
        const char *t = line->tok[i];
        if (strcmp(t, "type") == 0)
            lay->type_col = i;
        else if (strcmp(t, "redop") == 0)
            lay->redop_col = i;
        else if (strcmp(t, "root") == 0)
            lay->root_col = i;
        else if ((strcmp(t, "time") == 0 || strcmp(t, "cputime") == 0) && lay->ngroups < MAX_GROUPS)
            lay->group_start[lay->ngroups++] = i;
    }
    if (lay->type_col < 0 || lay->ngroups == 0)
        return;
    lay->known = 1;
    if (lay->ngroups == 1)
        lay->group_is_ip[0] = b->title_ip && !b->title_oop;
    else
        lay->group_is_ip[1] = 1;
}

/* Without a header, from the row itself: size count type, then redop (a word) and
   root (a whole number, since 2.x with root) when present, then groups of four cells
   (time algbw busbw #wrong|error): 3, 4 or 5 leading columns. */
static void guess_layout(layout_t *lay, const ls_line_t *line)
{
    memset(lay, 0, sizeof *lay);
    int ntok = line->ntok;
    double v;
    int has_redop = ntok > 3 && ls_tok_double(line->tok[3], &v) != 0;
    int preamble = !has_redop ? 3 : ((ntok - 5) % 4 == 0 ? 5 : 4);
    lay->type_col = 2;
    lay->redop_col = has_redop ? 3 : -1;
    lay->root_col = preamble == 5 ? 4 : -1;
    lay->group_start[0] = preamble;
    lay->ngroups = ntok >= preamble + 8 ? 2 : 1;
    lay->group_start[1] = preamble + 4;
    lay->group_is_ip[1] = 1;
}

/* 1 for a cell printed as a number that is none: nan, -nan, inf, or past a double's
   range (nccl-tests prints them when a time is 0 or a result is broken). */
static int nonfinite_cell(const char *tok)
{
    char *end;
    errno = 0;
    double v = strtod(tok, &end);
    return end != tok && !*end && (!isfinite(v) || errno == ERANGE);
}

static int read_cell(const ls_line_t *line, int col, double *out, int *nonfinite)
{
    if (col < 0 || col >= line->ntok)
        return 0;
    if (ls_tok_double(line->tok[col], out) == 0)
        return 1;
    *nonfinite += nonfinite_cell(line->tok[col]);
    return 0;
}

static int read_group(const ls_line_t *line, int start, result_t *res, int *nonfinite)
{
    memset(res, 0, sizeof *res);
    res->has_time = read_cell(line, start, &res->time_us, nonfinite);
    res->has_algbw = read_cell(line, start + 1, &res->algbw, nonfinite);
    res->has_busbw = read_cell(line, start + 2, &res->busbw, nonfinite);
    /* "#wrong" is a count ("0", "12"); the 2.0-era "error" column a largest relative
       error printed as "%7.0le" ("0e+00", "2e-07"): told apart by the cell's text */
    double cell;
    if (read_cell(line, start + 3, &cell, nonfinite)) {
        const char *t = line->tok[start + 3];
        if (strpbrk(t, "eE.")) {
            res->error = cell;
            res->has_error = 1;
        } else {
            res->wrong = cell;
            res->has_wrong = 1;
        }
    }
    return res->has_time || res->has_busbw;
}

/* nccl-tests prints the redop cell with "%6s", so a collective without a reduction
   (alltoall, all_gather in the 2.0-era layout) leaves it blank: the row has one cell
   fewer than the header and a figure where the header has "redop" (a redop is always a
   word). The cells after it move one to the left. */
static void blank_redop(layout_t *lay, const ls_line_t *line)
{
    double v;
    char *end;
    if (!lay->known || lay->redop_col < 0 || lay->redop_col >= line->ntok)
        return;
    v = strtod(line->tok[lay->redop_col], &end);
    (void)v;
    if (end == line->tok[lay->redop_col] || *end)
        return;
    if (lay->root_col > lay->redop_col)
        lay->root_col--;
    for (int g = 0; g < lay->ngroups; g++)
        if (lay->group_start[g] > lay->redop_col)
            lay->group_start[g]--;
    lay->redop_col = -1;
}

static int add_row(block_t *b, const ls_line_t *line)
{
    layout_t lay = b->layout;
    if (!lay.known)
        guess_layout(&lay, line);
    blank_redop(&lay, line);
    row_t r;
    memset(&r, 0, sizeof r);
    if (ls_tok_long(line->tok[0], &r.bytes) || ls_tok_long(line->tok[1], &r.count) || r.bytes < 0 ||
        r.count < 0) {
        b->bad_sizes++; /* a size past 2^63 read as 0 bytes would be a wrong row */
        return 0;
    }
    snprintf(r.type, sizeof r.type, "%s",
             lay.type_col < line->ntok ? line->tok[lay.type_col] : "?");
    snprintf(r.redop, sizeof r.redop, "%s",
             lay.redop_col >= 0 && lay.redop_col < line->ntok ? line->tok[lay.redop_col] : "none");
    r.root = -1;
    if (lay.root_col >= 0 && lay.root_col < line->ntok)
        ls_tok_long(line->tok[lay.root_col], &r.root);
    for (int g = 0; g < lay.ngroups; g++) {
        result_t res;
        if (!read_group(line, lay.group_start[g], &res, &r.nonfinite))
            continue;
        if (lay.group_is_ip[g]) {
            r.ip = res;
            r.has_ip = 1;
        } else {
            r.oop = res;
            r.has_oop = 1;
        }
    }
    if (!r.has_oop && !r.has_ip)
        return 0;
    if (b->nrows == b->caprows) {
        size_t cap = b->caprows ? b->caprows * 2 : 64;
        row_t *grown = realloc(b->rows, cap * sizeof *grown);
        if (!grown)
            return -1;
        b->rows = grown;
        b->caprows = cap;
    }
    b->rows[b->nrows++] = r;
    return 0;
}

/* "22803" -> "2.28.3" (NCCL_VERSION_CODE: x*10000+y*100+z since 2.9, x*1000+y*100+z before). */
static void nccl_code_to_version(const char *code, char *out, size_t outlen)
{
    long long c;
    if (ls_tok_long(code, &c) != 0 || c <= 0) {
        out[0] = '\0';
        return;
    }
    if (c >= 10000)
        snprintf(out, outlen, "%lld.%lld.%lld", c / 10000, (c % 10000) / 100, c % 100);
    else
        snprintf(out, outlen, "%lld.%lld.%lld", c / 1000, (c % 1000) / 100, c % 100);
}

static void parse_version_line(block_t *b, const ls_line_t *line)
{
    for (int i = 0; i < line->ntok; i++) {
        if (strcmp(line->tok[i], "version") == 0 && i + 1 < line->ntok)
            snprintf(b->tests_version, sizeof b->tests_version, "%s", line->tok[i + 1]);
        if (strncmp(line->tok[i], "nccl-library=", 13) == 0)
            nccl_code_to_version(line->tok[i] + 13, b->nccl_library, sizeof b->nccl_library);
    }
}

/* "host:pid:tid [dev] NCCL INFO ..." lines of NCCL_DEBUG=INFO. */
static void parse_debug_line(debug_t *dbg, const char *text)
{
    const char *info = strstr(text, "NCCL INFO ");
    if (!info && strncmp(text, "NCCL version ", 13) == 0)
        info = text; /* NCCL <= 2.8 printed the version line bare */
    else if (!info)
        return;
    else
        info += strlen("NCCL INFO ");
    char word[64], value[128];
    if (sscanf(info, "NCCL version %31[^+ ]", dbg->nccl_version) == 1)
        return;
    if (ls_nccl_env_line(info, word, sizeof word, value, sizeof value) == 0) {
        json_object_set_new(dbg->env, word, json_string(value));
        return;
    }
    ls_nccl_channel_t c;
    long long from_dev, to_dev;
    /* nccl-tests' logs: "Channel 00/0 : 0[0] -> 1[1] via ...", GPU numbers in brackets */
    if (ls_nccl_channel_parse(info, &c) == 0 && c.has_conn && strcmp(c.side, "both") == 0 &&
        ls_tok_long(c.from, &from_dev) == 0 && ls_tok_long(c.to, &to_dev) == 0)
        json_array_append_new(dbg->transports,
                              json_pack("{s:i, s:I, s:I, s:s}", "channel", c.channel, "from",
                                        from_dev, "to", to_dev, "transport", c.via));
}

/* The rank lines' keys, compared. A block keeps up to MAX_RANKS lines, so their
   distinct hosts, processes, devices and ranks are found by sorting (n log n), never by
   comparing each line with every earlier one (a hostile paste of many blocks of 4096
   lines each: docs/safety.md, "Cost"). */
static int cmp_int(int x, int y)
{
    return (x > y) - (x < y);
}

static int key_host(const rank_t *x, const rank_t *y)
{
    return strcmp(x->host, y->host);
}

static int key_process(const rank_t *x, const rank_t *y)
{
    int c = key_host(x, y);
    return c ? c : cmp_int(x->pid, y->pid);
}

static int key_device(const rank_t *x, const rank_t *y)
{
    return cmp_int(x->device, y->device);
}

static int key_rank(const rank_t *x, const rank_t *y)
{
    return cmp_int(x->rank, y->rank);
}

/* Lines of one key in the order they were printed (the lines lie in one array). */
static int by_position(const rank_t *x, const rank_t *y)
{
    return (x > y) - (x < y);
}

#define LS_SORT_BY(key)                                                                            \
    static int sort_##key(const void *a, const void *b)                                            \
    {                                                                                              \
        const rank_t *x = *(const rank_t *const *)a, *y = *(const rank_t *const *)b;               \
        int c = key(x, y);                                                                         \
        return c ? c : by_position(x, y);                                                          \
    }
LS_SORT_BY(key_host)
LS_SORT_BY(key_process)
LS_SORT_BY(key_device)
LS_SORT_BY(key_rank)

/* b->first[i] = 1 where rank line i is the first printed of its key; returns how many
   distinct keys, and in *most (unless NULL) the most lines one key holds. */
static int mark_firsts(const block_t *b, int (*key)(const rank_t *, const rank_t *),
                       int (*sort)(const void *, const void *), int *most)
{
    int n = b->nranks, distinct = 0, run = 0, longest = 0;
    if (n <= 0) {
        if (most)
            *most = 0;
        return 0;
    }
    for (int i = 0; i < n; i++)
        b->sorted[i] = &b->ranks[i];
    qsort(b->sorted, (size_t)n, sizeof *b->sorted, sort);
    memset(b->first, 0, (size_t)n);
    for (int i = 0; i < n; i++) {
        int starts = i == 0 || key(b->sorted[i - 1], b->sorted[i]) != 0;
        run = starts ? 1 : run + 1;
        longest = run > longest ? run : longest;
        distinct += starts;
        if (starts)
            b->first[b->sorted[i] - b->ranks] = 1;
    }
    if (most)
        *most = longest;
    return distinct;
}

/* The devices of the block's rank lines, each once in the order first printed, into
   gpus; the distinct hosts and processes (host and pid) in *nhosts and *nprocs. */
static int block_gpus(const block_t *b, json_t *gpus, int *nhosts, int *nprocs)
{
    *nhosts = mark_firsts(b, key_host, sort_key_host, NULL);
    *nprocs = mark_firsts(b, key_process, sort_key_process, NULL);
    int count = mark_firsts(b, key_device, sort_key_device, NULL);
    for (int i = 0; i < b->nranks; i++)
        if (b->first[i])
            json_array_append_new(gpus, json_integer(b->ranks[i].device));
    return count;
}

static json_t *result_json(const result_t *r)
{
    json_t *o = json_object();
    if (r->has_time)
        json_object_set_new(o, "time_us", json_real(r->time_us));
    if (r->has_algbw)
        json_object_set_new(o, "algbw", json_real(r->algbw));
    if (r->has_busbw)
        json_object_set_new(o, "busbw", json_real(r->busbw));
    /* "N/A" (not checked, e.g. alltoall in-place) stays null; a count stays whole */
    json_t *wrong = json_null();
    if (r->has_wrong)
        /* a count past long long's range (a hostile 1e300) has no integer value:
           converting it would be undefined behaviour; it stays a real */
        wrong = fabs(r->wrong) < 9.2e18 && r->wrong == (double)(long long)r->wrong
                    ? json_integer((long long)r->wrong)
                    : json_real(r->wrong);
    json_object_set_new(o, "wrong", wrong);
    if (r->has_error)
        json_object_set_new(o, "error", json_real(r->error));
    return o;
}

static int same_group(const row_t *a, const row_t *b)
{
    return strcmp(a->type, b->type) == 0 && strcmp(a->redop, b->redop) == 0 && a->root == b->root;
}

/* The reported figure of a row: out-of-place, else in-place. */
static const result_t *main_result(const row_t *r)
{
    return r->has_oop ? &r->oop : &r->ip;
}

static void add_rank_inventory(json_t *doc, const block_t *b, int nhosts)
{
    if (nhosts > 1)
        return; /* GPU indices repeat per host: the inventory describes one machine */
    for (int i = 0; i < b->nranks; i++) {
        json_t *gpu = ls_import_gpu(doc, b->ranks[i].device);
        ls_set_if_absent(gpu, "name", b->ranks[i].name);
        ls_set_if_absent(gpu, "pci_bus_id", b->ranks[i].bus);
    }
    if (b->nranks > 0)
        ls_set_if_absent(json_object_get(doc, "host"), "hostname", b->ranks[0].host);
}

/* A failure line: the first NCCL/CUDA message is what failed (a trail line only until
   one comes); every host named is kept. A Test NCCL/CUDA failure line starts a test of
   its own when none has begun (a paste of the failure alone); a trail line outside a
   test is dropped by the caller (nccl-tests prints it after the footer of a test whose
   data was wrong, which the footer already said). */
static void add_failure(block_t *b, const ls_nccl_failure_t *f)
{
    b->nfailures++;
    if (f->primary && !b->failure_primary) {
        snprintf(b->failure, sizeof b->failure, "%s", f->message);
        b->failure_primary = 1;
    } else if (!b->failure[0]) {
        snprintf(b->failure, sizeof b->failure, "%s", f->message);
    }
    if (f->primary)
        b->started = 1;
    if (!f->host[0])
        return;
    for (int i = 0; i < b->nfailed_hosts && i < 8; i++)
        if (!strcmp(b->failed_hosts[i], f->host))
            return;
    if (b->nfailed_hosts < 8)
        snprintf(b->failed_hosts[b->nfailed_hosts], sizeof b->failed_hosts[0], "%s", f->host);
    b->nfailed_hosts++;
}

/* "Test NCCL failure common.cu:1204 '…' on HCA-14, HCA-28 (2 hosts, 3 failure lines)" */
static void failure_text(const block_t *b, char *out, size_t len)
{
    size_t used = (size_t)snprintf(out, len, "%s", b->failure);
    for (int i = 0; i < b->nfailed_hosts && i < 8 && used < len; i++)
        used += (size_t)snprintf(out + used, len - used, "%s%s", i ? ", " : " on ",
                                 b->failed_hosts[i]);
    if (used < len && b->nfailed_hosts > 8)
        used += (size_t)snprintf(out + used, len - used, " and %d more", b->nfailed_hosts - 8);
    if (used < len && b->nfailures > 1)
        snprintf(out + used, len - used, " (%d host%s, %d failure lines)", b->nfailed_hosts,
                 b->nfailed_hosts == 1 ? "" : "s", b->nfailures);
}

static void set_group_status(json_t *e, const block_t *b, const row_t *first, size_t nrows)
{
    for (size_t i = 0; i < nrows; i++) {
        const row_t *r = first + i;
        double wrong = (r->has_oop && r->oop.has_wrong ? r->oop.wrong : 0) +
                       (r->has_ip && r->ip.has_wrong ? r->ip.wrong : 0);
        if (wrong > 0) {
            char msg[160];
            snprintf(msg, sizeof msg, "nccl-tests found %.0f wrong elements at %lld bytes", wrong,
                     r->bytes);
            ls_entry_fail(e, "failed", msg);
            return;
        }
    }
    if (b->failure[0]) {
        char text[512];
        failure_text(b, text, sizeof text);
        ls_entry_fail(e, "failed", text);
    } else if (b->has_oob && b->oob > 0) {
        /* the footer's own verdict: layouts without a #wrong count (the 2.0-era error
           column) say only here that validation failed */
        char msg[160];
        snprintf(msg, sizeof msg,
                 "nccl-tests counted %lld out-of-bounds values (validation FAILED)", b->oob);
        ls_entry_fail(e, "failed", msg);
    }
}

/* How many independent runs printed into this test's part of the paste: the headers
   printed side by side, or a rank number printed more than once (each process of a run
   prints its own rank, so a repeat is another run: each run has its own rank 0). 1 for
   one test. */
static int block_runs(const block_t *b)
{
    int repeats = 0;
    mark_firsts(b, key_rank, sort_key_rank, &repeats);
    return b->headers > repeats ? b->headers : repeats > 1 ? repeats : 1;
}

static int distinct_ranks(const block_t *b)
{
    return mark_firsts(b, key_rank, sort_key_rank, NULL);
}

/* Who ran: GPUs, ranks, hosts, processes, and the sweep's settings. */
static void set_run_fields(json_t *e, const block_t *b, const row_t *first, const char *variant,
                           int *nhosts)
{
    json_object_set_new(e, "collective", json_string(b->collective));
    json_t *gpus = json_array();
    int nprocs;
    block_gpus(b, gpus, nhosts, &nprocs);
    json_object_set_new(e, "gpus", gpus);
    int runs = block_runs(b);
    long long nranks = runs > 1 ? distinct_ranks(b) : b->nranks;
    /* nccl-tests numbers the ranks of a run 0..n-1: a rank line naming rank R means at
       least R+1 ranks, however few of the lines the paste kept ("Rank 71" alone) */
    for (int i = 0; runs == 1 && i < b->nranks; i++)
        if (b->ranks[i].rank + 1 > nranks)
            nranks = b->ranks[i].rank + 1;
    /* each process's header counts its own ranks (nThread x nGpus): a run holds at least
       that many, so a rank list shorter than it was cut (nccl-tests#213: "nGpus 8" over
       four rank lines is 8 ranks a run, not 4) */
    if (b->nthread > 0 && b->ngpus > 0 && (long long)b->nthread * b->ngpus > nranks)
        nranks = (long long)b->nthread * b->ngpus;
    if (nranks > 0) /* a paste without rank lines or header says nothing of it */
        json_object_set_new(e, "nranks", json_integer(nranks));
    if (runs > 1) /* independent runs: their hosts are not the nodes of one test */
        json_object_set_new(e, "separate_runs", json_integer(runs));
    else if (*nhosts > 1)
        json_object_set_new(e, "nodes", json_integer(*nhosts));
    json_object_set_new(e, "mode", json_string(nprocs > 1 ? "mpi" : "threads"));
    json_object_set_new(e, "variant", json_string(variant ? variant : "default"));
    json_object_set_new(e, "dtype", json_string(first->type));
    json_object_set_new(e, "redop", json_string(first->redop));
    json_object_set_new(e, "root", json_integer(first->root));
    if (b->graph >= 0)
        json_object_set_new(e, "graph", json_boolean(b->graph > 0));
    if (b->iters >= 0)
        json_object_set_new(e, "iters", json_integer(b->iters));
    if (b->warmup >= 0)
        json_object_set_new(e, "warmup", json_integer(b->warmup));
}

/* rows[], and value / bytes / small_time_us from the largest and smallest sizes. */
static void set_rows(json_t *e, const block_t *b, const row_t *first, size_t nrows)
{
    json_t *rows = json_array();
    int all_checked = nrows > 0;
    const row_t *largest = first, *smallest = first;
    for (size_t i = 0; i < nrows; i++) {
        const row_t *r = first + i;
        json_t *row = json_pack("{s:I, s:I}", "bytes", (json_int_t)r->bytes, "count",
                                (json_int_t)r->count);
        if (r->has_oop)
            json_object_set_new(row, "oop", result_json(&r->oop));
        if (r->has_ip)
            json_object_set_new(row, "ip", result_json(&r->ip));
        all_checked &= main_result(r)->has_wrong || main_result(r)->has_error;
        json_array_append_new(rows, row);
        if (r->bytes >= largest->bytes)
            largest = r;
        if (r->bytes < smallest->bytes)
            smallest = r;
    }
    json_object_set_new(e, "rows", rows);
    if (nrows > 0) {
        json_object_set_new(e, "bytes", json_integer(largest->bytes));
        if (main_result(largest)->has_busbw)
            json_object_set_new(e, "value", json_real(main_result(largest)->busbw));
        if (main_result(smallest)->has_time) {
            json_object_set_new(e, "small_time_us", json_real(main_result(smallest)->time_us));
            json_object_set_new(e, "small_bytes", json_integer(smallest->bytes));
        }
    }
    json_object_set_new(e, "verified", json_boolean(b->validation != 0 && all_checked));
}

/* The footer, versions, and the rank table of a run over several hosts. */
static void set_footer_fields(json_t *e, const block_t *b, size_t nrows, int nhosts)
{
    if (b->has_avg)
        json_object_set_new(e, "avg_busbw", json_real(b->avg_busbw));
    if (b->has_oob)
        json_object_set_new(e, "out_of_bounds", json_integer(b->oob));
    if (b->nccl_library[0])
        json_object_set_new(e, "nccl_version", json_string(b->nccl_library));
    if (b->tests_version[0])
        json_object_set_new(e, "tool_version", json_string(b->tests_version));
    if (nhosts > 1) {
        json_t *ranks = json_array();
        for (int i = 0; i < b->nranks; i++)
            json_array_append_new(ranks,
                                  json_pack("{s:i, s:s, s:i}", "rank", b->ranks[i].rank, "host",
                                            b->ranks[i].host, "device", b->ranks[i].device));
        json_object_set_new(e, "ranks", ranks);
    }
    /* no footer ("# Out of bounds values", "# Avg bus bandwidth"): the log was cut */
    int cut = !b->has_avg && !b->has_oob && !b->failure[0];
    if (cut || b->missing[0]) {
        json_object_set_new(e, "flags", json_pack("[s]", "incomplete"));
        char note[256];
        snprintf(note, sizeof note, "incomplete paste: %s%s%s", b->missing,
                 b->missing[0] && cut ? "; " : "",
                 !cut    ? ""
                 : nrows ? "no footer (the text ends inside the table)"
                         : "no result row (the text ends before the table)");
        json_object_set_new(e, "notes", json_pack("[s]", note));
    }
}

static void add_note(json_t *e, const char *note)
{
    json_t *notes = ls_json_array_at(e, "notes");
    json_array_append_new(notes, json_string(note));
}

/* Cells printed as nan or inf and rows of an unreadable size are left out of rows[]:
   the entry says so (a flag, a note, verified false), never "ok, verified" in silence. */
static void mark_dropped_cells(json_t *e, const block_t *b, const row_t *first, size_t nrows)
{
    long long cells = 0, at = -1;
    for (size_t i = 0; i < nrows; i++) {
        cells += first[i].nonfinite;
        if (first[i].nonfinite && at < 0)
            at = first[i].bytes;
    }
    char note[200];
    if (cells) {
        ls_entry_flag(e, "nonfinite_cells");
        json_object_set_new(e, "verified", json_false());
        snprintf(note, sizeof note,
                 "nccl-tests printed nan or inf in %lld cells (first at %lld bytes): left out",
                 cells, at);
        add_note(e, note);
    }
    if (b->bad_sizes) {
        ls_entry_flag(e, "unreadable_size");
        json_object_set_new(e, "verified", json_false());
        snprintf(note, sizeof note,
                 "%lld rows whose size or count is no whole number below 2^63: left out",
                 b->bad_sizes);
        add_note(e, note);
    }
}

/* nccl-tests' busbw is algbw x a factor of the rank count n (common.cu, each collective's
   getBw): 2(n-1)/n for all_reduce, (n-1)/n for all_gather, reduce_scatter and alltoall, 0
   for all four at one rank; 1 at any n for broadcast, reduce and sendrecv. */
static double bus_factor(const char *collective, long long n)
{
    if (!strcmp(collective, "all_reduce"))
        return 2.0 * (double)(n - 1) / (double)n;
    if (!strcmp(collective, "all_gather") || !strcmp(collective, "reduce_scatter") ||
        !strcmp(collective, "alltoall"))
        return (double)(n - 1) / (double)n;
    return -1;
}

/* Whether every row with an algbw of 1 GB/s or more prints busbw = algbw x factor, to the
   cells' two decimals (each off by 0.005 at most). */
static int rows_fit(const row_t *first, size_t nrows, double factor)
{
    int judged = 0;
    for (size_t i = 0; i < nrows; i++) {
        const result_t *r = main_result(first + i);
        if (!r->has_algbw || !r->has_busbw || r->algbw < 1)
            continue;
        if (fabs(r->busbw - r->algbw * factor) > 0.005 + 0.005 * factor + 1e-9)
            return 0;
        judged++;
    }
    return judged > 0;
}

/* The n whose bus factor is f, read off one row (algbw at least 1 GB/s, the largest:
   the most digits); 0 where no n is. */
static long long nearest_ranks(const char *collective, const row_t *first, size_t nrows)
{
    const result_t *best = NULL;
    for (size_t i = 0; i < nrows; i++) {
        const result_t *r = main_result(first + i);
        if (r->has_algbw && r->has_busbw && r->algbw >= 1 && (!best || r->algbw > best->algbw))
            best = r;
    }
    double top = !strcmp(collective, "all_reduce") ? 2 : 1; /* the factor's bound as n grows */
    double f = best ? best->busbw / best->algbw : top;
    return f < top && f > 0 ? llround(top / (top - f)) : 0; /* 2(n-1)/n or (n-1)/n is f */
}

/* The rank count the rows imply: n when exactly one n from 2 to MAX_RANKS fits every row
   (a large n whose neighbours fit as well is not told; the factor grows with n, so only
   the neighbours of the n one row gives can fit), -1 when the rows show more than one
   rank without telling how many (busbw differs from algbw: one rank prints 0 or algbw),
   0 when they say nothing. */
static long long rows_ranks(const char *collective, const row_t *first, size_t nrows)
{
    long long near = bus_factor(collective, 2) > 0 ? nearest_ranks(collective, first, nrows) : 0;
    long long found = 0;
    int fits = 0;
    for (long long n = near - 2 > 2 ? near - 2 : 2; near && n <= near + 2 && n <= MAX_RANKS; n++)
        if (rows_fit(first, nrows, bus_factor(collective, n)))
            found = n, fits++;
    if (fits == 1)
        return found;
    for (size_t i = 0; i < nrows; i++) {
        const result_t *r = main_result(first + i);
        if (r->has_algbw && r->has_busbw && r->algbw >= 1 && r->busbw > 0.01 &&
            fabs(r->busbw - r->algbw) > 0.01 + 0.005 * r->algbw)
            return -1;
    }
    return 0;
}

/* A header's nThread x nGpus counts one process's ranks: under MPI every process prints
   "nGpus 1" (or only rank 0 does). Where the rows imply more ranks than the entry names,
   theirs is the count, or the count is unknown when they show more than one without
   telling how many. */
static void ranks_from_rows(json_t *e, const char *collective, const row_t *first, size_t nrows)
{
    long long named = ls_json_int(e, "nranks", 0), implied = rows_ranks(collective, first, nrows);
    if (implied > named) {
        json_object_set_new(e, "nranks", json_integer(implied));
        add_note(e, "nranks from busbw / algbw (nccl-tests' bus factor): the paste's header or "
                    "rank lines name fewer");
    } else if (implied < 0 && named == 1) {
        json_object_del(e, "nranks");
        add_note(e, "more than one rank (busbw differs from algbw), how many the paste does not "
                    "say: its header counts one process's");
    }
}

static json_t *group_entry(const block_t *b, const row_t *first, size_t nrows, const char *variant,
                           json_t *doc)
{
    json_t *e = ls_import_entry(LS_FAMILY_NCCL, "busbw", "GB/s", 0);
    json_object_del(e, "value");
    int nhosts;
    set_run_fields(e, b, first, variant, &nhosts);
    set_rows(e, b, first, nrows);
    set_footer_fields(e, b, nrows, nhosts);
    mark_dropped_cells(e, b, first, nrows);
    ranks_from_rows(e, b->collective, first, nrows);
    add_rank_inventory(doc, b, nhosts);
    set_group_status(e, b, first, nrows);
    return e;
}

static void entry_id(const json_t *e, char *id, size_t idlen)
{
    size_t used = (size_t)snprintf(id, idlen, "nccl-%s", ls_json_str(e, "collective", "x"));
    size_t i;
    const json_t *g;
    json_array_foreach(json_object_get(e, "gpus"), i, g) {
        if (used < idlen)
            used += (size_t)snprintf(id + used, idlen - used, "-%lld",
                                     (long long)json_integer_value(g));
    }
}

/* Only the footer was pasted (no header, no row): the run's verdict and no figure. A
   failed verdict is the entry's failure already (set_group_status); a passed one leaves
   nothing measured to judge. */
static void footer_only(json_t *e, const block_t *b)
{
    add_note(e, "only nccl-tests' footer is in the text: the run's data check, no figure");
    ls_entry_flag(e, "incomplete");
    if (b->oob == 0)
        ls_entry_fail(e, "skipped", "only the footer was pasted (out-of-bounds values: 0 OK)");
}

/* Emits the entries of a finished block; returns how many. */
static int flush_block(block_t *b, json_t *doc, const char *name, const char *variant,
                       const char *collective, const debug_t *dbg)
{
    if (!block_has_content(b))
        return 0;
    if (collective)
        snprintf(b->collective, sizeof b->collective, "%s", collective);
    if (!b->collective[0] &&
        ls_nccl_collective_from_name(name, b->collective, sizeof b->collective) != 0) {
        /* the rows are intact: keep them under an unknown collective, never a guess */
        snprintf(b->collective, sizeof b->collective, "unknown");
        snprintf(b->missing, sizeof b->missing,
                 "the text names no collective (no *_perf command or banner; pass --collective "
                 "NAME)");
    }
    if (!b->nccl_library[0] && dbg->nccl_version[0])
        snprintf(b->nccl_library, sizeof b->nccl_library, "%s", dbg->nccl_version);
    ls_set_if_absent(json_object_get(doc, "software"), "nccl", b->nccl_library);
    int added = 0;
    size_t start = 0;
    while (start < b->nrows || (b->nrows == 0 && added == 0)) {
        size_t end = start;
        while (end < b->nrows && same_group(&b->rows[start], &b->rows[end]))
            end++;
        /* rows of other groups interleaved later (-d all loops sizes inside types) are
           taken in order: each contiguous run is one entry */
        row_t empty;
        memset(&empty, 0, sizeof empty);
        snprintf(empty.type, sizeof empty.type, "unknown");
        snprintf(empty.redop, sizeof empty.redop, "none");
        empty.root = -1;
        const row_t *first = b->nrows ? &b->rows[start] : &empty;
        json_t *e = group_entry(b, first, end - start, variant, doc);
        if (b->nrows == 0 && !b->failure[0] && b->nthread == 0 && b->has_oob)
            footer_only(e, b);
        else if (b->nrows == 0 && !b->failure[0] && (b->has_avg || b->has_oob))
            ls_entry_fail(e, "failed",
                          "nccl-tests printed no result rows (the run stopped early?)");
        if (json_array_size(dbg->transports) > 0)
            json_object_set(e, "transports", dbg->transports);
        char id[128];
        entry_id(e, id, sizeof id);
        ls_import_add(doc, e, "nccl-tests", id);
        added++;
        if (b->nrows == 0)
            break;
        start = end;
    }
    block_reset(b);
    return added;
}

static void parse_comment(block_t *b, ls_line_t *line, const char *raw)
{
    const char *body = raw + 1;
    char name[64];
    if (strstr(body, "Collective test starting:")) {
        const char *colon = strstr(body, "starting:") + strlen("starting:");
        if (sscanf(colon, "%63s", name) == 1)
            ls_nccl_collective_from_name(name, b->collective, sizeof b->collective);
        b->started = 1;
        return;
    }
    if (strstr(body, "nccl-tests version")) {
        ls_tokenize(line);
        parse_version_line(b, line);
        return;
    }
    if (strstr(body, " Rank ") && strstr(body, " device ")) {
        parse_rank_line(b, body);
        return;
    }
    if (strstr(body, "Avg bus bandwidth")) {
        const char *colon = strchr(body, ':');
        b->has_avg = colon && sscanf(colon + 1, "%lf", &b->avg_busbw) == 1;
        return;
    }
    if (strstr(body, "Out of bounds values")) {
        const char *colon = strchr(body, ':');
        b->has_oob = colon && sscanf(colon + 1, "%lld", &b->oob) == 1;
        return;
    }
    if (strstr(body, "out-of-place") || strstr(body, "in-place")) {
        b->title_oop = strstr(body, "out-of-place") != NULL;
        b->title_ip = strstr(body, "in-place") != NULL; /* not a part of "out-of-place" */
        return;
    }
    ls_line_t cols;
    snprintf(cols.buf, sizeof cols.buf, "%s", body);
    ls_tokenize(&cols);
    if (cols.ntok >= 4 && strcmp(cols.tok[0], "size") == 0 && strcmp(cols.tok[1], "count") == 0)
        parse_column_header(b, &cols);
}

typedef struct {
    json_t *doc;
    const char *name, *variant, *collective;
    debug_t dbg;
    block_t block;
    int added;
    char pending[1024]; /* a result row's pieces read so far (nccl_row_pieces.h) */
} parser_t;

static void flush(parser_t *p)
{
    p->added += flush_block(&p->block, p->doc, p->name, p->variant, p->collective, &p->dbg);
}

static void handle_comment(parser_t *p, ls_line_t *line, const char *rawcopy)
{
    block_t *b = &p->block;
    int starts_block = strstr(rawcopy, "Collective test starting:") != NULL ||
                       strstr(rawcopy, "nccl-tests version") != NULL;
    int nthread = strncmp(rawcopy, "# nThread", 9) == 0;
    /* Each process prints the header unless nccl-tests was built with MPI (then only
       rank 0 does): a header before this test printed a rank line or a row is another
       process's, started beside it, not a new test */
    int beside = b->nthread > 0 && b->nrows == 0 && b->nranks == 0;
    if (nthread && beside) {
        b->headers++;
        return;
    }
    if ((starts_block && (b->nrows > 0 || (b->nthread > 0 && !beside))) ||
        (nthread && b->nthread > 0))
        flush(p);
    if (nthread) {
        ls_tokenize(line);
        parse_nthread_line(b, line);
        b->started = 1;
        b->headers = 1;
        return;
    }
    /* the footer's verdict ends a run: a second one with no row between is another run's,
       and one quoted alone (prose around it, no header or row) is still that run's verdict */
    int verdict = strstr(rawcopy, "Out of bounds values") != NULL;
    if (verdict) {
        if (b->has_oob && b->nrows == b->rows_at_oob)
            flush(p); /* no row since the last verdict: another run's */
        b->started = 1;
    }
    parse_comment(b, line, rawcopy);
    if (verdict)
        b->rows_at_oob = b->nrows;
    if (strstr(rawcopy, "Collective test concluded"))
        flush(p);
}

/* "./build/all_reduce_perf -b 8 ..." (also after a '#' or a shell prompt): names the
   collective of the test that follows; a second one starts a new test. 1 if it was one. */
static int handle_command(parser_t *p, const char *rawcopy)
{
    char perf[64];
    if (strstr(rawcopy, "NCCL INFO") || strstr(rawcopy, "Collective test") ||
        ls_nccl_text_perf_name(rawcopy, perf, sizeof perf) != 0)
        return 0;
    if (p->block.nrows > 0 || p->block.nthread > 0 || p->block.has_oob) /* a verdict ends a run */
        flush(p);
    snprintf(p->block.collective, sizeof p->block.collective, "%s", perf);
    return 1;
}

static int handle_line(parser_t *p, ls_line_t *line, char *err, size_t errlen)
{
    block_t *b = &p->block;
    ls_nccl_text_normalize(line->buf);
    char rawcopy[sizeof line->buf];
    /* a header line whose '#' a forum's Markdown ate reads as the header */
    int hash = line->buf[0] != '#' && ls_nccl_text_headerish(line->buf);
    size_t len = strlen(line->buf);
    if (hash && len + 2 < sizeof line->buf) {
        memmove(line->buf + 2, line->buf, len + 1);
        memcpy(line->buf, "# ", 2);
    }
    /* a wrapper that comments every line of the output it passes on ("#  536870912
       134217728  float  sum  -1  80965  6.63  9.95  0 ...", osrg/optcast's run.py):
       nccl-tests' own comment lines never hold a result row (a size, a count and a data
       type, then figures), so such a line is the row */
    if (line->buf[0] == '#' && ls_nccl_text_is_row(line->buf + 1))
        line->buf[0] = ' ';
    memcpy(rawcopy, line->buf, sizeof rawcopy);
    if (handle_command(p, rawcopy))
        return 0;
    if (rawcopy[0] == '#') {
        handle_comment(p, line, rawcopy);
        return 0;
    }
    if (strstr(rawcopy, "NCCL INFO ") || strncmp(rawcopy, "NCCL version ", 13) == 0) {
        parse_debug_line(&p->dbg, rawcopy);
        return 0;
    }
    ls_nccl_failure_t fail;
    if (ls_nccl_text_failure(rawcopy, &fail) == 0) {
        if (fail.primary || block_has_content(b))
            add_failure(b, &fail);
        return 0;
    }
    if (!ls_nccl_text_is_row(rawcopy))
        return 0;
    b->started = 1; /* rows pasted without any header still form a test */
    ls_tokenize(line);
    if (add_row(b, line) != 0)
        return ls_seterr(err, errlen, "%s: out of memory", p->name);
    return 0;
}

/* The row whose pieces were gathered (nccl_row_pieces.h), read as one line. */
static int handle_pending(parser_t *p, char *err, size_t errlen)
{
    ls_line_t row;
    snprintf(row.buf, sizeof row.buf, "%s", p->pending);
    p->pending[0] = '\0';
    return handle_line(p, &row, err, errlen);
}

/* One line of the paste: a result row's piece glued to NCCL's log line is set aside and
   the log line read; the row's last piece completes it; anything else first reads the
   pieces gathered so far (a row cut short keeps the groups it has). */
static int feed_line(parser_t *p, ls_line_t *line, char *err, size_t errlen)
{
    if (p->pending[0] && ls_row_piece_starts_row(line->buf)) {
        int rc = handle_pending(p, err, errlen); /* the row gathered lost its last piece */
        if (rc)
            return rc;
    }
    if (ls_row_piece_split(line->buf, p->pending, sizeof p->pending))
        return handle_line(p, line, err, errlen);
    if (!p->pending[0])
        return handle_line(p, line, err, errlen);
    if (strstr(line->buf, "] NCCL INFO ") || strstr(line->buf, "] NCCL WARN "))
        return handle_line(p, line, err, errlen); /* between two pieces */
    /* the row's last piece where it fits whole: one that does not is read alone, never
       appended cut short (a cell cut is a wrong figure: "26.99" read as "26") */
    size_t used = strlen(p->pending), tail = strlen(line->buf);
    if (ls_row_piece_tail(line->buf) && used + tail < sizeof p->pending) {
        memcpy(p->pending + used, line->buf, tail + 1);
        return handle_pending(p, err, errlen);
    }
    int rc = handle_pending(p, err, errlen);
    return rc ? rc : handle_line(p, line, err, errlen);
}

static void apply_debug(json_t *doc, const debug_t *dbg)
{
    const char *key;
    json_t *value;
    json_t *env = json_object_get(doc, "env");
    json_object_foreach(dbg->env, key, value) {
        if (!json_object_get(env, key))
            json_object_set(env, key, value);
    }
}

int ls_import_nccl_tests(json_t *doc, const char *text, const char *name, const char *variant,
                         const char *collective, char *err, size_t errlen)
{
    parser_t p;
    memset(&p, 0, sizeof p);
    p.doc = doc;
    p.name = name;
    p.variant = variant;
    p.collective = collective;
    p.dbg.transports = json_array();
    p.dbg.env = json_object();
    p.block.ranks = calloc(MAX_RANKS, sizeof *p.block.ranks);
    p.block.sorted = calloc(MAX_RANKS, sizeof *p.block.sorted);
    p.block.first = calloc(MAX_RANKS, 1);
    int rc = p.block.ranks && p.block.sorted && p.block.first
                 ? 0
                 : ls_seterr(err, errlen, "%s: out of memory", name);
    block_reset(&p.block);
    ls_line_t line;
    const char *pos = text;
    while (rc == 0 && ls_next_line(&pos, &line))
        rc = feed_line(&p, &line, err, errlen);
    if (rc == 0 && p.pending[0])
        rc = handle_pending(&p, err, errlen);
    if (rc == 0) {
        p.added += flush_block(&p.block, doc, name, variant, collective, &p.dbg);
    }
    if (rc == 0 && p.added == 0)
        rc = ls_seterr(err, errlen,
                       "%s: no nccl-tests results found (expected a '# nThread ...' "
                       "header and result rows)",
                       name);
    if (rc == 0) {
        apply_debug(doc, &p.dbg);
        const char *version = p.dbg.nccl_version;
        ls_set_if_absent(json_object_get(doc, "software"), "nccl", version[0] ? version : NULL);
    }
    free(p.block.ranks);
    free(p.block.sorted);
    free(p.block.first);
    free(p.block.rows);
    json_decref(p.dbg.transports);
    json_decref(p.dbg.env);
    return rc < 0 ? -1 : p.added;
}
