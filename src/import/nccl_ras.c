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

int ls_nccl_ras_detect(const char *text)
{
    return strstr(text, "Job summary") != NULL && strstr(text, "Communicators") != NULL;
}

enum section { SEC_NONE, SEC_JOB, SEC_COMMS, SEC_ERRORS, SEC_WARNINGS };

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
    static const char *const keys[] = {"nodes", "processes_per_node", "gpus_per_process", "processes", "gpus"};
    for (int i = 0; i < 5; i++)
        json_object_set_new(r->ras, keys[i], json_integer(v[i]));
    r->job_read = 1;
}

static void comm_row(ras_t *r, const ls_line_t *l)
{
    long long v[6];
    if (l->ntok < 8 || !all_numbers(l, 0, 6, v))
        return;
    json_array_append_new(r->groups, json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:s, s:s}", "group", v[0], "comms",
                                               v[1], "nodes_per_comm", v[2], "ranks_per_node", v[3],
                                               "ranks_per_comm", v[4], "ranks", v[5], "status", l->tok[6],
                                               "errors", l->tok[7]));
}

/* "#0-0 (fa93daea854b060b) MISMATCH" starts a problem. */
static void problem_start(ras_t *r, const ls_line_t *l, const char *raw)
{
    r->current = json_pack("{s:s, s:s, s:s, s:[], s:[]}", "kind", r->sec == SEC_ERRORS ? "error" : "warning",
                           "comm", l->tok[0] + 1, "state", l->ntok > 1 ? l->tok[l->ntok - 1] : "unknown", "lines",
                           "ranks");
    (void)raw;
    json_array_append_new(r->problems, r->current);
}

/* "Rank 12 -- GPU 4 managed by process 323032 on node 10.137.190.124" */
static void rank_line(ras_t *r, const char *text)
{
    long long rank, gpu, pid;
    char host[256];
    if (sscanf(text, " Rank %lld -- GPU %lld managed by process %lld on node %255s", &rank, &gpu, &pid, host) != 4)
        return;
    json_array_append_new(json_object_get(r->current, "ranks"),
                          json_pack("{s:I, s:I, s:I, s:s}", "rank", rank, "gpu", gpu, "pid", pid, "host", host));
}

static void problem_line(ras_t *r, const ls_line_t *l, const char *raw)
{
    if (l->ntok > 0 && l->tok[0][0] == '#' && strchr(l->tok[0], '-')) {
        problem_start(r, l, raw);
        return;
    }
    if (!r->current || l->ntok == 0)
        return;
    const char *p = raw;
    while (*p == ' ' || *p == '\t')
        p++;
    json_array_append_new(json_object_get(r->current, "lines"), json_string(p));
    rank_line(r, raw);
}

static enum section section_of(const char *raw, enum section was)
{
    if (strncmp(raw, "Job summary", 11) == 0)
        return SEC_JOB;
    if (strncmp(raw, "Communicators", 13) == 0)
        return SEC_COMMS;
    if (strcmp(raw, "Errors") == 0)
        return SEC_ERRORS;
    if (strcmp(raw, "Warnings") == 0)
        return SEC_WARNINGS;
    return was;
}

static void handle(ras_t *r, ls_line_t *l, const char *raw)
{
    enum section s = section_of(raw, r->sec);
    if (s != r->sec) {
        r->sec = s, r->current = NULL;
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
    else if (r->sec == SEC_ERRORS || r->sec == SEC_WARNINGS)
        problem_line(r, l, raw);
}

int ls_import_nccl_ras(json_t *doc, const char *text, const char *name, char *err, size_t errlen)
{
    ras_t r = {.ras = json_pack("{s:s}", "file", name), .groups = json_array(), .problems = json_array()};
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
        return ls_seterr(err, errlen, "%s: ncclras text: no job summary or communicator row", name);
    }
    json_object_set_new(r.ras, "groups", r.groups);
    json_object_set_new(r.ras, "problems", r.problems);
    json_t *list = json_object_get(doc, "nccl_ras");
    if (!json_is_array(list)) {
        list = json_array();
        json_object_set_new(doc, "nccl_ras", list);
    }
    json_array_append_new(list, r.ras);
    return n;
}
