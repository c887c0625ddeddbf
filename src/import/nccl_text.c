#include "nccl_text.h"
#include "util/lines.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* nccl-tests' type names (src/common.cu test_typenames, all versions). */
static const char *const type_names[] = {"int8",   "uint8",  "int32",    "uint32",   "int64",
                                         "uint64", "half",   "float",    "double",   "bfloat16",
                                         "f8e4m3", "f8e5m2", "fp8_e4m3", "fp8_e5m2", "char",
                                         "int",    "uint",   "float16",  "float32",  "float64"};

static int is_type_name(const char *tok, size_t n)
{
    for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
        if (strlen(type_names[i]) == n && strncmp(tok, type_names[i], n) == 0)
            return 1;
    return 0;
}

/* Length of a "[N]" or "[N,M]" tag at p (digits and commas), or 0. */
static size_t tag_length(const char *p)
{
    if (*p != '[')
        return 0;
    size_t n = 1;
    while (isdigit((unsigned char)p[n]) || p[n] == ',')
        n++;
    return n > 1 && p[n] == ']' ? n + 1 : 0;
}

static void strip_inner_tags(char *buf, const char *tag, size_t taglen)
{
    for (char *p = strstr(buf, tag); p; p = strstr(p, tag)) {
        memset(p, ' ', taglen);
        p += taglen;
    }
}

void ls_nccl_text_normalize(char *buf)
{
    char *p = buf;
    while (*p == ' ' || *p == '\t' || *p == '`')
        p++;
    /* a quoted paste (e-mail or Markdown quoting: "> ", ">> ", "> > "): nccl-tests prints
       no line that starts with '>' */
    if (*p == '>')
        p = (char *)ls_skip_quote(p);
    size_t tag = tag_length(p);
    char tagtext[32] = "";
    if (tag && tag < sizeof tagtext) {
        memcpy(tagtext, p, tag);
        tagtext[tag] = '\0';
        p += tag;
        if (strncmp(p, "<stdout>:", 9) == 0 || strncmp(p, "<stderr>:", 9) == 0)
            p += 9;
    } else {
        const char *q = p;
        while (isdigit((unsigned char)*q))
            q++;
        if (q > p && *q == ':' && (q[1] == ' ' || q[1] == '\t')) /* srun -l: "3: " */
            p = (char *)q + 1;
    }
    while (*p == ' ' || *p == '\t')
        p++;
    memmove(buf, p, strlen(p) + 1);
    if (tagtext[0])
        strip_inner_tags(buf, tagtext, strlen(tagtext));
}

static int starts_word(const char *s, const char *word)
{
    size_t n = strlen(word);
    return strncmp(s, word, n) == 0 && (s[n] == '\0' || isspace((unsigned char)s[n]));
}

int ls_nccl_text_headerish(const char *line)
{
    const char *s = line;
    while (*s == ' ' || *s == '\t')
        s++;
    if (starts_word(s, "nThread") && strstr(s, "nGpus"))
        return 1;
    if (starts_word(s, "Rank") && strstr(s, " device "))
        return 1;
    if (starts_word(s, "size") && strstr(s, "count") && strstr(s, "time"))
        return 1;
    return starts_word(s, "Using devices") || starts_word(s, "(B)") ||
           starts_word(s, "out-of-place") || strncmp(s, "Out of bounds values", 20) == 0 ||
           strncmp(s, "Avg bus bandwidth", 17) == 0 || strncmp(s, "nccl-tests version", 18) == 0 ||
           strncmp(s, "Collective test", 15) == 0;
}

int ls_nccl_text_perf_name(const char *line, char *out, size_t outlen)
{
    for (const char *p = strstr(line, "_perf"); p; p = strstr(p + 1, "_perf")) {
        const char *end = p + 5;
        if (strncmp(end, "_mpi", 4) == 0)
            end += 4;
        if (*end && !isspace((unsigned char)*end))
            continue; /* "_performance", "all_reduce_perf.log" */
        const char *start = p;
        while (start > line && (isalnum((unsigned char)start[-1]) || start[-1] == '_'))
            start--;
        size_t n = (size_t)(p - start);
        if (n == 0 || n >= outlen)
            continue;
        memcpy(out, start, n);
        out[n] = '\0';
        return 0;
    }
    return -1;
}

static int whole_number(const char *tok, size_t n)
{
    size_t i = tok[0] == '-' ? 1 : 0;
    if (i == n)
        return 0;
    for (; i < n; i++)
        if (!isdigit((unsigned char)tok[i]))
            return 0;
    return 1;
}

/* A figure cell: a number, "N/A", or "0e+00". */
static int figure(const char *tok, size_t n)
{
    if (n == 3 && strncmp(tok, "N/A", 3) == 0)
        return 1;
    char *end;
    strtod(tok, &end);
    return end == tok + n;
}

int ls_nccl_text_is_row(const char *line)
{
    const char *tok[16];
    size_t len[16];
    int ntok = 0;
    for (const char *p = line; *p && ntok < 16;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        tok[ntok] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        len[ntok] = (size_t)(p - tok[ntok]);
        ntok++;
    }
    if (ntok < 7 || !whole_number(tok[0], len[0]) || tok[0][0] == '-' ||
        !whole_number(tok[1], len[1]) || !is_type_name(tok[2], len[2]))
        return 0;
    int figures = 0;
    for (int i = 3; i < ntok; i++)
        figures += figure(tok[i], len[i]);
    return figures >= 4;
}

/* The host word in front of ": Test ... failure" (no blank inside it), or "". */
static void failure_host(const char *line, const char *at, char *host, size_t len)
{
    host[0] = '\0';
    if (at - line < 3 || at[-1] != ' ' || at[-2] != ':')
        return;
    const char *end = at - 2, *start = end;
    while (start > line && start[-1] != ' ' && start[-1] != '\t')
        start--;
    size_t n = (size_t)(end - start);
    if (n > 0 && n < len) {
        memcpy(host, start, n);
        host[n] = '\0';
    }
}

/* nccl-tests before March 2019 (src/common.h, NCCLCHECK/CUDACHECK): "NCCL failure
   FILE:LINE 'MESSAGE'" and "Cuda failure FILE:LINE 'MESSAGE'" at the start of a line,
   with no host and no "Test". NCCL's own "Cuda failure 'x'" WARN text has no FILE:LINE. */
static const char *old_failure(const char *line)
{
    if (strncmp(line, "NCCL failure ", 13) && strncmp(line, "Cuda failure ", 13))
        return NULL;
    const char *file = line + 13, *q = file;
    while (*q && !isspace((unsigned char)*q))
        q++;
    const char *colon = q > file ? memchr(file, ':', (size_t)(q - file)) : NULL;
    if (!colon || colon == file || !isdigit((unsigned char)colon[1]) || q[0] != ' ' || q[1] != '\'')
        return NULL;
    for (const char *d = colon + 1; d < q; d++)
        if (!isdigit((unsigned char)*d))
            return NULL;
    return line;
}

int ls_nccl_text_failure(const char *line, ls_nccl_failure_t *f)
{
    memset(f, 0, sizeof *f);
    const char *at = strstr(line, "Test NCCL failure ");
    if (!at)
        at = strstr(line, "Test CUDA failure ");
    if (!at)
        at = old_failure(line);
    if (at) {
        failure_host(line, at, f->host, sizeof f->host);
        snprintf(f->message, sizeof f->message, "%s", at);
        f->primary = 1;
        return 0;
    }
    /* " .. HOST pid PID: Test failure FILE:LINE" */
    at = strstr(line, ": Test failure ");
    const char *dots = strstr(line, ".. ");
    if (!at || !dots || dots > at)
        return -1;
    char host[64];
    long pid;
    if (sscanf(dots + 3, "%63s pid %ld", host, &pid) != 2)
        return -1;
    snprintf(f->host, sizeof f->host, "%s", host);
    snprintf(f->message, sizeof f->message, "%s", at + 2);
    return 0;
}

/* nccl-tests' footer verdict, "# Out of bounds values : 56 FAILED" (common.cu prints it
   after every run, "OK" or "FAILED"): s past the '#'. Quoted alone in prose, it is the
   run's verdict. */
static int footer_verdict(const char *s)
{
    long long n;
    char word[8];
    s += strspn(s, " \t");
    return strncmp(s, "Out of bounds values", 20) == 0 &&
           sscanf(s + 20, " : %lld %7s", &n, word) == 2 &&
           (strncmp(word, "OK", 2) == 0 || strncmp(word, "FAILED", 6) == 0);
}

int ls_nccl_text_detect(const char *text)
{
    if (strstr(text, "Collective test starting") ||
        (strstr(text, "nThread") && strstr(text, "nGpus")))
        return 1;
    int rows = 0, header = 0, named = 0, failed = 0;
    char buf[1024], name[64];
    for (const char *p = text; ls_text_line(&p, buf, sizeof buf);) {
        ls_nccl_text_normalize(buf);
        ls_nccl_failure_t f;
        failed |= ls_nccl_text_failure(buf, &f) == 0 && f.primary;
        const char *s = buf[0] == '#' ? buf + 1 : buf;
        header |= (ls_nccl_text_headerish(s) && strstr(s, "busbw") != NULL) || footer_verdict(s);
        named |= !strstr(buf, "NCCL INFO") && ls_nccl_text_perf_name(buf, name, sizeof name) == 0;
        rows += ls_nccl_text_is_row(buf);
    }
    return header || failed || rows >= 2 || (named && rows >= 1);
}

int ls_nccl_env_line(const char *msg, char *key, size_t keylen, char *value, size_t valuelen)
{
    char k[64], v[128];
    if (sscanf(msg, "%63[A-Z0-9_] set by environment to %127[^\n]", k, v) != 2 ||
        strncmp(k, "NCCL_", 5) != 0)
        return -1;
    size_t n = strlen(v);
    while (n && (isspace((unsigned char)v[n - 1]) || (v[n - 1] == '.')))
        v[--n] = '\0';
    if (!n)
        return -1;
    snprintf(key, keylen, "%s", k);
    snprintf(value, valuelen, "%s", v);
    return 0;
}
