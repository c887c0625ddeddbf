#include "nccl_log.h"

#include <stdio.h>
#include <string.h>

int ls_nccl_channel_parse(const char *msg, ls_nccl_channel_t *c)
{
    int used = 0;
    memset(c, 0, sizeof *c);
    c->has_conn = 1;
    if (sscanf(msg, "Channel %d/%d : %d[%31[^]]] -> %d[%31[^]]] %n", &c->channel, &c->conn,
               &c->from_rank, c->from, &c->to_rank, c->to, &used) < 6 || !used) {
        c->conn = c->has_conn = used = 0;
        if (sscanf(msg, "Channel %d : %d[%31[^]]] -> %d[%31[^]]] %n", &c->channel, &c->from_rank,
                   c->from, &c->to_rank, c->to, &used) < 5 || !used)
            return -1;
    }
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
