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
        ls_discover_opts_t d = {.use_nvml = 1, .use_cuda = 1};
        ls_log_quiet(1);
        ls_discover(doc, &d);
        ls_log_quiet(0);
        json_t *inv = json_object();
        static const char *keys[] = {"host", "software",      "gpus",         "links",
                                     "nics", "gpu_nic_links", "nic_nic_links"};
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
    json_array_foreach(nodes, i, n) {
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
