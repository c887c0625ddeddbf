#include "entries.h"
#include "doc.h"
#include "entry.h"
#include "vocab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_common(json_t *e, const char *id, const char *method, json_t *gpus, uint64_t bytes)
{
    json_object_set_new(e, "id", json_string(id));
    json_object_set_new(e, "method", json_string(method));
    json_object_set_new(e, "gpus", gpus);
    json_object_set_new(e, "bytes", json_integer((json_int_t)bytes));
    json_object_set_new(e, "flags", json_array());
    json_object_set_new(e, "source", json_string(LS_SOURCE_LINKSCOPE));
}

json_t *ls_p2p_entry(int src, int dst, const char *direction, const char *method, int pair_p2p,
                     uint64_t size)
{
    char id[96];
    snprintf(id, sizeof id, "p2p-%s-%s-%d-%d", method, direction, src, dst);
    json_t *e = ls_entry_new(LS_FAMILY_P2P, "bandwidth", "GB/s");
    set_common(e, id, method, json_pack("[i,i]", src, dst), size);
    json_object_set_new(e, "src", json_integer(src));
    json_object_set_new(e, "dst", json_integer(dst));
    json_object_set_new(e, "direction", json_string(direction));
    int staged = strcmp(method, LS_P2P_STAGED) == 0;
    json_object_set_new(e, "p2p", json_boolean(pair_p2p && !staged));
    if (!pair_p2p)
        ls_entry_flag(e, LS_FLAG_NO_P2P); /* the pair has no peer access: the driver stages */
    if (staged || !pair_p2p)
        ls_entry_flag(e, LS_FLAG_THROUGH_HOST);
    return e;
}

json_t *ls_latency_entry(int src, int dst, const char *method, int pair_p2p, int through_host,
                         uint64_t bytes)
{
    char id[96], dsts[16];
    if (dst == LS_HOST_SIDE)
        snprintf(dsts, sizeof dsts, "host");
    else
        snprintf(dsts, sizeof dsts, "%d", dst);
    snprintf(id, sizeof id, "latency-%s%s-%d-%s", method,
             through_host && dst != LS_HOST_SIDE ? "-host" : "", src, dsts);
    json_t *e = ls_entry_new(LS_FAMILY_LATENCY, "latency", "us");
    json_t *gpus = dst == LS_HOST_SIDE ? json_pack("[i]", src) : json_pack("[i,i]", src, dst);
    set_common(e, id, method, gpus, bytes);
    json_object_set_new(e, "src", json_integer(src));
    json_object_set_new(e, "dst", json_integer(dst));
    int gpu_pair = dst != LS_HOST_SIDE;
    json_object_set_new(e, "p2p", json_boolean(gpu_pair && pair_p2p && !through_host));
    if (through_host)
        ls_entry_flag(e, LS_FLAG_THROUGH_HOST);
    if (gpu_pair && !pair_p2p)
        ls_entry_flag(e, LS_FLAG_NO_P2P);
    return e;
}

void ls_entry_share_telemetry(json_t *copy, const json_t *from)
{
    json_object_set_new(copy, "telemetry", json_deep_copy(json_object_get(from, "telemetry")));
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(from, "flags"), i, f)
        if (json_is_string(f))
            ls_entry_flag(copy, json_string_value(f));
}

json_t *ls_hbm_entry(int gpu, const char *method, uint64_t size, double theoretical)
{
    char id[64];
    snprintf(id, sizeof id, "hbm-%s-%d", method, gpu);
    json_t *e = ls_entry_new(LS_FAMILY_HBM, "bandwidth", "GB/s");
    set_common(e, id, method, json_pack("[i]", gpu), size);
    if (theoretical > 0)
        json_object_set_new(e, "theoretical", json_real(theoretical));
    json_object_set_new(e, "gpu", json_integer(gpu));
    return e;
}

json_t *ls_host_entry(int gpu, int numa_node, const char *direction, const char *memory, int local,
                      uint64_t size)
{
    char id[96];
    snprintf(id, sizeof id, "host-%s-%s-%d-node%d", direction, memory, gpu, numa_node);
    json_t *e = ls_entry_new(LS_FAMILY_HOST, "bandwidth", "GB/s");
    set_common(e, id, direction, json_pack("[i]", gpu), size);
    json_object_set_new(e, "gpu", json_integer(gpu));
    json_object_set_new(e, "numa_node", json_integer(numa_node));
    json_object_set_new(e, "direction", json_string(direction));
    json_object_set_new(e, "memory", json_string(memory));
    if (local >= 0)
        json_object_set_new(e, "local", json_boolean(local));
    return e;
}

void ls_hbm_finish(json_t *entry)
{
    double value = ls_json_num(entry, "value", 0);
    if (strncmp(ls_json_str(entry, "method", ""), LS_HBM_COPY, strlen(LS_HBM_COPY)) == 0)
        json_object_set_new(entry, "copied_gbps", json_real(value / 2));
    double theo = ls_json_num(entry, "theoretical", 0);
    if (theo > 0)
        json_object_set_new(entry, "efficiency", json_real(value / theo));
}
