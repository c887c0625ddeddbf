#include "import_util.h"
#include "model/vocab.h"
#include "model/doc.h"
#include "util/log.h"
#include "util/parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copies one line, dropping ANSI escape sequences (nvidia-smi underlines its
   header row with ESC[4m ... ESC[0m) and carriage returns. */
int ls_next_line(const char **pos, ls_line_t *line)
{
    const char *p = *pos;
    if (!p || !*p)
        return 0;
    size_t n = 0;
    while (*p && *p != '\n') {
        if (*p == '\033' && p[1] == '[') {
            p += 2;
            while (*p && *p != '\n' && !isalpha((unsigned char)*p))
                p++;
            if (*p && *p != '\n')
                p++;
            continue;
        }
        if (*p != '\r' && n + 1 < sizeof line->buf)
            line->buf[n++] = *p;
        p++;
    }
    line->buf[n] = '\0';
    line->ntok = 0;
    *pos = *p ? p + 1 : p;
    return 1;
}

char *ls_strip_launcher_prefix(char *text)
{
    char *p = text;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '[') {
        char *tag = strstr(p, "]<stdout>:");
        if (!tag)
            tag = strstr(p, "]<stderr>:");
        if (tag)
            return tag + strlen("]<stdout>:");
        return text;
    }
    char *q = p;
    while (isdigit((unsigned char)*q))
        q++;
    if (q > p && *q == ':' && (q[1] == ' ' || q[1] == '\t'))
        return q + 1;
    return text;
}

/* An ANSI escape at p (Ray colours its prefix): its length, or 0. */
static size_t ansi_len(const char *p)
{
    if (p[0] != '\033' || p[1] != '[')
        return 0;
    size_t n = 2;
    while (p[n] && p[n] != '\n' && !isalpha((unsigned char)p[n]))
        n++;
    return p[n] && p[n] != '\n' ? n + 1 : 0;
}

/* Ray's tag before a remote process's line, at p: "(pid=N) ", "(RayWorker pid=N, ip=A) ",
   SkyPilot's "(head, rank=0, pid=N) " and "(worker1, rank=1, pid=N, ip=A) ", vLLM's
   "(VllmWorker rank=0 pid=N) ": one parenthesis (no other inside) holding a "pid=" word
   with digits, then a blank or the line's end. Its length with that blank, or 0. */
static size_t worker_prefix_len(const char *p)
{
    size_t n = ansi_len(p);
    if (p[n] != '(')
        return 0;
    const char *close = p + n + 1;
    int pid = 0;
    for (; *close && *close != ')' && *close != '\n' && *close != '(' && close - p < 200; close++)
        if (!strncmp(close, "pid=", 4) &&
            (close[-1] == '(' || close[-1] == ' ' || close[-1] == ',') &&
            isdigit((unsigned char)close[4]))
            pid = 1;
    if (*close != ')' || !pid)
        return 0;
    close++;
    close += ansi_len(close);
    if (*close == ' ' || *close == '\t')
        return (size_t)(close - p) + 1;
    return *close == '\n' || *close == '\r' || *close == '\0' ? (size_t)(close - p) : 0;
}

char *ls_strip_worker_prefixes(const char *text)
{
    size_t tagged = 0;
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        tagged += worker_prefix_len(p) > 0;
    if (!tagged)
        return NULL;
    char *out = malloc(strlen(text) + 1), *o = out;
    if (!out)
        return NULL;
    for (const char *p = text; *p;) {
        p += worker_prefix_len(p);
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
        memcpy(o, p, len);
        o += len;
        p += len;
    }
    *o = '\0';
    return out;
}

void ls_tokenize(ls_line_t *line)
{
    line->ntok = 0;
    char *save = NULL;
    for (char *t = strtok_r(line->buf, " \t", &save); t && line->ntok < LS_IMPORT_MAX_TOKENS;
         t = strtok_r(NULL, " \t", &save))
        line->tok[line->ntok++] = t;
}

char *ls_tok_unemphasize(char *tok)
{
    size_t n = tok ? strlen(tok) : 0;
    if (n > 4 && (tok[0] == '*' || tok[0] == '_') && tok[1] == tok[0] && tok[n - 1] == tok[0] &&
        tok[n - 2] == tok[0]) {
        tok[n - 2] = '\0';
        return tok + 2;
    }
    return tok;
}

int ls_tok_double(const char *tok, double *out)
{
    while (tok && isspace((unsigned char)*tok))
        tok++; /* strtod's own leniency, kept */
    return ls_parse_double(tok, out);
}

int ls_tok_long(const char *tok, long long *out)
{
    if (!tok || !*tok)
        return -1;
    errno = 0;
    char *end;
    long long v = strtoll(tok, &end, 10);
    if (*end || errno)
        return -1;
    *out = v;
    return 0;
}

const char *ls_json_start(const char *text)
{
    const char *line = text;
    for (int n = 0; line && *line && n < LS_JSON_PREAMBLE_LINES; n++) {
        const char *p = line + strspn(line, " \t\r\n");
        if (*p == '{')
            return p;
        if (n == 0 && *p == '\0')
            return NULL;
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    return NULL;
}

int ls_import_json_refused(json_t *top, const json_error_t *jerr, const char *name,
                           const char *what, const char *missing, char *err, size_t errlen)
{
    int parsed = top != NULL;
    json_decref(top);
    return ls_seterr(err, errlen, "%s: %s JSON: %s", name, what, parsed ? missing : jerr->text);
}

json_t *ls_import_gpu(json_t *doc, int index)
{
    json_t *gpus = json_object_get(doc, "gpus");
    size_t i;
    json_t *gpu;
    size_t insert_at = json_array_size(gpus);
    json_array_foreach(gpus, i, gpu) {
        long long have = ls_json_int(gpu, "index", -1);
        if (have == index)
            return gpu;
        if (have > index && insert_at == json_array_size(gpus))
            insert_at = i;
    }
    gpu = json_pack("{s:i}", "index", index);
    json_array_insert_new(gpus, insert_at, gpu);
    return gpu;
}

void ls_set_if_absent(json_t *obj, const char *key, const char *value)
{
    if (value && *value && !json_object_get(obj, key))
        json_object_set_new(obj, key, json_string(value));
}

void ls_import_add(json_t *doc, json_t *entry, const char *source, const char *base_id)
{
    json_object_set_new(entry, "id", json_string(base_id));
    json_object_set_new(entry, "source", json_string(source));
    json_t *flags = ls_json_array_at(entry, "flags");
    json_array_insert_new(flags, 0, json_string(LS_FLAG_IMPORTED));
    ls_doc_add_unique(doc, entry);
}

json_t *ls_import_entry(const char *family, const char *metric, const char *unit, double value)
{
    /* "id" first so that it leads the entry when written; ls_import_add fills it. */
    json_t *e = json_pack("{s:s, s:s, s:s, s:s, s:s}", "id", "", "family", family, "metric", metric,
                          "unit", unit, "status", "ok");
    json_object_set_new(e, "value", json_real(value));
    return e;
}

void ls_import_topo_numa(json_t *doc)
{
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(doc, "gpus"), i, g) {
        const char *aff = ls_json_str(g, "numa_affinity", "");
        if (json_object_get(g, "numa_node") || !*aff || strspn(aff, "0123456789") != strlen(aff) ||
            strlen(aff) > 4)
            continue;
        json_object_set_new(g, "numa_node", json_integer(atoi(aff)));
    }
}

void ls_import_topo_pci_view(const char *text, json_t *doc)
{
    /* nvidia-smi's -mp / --matrix_pci: "the GPUDirect communication matrix for the system,
       PCI only": a pair joined by NVLink shows its PCIe path */
    const char *p = strstr(text, "topo -mp");
    if (!(p && (p[8] == '\0' || isspace((unsigned char)p[8]) || p[8] == '`')) &&
        !strstr(text, "topo --matrix_pci"))
        return;
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(doc, "links"), i, l)
        json_object_set_new(l, "pci_only", json_true());
}
