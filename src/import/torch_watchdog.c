/* PyTorch ProcessGroupNCCL's watchdog text. What it prints (torch/csrc/distributed/c10d/
   ProcessGroupNCCL.cpp, 1.x to 2.6; each line under glog's "[E ProcessGroupNCCL.cpp:N]"
   or "E0709 17:05:38.16 N ProcessGroupNCCL.cpp:N]", from 2.2 on after "[rankN]:", the
   global rank; a launcher may put "(WorkerDict pid=N)" or a time before it):
     [Rank R] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=S, OpType=OP,
       NumelIn=N, NumelOut=M, Timeout(ms)=T) ran for X milliseconds before timing out.
       (1.x: WorkNCCL(SeqNum=S, OpType=OP, Timeout(ms)=T); R is the rank in its group)
     [PG P Rank R] Exception (either an error or timeout) detected by watchdog at work: S,
       last enqueued NCCL work: E, last completed NCCL work: C.
     [PG P Rank R] Timeout at NCCL work: S, last enqueued NCCL work: E, last completed NCCL
       work: C.
     [PG ID P PG GUID G(name) Rank R]  failure detected by watchdog at work sequence id: S
       PG status: last enqueued work: E, last completed work: C            (2.5 on)
     ... Received a dump signal due to a collective timeout from rank N ... Last enqueued
       NCCL work: E, last completed NCCL work: C.
     [PG P Rank R] ProcessGroupNCCL's watchdog got stuck for N seconds without making
       progress ...
     [PG P Rank R] Heartbeat monitor timed out! ...
     [Rank R] Some NCCL operations have failed or timed out. ...
     [Rank R] Work WorkNCCL(...) timed out in blocking wait.
     ProcessGroupNCCL initialization options: size: N, global rank: R, TIMEOUT(ms): T, ...
       (1.13: "initialized with following options:" and one option a line)
   A terminal may wrap a line anywhere: a line that names no rank and follows a watchdog
   line not ended by '.' continues it. A paste may end a line inside the first message
   ("[Rank 5] Watchdog caught collective operati"): PyTorch prints no other line with
   "Watchdog caught ", so that line is a timeout of the rank it names, its op unknown.
   Its own warnings about the program's set-up, not a failure (warnings[], pg_warnings):
     [PG ID P PG GUID G Rank R]  using GPU N to perform barrier as devices used by this
       process are currently unknown. This can potentially cause a hang ...  (2.4 on;
       before: "Rank R using GPU N to perform barrier as devices ...")
     [PG ID P PG GUID G Rank R] Guessing device ID based on global rank. This can cause
       a hang if rank to GPU mapping is heterogeneous. ...                   (2.5 on)
     WARNING: process group has NOT been destroyed before we destruct ProcessGroupNCCL.
       ... (2.4's nightlies: "... before it is being destructed."), at the program's exit
     [W Utils.hpp:135] Warning: Environment variable NCCL_ASYNC_ERROR_HANDLING is
       deprecated; use TORCH_NCCL_ASYNC_ERROR_HANDLING instead (function getCvarInt)
                                                        (c10d's Utils.hpp, 2.2 on) */
#include "torch_watchdog.h"
#include "framework_log.h"
#include "import_note.h"
#include "import_util.h"
#include "model/doc.h"
#include "model/topo.h"
#include "util/log.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const markers[] = {
    "Watchdog caught collective operation timeout",
    "detected by watchdog at work:",
    "Timeout at NCCL work:",
    "failure detected by watchdog at work sequence id:",
    "watchdog got stuck for",
    "Heartbeat monitor timed out",
    "Some NCCL operations have failed or timed out",
    "Received a dump signal due to a collective timeout",
    "ProcessGroupNCCL initialization options",
    "ProcessGroupNCCL initialized with following options",
    "timed out in blocking wait",
};
#define NMARKERS (sizeof markers / sizeof markers[0])

/* ProcessGroupNCCL's warnings about the program's set-up (torch/csrc/distributed/c10d/
   ProcessGroupNCCL.cpp): barrier() and the group's init guessed the rank's GPU because
   the program did not name it, or the program exited without destroy_process_group().
   Nothing failed: what they mean is said by the torch_pg_warning rule. */
static const struct {
    const char *kind, *says, *then; /* then: words that must follow says on the line */
} pg_warnings[] = {
    {.kind = "barrier_device_guess", .says = "to perform barrier as devices used by this process"},
    {.kind = "device_id_guess", .says = "Guessing device ID based on global rank"},
    {.kind = "not_destroyed", .says = "process group has NOT been destroyed before"},
    /* the same warning's later wording: "WARNING: destroy_process_group() was not called
       before program exit, which can leak resources." */
    {.kind = "not_destroyed", .says = "destroy_process_group() was not called before program exit"},
    /* c10d's getCvarString / getCvarInt / getCvarBool (torch/csrc/distributed/c10d/
       Utils.hpp) reading a variable by its old name, 2.2 on: TORCH_WARN("Environment
       variable " + old + " is deprecated; use " + new + " instead"), printed as "[W
       Utils.hpp:135] Warning: Environment variable NCCL_ASYNC_ERROR_HANDLING is
       deprecated; use TORCH_NCCL_ASYNC_ERROR_HANDLING instead (function getCvarInt)" */
    {.kind = "env_deprecated",
     .says = "Environment variable ",
     .then = " is deprecated; use TORCH_"},
};
#define NPGWARNINGS (sizeof pg_warnings / sizeof pg_warnings[0])

/* The pg_warnings[] entry a line carries, else -1; *at: where its words start. */
static int pg_warning_of(const char *s, const char **at)
{
    for (size_t i = 0; i < NPGWARNINGS; i++)
        for (*at = strstr(s, pg_warnings[i].says); *at;
             *at = strstr(*at + 1, pg_warnings[i].says)) {
            const char *word = *at + strlen(pg_warnings[i].says);
            if (!pg_warnings[i].then || !strncmp(word + strcspn(word, " \t\n"), pg_warnings[i].then,
                                                 strlen(pg_warnings[i].then)))
                return (int)i;
        }
    return -1;
}

/* A framework's log (vLLM's, commonly ending in the not_destroyed warning at exit) whose
   error lines or tracebacks are the run's story is left to its reader, which names them
   as not judged: read as set-up warnings, the answer would be a program setting alone. */
int ls_torch_pg_warning_detect(const char *text)
{
    const char *at;
    return pg_warning_of(text, &at) >= 0 &&
           !(ls_framework_log_detect(text) && ls_framework_log_has_errors(text));
}

/* Whether a line of s ends inside markers[0] after its "Watchdog caught ". */
static int cut_marker(const char *s)
{
    static const char head[] = "Watchdog caught ";
    const char *rest = markers[0] + sizeof head - 1;
    for (const char *p = strstr(s, head); p; p = strstr(p + 1, head)) {
        const char *q = p + sizeof head - 1;
        size_t n = strcspn(q, "\r\n");
        if (n < strlen(rest) && strncmp(q, rest, n) == 0)
            return 1;
    }
    return 0;
}

static int has_marker(const char *s)
{
    const char *at;
    for (size_t i = 0; i < NMARKERS; i++)
        if (strstr(s, markers[i]))
            return 1;
    return cut_marker(s) || pg_warning_of(s, &at) >= 0;
}

int ls_torch_watchdog_detect(const char *text)
{
    for (size_t i = 0; i < NMARKERS; i++)
        if (strstr(text, markers[i]))
            return 1;
    return cut_marker(text);
}

/* The number after key in s (a signed whole number), or 0 when key is not there. */
static int num_after(const char *s, const char *key, long long *out)
{
    const char *p = strstr(s, key);
    if (!p)
        return 0;
    p += strlen(key);
    while (*p == ' ')
        p++;
    if (!isdigit((unsigned char)*p) && !(*p == '-' && isdigit((unsigned char)p[1])))
        return 0;
    char *end;
    unsigned long long u = strtoull(*p == '-' ? p + 1 : p, &end, 10);
    if (u > (1ULL << 62)) /* NumelIn=18446744073709551615: -1 printed unsigned */
        return 0;
    *out = *p == '-' ? -(long long)u : (long long)u;
    return 1;
}

static int num_after_any(const char *s, const char *const *keys, long long *out)
{
    for (; *keys; keys++)
        if (num_after(s, *keys, out))
            return 1;
    return 0;
}

/* The ranks and process group a line names: "[rankN]:" (global), "[Rank R]", "[PG P
   Rank R]", "[PG P (name) Rank R]", "[PG ID P PG GUID G(name) Rank R]" (G, else P). */
typedef struct {
    long long rank, group_rank; /* -1: not named */
    char pg[32];
} who_t;

static void pg_of(const char *p, who_t *w)
{
    const char *end = strchr(p, ']');
    const char *guid = strstr(p, "PG GUID ");
    const char *id = strncmp(p, "[PG ID ", 7) == 0 ? p + 7 : p + 4;
    const char *from = guid && (!end || guid < end) ? guid + 8 : id;
    size_t n = strspn(from, "0123456789");
    snprintf(w->pg, sizeof w->pg, "%.*s", (int)n, from);
    const char *r = strstr(p, " Rank ");
    if (r && (!end || r < end))
        num_after(r, " Rank ", &w->group_rank);
}

static void who_of(const char *s, who_t *w)
{
    w->rank = w->group_rank = -1;
    w->pg[0] = 0;
    const char *p = strstr(s, "[rank");
    if (p && isdigit((unsigned char)p[5]))
        w->rank = strtoll(p + 5, NULL, 10);
    p = strstr(s, "[PG ");
    if (p)
        pg_of(p, w);
    else if ((p = strstr(s, "[Rank ")) != NULL)
        num_after(p, "[Rank ", &w->group_rank);
}

static void set_who(json_t *o, const who_t *w)
{
    if (w->rank >= 0)
        json_object_set_new(o, "rank", json_integer(w->rank));
    if (w->group_rank >= 0)
        json_object_set_new(o, "group_rank", json_integer(w->group_rank));
    if (w->pg[0])
        json_object_set_new(o, "pg", json_string(w->pg));
}

static void set_num(json_t *o, const char *key, const char *s, const char *after)
{
    long long v;
    if (num_after(s, after, &v))
        json_object_set_new(o, key, json_integer(v));
}

/* Whether every member of a is in b with the same value. */
static int is_part_of(const json_t *a, const json_t *b)
{
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)a, k, v) {
        const json_t *w = json_object_get(b, k);
        if (!w || !json_equal(v, w))
            return 0;
    }
    return 1;
}

/* Appends o to list unless the list has it: a timeout is printed again in the "watchdog
   thread terminated with exception" line and its what(), and a paste cuts one of those
   copies short (picotron#6: "WorkNCCL(Seq"); a copy that is part of a record already
   there adds nothing, a fuller copy replaces its part. Steals o. */
static void add_once(json_t *list, json_t *o)
{
    size_t i;
    json_t *x;
    json_array_foreach(list, i, x) {
        if (is_part_of(o, x)) {
            json_decref(o);
            return;
        }
        if (is_part_of(x, o)) {
            json_array_set_new(list, i, o);
            return;
        }
    }
    json_array_append_new(list, o);
}

/* WorkNCCL(SeqNum=S, OpType=OP, NumelIn=N, NumelOut=M, Timeout(ms)=T) ran for X ms. */
static void read_timeout(json_t *w, const char *s, const who_t *who)
{
    const char *p = strstr(s, "WorkNCCL(");
    json_t *t = json_object();
    set_who(t, who);
    if (!p) { /* cut before its WorkNCCL(...): the rank's timeout, nothing more */
        if (json_object_size(t) && cut_marker(s))
            add_once(json_object_get(w, "timeouts"), t);
        else
            json_decref(t);
        return;
    }
    set_num(t, "seq", p, "SeqNum=");
    const char *op = strstr(p, "OpType=");
    size_t oplen = op ? strcspn(op + 7, ",) ") : 0;
    if (op && (op[7 + oplen] == ',' || op[7 + oplen] == ')')) /* not a cut "OpType=ALLR" */
        json_object_set_new(t, "op", json_stringn(op + 7, oplen));
    set_num(t, "numel_in", p, "NumelIn=");
    set_num(t, "numel_out", p, "NumelOut=");
    set_num(t, "timeout_ms", p, "Timeout(ms)=");
    set_num(t, "ran_ms", p, ") ran for ");
    if (strstr(s, "timed out in blocking wait"))
        json_object_set_new(t, "blocking_wait", json_true());
    add_once(json_object_get(w, "timeouts"), t);
}

/* "... at work: S, last enqueued NCCL work: E, last completed NCCL work: C" and its
   other wordings. */
static void read_progress(json_t *w, const char *s, const who_t *who)
{
    static const char *const at[] = {"at work: ", "Timeout at NCCL work: ", "work sequence id: ",
                                     NULL};
    static const char *const enq[] = {"ast enqueued NCCL work: ", "ast enqueued work: ", NULL};
    static const char *const comp[] = {"ast completed NCCL work: ", "ast completed work: ", NULL};
    long long a, e, c;
    int has_e = num_after_any(s, enq, &e), has_c = num_after_any(s, comp, &c);
    if (!has_e && !has_c)
        return;
    json_t *p = json_object();
    set_who(p, who);
    if (num_after_any(s, at, &a))
        json_object_set_new(p, "at", json_integer(a));
    if (has_e)
        json_object_set_new(p, "last_enqueued", json_integer(e));
    if (has_c)
        json_object_set_new(p, "last_completed", json_integer(c));
    add_once(json_object_get(w, "progress"), p);
}

static void read_facts(json_t *w, const char *s)
{
    long long v;
    if (num_after(s, "watchdog got stuck for ", &v))
        json_object_set_new(w, "stuck_s", json_integer(v));
    if (strstr(s, "Heartbeat monitor timed out"))
        json_object_set_new(w, "heartbeat_timeout", json_true());
    if (strstr(s, "Some NCCL operations have failed or timed out"))
        json_object_set_new(w, "taken_down", json_true());
    if (num_after(s, "collective timeout from  rank ", &v) ||
        num_after(s, "collective timeout from rank ", &v))
        json_object_set_new(w, "dump_from_rank", json_integer(v));
    if (num_after(s, "TIMEOUT(ms): ", &v))
        json_object_set_new(w, "timeout_setting_ms", json_integer(v));
    if (strstr(s, "initialization options") && num_after(s, "size: ", &v))
        json_object_set_new(w, "size", json_integer(v));
}

/* The group's name a log prefix prints after its GUID ("PG GUID 99(EXPERT_MODEL_PARALLEL_
   GROUP)", "PG GUID 0(default_pg)"), into out; "" when not printed. */
static void pg_name_of(const char *s, char *out, size_t len)
{
    out[0] = '\0';
    const char *g = strstr(s, "PG GUID ");
    if (!g)
        return;
    g += 8 + strspn(g + 8, "0123456789");
    const char *end = *g == '(' ? strchr(g, ')') : NULL;
    if (end && end - g > 1)
        snprintf(out, len, "%.*s", (int)(end - g - 1), g + 1);
}

/* The rank and group of a watchdog that got stuck or whose heartbeat timed out (every
   rank prints its own line): stuck[]. */
static void read_stuck(json_t *w, const char *s, const who_t *who)
{
    if (!strstr(s, "watchdog got stuck for") && !strstr(s, "Heartbeat monitor timed out"))
        return;
    json_t *o = json_object();
    set_who(o, who);
    char name[64];
    pg_name_of(s, name, sizeof name);
    if (name[0])
        json_object_set_new(o, "pg_name", json_string(name));
    if (json_object_size(o))
        add_once(ls_json_array_at(w, "stuck"), o);
    else
        json_decref(o);
}

/* A ProcessGroupNCCL set-up warning: counted in warnings[] by kind, with the ranks that
   printed it (the global rank where printed, else the rank in its group) and, for
   barrier()'s, the GPU it guessed ("using GPU N"). */
static void read_warning(json_t *w, const char *s, const who_t *who)
{
    const char *at;
    int k = pg_warning_of(s, &at);
    if (k < 0)
        return;
    json_t *list = ls_json_array_at(w, "warnings"), *o = NULL, *x;
    size_t i;
    json_array_foreach(list, i, x) {
        if (!strcmp(ls_json_str(x, "kind", ""), pg_warnings[k].kind))
            o = x;
    }
    if (!o) {
        o = json_pack("{s:s, s:i, s:[]}", "kind", pg_warnings[k].kind, "count", 0, "ranks");
        json_array_append_new(list, o);
    }
    json_object_set_new(o, "count", json_integer(ls_json_int(o, "count", 0) + 1));
    long long r = who->rank >= 0 ? who->rank : who->group_rank, gpu;
    const char *old = strstr(s, "Rank "); /* before 2.4: "Rank R using GPU N to ..." */
    if (r < 0 && old && old < at)
        num_after(old, "Rank ", &r);
    if (r >= 0)
        ls_json_add_int_once(json_object_get(o, "ranks"), r);
    if (num_after(s, "using GPU ", &gpu) && gpu >= 0 && gpu < LS_MAX_GPUS) /* a GPU index */
        ls_json_add_int_once(ls_json_array_at(o, "gpus"), gpu);
}

static void read_line(json_t *w, const char *s)
{
    if (!has_marker(s))
        return;
    who_t who;
    who_of(s, &who);
    read_warning(w, s, &who);
    if (strstr(s, "Watchdog caught collective operation timeout") ||
        strstr(s, "timed out in blocking wait") || cut_marker(s))
        read_timeout(w, s, &who);
    read_progress(w, s, &who);
    read_stuck(w, s, &who);
    read_facts(w, s);
}

/* Whether a raw line continues the logical line before it (a terminal's wrap or the
   options block of 1.13): that one is a watchdog line not ended by '.', this one names
   no rank and no ProcessGroupNCCL source line. */
static int continues(const char *prev, const char *line)
{
    size_t n = strlen(prev);
    const char *at;
    while (n && prev[n - 1] == ' ')
        n--;
    if (!n || prev[n - 1] == '.' || prev[n - 1] == '!' || !has_marker(prev) || !*line ||
        pg_warning_of(line, &at) >= 0) /* a set-up warning of its own, once a rank */
        return 0;
    return !strstr(line, "ProcessGroupNCCL") && !strstr(line, "[rank") && !strstr(line, "[Rank") &&
           !strstr(line, "NCCL INFO") && !strstr(line, "NCCL WARN");
}

/* A set-up warning's words, from its pg_warnings[] words to the line's end without the
   trailing blanks, into out; "" when the line has none. */
static void warning_words(const char *s, char *out, size_t len)
{
    const char *at;
    out[0] = '\0';
    if (pg_warning_of(s, &at) < 0)
        return;
    snprintf(out, len, "%s", at);
    size_t n = strlen(out);
    while (n && isspace((unsigned char)out[n - 1]))
        out[--n] = '\0';
}

/* Whether a warning's words end as PyTorch ends them: '.', glog's "(function
   operator())", or 2.4's "... only been added since PyTorch 2.4" without it. */
static int ended(const char *words, size_t n)
{
    static const char tail[] = "PyTorch 2.4";
    return (n && strchr(".)", words[n - 1])) ||
           (n >= sizeof tail - 1 && strcmp(words + n - (sizeof tail - 1), tail) == 0);
}

/* The text's last line is cut inside a set-up warning: PyTorch prints each whole, so one
   not ended as PyTorch ends them whose words are a strict prefix of another line's ("...
   destroyed before it i") was cut by the paste. A whole one that is a prefix of a line a
   terminal's wrap joined to other output is not. */
static void cut_warning(const char *last, const json_t *seen)
{
    char words[4096];
    warning_words(last, words, sizeof words);
    size_t n = strlen(words);
    if (ended(words, n))
        return;
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)seen, k, v) {
        if (n && n < strlen(k) && strncmp(words, k, n) == 0) {
            ls_import_note_missing("the last line is cut inside ProcessGroupNCCL's warning "
                                   "('%.50s')",
                                   words);
            return;
        }
    }
}

/* The text's last line is cut before a set-up warning's words: it holds none, yet it is a
   strict prefix of an earlier line that does (c10's "[W Utils.hpp:" of "[W Utils.hpp:135]
   Warning: Environment variable ..." repeated once a rank). */
static void cut_prefix(const char *last, const char *text)
{
    const char *at;
    size_t n = strlen(last);
    while (n && isspace((unsigned char)last[n - 1]))
        n--;
    if (!n || pg_warning_of(last, &at) >= 0)
        return;
    const char *pos = text;
    ls_line_t line;
    while (ls_next_line(&pos, &line))
        if (strlen(line.buf) > n && !strncmp(line.buf, last, n) &&
            pg_warning_of(line.buf, &at) >= 0) {
            ls_import_note_missing("the last line is cut inside ProcessGroupNCCL's warning "
                                   "('%.*s')",
                                   (int)(n < 50 ? n : 50), last);
            return;
        }
}

static void read_logical(json_t *w, const char *s, json_t *seen)
{
    char words[4096];
    read_line(w, s);
    warning_words(s, words, sizeof words);
    if (words[0])
        json_object_set_new(seen, words, json_true());
}

static void read_text(json_t *w, const char *text)
{
    char logical[4096] = "", last[4096] = "";
    const char *pos = text;
    ls_line_t line;
    json_t *seen = json_object(); /* the set-up warnings' words, for a cut last line */
    while (ls_next_line(&pos, &line)) {
        if (line.buf[strspn(line.buf, " \t")])
            snprintf(last, sizeof last, "%s", line.buf);
        if (continues(logical, line.buf)) {
            size_t n = strlen(logical);
            while (n && logical[n - 1] == ' ')
                n--; /* the terminal's padding of the wrapped piece */
            snprintf(logical + n, sizeof logical - n, "%s", line.buf);
            continue;
        }
        read_logical(w, logical, seen);
        snprintf(logical, sizeof logical, "%s", line.buf);
    }
    read_logical(w, logical, seen);
    cut_warning(logical, seen);
    cut_prefix(last, text);
    json_decref(seen);
}

int ls_import_torch_watchdog(json_t *doc, const char *text, const char *name, char *err,
                             size_t errlen)
{
    json_t *w = json_pack("{s:s, s:[], s:[]}", "file", name, "timeouts", "progress");
    read_text(w, text);
    int n = (int)(json_array_size(json_object_get(w, "timeouts")) +
                  json_array_size(json_object_get(w, "progress")) +
                  json_array_size(json_object_get(w, "warnings")));
    if (n == 0 && json_object_size(w) <= 3) {
        json_decref(w);
        return ls_seterr(err, errlen,
                         "%s: PyTorch NCCL watchdog text: no timeout, progress, options or "
                         "warning line could be read",
                         name);
    }
    json_array_append_new(ls_json_array_at(doc, "torch_watchdog"), w);
    return n;
}
