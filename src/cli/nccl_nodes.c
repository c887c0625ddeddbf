/* Every node's inventory over MPI, and collectives placed on nodes (nccl_nodes.h). */
#include "nccl_nodes.h"
#include "discover/discover.h"
#include "model/doc.h"
#include "nccl/mpirt.h"
#include "util/log.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* {"hostname", "rank", "inventory" (first rank of the host) or null} as text. */
static char *my_record(void)
{
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    json_t *rec = json_pack("{s:s, s:i}", "hostname", host, "rank", ls_mpi_rank());
    if (ls_mpi_local_rank() == 0) {
        json_t *doc = ls_doc_new();
        ls_discover_opts_t d = {NULL, 1, 1};
        ls_log_quiet(1);
        ls_discover(doc, &d);
        ls_log_quiet(0);
        json_t *inv = json_object();
        static const char *keys[] = {"host", "software", "gpus", "links", "nics", "gpu_nic_links",
                                     "nic_nic_links"};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            if (json_object_get(doc, keys[k]))
                json_object_set(inv, keys[k], json_object_get(doc, keys[k]));
        json_object_set_new(rec, "inventory", inv);
        json_decref(doc);
    }
    char *text = json_dumps(rec, JSON_COMPACT);
    json_decref(rec);
    return text;
}

/* Every rank's record text, on rank 0 (NULL elsewhere or on failure). */
static char *gather_records(const char *mine, size_t *maxlen_out)
{
    int n = ls_mpi_size();
    unsigned long long len = strlen(mine) + 1, maxlen = 0;
    unsigned long long *lens = calloc((size_t)n, sizeof len);
    char *all = NULL, *padded = NULL;
    int ok = lens && ls_mpi_allgather(&len, sizeof len, lens) == 0;
    for (int k = 0; ok && k < n; k++)
        maxlen = lens[k] > maxlen ? lens[k] : maxlen;
    if (ok) {
        padded = calloc(1, maxlen);
        all = ls_mpi_rank() == 0 ? calloc((size_t)n, maxlen) : NULL;
        ok = padded && (ls_mpi_rank() != 0 || all);
    }
    if (ok) /* every rank takes part even where it has nothing to send */
        memcpy(padded, mine, len);
    if (lens && ls_mpi_gather(ok ? padded : (char[1]){0}, ok ? maxlen : 1, all, 0) != 0)
        ok = 0;
    free(lens);
    free(padded);
    if (!ok || ls_mpi_rank() != 0) {
        free(all);
        return NULL;
    }
    *maxlen_out = (size_t)maxlen;
    return all;
}

static json_t *node_of(json_t *nodes, const char *host)
{
    size_t i;
    json_t *n;
    json_array_foreach(nodes, i, n)
    {
        if (strcmp(ls_json_str(n, "hostname", ""), host) == 0)
            return n;
    }
    n = json_pack("{s:s, s:[]}", "hostname", host, "ranks");
    json_array_append_new(nodes, n);
    return n;
}

json_t *ls_nodes_gather(void)
{
    char *mine = my_record();
    size_t maxlen = 0;
    char *all = gather_records(mine ? mine : "{}", &maxlen);
    free(mine);
    if (!all)
        return NULL;
    json_t *nodes = json_array();
    for (int r = 0; r < ls_mpi_size(); r++) {
        json_t *rec = json_loads(all + (size_t)r * maxlen, 0, NULL);
        json_t *node = node_of(nodes, ls_json_str(rec, "hostname", "unknown host"));
        json_array_append_new(json_object_get(node, "ranks"), json_integer(r));
        json_object_update_missing(node, json_object_get(rec, "inventory"));
        json_decref(rec);
    }
    free(all);
    return nodes;
}

/* The node holding rank r, or NULL. */
static const json_t *node_with_rank(const json_t *nodes, long long r)
{
    size_t i, k;
    const json_t *n, *x;
    json_array_foreach(nodes, i, n)
    {
        json_array_foreach(json_object_get(n, "ranks"), k, x) if (json_integer_value(x) == r) return n;
    }
    return NULL;
}

/* Per node of one entry: its ranks, their GPUs, and the connections it sends by class. */
static json_t *entry_nodes(const json_t *e, const json_t *nodes)
{
    json_t *out = json_array();
    size_t i, k;
    const json_t *n, *t, *r;
    json_array_foreach(nodes, i, n)
    {
        json_t *gpus = json_array(), *by = json_object();
        json_array_foreach(json_object_get(n, "ranks"), k, r)
        {
            json_array_append(gpus, json_array_get(json_object_get(e, "gpus"), (size_t)json_integer_value(r)));
        }
        json_array_foreach(json_object_get(e, "transports"), k, t)
        {
            if (node_with_rank(nodes, ls_json_int(t, "from_rank", -1)) != n)
                continue;
            const char *cls = ls_json_str(t, "transport", "?");
            json_object_set_new(by, cls, json_integer(ls_json_int(by, cls, 0) + 1));
        }
        json_array_append_new(out, json_pack("{s:s, s:O, s:o, s:o}", "hostname", ls_json_str(n, "hostname", ""),
                                             "ranks", json_object_get(n, "ranks"), "gpus", gpus, "transports", by));
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
    json_array_foreach(json_object_get(doc, "measurements"), i, e)
    {
        if (strcmp(ls_json_str(e, "family", ""), "nccl") != 0 || strcmp(ls_json_str(e, "mode", ""), "mpi") != 0)
            continue;
        json_t *hosts = json_array();
        for (long long r = 0; r < (long long)json_array_size(json_object_get(e, "gpus")); r++) {
            const json_t *n = node_with_rank(nodes, r);
            json_array_append_new(hosts, n ? json_string(ls_json_str(n, "hostname", "")) : json_null());
        }
        json_object_set_new(e, "rank_hosts", hosts);
        json_object_set_new(e, "nodes", entry_nodes(e, nodes));
    }
}
