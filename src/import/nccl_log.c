#include "nccl_log.h"
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

int ls_nccl_log_detect(const char *text)
{
    const char *p = strstr(text, "NCCL INFO ");
    if (p || strstr(text, " NCCL WARN "))
        return 1;
    for (p = strstr(text, "NCCL version "); p; p = strstr(p + 1, "NCCL version "))
        if ((p == text || p[-1] == '\n') && isdigit((unsigned char)p[13]))
            return 1;
    return 0;
}

/* "host:pid:tid [dev] NCCL INFO ...": the host, when the prefix has that shape. */
static int line_host(const char *line, char *host, size_t len)
{
    /* an mpirun --tag-output tag first: "[1,3]<stdout>:host:pid:tid ..." */
    const char *tag = line[0] == '[' ? strstr(line, ">:") : NULL;
    if (tag && memchr(line, ' ', (size_t)(tag - line)) == NULL)
        line = tag + 2;
    /* a bracket and a blank before the host: NCCL_DEBUG_TIMESTAMP_FORMAT's
       "[2026-03-13 22:26:02] ", or a colour code's residue "[0m " */
    const char *close = line[0] == '[' ? strchr(line, ']') : NULL;
    size_t colour = line[0] == '[' ? 1 + strspn(line + 1, "0123456789;") : 0; /* "[0m" of ESC[0m */
    if (colour > 1 && line[colour] == 'm' && line[colour + 1] == ' ')
        line += colour + 2;
    else if (close && close[1] == ' ' && close[2] != ' ' && close[2] != '[')
        line = close + 2;
    const char *info = strstr(line, " NCCL INFO ");
    if (!info)
        info = strstr(line, " NCCL WARN ");
    const char *c1 = strchr(line, ':');
    if (!info || !c1 || c1 > info || c1 == line)
        return -1;
    const char *c2 = strchr(c1 + 1, ':');
    /* the pid: digits, or a mask of X's where the poster hid it ("host:XXXXXX [5]") */
    if (!c2 || c2 > info || !(isdigit((unsigned char)c1[1]) || c1[1] == 'X'))
        return -1;
    size_t n = (size_t)(c1 - line);
    if (n >= len)
        return -1;
    memcpy(host, line, n);
    host[n] = '\0';
    return 0;
}

static void add_unique_string(json_t *list, const char *s)
{
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v) if (strcmp(json_string_value(v), s) == 0) return;
    json_array_append_new(list, json_string(s));
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
                          c.channel, "conn", c.conn, "from_rank", c.from_rank, "to_rank",
                          c.to_rank, "from", bracket_is_gpu(c.from) ? atoi(c.from) : -1, "to",
                          bracket_is_gpu(c.to) ? atoi(c.to) : -1, "transport", cls, "via", via,
                          "gdrdma", strstr(via, "GDRDMA") != NULL, "read",
                          strstr(via, "/read") != NULL, "side", c.side);
    set_bus_fields(t, "from_bus", c.from);
    set_bus_fields(t, "to_bus", c.to);
    return t;
}

static int same_connection(const json_t *a, const json_t *b)
{
    static const char *const keys[] = {"channel", "conn", "from_rank", "to_rank"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (json_integer_value(json_object_get(a, keys[i])) !=
            json_integer_value(json_object_get(b, keys[i])))
            return 0;
    return strcmp(json_string_value(json_object_get(a, "side")),
                  json_string_value(json_object_get(b, "side"))) == 0;
}

static void add_connection(json_t *facts, json_t *t)
{
    json_t *list = json_object_get(facts, "transports");
    size_t i;
    json_t *o;
    json_array_foreach(list, i, o) if (same_connection(o, t))
    {
        /* read by the shared parser too: keep its entry, with the bus ids */
        static const char *const keys[] = {"from_bus", "to_bus", "from", "to"};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            if (json_object_get(t, keys[k]) && (k >= 2 ? json_object_get(t, keys[k - 2]) != NULL : 1))
                json_object_set(o, keys[k], json_object_get(t, keys[k]));
        json_decref(t);
        return;
    }
    json_array_append_new(list, t);
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
    } else if (g && sscanf(g, "GPU Direct RDMA %*s for GPU %31s / HCA %d (distance %d %*s %d)",
                           bus, &hca, &distance, &limit) == 4) {
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
    json_t *list = json_object_get(facts, "gdr");
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e) if (json_equal(e, o))
    {
        json_decref(o);
        return;
    }
    json_array_append_new(list, o);
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

static void parse_message(const char *msg, const char *host, json_t *facts)
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
    if (r && (strstr(msg, " nranks ") || strstr(msg, " nRanks ")) && sscanf(r + 6, "%d", &rank) == 1)
        note_rank_host(facts, rank, host);
    char net[32];
    if (sscanf(msg, "Using network %31s", net) == 1)
        json_object_set_new(facts, "network", json_string(net));
    parse_gdr(msg, facts);
    ls_nccl_net_line(msg, facts);
}

/* "host:pid:tid [3] NCCL WARN NET/IB : Got completion from peer ...": the text, the host
   and the GPU (the bracket before NCCL WARN is the rank's CUDA device), into warnings[]
   once each (analyze/nccl_messages.c names what it means). */
static void parse_warn(const char *line, const char *warn, const char *host, json_t *facts)
{
    char text[400];
    snprintf(text, sizeof text, "%s", warn + strlen("NCCL WARN "));
    text[strcspn(text, "\r\n")] = '\0';
    size_t n = strlen(text);
    while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '`'))
        text[--n] = '\0';
    if (!n)
        return;
    json_t *o = json_pack("{s:s}", "text", text);
    if (host[0])
        json_object_set_new(o, "host", json_string(host));
    /* the first bracket of digits after a space: "[1,0]<stderr>:" launcher tags are not */
    for (const char *b = strchr(line, '['); b && b < warn; b = strchr(b + 1, '[')) {
        char dev[8];
        const char *close = strchr(b, ']');
        size_t len = close ? (size_t)(close - b - 1) : 0;
        if (b == line || b[-1] != ' ' || !close || close > warn || !len || len >= sizeof dev)
            continue;
        memcpy(dev, b + 1, len);
        dev[len] = '\0';
        if (bracket_is_gpu(dev)) {
            json_object_set_new(o, "gpu", json_integer(atoi(dev)));
            break;
        }
    }
    json_t *list = json_object_get(facts, "warnings");
    size_t i;
    json_t *e;
    /* a paste cut inside a WARN line ("Could not find a pat") that another line of the log
       prints whole is that message: it takes the whole text */
    json_array_foreach(list, i, e)
    {
        const char *whole = json_string_value(json_object_get(e, "text"));
        whole = whole ? whole : "";
        if (n >= 8 && strlen(whole) > n && strncmp(whole, text, n) == 0) {
            json_object_set_new(o, "text", json_string(whole));
            break;
        }
    }
    json_array_foreach(list, i, e) if (json_equal(e, o))
    {
        json_decref(o);
        return;
    }
    json_array_append_new(list, o);
}

static void parse_lines(const char *text, json_t *facts)
{
    char buf[2048], host[128];
    for (const char *line = text; ls_text_line(&line, buf, sizeof buf);) {
        char *s = buf;
        while (*s == ' ' || *s == '\t' || *s == '`')
            s++;
        char v[32];
        if (sscanf(s, "NCCL version %31[0-9.]", v) == 1) { /* NCCL <= 2.8: printed bare */
            if (json_is_null(json_object_get(facts, "nccl_version")))
                json_object_set_new(facts, "nccl_version", json_string(v));
            continue;
        }
        const char *info = strstr(s, "NCCL INFO ");
        const char *warn = strstr(s, "NCCL WARN ");
        if (!info && !warn)
            continue;
        host[0] = '\0';
        if (line_host(s, host, sizeof host) == 0)
            add_unique_string(json_object_get(facts, "hosts"), host);
        if (!info) {
            parse_warn(s, warn, host, facts);
            continue;
        }
        parse_message(info + strlen("NCCL INFO "), host, facts);
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
        const char *info = strstr(buf, "NCCL INFO ");
        if (!info || line_host(buf, host, sizeof host) != 0 || !strstr(info, " via "))
            continue;
        int from, to;
        const char *colon = strstr(info, " : ");
        if (!colon || sscanf(colon + 3, "%d%*[^-]-> %d", &from, &to) != 2)
            continue;
        note_rank_host(facts, strstr(info, "[receive]") ? to : from, host);
    }
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(facts, "transports"), i, t)
    {
        char key[16];
        snprintf(key, sizeof key, "%lld", (long long)json_integer_value(json_object_get(t, "from_rank")));
        const json_t *fh = json_object_get(map, key);
        snprintf(key, sizeof key, "%lld", (long long)json_integer_value(json_object_get(t, "to_rank")));
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
    json_array_foreach(json_object_get(facts, "transports"), i, t)
    {
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
    set_hosts(text, facts);
    json_t *edges = json_array();
    ls_nccl_transport_summary(json_object_get(facts, "transports"), edges);
    json_object_set_new(facts, "edges", edges);
    return facts;
}

static int has_facts(const json_t *f)
{
    static const char *const arrays[] = {"ranks", "rings", "trees", "transports", "nccl_env", "gdr",
                                         "net_devices", "warnings"};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        if (json_array_size(json_object_get(f, arrays[i])) > 0)
            return 1;
    return json_is_string(json_object_get(f, "nccl_version")) || json_object_get(f, "nranks") ||
           json_object_get(f, "network");
}

/* "NCCL_IB_DISABLE set by environment to 0" into doc's env (the first value wins). */
static void apply_env(json_t *doc, const json_t *facts)
{
    json_t *env = json_object_get(doc, "env");
    size_t i;
    const json_t *line;
    json_array_foreach(json_object_get(facts, "nccl_env"), i, line)
    {
        char key[64], value[128];
        if (sscanf(json_string_value(line), "%63[A-Z0-9_] set by environment to %127[^\n]", key,
                   value) == 2 &&
            strncmp(key, "NCCL_", 5) == 0 && !json_object_get(env, key))
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
                         "rank, channel, transport or WARN line)", name);
    }
    json_object_set_new(facts, "file", json_string(name));
    json_object_set_new(facts, "source", json_string("nccl-log"));
    ls_set_if_absent(json_object_get(doc, "software"), "nccl",
                     json_string_value(json_object_get(facts, "nccl_version")));
    apply_env(doc, facts);
    json_t *logs = json_object_get(doc, "nccl_logs");
    if (!logs) {
        logs = json_array();
        json_object_set_new(doc, "nccl_logs", logs);
    }
    json_array_append_new(logs, facts);
    ls_nics_from_nccl(doc);
    return 0;
}
