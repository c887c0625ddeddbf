/* linkscope nccl under mpirun/srun over several nodes (docs/multinode.md): every node's
   inventory and topology gathered to rank 0, and each collective's ranks placed on
   their nodes with the transports of the connections that leave each node. */
#ifndef LS_CLI_NCCL_NODES_H
#define LS_CLI_NCCL_NODES_H

#include <jansson.h>

#include "nccl/nodes.h" /* ls_nodes_annotate: the entries placed on the nodes */

/* Collective: every rank calls it once after MPI is up. The first rank of each host
   discovers it; rank 0 gets [{hostname, ranks: [..], host, software, gpus, links, nics,
   gpu_nic_links, nic_nic_links}] in node order of first rank, other ranks NULL (also
   NULL when the exchange failed: the document is then single-node as before). */
json_t *ls_nodes_gather(void);

#endif
