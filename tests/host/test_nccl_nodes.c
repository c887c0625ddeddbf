/* A collective across two nodes placed on its nodes (nccl/nodes.c, issue 18): a
   synthetic 4-rank all_reduce over two hosts, P2P inside each node and NET/IB with
   GDRDMA between them. Each rank gets its host; each node its ranks, GPUs and the
   connections it sends by transport class. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "model/doc.h"
#include "nccl/nodes.h"

static json_t *conn(int from, int to, const char *cls)
{
    return json_pack("{s:i, s:i, s:s, s:b}", "from_rank", from, "to_rank", to, "transport", cls,
                     "gdrdma", strcmp(cls, "NET/IB") == 0);
}

static void two_nodes_placed(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new();
    json_t *e = json_pack("{s:s, s:s, s:s, s:[i,i,i,i], s:[o,o,o,o]}", "family", "nccl", "mode",
                          "mpi", "collective", "all_reduce", "gpus", 0, 1, 0, 1, "transports",
                          conn(0, 1, "P2P"), conn(1, 2, "NET/IB"), conn(2, 3, "P2P"),
                          conn(3, 0, "NET/IB"));
    ls_doc_add_measurement(doc, e);
    ls_doc_add_measurement(doc, json_pack("{s:s, s:s}", "family", "nccl", "mode", "threads"));
    json_t *nodes = json_pack("[{s:s, s:[i,i], s:[]}, {s:s, s:[i,i], s:[]}]", "hostname", "n1",
                              "ranks", 0, 1, "gpus", "hostname", "n2", "ranks", 2, 3, "gpus");
    ls_nodes_annotate(doc, nodes);
    assert_true(json_equal(json_object_get(doc, "nodes"), nodes));
    const json_t *hosts = json_object_get(e, "rank_hosts");
    assert_int_equal(json_array_size(hosts), 4);
    assert_string_equal(json_string_value(json_array_get(hosts, 2)), "n2");
    const json_t *per = json_object_get(e, "nodes");
    assert_int_equal(json_array_size(per), 2);
    const json_t *n2 = json_array_get(per, 1);
    assert_string_equal(ls_json_str(n2, "hostname", ""), "n2");
    assert_int_equal(json_array_size(json_object_get(n2, "gpus")), 2);
    const json_t *by = json_object_get(n2, "transports");
    assert_int_equal(ls_json_int(by, "P2P", 0), 1);    /* 2 -> 3 */
    assert_int_equal(ls_json_int(by, "NET/IB", 0), 1); /* 3 -> 0 leaves the node */
    /* a single-process entry is left alone */
    const json_t *threads = json_array_get(json_object_get(doc, "measurements"), 1);
    assert_null(json_object_get(threads, "rank_hosts"));
    json_decref(nodes);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(two_nodes_placed)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
