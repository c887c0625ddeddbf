/* perftest text (linux-rdma/perftest's ib_*_bw and ib_*_lat). Layout (its printing code
   and the outputs posted in its issues):
     "                    RDMA_Write BW Test"          (Bidirectional, Post List, Latency ...)
     " Dual-port       : OFF\t\tDevice         : mlx5_0"   settings, two per line
     " Link type       : IB"  " Number of qps   : 1"  " Mtu             : 4096[B]"
     " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]"
     " 65536      5000             51.05              51.04              0.097356"
   or for latency " #bytes #iterations t_min[usec] t_max[usec] t_typical[usec] t_avg[usec]
   t_stdev[usec] 99% percentile[usec] 99.9% percentile[usec]" (older releases stop at
   t_typical; a -D run prints "t_avg[usec] tps average"). The columns are found by their
   labels; a row is a line starting with two integers (a figure in markdown emphasis, as a
   post outside a code block shows it, "**5544.28**", read as the figure); lines between
   (perftest's "Conflicting CPU frequency" warning) are ignored. */
#include "perftest.h"
#include "util/lines.h"
#include "import_util.h"
#include "model/doc.h"
#include "model/vocab.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum col { C_PEAK, C_AVG, C_RATE, C_MIN, C_MAX, C_TYP, C_TAVG, C_STDEV, C_P99, C_P999, C_TPS, C_N };

/* Label of each column as perftest prints it, and the key it is kept under. */
static const struct {
    const char *label, *key;
} cols[C_N] = {
    [C_PEAK] = {"peak[", "peak"},
    [C_AVG] = {"average[", "average"},
    [C_RATE] = {"MsgRate", "msg_rate_mpps"},
    [C_MIN] = {"t_min", "min_us"},
    [C_MAX] = {"t_max", "max_us"},
    [C_TYP] = {"t_typical", "typical_us"},
    [C_TAVG] = {"t_avg", "avg_us"},
    [C_STDEV] = {"t_stdev", "stdev_us"},
    [C_P99] = {"99% percentile", "p99_us"},
    [C_P999] = {"99.9% percentile", "p999_us"},
    [C_TPS] = {"tps average", "tps"},
};

typedef struct {
    char title[96], tool[32], device[64], link[32], transport[16], unit[16];
    long long qps, mtu;
    int latency, bidir;
    int at[C_N]; /* column of each label after #bytes and #iterations, -1: absent */
    int ncols, header;
} pt_t;

/* The column header: "#bytes" then "#iterations" (or "iterations" without its '#', as a
   posted ib_read_bw table prints it: openucx/ucx#8852). */
static int header_line(const char *line)
{
    const char *h = strstr(line, "#bytes");
    return h && strstr(h, "iterations");
}

int ls_perftest_detect(const char *text)
{
    const char *h = strstr(text, "#bytes");
    return h && strstr(h, "iterations") &&
           (strstr(h, "average[") || strstr(h, "t_min[") || strstr(h, "t_avg[") ||
            strstr(h, "t_typical["));
}

/* The column order of a header line: each label's rank by its position. */
static void read_header(pt_t *p, const char *line)
{
    const char *pos[C_N];
    for (int c = 0; c < C_N; c++) {
        pos[c] = strstr(line, cols[c].label);
        if (c == C_P99 && pos[c] && pos[c] > line && pos[c][-1] == '.')
            pos[c] = NULL; /* "99.9% percentile" is not "99% percentile" */
        p->at[c] = -1;
    }
    p->ncols = 0;
    for (int c = 0; c < C_N; c++) {
        if (!pos[c])
            continue;
        int rank = 0;
        for (int o = 0; o < C_N; o++)
            rank += pos[o] && pos[o] < pos[c];
        p->at[c] = rank, p->ncols++;
    }
    const char *u = strstr(line, "average[");
    if (u)
        sscanf(u + strlen("average["), "%15[^]]", p->unit);
    p->latency = p->at[C_AVG] < 0;
    p->header = 1;
}

/* GB/s (1e9 bytes/s) of one figure in the table's unit: perftest divides by
   0x100000 for MB/sec and by 125000000 (1e9 bits / 8) for Gb/sec (perftest_resources.c,
   format_factor); -1 for a unit it does not print. */
static double to_gbps(const pt_t *p, double v)
{
    if (strcmp(p->unit, "Gb/sec") == 0)
        return v / 8.0;
    if (strcmp(p->unit, "MB/sec") == 0)
        return v * 1048576.0 / 1e9;
    return -1;
}

/* "RDMA_Write BW Test" -> ib_write_bw; "Send Latency Test" -> ib_send_lat. */
static void read_title(pt_t *p, const char *t)
{
    static const struct {
        const char *word, *op;
    } ops[] = {{"RDMA_Write", "write"},
               {"RDMA_Read", "read"},
               {"Send", "send"},
               {"Atomic", "atomic"}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strstr(t, ops[i].word)) {
            snprintf(p->tool, sizeof p->tool, "ib_%s_%s", ops[i].op,
                     strstr(t, "Latency") ? "lat" : "bw");
            break;
        }
    snprintf(p->title, sizeof p->title, "%s", t);
    p->bidir = strstr(t, "Bidirectional") != NULL;
}

/* "Device         : mlx5_0" anywhere on the line (settings come two per line). */
static void setting(const char *line, const char *name, char *out, size_t outlen)
{
    const char *s = strstr(line, name);
    if (!s || !(s = strchr(s, ':')))
        return;
    char v[64];
    if (sscanf(s + 1, " %63s", v) != 1 || outlen == 0)
        return;
    size_t n = strlen(v) < outlen ? strlen(v) : outlen - 1; /* cut to the field, as intended */
    memcpy(out, v, n);
    out[n] = '\0';
}

static void read_settings(pt_t *p, const char *line)
{
    char v[64] = "";
    setting(line, "Device ", p->device, sizeof p->device);
    setting(line, "Link type", p->link, sizeof p->link);
    setting(line, "Transport type", p->transport, sizeof p->transport);
    setting(line, "Number of qps", v, sizeof v);
    if (v[0])
        p->qps = atoll(v), v[0] = 0;
    setting(line, "Mtu ", v, sizeof v);
    if (v[0])
        p->mtu = atoll(v);
}

static json_t *row_entry(const pt_t *p, const double *v, long long bytes)
{
    json_t *e;
    if (p->latency) {
        int main_col = p->at[C_TYP] >= 0 ? C_TYP : C_TAVG; /* t_typical is perftest's median */
        e = ls_import_entry(LS_FAMILY_NET, "latency", "us", v[main_col]);
    } else {
        e = ls_import_entry(LS_FAMILY_NET, "bandwidth", "GB/s", to_gbps(p, v[C_AVG]));
        if (p->at[C_PEAK] >= 0 && v[C_PEAK] > 0) /* 0.00: peak not measured (-D) */
            json_object_set_new(e, "peak_gbps", json_real(to_gbps(p, v[C_PEAK])));
        json_object_set_new(e, "reported",
                            json_pack("{s:f, s:s}", "average", v[C_AVG], "unit", p->unit));
    }
    json_object_set_new(e, "method", json_string(p->tool));
    json_object_set_new(e, "bytes", json_integer(bytes));
    json_object_set_new(e, "direction", json_string(p->bidir ? "bidir" : "uni"));
    for (int c = C_RATE; c < C_N; c++)
        if (p->at[c] >= 0)
            json_object_set_new(e, cols[c].key, json_real(v[c]));
    if (p->device[0])
        json_object_set_new(e, "device", json_string(p->device));
    char subject[80];
    snprintf(subject, sizeof subject, "port %s", p->device[0] ? p->device : "unknown");
    json_object_set_new(e, "subject", json_string(subject));
    if (p->link[0])
        json_object_set_new(e, "link_layer", json_string(p->link));
    if (p->qps > 0)
        json_object_set_new(e, "qps", json_integer(p->qps));
    if (p->mtu > 0)
        json_object_set_new(e, "mtu", json_integer(p->mtu));
    return e;
}

/* A result row: #bytes, #iterations, then the header's columns. 1 when one was added. */
static int read_row(json_t *doc, const pt_t *p, ls_line_t *l)
{
    long long bytes, iters;
    if (!p->header || l->ntok < 2 + p->ncols || ls_tok_long(l->tok[0], &bytes) != 0 ||
        ls_tok_long(l->tok[1], &iters) != 0)
        return 0;
    double v[C_N] = {0};
    for (int t = 2; t < l->ntok; t++) /* a figure bolded in a post: "**5544.28**" */
        l->tok[t] = ls_tok_unemphasize(l->tok[t]);
    for (int c = 0; c < C_N; c++)
        if (p->at[c] >= 0 && ls_tok_double(l->tok[2 + p->at[c]], &v[c]) != 0)
            return 0;
    if (!p->latency && to_gbps(p, v[C_AVG]) < 0)
        return 0;
    json_t *e = row_entry(p, v, bytes);
    json_object_set_new(e, "iterations", json_integer(iters));
    char id[160];
    snprintf(id, sizeof id, "net-%s-%s%s-%lld", p->tool, p->device[0] ? p->device : "unknown",
             p->bidir ? "-bidir" : "", bytes);
    ls_import_add(doc, e, "perftest", id);
    return 1;
}

static void title_line(pt_t *p, const char *raw)
{
    const char *t = raw;
    while (*t == ' ' || *t == '\t')
        t++;
    size_t n = strlen(t);
    if (n > 5 && strcmp(t + n - 5, " Test") == 0 && !strchr(t, ':'))
        read_title(p, t);
}

int ls_import_perftest(json_t *doc, const char *text, const char *name, char *err, size_t errlen)
{
    pt_t p = {.qps = 0};
    snprintf(p.tool, sizeof p.tool, "perftest");
    const char *pos = text;
    ls_line_t line;
    char raw[sizeof line.buf];
    int n = 0;
    while (ls_next_line(&pos, &line)) {
        const char *unquoted = ls_skip_quote(line.buf); /* a table quoted in a reply */
        memmove(line.buf, unquoted, strlen(unquoted) + 1);
        snprintf(raw, sizeof raw, "%s", line.buf);
        title_line(&p, raw);
        if (strchr(raw, ':'))
            read_settings(&p, raw);
        if (header_line(raw)) {
            read_header(&p, raw);
            continue;
        }
        ls_tokenize(&line);
        n += read_row(doc, &p, &line);
    }
    if (n == 0)
        return ls_seterr(err, errlen,
                         "%s: perftest text: no result row under a #bytes #iterations header",
                         name);
    return n;
}
