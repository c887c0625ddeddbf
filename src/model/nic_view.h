/* What NCCL said about the document's RDMA NICs (docs/schema.md, nics[].nccl): from the
   NCCL INFO logs in nccl_logs[] (`linkscope import`), per NIC whether NCCL used it, on
   which port, with GPUDirect RDMA ("GPU Direct RDMA Enabled for HCA", a GDRDMA
   connection, "use ring PXN 0 GDR 1") and PCIe relaxed ordering ("[RO]"). */
#ifndef LS_MODEL_NIC_VIEW_H
#define LS_MODEL_NIC_VIEW_H

#include <jansson.h>

/* Sets nics[i].nccl for each NIC an NCCL log names; others are left alone. */
void ls_nics_from_nccl(json_t *doc);

#endif
