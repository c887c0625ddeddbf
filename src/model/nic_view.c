/* nics[].nccl from nccl_logs[] (nic_view.h; not nic_nccl.c: *_nccl.c builds only with NCCL). */
#include "nic_view.h"
#include "doc.h"

#include <stdio.h>
#include <string.h>

/* The log's net device entry for NIC name, or NULL. */
static const json_t *net_device(const json_t *log, const char *name)
{
    size_t i;
    const json_t *d;
    json_array_foreach(json_object_get(log, "net_devices"), i, d)
    {
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
    json_array_foreach(json_object_get(log, "gdr"), i, g)
    {
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
    json_array_foreach(json_object_get(log, "transports"), i, t)
    {
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
    json_object_set_new(o, "log", json_string(ls_json_str(log, "file", "")));
    return o;
}

void ls_nics_from_nccl(json_t *doc)
{
    size_t i, k;
    json_t *nic;
    const json_t *log;
    json_array_foreach(json_object_get(doc, "nics"), i, nic)
    {
        json_array_foreach(json_object_get(doc, "nccl_logs"), k, log)
        {
            const json_t *dev = net_device(log, ls_json_str(nic, "name", ""));
            if (dev) /* the last log that names the NIC wins */
                json_object_set_new(nic, "nccl", view(log, dev));
        }
    }
}
