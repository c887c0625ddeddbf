/* RDMA NICs from /sys/class/infiniband (InfiniBand and RoCE alike): ports, firmware,
   board id, PCIe link; and whether GPUDirect RDMA can work (the nvidia_peermem or
   nv_peer_mem module is loaded, or dma-buf: kernel >= 5.12 and NVIDIA's open kernel
   module). docs/discovery.md "RDMA NICs". */
#ifndef LS_DISCOVER_NICS_H
#define LS_DISCOVER_NICS_H

#include "sysfs.h"

#include <jansson.h>

#define LS_NIC_MAX_PORTS 8

typedef struct {
    int port;
    char state[32];      /* "ACTIVE", "DOWN", ... (the number sysfs prints is dropped) */
    double rate_gbps;    /* Gb/s, as the port reports it ("400 Gb/sec (4X NDR)") */
    char link_layer[32]; /* "InfiniBand", "Ethernet" */
} ls_nic_port_t;

typedef struct {
    char name[32]; /* "mlx5_0" */
    char firmware[64];
    char board_id[64];                /* "MT_0000000838" (the adapter model's PSID), "" unknown */
    int pcie_gen, pcie_width;         /* current PCIe link; 0 unknown */
    int pcie_gen_max, pcie_width_max; /* what the device and slot can do; 0 unknown */
    int has_pci;
    ls_pci_dev_t pci;
    int nports;
    ls_nic_port_t ports[LS_NIC_MAX_PORTS];
} ls_nic_t;

/* RDMA devices sorted by name. Returns the count (0 when the class directory is absent:
   a machine without RDMA NICs). */
int ls_nics_list(const char *root, ls_nic_t *out, int max);

/* nics[] object of the run document (docs/schema.md) for NIC index. */
json_t *ls_nic_to_json(const ls_nic_t *nic, int index);

/* PCIe generation (1-6) of a sysfs link speed ("32.0 GT/s PCIe", "8 GT/s"); 0 unknown. */
int ls_pcie_gen_of_speed(const char *text);

/* GPUDirect RDMA readiness of the machine under root, for software.gpudirect_rdma:
   {module, possible, kernel_dmabuf, nvidia_open, ready} (docs/schema.md). nnics: RDMA
   devices found. */
json_t *ls_gpudirect_json(const char *root, int nnics);

/* "nvidia_peermem", "nv_peer_mem", or NULL when neither is loaded (root/proc/modules,
   then /sys/module). */
const char *ls_gpudirect_module(const char *root);

#endif
