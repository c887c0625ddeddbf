/* Collectives across nodes placed on their nodes (docs/multinode.md): from the
   document's nodes[] (gathered over MPI by cli/nccl_nodes.c), each MPI entry's ranks on
   their hosts and the connections each node sends by transport. */
#ifndef LS_NCCL_NODES_H
#define LS_NCCL_NODES_H

#include <jansson.h>

/* doc["nodes"] = nodes, and on each MPI collective entry "rank_hosts" (the host of each
   rank, null where no node lists it) and "nodes" [{hostname, ranks, gpus, transports:
   {class: connections sent from the node}}]. nodes is not stolen; NULL: nothing. */
void ls_nodes_annotate(json_t *doc, const json_t *nodes);

#endif
