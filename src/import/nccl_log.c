#include "nccl_log.h"
#include "nccl_text.h"
#include "nccl_row_pieces.h"
#include "nccl_log_extras.h"
#include "model/doc.h"
#include "nccl_log_bare.h"
#include "model/nic_view.h"
#include "import_util.h"
#include "model/nccl_log.h"
#include "model/translog.h"
#include "util/lines.h"
#include "util/log.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A forum's autolinks put back as the text they link: GitHub turns "net_ib.cc:101" and
   "10.1.3.201" into "[net_ib.cc:101](http://net_ib.cc:101/)" when a log is pasted outside
   a code block. */
static void unlink_markdown(char *buf)
{
    for (char *open = strchr(buf, '['); open; open = strchr(open + 1, '[')) {
        char *close = strchr(open, ']');
        if (!close || strncmp(close, "](http", 6) != 0)
            continue;
        char *end = strchr(close, ')');
        if (!end)
            return;
        size_t text = (size_t)(close - open - 1);
        memmove(open, open + 1, text);
        memmove(open + text, end + 1, strlen(end + 1) + 1);
    }
}

/* A "FILE:LINE" token (no blank in it) ending at end: the place NCCL's WARN macro prints
   before the word WARN ("misc/socket.cc:483", "register_mr_buffers:465"). */
static int file_line_token(const char *line, const char *end)
{
    const char *start = end;
    while (start > line && start[-1] != ' ' && start[-1] != '\t')
        start--;
    const char *colon = NULL;
    for (const char *p = start; p < end; p++)
        if (*p == ':')
            colon = p;
    if (!colon || colon == start || colon + 1 == end)
        return 0;
    for (const char *p = colon + 1; p < end; p++)
        if (!isdigit((unsigned char)*p))
            return 0;
    return 1;
}

/* Where the message of an NCCL line starts, after the keyword, or NULL: "NCCL INFO ",
   "NCCL WARN ", or the " WARN " that NCCL 2.0-2.2 printed without "NCCL" right after its
   FILE:LINE ("include/socket.h:311 WARN Socket creation failed ..."). *kind is 'I' or
   'W'; *kw the keyword's start. */
static const char *nccl_keyword(const char *line, char *kind, const char **kw)
{
    /* the last "NCCL INFO " of a line: where two processes' writes interleaved
       ("h:1:2 [6] NCCL INFO h:1:3 [7] NCCL INFO Ring 04 : ...") the last one is whole */
    const char *p = NULL;
    for (const char *q = strstr(line, "NCCL INFO "); q; q = strstr(q + 1, "NCCL INFO "))
        p = q;
    if (p) {
        *kind = 'I', *kw = p;
        return p + 10;
    }
    p = strstr(line, "NCCL WARN ");
    if (p) {
        *kind = 'W', *kw = p;
        return p + 10;
    }
    for (p = strstr(line, " WARN "); p; p = strstr(p + 1, " WARN "))
        if (file_line_token(line, p)) {
            *kind = 'W', *kw = p + 1;
            return p + 6;
        }
    return NULL;
}

/* The "host:pid:tid [dev]" NCCL prints before its keyword (debug.cc: "%s:%d:%d [%d]"
   for INFO, "%s:%d:%d [%d] %s:%d NCCL WARN" for WARN), read backwards from the keyword so
   that whatever a launcher or logger put in front ("[1,3]<stdout>:", "[0] ", "host: ",
   "2025-11-12 20:41:43,851 - INFO - ", "[2026-03-13 22:26:02] ", a colour code) is left
   out. host "" and *dev -1 where the line does not show them (a paste of the message
   alone, a masked host). 0 when a host was read. */
static int line_prefix(const char *line, const char *kw, char *host, size_t len, int *dev,
                       char *thread)
{
    host[0] = '\0', *dev = -1;
    if (thread)
        thread[0] = '\0';
    const char *glued = ls_row_piece_log_start(line); /* nccl-tests' row piece in front */
    if (glued && glued < kw)
        line = glued;
    const char *end = kw;
    while (end > line && end[-1] == ' ')
        end--;
    if (end > line && end[-1] == ')') { /* NCCL >= 2.27: "FILE:LINE (func) NCCL WARN" */
        const char *open = end;
        while (open > line && open[-1] != '(')
            open--;
        end = open > line ? open - 1 : end;
        while (end > line && end[-1] == ' ')
            end--;
    }
    if (file_line_token(line, end) && end > line && end[-1] != ']') {
        while (end > line && end[-1] != ' ')
            end--;
        while (end > line && end[-1] == ' ')
            end--;
    }
    if (end <= line || end[-1] != ']')
        return -1;
    const char *open = end - 1;
    while (open > line && isdigit((unsigned char)open[-1]))
        open--;
    if (open == line || open[-1] != '[' || open == end - 1)
        return -1;
    *dev = atoi(open);
    const char *tok_end = open - 1;
    while (tok_end > line && tok_end[-1] == ' ')
        tok_end--;
    const char *tok = tok_end;
    while (tok > line && tok[-1] != ' ' && tok[-1] != '\t')
        tok--;
    /* "host:pid:tid" (the pid may be X's where the poster masked it, "host:XXXXXX"),
       read from its right end: what a launcher glued in front without a blank
       ("[1,3]<stdout>:host:1:2") is not the host */
    const char *h_end = tok_end;
    int fields;
    for (fields = 0; fields < 2; fields++) {
        const char *c = h_end;
        while (c > tok && c[-1] != ':')
            c--;
        size_t w = (size_t)(h_end - c);
        if (c == tok || !w || (strspn(c, "0123456789") < w && strspn(c, "X") < w))
            break;
        h_end = c - 1;
    }
    if (h_end == tok_end)
        return -1;
    const char *h = h_end;
    while (h > tok && h[-1] != ':')
        h--;
    if (h == h_end)
        return -1;
    tok = h;
    size_t n = (size_t)(h_end - h);
    if (n >= len)
        return -1;
    memcpy(host, tok, n);
    host[n] = '\0';
    /* the whole "host:pid:tid" with a numeric tid: the thread that printed the line */
    if (thread && fields == 2 && (size_t)(tok_end - tok) < LS_NCCL_THREAD_LEN &&
        isdigit((unsigned char)tok_end[-1]))
        snprintf(thread, LS_NCCL_THREAD_LEN, "%.*s", (int)(tok_end - tok), tok);
    return 0;
}

int ls_nccl_log_detect(const char *text)
{
    if (ls_nccl_bare_detect(text))
        return 1;
    char buf[2048];
    for (const char *line = text; ls_text_line(&line, buf, sizeof buf);) {
        char kind;
        unlink_markdown(buf);
        const char *kw, *p = strstr(buf, "NCCL version ");
        if (nccl_keyword(buf, &kind, &kw))
            return 1;
        /* at the line start, or after a launcher's prefix ("[1,0]<stdout>:NCCL version") */
        if (p && (p == buf || p[-1] == ':') && isdigit((unsigned char)p[13]))
            return 1;
        if (ls_nccl_bare_net_message(buf))
            return 1;
    }
    return 0;
}

/* A bracket: a GPU index, or (NCCL < 2.12, and 2.12-2.18 on NET lines) a bus id in hex
   such as "c7000" or "81000": a GPU index has at most 3 digits. */
static int bracket_is_gpu(const char *b)
{
    size_t n = strlen(b);
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)b[i]))
            return 0;
    return n > 0 && n < 4;
}

static void set_bus_fields(json_t *t, const char *key, const char *bus)
{
    if (!bus[0] || bracket_is_gpu(bus))
        return;
    json_object_set_new(t, key, json_string(bus));
}

/* "Ring 00 : 3[3] -> 2[2] via P2P/IPC", "Ring 00 : 15 -> 0 [send] via NET/Socket/0",
   "Channel 00 : 7 -> 8 [receive] via NET/IB/0/GDRDMA": the shapes the shared parser
   does not take. */
static json_t *parse_connection(const char *msg)
{
    ls_nccl_channel_t c;
    if (ls_nccl_channel_parse(msg, &c) != 0 || (c.has_conn && c.brackets))
        return NULL; /* "Channel 00/0 : 0[0] -> 1[1]": the shared parser reads it */
    if (!c.ring && c.brackets && bracket_is_gpu(c.from) && bracket_is_gpu(c.to))
        return NULL; /* the shared parser reads it */
    const char *via = c.via;
    char cls[64];
    ls_nccl_transport_class(via, cls, sizeof cls);
    json_t *t = json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:s, s:s, s:b, s:b, s:s}", "channel",
                          c.channel, "conn", c.conn, "from_rank", c.from_rank, "to_rank", c.to_rank,
                          "from", bracket_is_gpu(c.from) ? atoi(c.from) : -1, "to",
                          bracket_is_gpu(c.to) ? atoi(c.to) : -1, "transport", cls, "via", via,
                          "gdrdma", strstr(via, "GDRDMA") != NULL, "read",
                          strstr(via, "/read") != NULL, "side", c.side);
    set_bus_fields(t, "from_bus", c.from);
    set_bus_fields(t, "to_bus", c.to);
    return t;
}

/* The list's position of t's connection, through an index of the list by
   ls_nccl_connection_key (built at first use: the shared parser filled the list before), or
   -1 where it is new (then indexed at the position it will take). */
static long connection_at(json_t *facts, json_t *list, const json_t *t)
{
    int fresh = !json_object_get(json_object_get(facts, "reading_index"), "transports");
    json_t *ix = ls_nccl_facts_index(facts, "transports");
    char key[160];
    size_t i;
    const json_t *o;
    if (fresh)
        json_array_foreach(list, i, o) {
            ls_nccl_connection_key(o, key, sizeof key);
            if (!json_object_get(ix, key)) /* the first of a key, as a scan would find */
                json_object_set_new_nocheck(ix, key, json_integer((json_int_t)i));
        }
    ls_nccl_connection_key(t, key, sizeof key);
    const json_t *at = json_object_get(ix, key);
    if (at)
        return (long)json_integer_value(at);
    json_object_set_new_nocheck(ix, key, json_integer((json_int_t)json_array_size(list)));
    return -1;
}

static void add_connection(json_t *facts, json_t *t)
{
    json_t *list = json_object_get(facts, "transports");
    long at = connection_at(facts, list, t);
    json_t *o = at >= 0 ? json_array_get(list, (size_t)at) : NULL;
    if (!o) {
        json_array_append_new(list, t);
        return;
    }
    /* read by the shared parser too: keep its entry, with the bus ids */
    static const char *const keys[] = {"from_bus", "to_bus", "from", "to"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (json_object_get(t, keys[k]) && (k >= 2 ? json_object_get(t, keys[k - 2]) != NULL : 1))
            json_object_set(o, keys[k], json_object_get(t, keys[k]));
    json_decref(t);
}

/* "GPU Direct RDMA Disabled for HCA 0 'mlx5_0'", "GPU Direct RDMA Disabled for GPU
   ca000 / HCA 0 (distance 7 > 4)", "GPU Direct RDMA Enabled for GPU 81000 / HCA 1
   (distance 6 <= 7), read 1", "NET/OFI ... disabling GDR". */
static void parse_gdr(const char *msg, json_t *facts)
{
    const char *g = strstr(msg, "GPU Direct RDMA ");
    int ofi = strstr(msg, "disabling GDR") != NULL;
    if (!g && !ofi)
        return;
    json_t *o = json_object();
    json_object_set_new(o, "enabled", json_boolean(g && strncmp(g + 16, "Enabled", 7) == 0));
    int hca, distance, limit, read;
    char bus[32], name[64];
    if (g && sscanf(g, "GPU Direct RDMA %*s for HCA %d '%63[^']'", &hca, name) == 2) {
        json_object_set_new(o, "hca", json_integer(hca));
        json_object_set_new(o, "hca_name", json_string(name));
    } else if (g && sscanf(g, "GPU Direct RDMA %*s for GPU %31s / HCA %d (distance %d %*s %d)", bus,
                           &hca, &distance, &limit) == 4) {
        json_object_set_new(o, "gpu_bus", json_string(bus));
        json_object_set_new(o, "hca", json_integer(hca));
        json_object_set_new(o, "distance", json_integer(distance));
        json_object_set_new(o, "limit", json_integer(limit));
        const char *r = strstr(g, "read ");
        if (r && sscanf(r + 5, "%d", &read) == 1)
            json_object_set_new(o, "read", json_boolean(read));
    }
    char text[200];
    snprintf(text, sizeof text, "%s", msg);
    text[strcspn(text, "\r\n")] = '\0';
    json_object_set_new(o, "text", json_string(text));
    ls_nccl_facts_append_once(facts, "gdr", o);
}

static void set_int_if(json_t *facts, const char *key, const char *msg, const char *word)
{
    const char *p = strstr(msg, word);
    int v;
    if (p && sscanf(p + strlen(word), "%d", &v) == 1 && !json_object_get(facts, key))
        json_object_set_new(facts, key, json_integer(v));
}

/* rank -> host, from the line that printed a rank's own facts. */
static void note_rank_host(json_t *facts, int rank, const char *host)
{
    if (rank < 0 || !host[0])
        return;
    char key[16];
    snprintf(key, sizeof key, "%d", rank);
    json_t *map = json_object_get(facts, "rank_hosts");
    if (!json_object_get(map, key))
        json_object_set_new(map, key, json_string(host));
}

static void parse_message(const char *msg, const char *host, int dev, json_t *facts)
{
    if (strncmp(msg, "Ring ", 5) == 0 || strncmp(msg, "Channel ", 8) == 0) {
        json_t *t = strstr(msg, " via ") ? parse_connection(msg) : NULL;
        if (t)
            add_connection(facts, t);
        return;
    }
    /* "comm 0x.. rank 5 nRanks 8 nNodes 1 localRanks 8 localRank 5 MNNVL 0" (>= 2.19),
       "comm 0x.. rank 15 nranks 32 cudaDev 7 ... Init COMPLETE" (all versions) */
    set_int_if(facts, "nranks", msg, " nRanks ");
    set_int_if(facts, "nranks", msg, " nranks ");
    set_int_if(facts, "nnodes", msg, " nNodes ");
    int rank;
    const char *r = strstr(msg, " rank ");
    if (r && (strstr(msg, " nranks ") || strstr(msg, " nRanks ")) &&
        sscanf(r + 6, "%d", &rank) == 1) {
        note_rank_host(facts, rank, host);
        if (rank == 0) /* rank 0's node: the one its "Check P2P Type" line is about */
            set_int_if(facts, "local_ranks", msg, " localRanks ");
    }
    char net[32];
    if (ls_nccl_network_said(msg, net))
        json_object_set_new(facts, "network", json_string(net));
    parse_gdr(msg, facts);
    ls_nccl_net_line(msg, facts);
    ls_nccl_log_extras(msg, host, dev, facts);
}

/* "host:pid:tid [3] NCCL WARN NET/IB : Got completion from peer ...": the text, the host
   and the GPU (the bracket before NCCL WARN is the rank's CUDA device), into warnings[]
   once each (analyze/nccl_messages.c names what it means). */
/* The "FILE:LINE" NCCL printed right before its WARN keyword (debug.cc: "%s:%d NCCL WARN",
   "transport/nvls.cc:254") into at, "" when the line does not show it. */
static void warn_source(const char *line, const char *kw, char *at, size_t len)
{
    at[0] = '\0';
    if (kw <= line || kw[-1] != ' ' || !file_line_token(line, kw - 1))
        return;
    const char *start = kw - 1;
    while (start > line && start[-1] != ' ' && start[-1] != '\t')
        start--;
    snprintf(at, len, "%.*s", (int)(kw - 1 - start), start);
}

/* Returns the entry's position in warnings (-1: none kept). last: the line is the text's
   last (the only place a paste is cut). */
static long parse_warn(const char *warn, const char *host, int dev, const char *at, int last,
                       json_t *facts)
{
    char text[400];
    snprintf(text, sizeof text, "%s", warn);
    text[strcspn(text, "\r\n")] = '\0';
    size_t n = strlen(text);
    while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '`'))
        text[--n] = '\0';
    if (!n)
        return -1;
    json_t *o = json_pack("{s:s}", "text", text);
    if (host[0])
        json_object_set_new(o, "host", json_string(host));
    if (dev >= 0) /* the bracket before the keyword: the rank's CUDA device */
        json_object_set_new(o, "gpu", json_integer(dev));
    if (at[0]) /* the source file names what failed: nvls.cc's CUDA failures are NVLS's */
        json_object_set_new(o, "at", json_string(at));
    json_t *list = json_object_get(facts, "warnings");
    size_t i;
    json_t *e;
    /* a paste cut inside a WARN line ("Could not find a pat") that another line of the log
       prints whole is that message: it takes the whole text. A paste is cut at its end, so
       only its last line is looked up (once: linear in the warnings); a shorter message
       inside the log is a message of its own. */
    json_array_foreach(last ? list : NULL, i, e) {
        const char *whole = json_string_value(json_object_get(e, "text"));
        whole = whole ? whole : "";
        if (n >= 8 && strlen(whole) > n && strncmp(whole, text, n) == 0) {
            json_object_set_new(o, "text", json_string(whole));
            break;
        }
    }
    return ls_nccl_facts_append_once(facts, "warnings", o);
}

/* "NCCL version 2.5.6+cuda10.2" (printed bare by NCCL <= 2.8 and at the VERSION level
   since): at the line start or after a launcher's or logger's prefix ending in ':' or a
   blank ("[1,0]<stdout>:NCCL version ..."). */
static int version_line(const char *s, json_t *facts)
{
    const char *p = strstr(s, "NCCL version ");
    char v[32];
    if (!p || (p > s && p[-1] != ':' && p[-1] != ' ') ||
        sscanf(p, "NCCL version %31[0-9.]", v) != 1)
        return 0;
    if (json_is_null(json_object_get(facts, "nccl_version")))
        json_object_set_new(facts, "nccl_version", json_string(v));
    return 1;
}

/* A line without NCCL's keyword: a version line, the last WARN text a framework printed
   after "Last error:" (on this line or, when this one ends there, the next) or right
   after PyTorch's interpretation line where the paste has no "Last error:", or a
   network transport's message pasted alone, kept in bare_messages for the WARN catalog
   to judge (analyze/rules_nccl_log.c: one it knows is a warning, others stay quiet). */
static void keywordless_line(const char *s, json_t *facts, int *await_last_error, int torch_text,
                             int last)
{
    version_line(s, facts);
    if (ls_nccl_interpretation_line(s)) { /* the last error on the next lines */
        *await_last_error = 1;
        return;
    }
    const char *error = ls_nccl_last_error(s);
    if (*await_last_error && !error) {
        const char *next = ls_nccl_last_error_next(s);
        *await_last_error = 0;
        if (next) /* no thread: never told gone on */
            ls_nccl_warn_line(facts, "", parse_warn(next, "", -1, "", last, facts));
        return;
    }
    if (error) {
        *await_last_error = !*error;
        if (*error)
            ls_nccl_warn_line(facts, "", parse_warn(error, "", -1, "", last, facts));
        return;
    }
    if (ls_nccl_bare_net_message(s) || (torch_text && ls_nccl_beside_torch_line(s)))
        ls_nccl_facts_append_once(facts, "bare_messages", json_string(s));
}

/* Digits from s on: how many (0 when none). */
static size_t digits_at(const char *s)
{
    return strspn(s, "0123456789");
}

/* A line that is only NCCL's prefix "host:pid:tid", or that and " [dev]": the paste was
   cut after the prefix, before the keyword and message (debug.cc prints the prefix
   first). The host printed it, so it is one of the log's hosts. 0 with host set. */
static int prefix_only_host(const char *s, char *host, size_t len)
{
    size_t n = strcspn(s, " \t");
    const char *rest = s + n + strspn(s + n, " \t");
    if (*rest == '[' && digits_at(rest + 1) && rest[1 + digits_at(rest + 1)] == ']')
        rest += 2 + digits_at(rest + 1), rest += strspn(rest, " \t");
    if (*rest)
        return -1;
    const char *tid = s + n, *pid; /* the two numbers, read from the right */
    while (tid > s && isdigit((unsigned char)tid[-1]))
        tid--;
    if (tid == s + n || tid - s < 2 || tid[-1] != ':')
        return -1;
    for (pid = tid - 1; pid > s && isdigit((unsigned char)pid[-1]);)
        pid--;
    size_t hlen = (size_t)(pid - s) - 1;
    if (pid == tid - 1 || pid - s < 2 || pid[-1] != ':' || hlen >= len)
        return -1;
    int letters = 0;
    for (size_t i = 0; i < hlen; i++) {
        if (!isalnum((unsigned char)s[i]) && !strchr("-._", s[i]))
            return -1;
        letters += isalpha((unsigned char)s[i]) != 0;
    }
    if (!letters)
        return -1;
    memcpy(host, s, hlen);
    host[hlen] = '\0';
    return 0;
}

/* The start of the text's last line that holds more than blanks and backticks (a
   markdown fence after a paste is not where it was cut). */
static const char *last_line_start(const char *text)
{
    const char *end = text + strlen(text);
    while (end > text && strchr(" \t\r\n`", end[-1]))
        end--;
    while (end > text && end[-1] != '\n')
        end--;
    return end;
}

/* On a line where two processes' writes interleaved, the later prefix is glued to the
   cut tail of the earlier message ("... is not available on deproxmox:2940721:2940721 [0]
   NCCL INFO ...": "on de" + "proxmox:..."), so the host read back to the blank carries
   that tail. Where a host the log already named is a proper suffix of it, that host is
   the one. */
static void interleaved_host(const char *line, const char *kw, const json_t *facts, char *host)
{
    const char *first = strstr(line, "NCCL ");
    if (!first || first >= kw)
        return; /* the line's only prefix: read whole */
    size_t n = strlen(host), i;
    const json_t *h;
    json_array_foreach(json_object_get(facts, "hosts"), i, h) {
        const char *known = json_string_value(h);
        size_t k = known ? strlen(known) : 0;
        if (k && k < n && !strcmp(host + n - k, known)) {
            memmove(host, host + n - k, k + 1);
            return;
        }
    }
}

static void parse_lines(const char *text, json_t *facts)
{
    char buf[2048], host[128];
    int await_last_error = 0, torch_text = ls_nccl_torch_error_text(text);
    const char *last = last_line_start(text);
    for (const char *line = text, *at = text; ls_text_line(&line, buf, sizeof buf); at = line) {
        unlink_markdown(buf);
        char *s = buf;
        while (*s == ' ' || *s == '\t' || *s == '`')
            s++;
        char kind;
        const char *kw = NULL, *msg = nccl_keyword(s, &kind, &kw);
        if (!msg) {
            if (prefix_only_host(s, host, sizeof host) == 0)
                ls_nccl_facts_append_once(facts, "hosts", json_string(host));
            keywordless_line(s, facts, &await_last_error, torch_text, at == last);
            continue;
        }
        await_last_error = 0;
        int dev;
        char thread[LS_NCCL_THREAD_LEN];
        if (line_prefix(s, kw, host, sizeof host, &dev, thread) == 0) {
            interleaved_host(s, kw, facts, host);
            ls_nccl_facts_append_once(facts, "hosts", json_string(host));
        }
        if (kind == 'W') {
            char source[96];
            warn_source(s, kw, source, sizeof source);
            ls_nccl_warn_line(facts, thread, parse_warn(msg, host, dev, source, at == last, facts));
            ls_nccl_log_p2p_disabled(msg, host, facts);
        } else {
            parse_message(msg, host, dev, facts);
            ls_nccl_trail_thread(msg, host, dev, thread, facts);
            ls_nccl_warn_info(facts, msg, thread);
        }
    }
}

/* from_host / to_host: a P2P/SHM line and a NET [send] line are printed by the sending
   rank, a NET [receive] line by the receiving one; other ranks' hosts come from their
   own init lines. */
static void set_hosts(const char *text, json_t *facts)
{
    json_t *map = json_object_get(facts, "rank_hosts");
    char buf[2048], host[128];
    for (const char *line = text; ls_text_line(&line, buf, sizeof buf);) {
        char kind;
        unlink_markdown(buf);
        const char *kw = NULL, *info = nccl_keyword(buf, &kind, &kw);
        int dev;
        if (!info || kind != 'I' || line_prefix(buf, kw, host, sizeof host, &dev, NULL) != 0 ||
            !strstr(info, " via "))
            continue;
        interleaved_host(buf, kw, facts, host);
        int from, to;
        const char *colon = strstr(info, " : ");
        if (!colon || sscanf(colon + 3, "%d%*[^-]-> %d", &from, &to) != 2)
            continue;
        note_rank_host(facts, strstr(info, "[receive]") ? to : from, host);
    }
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(facts, "transports"), i, t) {
        char key[16];
        snprintf(key, sizeof key, "%lld",
                 (long long)json_integer_value(json_object_get(t, "from_rank")));
        const json_t *fh = json_object_get(map, key);
        snprintf(key, sizeof key, "%lld",
                 (long long)json_integer_value(json_object_get(t, "to_rank")));
        const json_t *th = json_object_get(map, key);
        if (fh)
            json_object_set(t, "from_host", (json_t *)fh);
        if (th)
            json_object_set(t, "to_host", (json_t *)th);
        if (fh && th)
            json_object_set_new(t, "same_host", json_boolean(json_equal(fh, th)));
    }
}

/* Bus ids read as GPU numbers by the shared parser ("0[81000]"): unknown GPU instead. */
static void fix_bus_brackets(json_t *facts)
{
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(facts, "transports"), i, t) {
        static const char *const keys[] = {"from", "to"};
        for (int k = 0; k < 2; k++)
            if (json_integer_value(json_object_get(t, keys[k])) >= 1000)
                json_object_set_new(t, keys[k], json_integer(-1));
    }
}

json_t *ls_nccl_log_facts(const char *text)
{
    json_t *facts = ls_nccl_parse_log(text);
    json_object_set_new(facts, "hosts", json_array());
    json_object_set_new(facts, "gdr", json_array());
    json_object_set_new(facts, "rank_hosts", json_object());
    json_object_set_new(facts, "warnings", json_array());
    if (!text)
        return facts;
    fix_bus_brackets(facts);
    parse_lines(text, facts);
    ls_nccl_trail_threads_end(facts);
    ls_nccl_warn_threads_end(facts);
    json_object_del(facts, "network_said"); /* the extras' note while reading */
    ls_nccl_facts_index_end(facts);
    set_hosts(text, facts);
    json_t *edges = json_array();
    ls_nccl_transport_summary(json_object_get(facts, "transports"), edges);
    json_object_set_new(facts, "edges", edges);
    return facts;
}

static int has_facts(const json_t *f)
{
    static const char *const arrays[] = {"ranks",    "rings", "trees",       "transports",
                                         "nccl_env", "gdr",   "net_devices", "warnings"};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        if (json_array_size(json_object_get(f, arrays[i])) > 0)
            return 1;
    return json_is_string(json_object_get(f, "nccl_version")) || json_object_get(f, "nranks") ||
           json_object_get(f, "network") || ls_nccl_log_extras_any(f);
}

/* "NCCL_IB_DISABLE set by environment to 0" into doc's env (the first value wins). */
static void apply_env(json_t *doc, const json_t *facts)
{
    json_t *env = json_object_get(doc, "env");
    size_t i;
    const json_t *line;
    json_array_foreach(json_object_get(facts, "nccl_env"), i, line) {
        char key[64], value[128];
        if (ls_nccl_env_line(json_string_value(line), key, sizeof key, value, sizeof value) == 0 &&
            !json_object_get(env, key))
            json_object_set_new(env, key, json_string(value));
    }
}

int ls_import_nccl_log(json_t *doc, const char *text, const char *name, char *err, size_t errlen)
{
    json_t *facts = ls_nccl_log_facts(text);
    if (!has_facts(facts)) {
        json_decref(facts);
        return ls_seterr(err, errlen,
                         "%s: looks like an NCCL log, but holds nothing NCCL reports (no version, "
                         "rank, channel, transport or WARN line)",
                         name);
    }
    json_object_set_new(facts, "file", json_string(name));
    json_object_set_new(facts, "source", json_string("nccl-log"));
    ls_set_if_absent(json_object_get(doc, "software"), "nccl",
                     json_string_value(json_object_get(facts, "nccl_version")));
    apply_env(doc, facts);
    json_t *logs = ls_json_array_at(doc, "nccl_logs");
    json_array_append_new(logs, facts);
    ls_nics_from_nccl(doc);
    return 0;
}
