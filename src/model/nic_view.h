/* What NCCL said about the document's RDMA NICs (docs/schema.md, nics[].nccl): from the
   NCCL INFO logs in nccl_logs[] (`linkscope import`) and the logs of the collectives
   linkscope ran, per NIC whether NCCL used it, on
   which port, with GPUDirect RDMA ("GPU Direct RDMA Enabled for HCA", a GDRDMA
   connection, "use ring PXN 0 GDR 1") and PCIe relaxed ordering ("[RO]"). */
#ifndef LS_MODEL_NIC_VIEW_H
#define LS_MODEL_NIC_VIEW_H

#include <jansson.h>

/* Sets nics[i].nccl for each NIC an NCCL log (nccl_logs[]) or a measured collective
   (an nccl entry with net_devices) names; others are left alone. */
void ls_nics_from_nccl(json_t *doc);

/* From one line of NCCL's INFO log (its message): "NET/IB : Using [0]mlx5_0:1/IB
   [1]mlx5_1:1/RoCE [RO]; OOB ..." sets facts' net_devices [{index, name, port,
   link_layer}] and relaxed_ordering ("[RO]": PCIe relaxed ordering on); "Connected all
   rings, use ring PXN 0 GDR 1" (NCCL >= 2.19) sets ring_gdr. */
void ls_nccl_net_line(const char *msg, json_t *facts);
/* The same for every line of a log text. */
void ls_nccl_net_text(const char *text, json_t *facts);

#endif
