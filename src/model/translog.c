#include "translog.h"
#include "nccl_log.h"
#include "doc.h"
#include "util/lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The message after "NCCL INFO ", or NULL. */
static const char *info_message(const char *line)
{
    const char *p = strstr(line, "NCCL INFO ");
    return p ? p + strlen("NCCL INFO ") : NULL;
}

/* Where a list of out already holds an entry of this key: a hash per list kept under
   out's "parse_index" while ls_nccl_parse_log reads (a log of many distinct lines
   compared each with every entry before it was quadratic: docs/safety.md, "Cost"). The
   position of key's entry, or -1 after recording pos for it (the caller appends there). */
static long seen_at(json_t *out, const char *list, const char *key, size_t pos)
{
    json_t *ix = ls_json_list_index(out, "parse_index", list);
    const json_t *at = json_object_get(ix, key);
    if (at)
        return (long)json_integer_value(at);
    json_object_set_new_nocheck(ix, key, json_integer((json_int_t)pos));
    return -1;
}

void ls_nccl_connection_key(const json_t *t, char *key, size_t len)
{
    const char *side = json_string_value(json_object_get(t, "side"));
    snprintf(key, len, "%lld/%lld/%lld/%lld/%c%s",
             (long long)json_integer_value(json_object_get(t, "channel")),
             (long long)json_integer_value(json_object_get(t, "conn")),
             (long long)json_integer_value(json_object_get(t, "from_rank")),
             (long long)json_integer_value(json_object_get(t, "to_rank")), side ? 's' : 'n',
             side ? side : "");
}

static int has_transport(json_t *out, const json_t *list, const json_t *t)
{
    char key[320];
    ls_nccl_connection_key(t, key, sizeof key);
    return seen_at(out, "transports", key, json_array_size(list)) >= 0;
}

/* The rank table's entry of rank (one per rank: parse_rank keeps the first), or NULL. */
static const json_t *rank_entry(json_t *out, int rank)
{
    char key[24];
    snprintf(key, sizeof key, "%d", rank);
    const json_t *ix = json_object_get(json_object_get(out, "parse_index"), "ranks");
    const json_t *at = json_object_get(ix, key);
    return at ? json_array_get(json_object_get(out, "ranks"), (size_t)json_integer_value(at))
              : NULL;
}

void ls_nccl_transport_class(const char *via, char *out, size_t outlen)
{
    static const char *const prefixes[] = {"P2P/direct pointer", "P2P/CUMEM",
                                           "P2P/MNNVL",          "P2P/IPC",
                                           "P2P/indirect",       "SHM"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(via, prefixes[i], strlen(prefixes[i])) == 0) {
            snprintf(out, outlen, "%s", prefixes[i]);
            return;
        }
    if (strncmp(via, "direct shared memory", 20) == 0) { /* NCCL 2.4-2.7's SHM (shm.cc) */
        snprintf(out, outlen, "SHM");
        return;
    }
    if (strncmp(via, "NET/", 4) == 0) {
        size_t n = strcspn(via + 4, "/ ");
        snprintf(out, outlen, "NET/%.*s", (int)n, via + 4);
        return;
    }
    if (strncmp(via, "CollNet", 7) == 0 || strncmp(via, "COLLNET", 7) == 0) {
        snprintf(out, outlen, "COLLNET");
        return;
    }
    size_t n = strcspn(via, "/ ");
    snprintf(out, outlen, "%.*s", (int)n, via);
}

/* "[12]" holds the GPU (nvmlDev) in NCCL >= 2.12; older versions print the bus id in
   hex ("[60]"): then the rank table maps it. */
static int bracket_gpu(const char *text, json_t *out, int rank)
{
    char *end;
    long v = strtol(text, &end, 10);
    const json_t *r = rank_entry(out, rank);
    if (r && json_is_integer(json_object_get(r, "gpu"))) {
        const char *bus = json_string_value(json_object_get(r, "bus_id"));
        if (bus && strcmp(bus, text) == 0)
            return (int)json_integer_value(json_object_get(r, "gpu"));
    }
    return *end == '\0' ? (int)v : -1;
}

static void parse_connection(const char *msg, json_t *out)
{
    ls_nccl_channel_t c;
    if (ls_nccl_channel_parse(msg, &c) != 0 || c.ring || !c.brackets)
        return; /* the shapes of NCCL < 2.7 and bracketless NET lines: import/nccl_log.c */
    const char *via = c.via;
    char cls[64];
    ls_nccl_transport_class(via, cls, sizeof cls);
    json_t *t = json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:s, s:s, s:b, s:b, s:s}", "channel",
                          c.channel, "conn", c.conn, "from_rank", c.from_rank, "to_rank", c.to_rank,
                          "from", bracket_gpu(c.from, out, c.from_rank), "to",
                          bracket_gpu(c.to, out, c.to_rank), "transport", cls, "via", via, "gdrdma",
                          strstr(via, "GDRDMA") != NULL, "read", strstr(via, "/read") != NULL,
                          "side", c.side);
    json_t *list = json_object_get(out, "transports");
    if (has_transport(out, list, t))
        json_decref(t);
    else
        json_array_append_new(list, t);
}

/* "Channel 00/24 : 0 1 2 3": the ring order of one channel, printed by rank 0. */
static void parse_ring_order(const char *msg, json_t *out)
{
    int ch, nch, used = 0;
    if (sscanf(msg, "Channel %d/%d :%n", &ch, &nch, &used) < 2 || !used)
        return;
    const char *p = msg + used;
    if (strchr(p, '[') || strstr(p, "via"))
        return;
    json_t *order = json_array();
    char *end;
    for (long v = strtol(p, &end, 10); end != p; v = strtol(p, &end, 10)) {
        json_array_append_new(order, json_integer(v));
        p = end;
    }
    /* the longest ring of any channel, kept before the first ring of a channel wins: a
       log of several communicators reuses channel numbers */
    if ((long long)json_array_size(order) > ls_json_int(out, "ring_ranks_max", 0))
        json_object_set_new(out, "ring_ranks_max",
                            json_integer((json_int_t)json_array_size(order)));
    json_t *rings = json_object_get(out, "rings");
    char key[24];
    snprintf(key, sizeof key, "%d", ch);
    if (seen_at(out, "rings", key, json_array_size(rings)) >= 0) {
        json_decref(order);
        return;
    }
    json_array_append_new(rings, json_pack("{s:i, s:o}", "channel", ch, "ranks", order));
}

static void add_tree(json_t *out, int ch, int up, int me, int d0, int d1, int d2);

/* "Tree 0 : -1 -> 0 -> 1/-1/-1": channel, parent -> rank -> children. */
static void parse_tree(const char *msg, json_t *out)
{
    int ch, up, me, d0, d1, d2;
    if (sscanf(msg, "Tree %d : %d -> %d -> %d/%d/%d", &ch, &up, &me, &d0, &d1, &d2) == 6)
        add_tree(out, ch, up, me, d0, d1, d2);
}

/* "Trees [0] 1/-1/-1->0->-1 [1] ...": per channel, children -> rank -> parent. */
static void parse_trees(const char *msg, json_t *out)
{
    const char *p = msg;
    while ((p = strchr(p, '[')) != NULL) {
        int ch, d0, d1, d2, me, up, used = 0;
        if (sscanf(p, "[%d] %d/%d/%d->%d->%d%n", &ch, &d0, &d1, &d2, &me, &up, &used) == 6 && used)
            add_tree(out, ch, up, me, d0, d1, d2);
        p++;
    }
}

static void add_tree(json_t *out, int ch, int up, int me, int d0, int d1, int d2)
{
    json_t *trees = json_object_get(out, "trees");
    char key[32];
    snprintf(key, sizeof key, "%d/%d", ch, me);
    if (seen_at(out, "trees", key, json_array_size(trees)) >= 0)
        return;
    json_t *down = json_array();
    int kids[3] = {d0, d1, d2};
    for (int k = 0; k < 3; k++)
        if (kids[k] >= 0)
            json_array_append_new(down, json_integer(kids[k]));
    json_array_append_new(trees, json_pack("{s:i, s:i, s:i, s:o}", "channel", ch, "rank", me, "up",
                                           up, "down", down));
}

/* "... rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 70 ... Init START" (2.28), or
   "comm 0x.. rank 0 nranks 2 cudaDev 0 busId 60 - Init COMPLETE" (older). */
static int keyword_int(const char *msg, const char *key, int *value)
{
    const char *p = strstr(msg, key);
    return p && sscanf(p + strlen(key), "%d", value) == 1 ? 0 : -1;
}

static void parse_rank(const char *msg, json_t *out)
{
    if (!strstr(msg, "Init START") && !strstr(msg, "Init COMPLETE"))
        return;
    int rank, cuda_dev, nvml_dev = -1;
    if (keyword_int(msg, " rank ", &rank) || keyword_int(msg, " cudaDev ", &cuda_dev))
        return;
    keyword_int(msg, " nvmlDev ", &nvml_dev);
    char bus[32] = "";
    const char *b = strstr(msg, " busId ");
    if (b)
        sscanf(b + 7, "%31[0-9a-fA-F]", bus);
    json_t *ranks = json_object_get(out, "ranks");
    char key[24];
    snprintf(key, sizeof key, "%d", rank);
    if (seen_at(out, "ranks", key, json_array_size(ranks)) >= 0)
        return;
    json_array_append_new(ranks, json_pack("{s:i, s:i, s:s}", "rank", rank, "gpu",
                                           nvml_dev >= 0 ? nvml_dev : cuda_dev, "bus_id", bus));
}

static void parse_message(const char *msg, json_t *out)
{
    if (strncmp(msg, "NCCL version ", 13) == 0) {
        char v[32];
        if (sscanf(msg + 13, "%31[0-9.]", v) == 1)
            json_object_set_new(out, "nccl_version", json_string(v));
    } else if (strncmp(msg, "Channel ", 8) == 0) {
        if (strstr(msg, " via "))
            parse_connection(msg, out);
        else
            parse_ring_order(msg, out);
    } else if (strncmp(msg, "Tree ", 5) == 0) {
        parse_tree(msg, out);
    } else if (strstr(msg, "set by environment to")) {
        char line[160];
        snprintf(line, sizeof line, "%s", msg);
        line[strcspn(line, "\r\n")] = '\0';
        size_t n = strlen(line);
        if (n && line[n - 1] == '.')
            line[n - 1] = '\0';
        json_t *env = json_object_get(out, "nccl_env"), *v = json_string(line);
        if (v && seen_at(out, "nccl_env", line, json_array_size(env)) < 0)
            json_array_append_new(env, v); /* not UTF-8: json_string refused it, none added */
        else
            json_decref(v);
    } else if (strncmp(msg, "Trees ", 6) == 0) {
        parse_trees(msg, out);
    }
}

json_t *ls_nccl_parse_log(const char *text)
{
    json_t *out = json_pack("{s:n, s:[], s:[], s:[], s:[], s:[]}", "nccl_version", "ranks", "rings",
                            "trees", "transports", "nccl_env");
    if (!text)
        return out;
    /* Two passes: the rank table first (old versions print it after the channels). */
    for (int pass = 0; pass < 2; pass++) {
        const char *line = text;
        char buf[2048];
        while (ls_text_line(&line, buf, sizeof buf)) {
            const char *msg = info_message(buf);
            if (msg) {
                if (pass == 0)
                    parse_rank(msg, out);
                else
                    parse_message(msg, out);
            }
        }
    }
    json_object_del(out, "parse_index");
    return out;
}

static size_t block_text_length(const char *block, size_t width)
{
    const char *end = memchr(block, '\0', width);
    return end ? (size_t)(end - block) : width;
}

char *ls_nccl_join_logs(const char *blocks, int n, size_t width)
{
    size_t total = 1;
    for (int k = 0; k < n; k++)
        total += block_text_length(blocks + (size_t)k * width, width) + 1;
    char *out = malloc(total), *p = out;
    if (!out)
        return NULL;
    for (int k = 0; k < n; k++) {
        const char *block = blocks + (size_t)k * width;
        size_t len = block_text_length(block, width);
        memcpy(p, block, len);
        p += len;
        *p++ = '\n';
    }
    *p = '\0';
    return out;
}

static const json_t *find_link(const json_t *links, int a, int b)
{
    size_t i;
    const json_t *l;
    json_array_foreach(links, i, l) {
        if (json_integer_value(json_object_get(l, "a")) == a &&
            json_integer_value(json_object_get(l, "b")) == b)
            return l;
    }
    return NULL;
}

static int link_p2p_ok(const json_t *link)
{
    const char *r = json_string_value(json_object_get(link, "p2p_read"));
    const char *w = json_string_value(json_object_get(link, "p2p_write"));
    if (r || w)
        return r && w && strcmp(r, "OK") == 0 && strcmp(w, "OK") == 0;
    return json_is_true(json_object_get(link, "cuda_peer_access"));
}

int ls_nccl_annotate_links(json_t *transports, const json_t *doc_links)
{
    int n = 0;
    size_t i;
    json_t *t;
    json_array_foreach(transports, i, t) {
        const char *cls = json_string_value(json_object_get(t, "transport"));
        if (cls && strncmp(cls, "NET", 3) == 0)
            continue; /* across hosts the GPU numbers are not one topology's */
        const json_t *l = find_link(doc_links, (int)json_integer_value(json_object_get(t, "from")),
                                    (int)json_integer_value(json_object_get(t, "to")));
        if (!l)
            continue;
        json_object_set_new(t, "link_type",
                            json_string(json_string_value(json_object_get(l, "type"))));
        json_object_set_new(t, "p2p_ok", json_boolean(link_p2p_ok(l)));
        n++;
    }
    return n;
}

/* Ordered pairs with their transports, in order of first appearance. */
typedef struct {
    int from, to, count;
    int net, from_rank, to_rank; /* across hosts GPU numbers repeat: ranks tell apart */
    char transport[64], link[32];
    int p2p_ok;
} pair_t;

static int collect_pairs(const json_t *transports, pair_t *pairs, int max)
{
    int n = 0;
    size_t i;
    const json_t *t;
    json_array_foreach(transports, i, t) {
        if (strcmp(ls_json_str(t, "side", ""), "receive") == 0)
            continue; /* NET edges print both sides: count the sender's */
        int from = (int)json_integer_value(json_object_get(t, "from"));
        int to = (int)json_integer_value(json_object_get(t, "to"));
        const char *cls = json_string_value(json_object_get(t, "transport"));
        char name[64];
        snprintf(name, sizeof name, "%s%s", cls,
                 json_is_true(json_object_get(t, "gdrdma")) ? "/GDRDMA" : "");
        int net = strncmp(cls, "NET", 3) == 0;
        int fr = (int)json_integer_value(json_object_get(t, "from_rank"));
        int tr = (int)json_integer_value(json_object_get(t, "to_rank"));
        int k = 0;
        while (k < n && !(pairs[k].from == from && pairs[k].to == to &&
                          (!net || (pairs[k].from_rank == fr && pairs[k].to_rank == tr)) &&
                          strcmp(pairs[k].transport, name) == 0))
            k++;
        if (k == n) {
            if (n == max)
                continue;
            pairs[n] = (pair_t){from, to, 0, net, fr, tr, "", "", -1};
            snprintf(pairs[n].transport, sizeof pairs[n].transport, "%s", name);
            const char *lt = json_string_value(json_object_get(t, "link_type"));
            snprintf(pairs[n].link, sizeof pairs[n].link, "%s", lt ? lt : "");
            const json_t *ok = json_object_get(t, "p2p_ok");
            pairs[n].p2p_ok = ok ? json_is_true(ok) : -1;
            n++;
        }
        pairs[k].count++;
    }
    return n;
}

int ls_nccl_transport_findings(const json_t *transports, json_t *lines)
{
    pair_t pairs[256];
    int n = collect_pairs(transports, pairs, 256), added = 0;
    for (int i = 0; i < n; i++) {
        if (pairs[i].p2p_ok != 1 || !ls_nccl_transport_skips_p2p(pairs[i].transport))
            continue;
        char line[160];
        snprintf(line, sizeof line, "P2P is OK but NCCL used %.*s on %d -> %d%s%s%s",
                 (int)strcspn(pairs[i].transport, "/"), pairs[i].transport, pairs[i].from,
                 pairs[i].to, pairs[i].link[0] ? " (link " : "", pairs[i].link,
                 pairs[i].link[0] ? ")" : "");
        json_array_append_new(lines, json_string(line));
        added++;
    }
    return added;
}

int ls_nccl_transport_summary(const json_t *transports, json_t *lines)
{
    pair_t pairs[256];
    int n = collect_pairs(transports, pairs, 256);
    for (int i = 0; i < n; i++) {
        char line[200], ranks[64] = "";
        if (pairs[i].net)
            snprintf(ranks, sizeof ranks, "rank %d -> rank %d, ", pairs[i].from_rank,
                     pairs[i].to_rank);
        snprintf(line, sizeof line, "%sGPU%d -> GPU%d: %s x%d channels%s%s%s", ranks, pairs[i].from,
                 pairs[i].to, pairs[i].transport, pairs[i].count, pairs[i].link[0] ? " (link " : "",
                 pairs[i].link, pairs[i].link[0] ? ")" : "");
        json_array_append_new(lines, json_string(line));
    }
    return n;
}
