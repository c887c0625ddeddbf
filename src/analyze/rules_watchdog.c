/* PyTorch's NCCL watchdog text (import/torch_watchdog.c) as one finding per file:
   collective_timeout, an error: which collective timed out (op, SeqNum, elements, the
   limit and how long it ran) on which ranks; what the ranks' SeqNums show for certain
   (two ranks in different collectives at one SeqNum; a rank waiting in a collective
   another completed; the group's first collective never done); otherwise that the
   cause is not in the text, and what to collect. A timeout alone never names a fault of
   the hardware: every rank of a hung collective times out, the healthy ones too. */
#include "rules.h"
#include "tools_rules.h"
#include "model/doc.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    char buf[2048];
    size_t used;
} text_t;

static void put(text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text_t *t, const char *fmt, ...)
{
    if (t->used + 1 >= sizeof t->buf)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->buf + t->used, sizeof t->buf - t->used, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->used = t->used + (size_t)n < sizeof t->buf ? t->used + (size_t)n : sizeof t->buf - 1;
}

/* The rank a record names: the global one ("[rankN]:") where printed, else its rank in
   the group; -1 when neither. */
static long long rank_of(const json_t *o)
{
    return ls_json_int(o, "rank", ls_json_int(o, "group_rank", -1));
}

/* The process group of a timeout: the progress line of the same rank at the same SeqNum
   names it (the timeout line does not); "" when unknown. */
static const char *pg_of(const json_t *w, const json_t *t)
{
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(w, "progress"), i, p) {
        if (rank_of(p) == rank_of(t) && ls_json_int(p, "at", -2) == ls_json_int(t, "seq", -3))
            return ls_json_str(p, "pg", "");
    }
    return ls_json_str(t, "pg", "");
}

static int same_pg(const char *a, const char *b)
{
    return !*a || !*b || !strcmp(a, b);
}

/* A collective's op as the text gives it; "?" where a cut line lost it. */
static int op_match(const char *a, const char *b)
{
    return !strcmp(a, b) || !strcmp(a, "?") || !strcmp(b, "?");
}

static void add_rank(long long *seen, int *n, long long r)
{
    for (int k = 0; k < *n; k++)
        if (seen[k] == r)
            return;
    if (r < 0 || *n == 64)
        return;
    int k = *n;
    while (k > 0 && seen[k - 1] > r) { /* kept sorted */
        seen[k] = seen[k - 1];
        k--;
    }
    seen[k] = r;
    (*n)++;
}

/* Do the timeouts at seq name two different ops? (A progress line gives no op: its rank
   then belongs to neither.) */
static int two_ops_at(const json_t *w, long long seq)
{
    const char *first = NULL;
    size_t i;
    const json_t *x;
    json_array_foreach(json_object_get(w, "timeouts"), i, x) {
        const char *op = ls_json_str(x, "op", "?");
        if (ls_json_int(x, "seq", -1) != seq || !strcmp(op, "?"))
            continue;
        if (first && strcmp(first, op))
            return 1;
        first = op;
    }
    return 0;
}

/* The ranks that time out at seq with op, or whose progress line is at seq (each once,
   ascending), as "rank 3" or "ranks 0, 3, 4". */
static void ranks_at(const json_t *w, long long seq, const char *op, text_t *t)
{
    long long seen[64];
    int n = 0;
    size_t i;
    const json_t *x;
    json_array_foreach(json_object_get(w, "timeouts"), i, x) {
        if (ls_json_int(x, "seq", -1) == seq && op_match(ls_json_str(x, "op", "?"), op))
            add_rank(seen, &n, rank_of(x));
    }
    json_array_foreach(json_object_get(w, "progress"), i, x) {
        if (seq >= 0 && ls_json_int(x, "at", -1) == seq && !two_ops_at(w, seq))
            add_rank(seen, &n, rank_of(x));
    }
    put(t, n == 0 ? " on ranks not named" : n == 1 ? " on rank " : " on ranks ");
    for (int k = 0; k < n; k++)
        put(t, "%s%lld", k ? ", " : "", seen[k]);
}

/* Is timeout i described by another: an earlier one of the same collective, or (its op
   cut) any one at its SeqNum whose op is known? */
static int described(const json_t *list, size_t i)
{
    const json_t *x = json_array_get(list, i);
    long long seq = ls_json_int(x, "seq", -1);
    const char *op = ls_json_str(x, "op", "?");
    for (size_t k = 0; k < json_array_size(list); k++) {
        const json_t *y = json_array_get(list, k);
        const char *yop = ls_json_str(y, "op", "?");
        /* "Some NCCL operations have failed or timed out" names neither op nor SeqNum: a
           rank's timeout another record of that rank names says it (deepresearcher#16 read
           "ALLTOALL SeqNum 8 ... on rank 3; a collective timed out on rank 3") */
        if (k != i && seq < 0 && !strcmp(op, "?") &&
            ls_json_int(y, "rank", -1) == ls_json_int(x, "rank", -2) &&
            (strcmp(yop, "?") || ls_json_int(y, "seq", -1) >= 0))
            return 1;
        if (k == i || ls_json_int(y, "seq", -2) != seq)
            continue;
        if ((k < i && !strcmp(yop, op)) || (!strcmp(op, "?") && strcmp(yop, "?")))
            return 1;
    }
    return 0;
}

static void describe_one(const json_t *w, const json_t *x, text_t *t)
{
    long long seq = ls_json_int(x, "seq", -1);
    const char *op = ls_json_str(x, "op", "?");
    put(t, "%s", t->used ? "; " : "");
    put(t, "%s", strcmp(op, "?") ? op : "a collective");
    if (seq >= 0)
        put(t, " SeqNum %lld", seq);
    long long in = ls_json_int(x, "numel_in", -1), out = ls_json_int(x, "numel_out", -1);
    if (in >= 0 && out >= 0 && in != out)
        put(t, " (%lld elements in, %lld out)", in, out);
    else if (in >= 0)
        put(t, " (%lld element%s)", in, in == 1 ? "" : "s");
    put(t, " timed out");
    long long ran = ls_json_int(x, "ran_ms", -1), lim = ls_json_int(x, "timeout_ms", -1);
    if (ran >= 0)
        put(t, " after %.0f s", ran / 1000.0);
    if (lim >= 0)
        put(t, " (limit %.0f s)", lim / 1000.0);
    ranks_at(w, seq, op, t);
}

/* Two ranks of one group in different collectives at one SeqNum: a desync. */
static int mismatch(const json_t *w, text_t *t)
{
    const json_t *list = json_object_get(w, "timeouts");
    size_t i, j;
    const json_t *a, *b;
    json_array_foreach(list, i, a) {
        json_array_foreach(list, j, b) {
            if (j <= i || ls_json_int(a, "seq", -1) != ls_json_int(b, "seq", -2) ||
                op_match(ls_json_str(a, "op", "?"), ls_json_str(b, "op", "?")) ||
                !same_pg(pg_of(w, a), pg_of(w, b)))
                continue;
            put(t,
                ". Ranks %lld and %lld are in different collectives at the same SeqNum %lld "
                "(%s, %s)%s: the ranks issued their collectives in a different order, a desync "
                "of the program (which collective each rank called), not a fault of a link",
                rank_of(a), rank_of(b), ls_json_int(a, "seq", -1), ls_json_str(a, "op", "?"),
                ls_json_str(b, "op", "?"),
                *pg_of(w, a) && *pg_of(w, b) ? "" : " (if both are in one process group)");
            return 1;
        }
    }
    return 0;
}

/* A rank waiting in SeqNum s of its group while another rank of that group completed s. */
static int behind(const json_t *w, text_t *t)
{
    size_t i, j;
    const json_t *x, *p;
    json_array_foreach(json_object_get(w, "timeouts"), i, x) {
        const char *pg = pg_of(w, x);
        json_array_foreach(json_object_get(w, "progress"), j, p) {
            long long seq = ls_json_int(x, "seq", -1);
            if (!*pg || strcmp(pg, ls_json_str(p, "pg", "")) || rank_of(p) == rank_of(x) ||
                seq < 0 || ls_json_int(p, "last_completed", -1) < seq)
                continue;
            put(t,
                ". Rank %lld is behind: it waits in SeqNum %lld of process group %s, which rank "
                "%lld completed; why it stalled there is not in the text",
                rank_of(x), seq, pg, rank_of(p));
            return 1;
        }
    }
    return 0;
}

/* A rank of the group whose last enqueued SeqNum is below the one another rank waits in:
   it never called that collective (the rank that did not arrive). */
static int never_issued(const json_t *w, text_t *t)
{
    size_t i, j;
    const json_t *x, *p;
    json_array_foreach(json_object_get(w, "timeouts"), i, x) {
        const char *pg = pg_of(w, x);
        long long seq = ls_json_int(x, "seq", -1);
        json_array_foreach(json_object_get(w, "progress"), j, p) {
            long long e = ls_json_int(p, "last_enqueued", -1);
            if (!*pg || strcmp(pg, ls_json_str(p, "pg", "")) || rank_of(p) == rank_of(x) ||
                rank_of(p) < 0 || e < 0 || e >= seq)
                continue;
            put(t,
                ". Rank %lld never called SeqNum %lld of process group %s (its last enqueued is "
                "%lld), which rank %lld waits in: it is the rank that did not arrive; what held it "
                "(its own code, data or a hang before the collective) is in its own log",
                rank_of(p), seq, pg, e, rank_of(x));
            return 1;
        }
    }
    return 0;
}

/* The group's first collective never completed on any rank shown. */
static int never_started(const json_t *w)
{
    size_t i;
    const json_t *x;
    int any = 0;
    json_array_foreach(json_object_get(w, "timeouts"), i, x) {
        if (ls_json_int(x, "seq", 99) > 1)
            return 0;
        any = 1;
    }
    json_array_foreach(json_object_get(w, "progress"), i, x) {
        if (ls_json_int(x, "last_completed", 99) > 0)
            return 0;
        any = 1;
    }
    return any;
}

/* Ranks below the highest one shown (or below the size the options give) that no line
   of the paste names. */
static void absent(const json_t *w, text_t *t)
{
    unsigned char seen[256] = {0};
    long long top = -1;
    int nseen = 0;
    static const char *const lists[] = {"timeouts", "progress"};
    for (int l = 0; l < 2; l++) {
        size_t i;
        const json_t *x;
        json_array_foreach(json_object_get(w, lists[l]), i, x) {
            long long r = ls_json_int(x, "rank", -1);
            if (r >= 0 && r < 256 && !seen[r]) {
                seen[r] = 1;
                nseen++;
                top = r > top ? r : top;
            }
        }
    }
    long long size = ls_json_int(w, "size", -1);
    if (size > 0 && size <= 256)
        top = size - 1;
    int gaps = 0;
    for (long long r = 0; r <= top; r++)
        gaps += !seen[r];
    if (nseen < 2 || gaps == 0 || gaps >= nseen)
        return; /* a paste of a few ranks says nothing of the others */
    int n = 0;
    for (long long r = 0; r <= top; r++)
        if (!seen[r])
            put(t, "%s%lld",
                n++         ? ", "
                : gaps == 1 ? ". Not in the paste: rank "
                            : ". Not in the paste: ranks ",
                r);
}

/* Every progress line of the paste with the same last completed SeqNum: the ranks
   shown all got that far. */
static void completed_alike(const json_t *w, text_t *t)
{
    const json_t *list = json_object_get(w, "progress");
    long long c = -2;
    size_t i;
    const json_t *x;
    json_array_foreach(list, i, x) {
        long long v = ls_json_int(x, "last_completed", -2);
        if (c != -2 && v != c)
            return;
        c = v;
    }
    if (json_array_size(list) > 1 && c >= 0)
        put(t, ". Every rank's progress line shown last completed SeqNum %lld", c);
}

/* ": on rank 4 (PG 99 EXPERT_MODEL_PARALLEL_GROUP), rank 0 (PG 117 ...)": the ranks whose
   watchdog got stuck or whose heartbeat timed out, as their lines name them; nothing when
   none does. */
static void stuck_ranks(const json_t *w, text_t *t)
{
    const json_t *list = json_object_get(w, "stuck");
    size_t i, n = json_array_size(list);
    const json_t *x;
    json_array_foreach(list, i, x) {
        if (i == 4) {
            put(t, " and %zu more", n - i);
            break;
        }
        long long r = ls_json_int(x, "rank", -1);
        put(t, "%s", i ? ", " : " on ");
        if (r >= 0)
            put(t, "rank %lld", r);
        else
            put(t, "rank %lld of its group", ls_json_int(x, "group_rank", -1));
        if (*ls_json_str(x, "pg", ""))
            put(t, " (PG %s%s%s)", ls_json_str(x, "pg", ""),
                *ls_json_str(x, "pg_name", "") ? " " : "", ls_json_str(x, "pg_name", ""));
    }
}

/* Only the watchdog's own trouble in the text: stuck, or its heartbeat, without a
   timeout, a progress line or "Some NCCL operations have failed or timed out". */
static int only_stuck(const json_t *w)
{
    return !json_object_get(w, "taken_down") &&
           (json_object_get(w, "stuck_s") || json_object_get(w, "heartbeat_timeout"));
}

static void describe(const json_t *w, text_t *t)
{
    const json_t *list = json_object_get(w, "timeouts");
    size_t i;
    const json_t *x;
    json_array_foreach(list, i, x) {
        if (!described(list, i))
            describe_one(w, x, t);
    }
    completed_alike(w, t);
    if (!t->used && json_array_size(json_object_get(w, "progress")))
        put(t, "a collective timed out (SeqNum %lld, last completed %lld)",
            ls_json_int(json_array_get(json_object_get(w, "progress"), 0), "at", -1),
            ls_json_int(json_array_get(json_object_get(w, "progress"), 0), "last_completed", -1));
    if (!t->used && only_stuck(w))
        put(t, "No collective timeout is in the text");
    else if (!t->used)
        put(t, "NCCL operations failed or timed out (no collective named in the text)");
    if (ls_json_int(w, "stuck_s", -1) >= 0) {
        put(t, ". The watchdog thread itself got stuck for %lld s", ls_json_int(w, "stuck_s", -1));
        stuck_ranks(w, t);
        put(t, " (a CUDA or NCCL call hung in the process, or a thread holding Python's GIL)");
    } else if (json_is_true(json_object_get(w, "heartbeat_timeout"))) {
        put(t, ". The watchdog's heartbeat monitor timed out");
        stuck_ranks(w, t);
        put(t, " (the watchdog thread made no progress)");
    }
}

static void one(const json_t *w, json_t *out)
{
    text_t t = {.used = 0};
    describe(w, &t);
    int certain = mismatch(w, &t) || never_issued(w, &t) || behind(w, &t);
    if (!certain && never_started(w))
        put(&t, ". The group's first collective never completed: the ranks never exchanged data "
                "(a rank that did not start or join, P2P or the network at set-up), not a slow "
                "collective");
    absent(w, &t);
    if (!certain)
        put(&t, ". Which rank or link held it up is not in the text (a rank that did not "
                "arrive, a dead peer, the network)");
    put(&t, ". Collect: NCCL_DEBUG=INFO, the flight recorder (TORCH_NCCL_TRACE_BUFFER_SIZE=2000 "
            "with TORCH_NCCL_DUMP_ON_TIMEOUT=1) or TORCH_NCCL_DESYNC_DEBUG=1, and every rank's "
            "log");
    char subject[160];
    snprintf(subject, sizeof subject, "PyTorch NCCL watchdog (%s)", ls_json_str(w, "file", "?"));
    ls_finding_add(out, "collective_timeout", LS_SEV_ERROR, LS_ABOUT_WHAT(subject),
                   json_pack("[s]", "torch_watchdog"), "%s", t.buf);
}

static int failed(const json_t *w)
{
    return json_array_size(json_object_get(w, "timeouts")) ||
           json_array_size(json_object_get(w, "progress")) || json_object_get(w, "stuck_s") ||
           json_object_get(w, "heartbeat_timeout") || json_object_get(w, "taken_down");
}

/* The files of one document are pieces of one job's output: their records together. */
static json_t *merged(const json_t *list)
{
    json_t *m = json_pack("{s:[], s:[]}", "timeouts", "progress");
    char files[160] = "";
    size_t used = 0, i;
    const json_t *w;
    json_array_foreach(list, i, w) {
        json_array_extend(json_object_get(m, "timeouts"), json_object_get(w, "timeouts"));
        json_array_extend(json_object_get(m, "progress"), json_object_get(w, "progress"));
        if (json_object_get(w, "stuck"))
            json_array_extend(ls_json_array_at(m, "stuck"), json_object_get(w, "stuck"));
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)w, k, v) {
            if (!json_is_array(v) && strcmp(k, "file"))
                json_object_set(m, k, v);
        }
        used += (size_t)snprintf(files + used, sizeof files - used, "%s%s", i ? ", " : "",
                                 ls_json_str(w, "file", "?"));
        if (used >= sizeof files)
            used = sizeof files - 1;
    }
    json_object_set_new(m, "file", json_string(files));
    return m;
}

void ls_rules_watchdog(const json_t *doc, json_t *out)
{
    const json_t *list = json_object_get(doc, "torch_watchdog");
    if (json_array_size(list) == 0)
        return;
    json_t *m = merged(list);
    if (failed(m))
        one(m, out);
    json_decref(m);
    ls_rules_pg_warnings(doc, out);
}
