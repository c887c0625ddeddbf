#include "nccl_log.h"

#include <stdio.h>
#include <string.h>

/* "KW CH[/CONN] : FROM[B] -> TO[B] ": sets the numbers and returns the length read, or 0. */
static int parse_ends(const char *msg, const char *kw, ls_nccl_channel_t *c)
{
    /* the four shapes, with and without "/CONN", with and without brackets */
    static const struct {
        const char *fmt;
        int conn, brackets;
    } shapes[] = {
        {"%d/%d : %d[%31[^]]] -> %d[%31[^]]] %n", 1, 1},
        {"%d : %d[%31[^]]] -> %d[%31[^]]] %n", 0, 1},
        {"%d : %d -> %d %n", 0, 0},
        {"%d/%d : %d -> %d %n", 1, 0},
    };
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        char fmt[80];
        int used = 0, got;
        snprintf(fmt, sizeof fmt, "%s %s", kw, shapes[k].fmt);
        c->conn = 0;
        c->from[0] = c->to[0] = '\0';
        if (shapes[k].conn && shapes[k].brackets)
            got = sscanf(msg, fmt, &c->channel, &c->conn, &c->from_rank, c->from, &c->to_rank,
                         c->to, &used) == 6;
        else if (shapes[k].brackets)
            got = sscanf(msg, fmt, &c->channel, &c->from_rank, c->from, &c->to_rank, c->to,
                         &used) == 5;
        else if (shapes[k].conn)
            got = sscanf(msg, fmt, &c->channel, &c->conn, &c->from_rank, &c->to_rank, &used) == 4;
        else
            got = sscanf(msg, fmt, &c->channel, &c->from_rank, &c->to_rank, &used) == 3;
        if (got && used) {
            c->has_conn = shapes[k].conn;
            c->brackets = shapes[k].brackets;
            return used;
        }
    }
    return 0;
}

int ls_nccl_channel_parse(const char *msg, ls_nccl_channel_t *c)
{
    memset(c, 0, sizeof *c);
    c->ring = strncmp(msg, "Ring ", 5) == 0;
    int used = parse_ends(msg, c->ring ? "Ring" : "Channel", c);
    if (!used)
        return -1;
    const char *rest = msg + used;
    c->side = "both";
    if (strncmp(rest, "[send] ", 7) == 0) {
        c->side = "send";
        rest += 7;
    } else if (strncmp(rest, "[receive] ", 10) == 0) {
        c->side = "receive";
        rest += 10;
    }
    if (strncmp(rest, "via ", 4) != 0)
        return -1;
    snprintf(c->via, sizeof c->via, "%s", rest + 4);
    c->via[strcspn(c->via, "\r\n")] = '\0';
    return 0;
}

int ls_nccl_transport_skips_p2p(const char *transport)
{
    return strncmp(transport, "SHM", 3) == 0 || strncmp(transport, "NET", 3) == 0;
}
