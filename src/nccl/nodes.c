/* nodes[] and per-node transports of MPI collectives (nodes.h). */
#include "nodes.h"
#include "model/doc.h"
#include "model/vocab.h"

#include <string.h>

/* The node holding rank r, or NULL. */
static const json_t *node_with_rank(const json_t *nodes, long long r)
{
    size_t i, k;
    const json_t *n, *x;
    json_array_foreach(nodes, i, n) {
        json_array_foreach(json_object_get(n, "ranks"), k, x)
            if (json_integer_value(x) == r)
                return n;
    }
    return NULL;
}

/* Per node of one entry: its ranks, their GPUs, and the connections it sends by class. */
static json_t *entry_nodes(const json_t *e, const json_t *nodes)
{
    json_t *out = json_array();
    size_t i, k;
    const json_t *n, *t, *r;
    json_array_foreach(nodes, i, n) {
        json_t *gpus = json_array(), *by = json_object();
        json_array_foreach(json_object_get(n, "ranks"), k, r) {
            json_array_append(gpus, json_array_get(json_object_get(e, "gpus"),
                                                   (size_t)json_integer_value(r)));
        }
        json_array_foreach(json_object_get(e, "transports"), k, t) {
            if (node_with_rank(nodes, ls_json_int(t, "from_rank", -1)) != n)
                continue;
            const char *cls = ls_json_str(t, "transport", "?");
            json_object_set_new(by, cls, json_integer(ls_json_int(by, cls, 0) + 1));
        }
        json_array_append_new(out, json_pack("{s:s, s:O, s:o, s:o}", "hostname",
                                             ls_json_str(n, "hostname", ""), "ranks",
                                             json_object_get(n, "ranks"), "gpus", gpus,
                                             "transports", by));
    }
    return out;
}

void ls_nodes_annotate(json_t *doc, const json_t *nodes)
{
    if (!nodes)
        return;
    json_object_set(doc, "nodes", (json_t *)nodes);
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e) {
        if (strcmp(ls_json_str(e, "family", ""), LS_FAMILY_NCCL) != 0 ||
            strcmp(ls_json_str(e, "mode", ""), "mpi") != 0)
            continue;
        json_t *hosts = json_array();
        for (long long r = 0; r < (long long)json_array_size(json_object_get(e, "gpus")); r++) {
            const json_t *n = node_with_rank(nodes, r);
            json_array_append_new(hosts,
                                  n ? json_string(ls_json_str(n, "hostname", "")) : json_null());
        }
        json_object_set_new(e, "rank_hosts", hosts);
        json_object_set_new(e, "nodes", entry_nodes(e, nodes));
    }
}
