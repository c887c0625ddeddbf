/* ncclras -f json. Layout (NCCL's src/ras/client_support.cc, jsonWrite*; its RAS
   documentation's sample, 2.29.1):
     {"nccl_version", "cuda_runtime_version", "cuda_driver_version", "timestamp",
      "communicators_count", "communicators": [{"hash", "secondary_hash", "size",
        "ranks_count", "missing_ranks_count",
        "ranks": [{"rank", "host", "pid", "cuda_dev", "nvml_dev", "status": {"init_state"
          (0 = ncclSuccess, 7 = ncclInProgress), "async_error", "finalize_called",
          "destroy_flag", "abort_flag"}, "collective_counts": {"AllReduce": N, ...}}],
        "missing_ranks": [{"rank", "host", "pid", "cuda_dev", "nvml_dev",
          "status": {"unresponsive", "considered_dead"}}]}],
      "ras": {"collection_time_sec", "timeouts_count"}}
   and, with -m, one object per event: {"timestamp", "group" (LIFECYCLE, TRACE), "event"
   (PEER_DEAD, PEER_UNRESPONSIVE, ...), "peer": {"host", "pid", "cuda_devs", "nvml_devs"},
   "details"}. The JSON is RAS's raw data: the states the text prints (INIT, RUNNING,
   FINALIZE, ABORT; INCOMPLETE, ERROR, MISMATCH) are derived here the way its text
   report derives them. */
#include "nccl_ras_json.h"
#include "model/doc.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCCL_IN_PROGRESS 7 /* ncclResult_t ncclInProgress: initialization still going */

int ls_nccl_ras_json_detect(const char *text)
{
    const char *p = text + strspn(text, " \t\r\n");
    if (*p != '{')
        return 0;
    if (strstr(text, "\"communicators\"") &&
        (strstr(text, "\"missing_ranks\"") || strstr(text, "\"ras\"")))
        return 1;
    return strstr(text, "\"event\"") && strstr(text, "\"peer\"") && strstr(text, "\"PEER_");
}

static json_t *rank_ref(const json_t *r)
{
    return json_pack("{s:I, s:I, s:I, s:s}", "rank", ls_json_int(r, "rank", -1), "gpu",
                     ls_json_int(r, "cuda_dev", -1), "pid", ls_json_int(r, "pid", -1), "host",
                     ls_json_str(r, "host", "unknown"));
}

static json_t *problem(const char *kind, const char *comm, const char *state, const char *line)
{
    return json_pack("{s:s, s:s, s:s, s:[s], s:[]}", "kind", kind, "comm", comm, "state", state,
                     "lines", line, "ranks");
}

/* The most common count of op among the ranks; -1 when no rank has it. */
static long long usual_count(const json_t *ranks, const char *op)
{
    long long best = -1;
    int best_n = 0;
    size_t i, j;
    const json_t *a, *b;
    json_array_foreach(ranks, i, a) {
        long long v = ls_json_int(json_object_get(a, "collective_counts"), op, -1);
        int n = 0;
        json_array_foreach(ranks, j, b)
            n += ls_json_int(json_object_get(b, "collective_counts"), op, -1) == v;
        if (v >= 0 && (n > best_n || (n == best_n && v > best)))
            best = v, best_n = n; /* a tie: the ranks behind are named (the others wait for them) */
    }
    return best;
}

/* Ranks whose count of an operation differs from most ranks' (RAS's MISMATCH). */
static json_t *mismatch(const json_t *ranks, const char *comm)
{
    json_t *p = NULL;
    const char *op;
    const json_t *v;
    json_object_foreach(json_object_get(json_array_get(ranks, 0), "collective_counts"), op, v) {
        long long usual = usual_count(ranks, op);
        size_t i;
        const json_t *r;
        json_array_foreach(ranks, i, r) {
            if (ls_json_int(json_object_get(r, "collective_counts"), op, -1) == usual)
                continue;
            if (!p) {
                char line[160];
                snprintf(line, sizeof line,
                         "Communicator ranks have different %s operation counts (most: %lld)", op,
                         usual);
                p = problem("warning", comm, "MISMATCH", line);
            }
            json_array_append_new(json_object_get(p, "ranks"), rank_ref(r));
        }
    }
    return p;
}

/* A rank whose state RAS's text would call an error: a failed init, an async error, an
   abort. */
static void rank_errors(json_t *problems, const json_t *r, const char *comm, int *error, int *init,
                        int *fin, int *abort)
{
    const json_t *st = json_object_get(r, "status");
    long long is = ls_json_int(st, "init_state", 0), ae = ls_json_int(st, "async_error", 0);
    *init |= is == NCCL_IN_PROGRESS;
    *fin |= json_is_true(json_object_get(st, "finalize_called"));
    *abort |= json_is_true(json_object_get(st, "abort_flag"));
    if ((is != 0 && is != NCCL_IN_PROGRESS) || (ae != 0 && ae != NCCL_IN_PROGRESS) ||
        json_is_true(json_object_get(st, "abort_flag"))) {
        char line[160];
        snprintf(line, sizeof line, "init_state %lld, async_error %lld, abort_flag %s", is, ae,
                 json_is_true(json_object_get(st, "abort_flag")) ? "true" : "false");
        json_t *p = problem("error", comm, "ERROR", line);
        json_array_append_new(json_object_get(p, "ranks"), rank_ref(r));
        json_array_append_new(problems, p);
        *error = 1;
    }
}

static void missing(json_t *problems, const json_t *c, const char *comm)
{
    size_t i;
    const json_t *m;
    json_array_foreach(json_object_get(c, "missing_ranks"), i, m) {
        const json_t *st = json_object_get(m, "status");
        int dead = json_is_true(json_object_get(st, "considered_dead"));
        json_t *p = problem("error", comm, dead ? "DEAD" : "INCOMPLETE",
                            dead ? "Missing rank: its process is considered dead (unreachable via "
                                   "the RAS network)"
                            : json_is_true(json_object_get(st, "unresponsive"))
                                ? "Missing rank: RAS could not reach it (unresponsive)"
                                : "Missing rank: reachable, but not a member of the communicator");
        json_array_append_new(json_object_get(p, "ranks"), rank_ref(m));
        json_array_append_new(problems, p);
    }
}

static void communicator(json_t *groups, json_t *problems, const json_t *c, size_t idx)
{
    char comm[96];
    snprintf(comm, sizeof comm, "%s", ls_json_str(c, "hash", "?"));
    const json_t *ranks = json_object_get(c, "ranks");
    int error = 0, init = 0, fin = 0, abort = 0;
    size_t i;
    const json_t *r;
    json_array_foreach(ranks, i, r)
        rank_errors(problems, r, comm, &error, &init, &fin, &abort);
    missing(problems, c, comm);
    json_t *mm = mismatch(ranks, comm);
    if (mm)
        json_array_append_new(problems, mm);
    char errors[64] = "";
    int incomplete = ls_json_int(c, "missing_ranks_count", 0) > 0;
    snprintf(errors, sizeof errors, "%s%s%s%s%s", incomplete ? "INCOMPLETE" : "",
             incomplete && error ? "," : "", error ? "ERROR" : "",
             (incomplete || error) && mm ? "," : "", mm ? "MISMATCH" : "");
    const char *status = abort ? "ABORT" : fin ? "FINALIZE" : init ? "INIT" : "RUNNING";
    json_array_append_new(groups,
                          json_pack("{s:I, s:i, s:I, s:I, s:s, s:s, s:s}", "group", (json_int_t)idx,
                                    "comms", 1, "ranks_per_comm", ls_json_int(c, "size", -1),
                                    "ranks", ls_json_int(c, "size", -1), "status", status, "errors",
                                    errors[0] ? errors : "OK", "hash", comm));
}

/* One monitoring event: a peer declared dead is an error; the others are kept as lines. */
static void event(json_t *problems, const json_t *e)
{
    const char *ev = ls_json_str(e, "event", "?");
    const json_t *peer = json_object_get(e, "peer");
    int dead = strstr(ev, "DEAD") != NULL,
        bad = dead || strstr(ev, "UNRESPONSIVE") || strstr(ev, "STUCK");
    char line[512];
    snprintf(line, sizeof line, "%s %s%s%s", ls_json_str(e, "timestamp", ""), ev,
             ls_json_str(e, "details", "")[0] ? ": " : "", ls_json_str(e, "details", ""));
    json_t *p = problem(dead ? "error" : bad ? "warning" : "info", "job", ev, line);
    json_t *procs = json_array();
    size_t i;
    const json_t *g;
    json_array_foreach(json_object_get(peer, "cuda_devs"), i, g)
        json_array_append_new(procs,
                              json_pack("{s:I, s:s, s:I}", "pid", ls_json_int(peer, "pid", -1),
                                        "host", ls_json_str(peer, "host", "unknown"), "gpu",
                                        json_integer_value(g)));
    json_object_set_new(p, "processes", procs);
    json_array_append_new(problems, p);
}

/* Every JSON value in text, one after the other (the monitoring mode prints a stream). */
static int each_value(const char *text, json_t *values)
{
    size_t len = strlen(text), at = 0;
    while (at < len) {
        at += strspn(text + at, " \t\r\n");
        if (at >= len)
            break;
        json_error_t jerr;
        json_t *v = json_loadb(text + at, len - at, JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY,
                               &jerr);
        if (!v || jerr.position <= 0)
            return json_decref(v), -1;
        json_array_append_new(values, v);
        at += (size_t)jerr.position;
    }
    return 0;
}

/* NCCL 2.28.9 writes a missing rank's "nvml_dev" without the comma before "status"
   (as ray-project/ray's captures show): a copy with a comma put wherever a line ends in a
   value and the next opens with a key. NULL when nothing was missing. */
static char *repair_commas(const char *text)
{
    size_t len = strlen(text), used = 0, added = 0;
    char *out = malloc(len * 2 + 1);
    if (!out)
        return NULL;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n' && used > 0) {
            size_t k = used;
            while (k > 0 && (out[k - 1] == ' ' || out[k - 1] == '\t' || out[k - 1] == '\r'))
                k--;
            const char *next = text + i + 1 + strspn(text + i + 1, " \t\r\n");
            char last = k ? out[k - 1] : 0;
            if (*next == '"' && (strchr("0123456789\"e}]", last) && last)) {
                out[used++] = ',';
                added++;
            }
        }
        out[used++] = text[i];
    }
    out[used] = 0;
    if (added == 0) {
        free(out);
        return NULL;
    }
    return out;
}

int ls_import_nccl_ras_json(json_t *doc, const char *text, const char *name, char *err,
                            size_t errlen)
{
    json_t *values = json_array();
    int repaired = 0;
    if (each_value(text, values) != 0) {
        char *fixed = repair_commas(text);
        json_array_clear(values);
        if (fixed && each_value(fixed, values) == 0)
            repaired = 1;
        else
            json_array_clear(values);
        free(fixed);
    }
    if (json_array_size(values) == 0) {
        json_decref(values);
        return ls_seterr(err, errlen, "%s: ncclras JSON: not JSON", name);
    }
    json_t *ras = json_pack("{s:s, s:s}", "file", name, "format", "json"), *groups = json_array(),
           *problems = json_array();
    if (repaired)
        json_object_set_new(ras, "repaired",
                            json_string("commas NCCL 2.28.9 leaves out in missing_ranks put back"));
    size_t i, n = 0;
    const json_t *v;
    json_array_foreach(values, i, v) {
        if (ls_json_str(v, "nccl_version", NULL))
            json_object_set_new(ras, "nccl_version",
                                json_string(ls_json_str(v, "nccl_version", "")));
        size_t c;
        const json_t *comm;
        json_array_foreach(json_object_get(v, "communicators"), c, comm)
            communicator(groups, problems, comm, json_array_size(groups)), n++;
        if (ls_json_str(v, "event", NULL))
            event(problems, v), n++;
        long long timeouts = ls_json_int(json_object_get(v, "ras"), "timeouts_count", 0);
        if (timeouts > 0) {
            char line[96];
            snprintf(line, sizeof line,
                     "Encountered %lld communication timeouts while gathering communicator data",
                     timeouts);
            json_array_append_new(problems, problem("warning", "job", "TIMEOUT", line)), n++;
        }
    }
    json_decref(values);
    if (n == 0) {
        json_decref(ras), json_decref(groups), json_decref(problems);
        return ls_seterr(err, errlen, "%s: ncclras JSON: no communicator or event", name);
    }
    json_object_set_new(ras, "groups", groups);
    json_object_set_new(ras, "problems", problems);
    json_t *list = ls_json_array_at(doc, "nccl_ras");
    json_array_append_new(list, ras);
    return (int)n;
}
