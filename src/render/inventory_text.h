/* linkscope inventory's outputs from the document's gpus, nics and software. */
#ifndef LS_RENDER_INVENTORY_TEXT_H
#define LS_RENDER_INVENTORY_TEXT_H

#include <jansson.h>

/* The GPU tables (PCI bus order), the RDMA NICs and the software line. Caller frees. */
char *ls_inventory_text(const json_t *doc);

/* The boards-and-clocks CSV: gpu, board, memory_mib, ..., numa_node; an empty field is
   unknown. Caller frees. */
char *ls_inventory_csv(const json_t *doc);

#endif
