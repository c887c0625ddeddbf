/* RDMA NICs from /sys/class/infiniband (InfiniBand and RoCE alike), and whether
   GPUDirect RDMA can work (the nvidia_peermem or nv_peer_mem module is loaded). */
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
    char name[32];      /* "mlx5_0" */
    char firmware[64];
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

/* "nvidia_peermem", "nv_peer_mem", or NULL when neither is loaded (root/proc/modules,
   then /sys/module). */
const char *ls_gpudirect_module(const char *root);

#endif
