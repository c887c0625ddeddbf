/* nics[].nccl from nccl_logs[] (nic_view.h; not nic_nccl.c: *_nccl.c builds only with NCCL). */
#include "nic_view.h"
#include "doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB ib0:10.0.0.1<0>": the HCAs
   NCCL uses (index, name, port, link layer) and whether it enabled PCIe relaxed
   ordering for them ("[RO]"). */
static void net_using(const char *msg, json_t *facts)
{
    const char *p = strstr(msg, "NET/IB : Using");
    if (!p)
        return;
    const char *end = strstr(p, "; OOB");
    size_t len = end ? (size_t)(end - p) : strlen(p);
    json_t *devs = json_array();
    for (const char *q = strchr(p, '['); q && (size_t)(q - p) < len; q = strchr(q + 1, '[')) {
        int index, port;
        char name[64], layer[32];
        if (sscanf(q, "[%d]%63[^:]:%d/%31[A-Za-z]", &index, name, &port, layer) == 4)
            json_array_append_new(devs, json_pack("{s:i, s:s, s:i, s:s}", "index", index, "name",
                                                  name, "port", port, "link_layer", layer));
    }
    json_object_set_new(facts, "net_devices", devs);
    const char *ro = strstr(p, "[RO]");
    json_object_set_new(facts, "relaxed_ordering", json_boolean(ro && (size_t)(ro - p) < len));
}

/* "NET/IB: [0] mlx5_0:uverbs0:1/IB provider=Mlx5 speed=400000 context=0x… pciPath=…
   ar=1": NCCL's net_ib.cc prints each port it opens with its speed in Mb/s (an INFO line
   of the NET subsystem, so only where NCCL_DEBUG_SUBSYS includes NET; TRACE before
   2.20): net_speeds {"mlx5_0": 400000}. */
static void net_speed(const char *msg, json_t *facts)
{
    int index, port;
    char name[64], dev[64];
    const char *sp = strstr(msg, " speed=");
    if (!sp || strncmp(msg, "NET/IB: [", 9) != 0 ||
        sscanf(msg, "NET/IB: [%d] %63[^:]:%63[^:]:%d/", &index, name, dev, &port) != 4)
        return;
    long mbps;
    if (sscanf(sp + 7, "%ld", &mbps) != 1 || mbps <= 0)
        return;
    json_t *map = ls_json_object_at(facts, "net_speeds");
    json_object_set_new(map, name, json_integer(mbps));
}

void ls_nccl_net_line(const char *msg, json_t *facts)
{
    net_using(msg, facts);
    net_speed(msg, facts);
    /* "Connected all rings, use ring PXN 0 GDR 1" (NCCL >= 2.19): GDR in use for the ring */
    const char *gdr = strstr(msg, " GDR ");
    int used;
    if (gdr && strstr(msg, "use ring") && sscanf(gdr + 5, "%d", &used) == 1)
        json_object_set_new(facts, "ring_gdr", json_boolean(used));
}

void ls_nccl_net_text(const char *text, json_t *facts)
{
    char line[2048];
    for (const char *p = text; p && *p;) {
        size_t len = strcspn(p, "\n");
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line - 1 ? len : sizeof line - 1),
                 p);
        ls_nccl_net_line(line, facts);
        p += len + (p[len] == '\n');
    }
}

/* The log's net device entry for NIC name, or NULL. */
static const json_t *net_device(const json_t *log, const char *name)
{
    size_t i;
    const json_t *d;
    json_array_foreach(json_object_get(log, "net_devices"), i, d) {
        if (strcmp(ls_json_str(d, "name", ""), name) == 0)
            return d;
    }
    return NULL;
}

/* 1 or 0 from a "GPU Direct RDMA Enabled/Disabled for HCA i 'name'" or "... for GPU x /
   HCA i" line about this device; -1 none. */
static int gdr_line(const json_t *log, const char *name, long long index)
{
    size_t i;
    const json_t *g;
    int seen = -1;
    json_array_foreach(json_object_get(log, "gdr"), i, g) {
        const char *hca = ls_json_str(g, "hca_name", NULL);
        if (hca ? strcmp(hca, name) == 0 : ls_json_int(g, "hca", -2) == index)
            seen = seen == 1 ? 1 : json_is_true(json_object_get(g, "enabled"));
    }
    return seen;
}

/* 1 when a connection went "via NET/IB/<index>.../GDRDMA", 0 when only without, -1 none. */
static int gdr_connection(const json_t *log, long long index)
{
    char prefix[32];
    snprintf(prefix, sizeof prefix, "NET/IB/%lld", index);
    size_t i, len = strlen(prefix);
    const json_t *t;
    int seen = -1;
    json_array_foreach(json_object_get(log, "transports"), i, t) {
        const char *via = ls_json_str(t, "via", "");
        if (strncmp(via, prefix, len) != 0 || (via[len] != '/' && via[len] != '(' && via[len]))
            continue;
        seen = seen == 1 ? 1 : json_is_true(json_object_get(t, "gdrdma"));
    }
    return seen;
}

static json_t *view(const json_t *log, const json_t *dev)
{
    const char *name = ls_json_str(dev, "name", "");
    long long index = ls_json_int(dev, "index", -1);
    int gdr = gdr_line(log, name, index);
    if (gdr < 0)
        gdr = gdr_connection(log, index);
    if (gdr < 0 && json_is_boolean(json_object_get(log, "ring_gdr")))
        gdr = json_is_true(json_object_get(log, "ring_gdr"));
    json_t *o = json_pack("{s:b, s:I, s:s, s:o, s:b}", "used", 1, "port",
                          (json_int_t)ls_json_int(dev, "port", -1), "link_layer",
                          ls_json_str(dev, "link_layer", ""), "gdr",
                          gdr < 0 ? json_null() : json_boolean(gdr), "relaxed_ordering",
                          json_is_true(json_object_get(log, "relaxed_ordering")));
    json_object_set_new(o, "log",
                        json_string(ls_json_str(log, "file", ls_json_str(log, "id", ""))));
    return o;
}

/* The sources NCCL's words come from: imported logs, then the collectives linkscope ran
   (their captured log's facts sit on the entry); the last that names a NIC wins. */
static void from_list(json_t *nic, const json_t *list)
{
    size_t k;
    const json_t *log;
    json_array_foreach(list, k, log) {
        const json_t *dev = net_device(log, ls_json_str(nic, "name", ""));
        if (dev)
            json_object_set_new(nic, "nccl", view(log, dev));
    }
}

void ls_nics_from_nccl(json_t *doc)
{
    size_t i;
    json_t *nic;
    json_array_foreach(json_object_get(doc, "nics"), i, nic) {
        from_list(nic, json_object_get(doc, "nccl_logs"));
        from_list(nic, json_object_get(doc, "measurements"));
    }
}
