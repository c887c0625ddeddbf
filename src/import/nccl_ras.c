/* ncclras text. Layout (NCCL's docs/RAS and reports posted in NVIDIA/nccl issues):
     NCCL version 2.26.2 compiled with CUDA 12.6
     Job summary / ===========  then a header of two lines and one row of five numbers:
       nodes, processes per node, GPUs per process, processes, GPUs
     Communicators... (0.00s) / =============  then "Group Comms Nodes Ranks Ranks Ranks
       Status Errors" (two header lines) and one row per group of alike communicators:
       group, comms in group, nodes per comm, ranks per node, ranks per comm, ranks in
       group, status (RUNNING, INIT, ...), errors (OK, MISMATCH, INCOMPLETE, DEAD, ...)
     Errors / ======  and  Warnings / ========  then entries "#G-C (hash) STATE" followed
       by indented lines, some naming a rank: "Rank 12 -- GPU 4 managed by process
       323032 on node 10.137.190.124".
   Lines the layout does not cover are ignored. */
#include "nccl_ras.h"
#include "import_util.h"
#include "model/doc.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A section title line followed by its "=====" underline. */
static int has_section(const char *text, const char *title)
{
    size_t n = strlen(title);
    for (const char *p = strstr(text, title); p; p = strstr(p + 1, title)) {
        const char *after = p + n;
        while (*after == ' ' || *after == '\r')
            after++;
        if ((p == text || p[-1] == '\n') && *after == '\n' && after[1] == '=')
            return 1;
    }
    return 0;
}

/* The whole report, or a part of it people paste: the communicator table (its header
   ends "Status  Errors" over "in group"), or an Errors / Warnings section alone. */
int ls_nccl_ras_detect(const char *text)
{
    if (strstr(text, "Job summary") && strstr(text, "Communicators"))
        return 1;
    if (strstr(text, "Group") && strstr(text, "Comms") && strstr(text, "in group") &&
        strstr(text, "Status") && strstr(text, "Errors"))
        return 1;
    if (strstr(text, "RAS Monitor Mode") ||
        (strstr(text, "] PEER_") && strstr(text, "managing GPU")))
        return 1; /* ncclras -m */
    return (has_section(text, "Errors") || has_section(text, "Warnings")) &&
           (strstr(text, "Missing communicator data") || strstr(text, "considered dead") ||
            strstr(text, "managed by process") || strstr(text, "communication timeouts"));
}

enum section {
    SEC_NONE,
    SEC_JOB,
    SEC_COMMS,
    SEC_ERRORS,
    SEC_WARNINGS,
    SEC_UNTITLED /* a problem pasted without its section's title */
};

typedef struct {
    enum section sec;
    json_t *ras, *groups, *problems, *current; /* current: the problem being read */
    int job_read;
} ras_t;

static int all_numbers(const ls_line_t *l, int from, int n, long long *out)
{
    if (l->ntok < from + n)
        return 0;
    for (int i = 0; i < n; i++)
        if (ls_tok_long(l->tok[from + i], &out[i]) != 0)
            return 0;
    return 1;
}

static void job_row(ras_t *r, const ls_line_t *l)
{
    long long v[5];
    if (r->job_read || l->ntok != 5 || !all_numbers(l, 0, 5, v))
        return;
    static const char *const keys[] = {"nodes", "processes_per_node", "gpus_per_process",
                                       "processes", "gpus"};
    for (int i = 0; i < 5; i++)
        json_object_set_new(r->ras, keys[i], json_integer(v[i]));
    r->job_read = 1;
}

/* A count, or a range of counts ("7-8" ranks per node while a process is missing, "1-2"
   while a communicator is torn down): a number, or the range as printed. */
static json_t *count_or_range(const char *tok)
{
    long long v, lo, hi;
    char end;
    if (ls_tok_long(tok, &v) == 0)
        return json_integer(v);
    if (sscanf(tok, "%lld-%lld%c", &lo, &hi, &end) == 2)
        return json_string(tok);
    return NULL;
}

static void comm_row(ras_t *r, const ls_line_t *l)
{
    static const char *const keys[] = {"group",          "comms",          "nodes_per_comm",
                                       "ranks_per_node", "ranks_per_comm", "ranks"};
    long long v[2];
    if (l->ntok < 8 || !all_numbers(l, 0, 2, v))
        return;
    json_t *g = json_object();
    for (int i = 0; i < 6; i++) {
        json_t *c = count_or_range(l->tok[i]);
        if (!c) {
            json_decref(g);
            return;
        }
        json_object_set_new(g, keys[i], c);
    }
    json_object_set_new(g, "status", json_string(l->tok[6]));
    json_object_set_new(g, "errors", json_string(l->tok[7]));
    json_array_append_new(r->groups, g);
}

/* "#0-0 (fa93daea854b060b) MISMATCH" starts a communicator's problem; a line of one
   capitalized word ("INCOMPLETE", "DEAD", "TIMEOUT") one of the job's. */
static void problem_start(ras_t *r, const ls_line_t *l, const char *comm)
{
    const char *kind = r->sec == SEC_ERRORS     ? "error"
                       : r->sec == SEC_WARNINGS ? "warning"
                                                : "unknown";
    r->current = json_pack("{s:s, s:s, s:s, s:[], s:[]}", "kind", kind, "comm", comm, "state",
                           l->ntok > 1 ? l->tok[l->ntok - 1] : l->tok[0], "lines", "ranks");
    json_array_append_new(r->problems, r->current);
}

static int job_problem_word(const ls_line_t *l, const char *raw)
{
    if (l->ntok != 1 || raw[0] == ' ' || raw[0] == '\t' || strlen(l->tok[0]) < 3)
        return 0;
    for (const char *c = l->tok[0]; *c; c++)
        if (!(*c >= 'A' && *c <= 'Z') && *c != '_')
            return 0;
    return 1;
}

/* "Rank 12 -- GPU 4 managed by process 323032 on node 10.137.190.124" */
static void rank_line(ras_t *r, const char *text)
{
    long long rank, gpu, pid;
    char host[256];
    if (sscanf(text, " Rank %lld -- GPU %lld managed by process %lld on node %255s", &rank, &gpu,
               &pid, host) != 4)
        return;
    json_array_append_new(json_object_get(r->current, "ranks"),
                          json_pack("{s:I, s:I, s:I, s:s}", "rank", rank, "gpu", gpu, "pid", pid,
                                    "host", host));
}

/* "Process 3487984 on node 172.16.64.213 managing GPU 5" (a missing or dead process)
   and "The missing rank: 21" / "The missing ranks: 21, 22". */
static void process_line(ras_t *r, const char *text)
{
    long long pid, gpu;
    char host[256];
    if (sscanf(text, " Process %lld on node %255s managing GPU %lld", &pid, host, &gpu) == 3) {
        json_t *procs = json_object_get(r->current, "processes");
        if (!procs)
            json_object_set_new(r->current, "processes", procs = json_array());
        json_array_append_new(procs,
                              json_pack("{s:I, s:s, s:I}", "pid", pid, "host", host, "gpu", gpu));
    }
    const char *m = strstr(text, "The missing rank");
    if (m && (m = strchr(m, ':'))) {
        json_t *missing = json_array();
        for (char *end; *++m;) {
            long long v = strtoll(m, &end, 10);
            if (end == m)
                continue;
            json_array_append_new(missing, json_integer(v));
            m = end - 1;
        }
        json_object_set_new(r->current, "missing_ranks", missing);
    }
}

static void problem_line(ras_t *r, const ls_line_t *l, const char *raw)
{
    if (l->ntok > 0 && l->tok[0][0] == '#' && strchr(l->tok[0], '-')) {
        problem_start(r, l, l->tok[0] + 1);
        return;
    }
    if (job_problem_word(l, raw)) {
        problem_start(r, l, "job");
        return;
    }
    if (!r->current || l->ntok == 0)
        return;
    const char *p = raw;
    while (*p == ' ' || *p == '\t')
        p++;
    json_array_append_new(json_object_get(r->current, "lines"), json_string(p));
    rank_line(r, raw);
    process_line(r, raw);
}

static enum section section_of(const char *raw, enum section was)
{
    while (*raw == ' ')
        raw++; /* a paste indented as a code block */
    if (strncmp(raw, "Job summary", 11) == 0)
        return SEC_JOB;
    if (strncmp(raw, "Communicators", 13) == 0 ||
        (strncmp(raw, "Group ", 6) == 0 && strstr(raw, "Comms")))
        return SEC_COMMS; /* the table pasted without its title starts at its header */
    int g, c;
    if (sscanf(raw, "#%d-%d (", &g, &c) == 2 && was != SEC_ERRORS && was != SEC_WARNINGS)
        return SEC_UNTITLED;
    if (strncmp(raw, "Errors", 6) == 0 && raw[6 + strspn(raw + 6, " \r")] == 0)
        return SEC_ERRORS;
    if (strncmp(raw, "Warnings", 8) == 0 && raw[8 + strspn(raw + 8, " \r")] == 0)
        return SEC_WARNINGS;
    return was;
}

/* The monitoring mode's text (ncclras -m, NCCL 2.29): "[2025-12-19 13:07:07] PEER_DEAD:
   Process 1524345 on node 172.16.64.245 managing GPU 1". A peer declared dead is an
   error, one unresponsive or stuck a warning, the others kept as information. 1 when the
   line was one. */
static int monitor_event(ras_t *r, const char *raw)
{
    char event[64];
    int at = 0;
    if (sscanf(raw, "[%*[^]]] %63[A-Z_]:%n", event, &at) != 1 || at == 0 ||
        strncmp(event, "PEER_", 5) != 0)
        return 0;
    const char *kind = strstr(event, "DEAD")                                       ? "error"
                       : (strstr(event, "UNRESPONSIVE") || strstr(event, "STUCK")) ? "warning"
                                                                                   : "info";
    r->current = json_pack("{s:s, s:s, s:s, s:[s], s:[]}", "kind", kind, "comm", "job", "state",
                           event, "lines", raw, "ranks");
    json_array_append_new(r->problems, r->current);
    process_line(r, raw + at);
    r->current = NULL;
    return 1;
}

static void handle(ras_t *r, ls_line_t *l, const char *raw)
{
    if (monitor_event(r, raw))
        return;
    enum section s = section_of(raw, r->sec);
    if (s != r->sec) {
        r->sec = s, r->current = NULL;
        if (s != SEC_UNTITLED) /* a title line; an untitled problem starts at its own line */
            return;
    }
    char version[64];
    if (sscanf(raw, "NCCL version %63s", version) == 1)
        json_object_set_new(r->ras, "nccl_version", json_string(version));
    ls_tokenize(l);
    if (r->sec == SEC_JOB)
        job_row(r, l);
    else if (r->sec == SEC_COMMS)
        comm_row(r, l);
    else if (r->sec == SEC_ERRORS || r->sec == SEC_WARNINGS || r->sec == SEC_UNTITLED)
        problem_line(r, l, raw);
}

int ls_import_nccl_ras(json_t *doc, const char *text, const char *name, char *err, size_t errlen)
{
    ras_t r = {.ras = json_pack("{s:s}", "file", name),
               .groups = json_array(),
               .problems = json_array()};
    const char *pos = text;
    ls_line_t line;
    char raw[sizeof line.buf];
    while (ls_next_line(&pos, &line)) {
        snprintf(raw, sizeof raw, "%s", line.buf);
        handle(&r, &line, raw);
    }
    int n = (int)(json_array_size(r.groups) + json_array_size(r.problems));
    if (!r.job_read && n == 0) {
        json_decref(r.ras), json_decref(r.groups), json_decref(r.problems);
        return ls_seterr(err, errlen,
                         "%s: ncclras text: no job summary, communicator row or problem", name);
    }
    json_object_set_new(r.ras, "groups", r.groups);
    json_object_set_new(r.ras, "problems", r.problems);
    json_t *list = ls_json_array_at(doc, "nccl_ras");
    json_array_append_new(list, r.ras);
    return n;
}
