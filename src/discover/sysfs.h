/* PCI tree, NUMA and host facts from sysfs and procfs. Every reader takes a root
   directory ("" or NULL for the real "/") so tests run on a fake tree
   (tests/fixtures/sysfs/two-socket). */
#ifndef LS_DISCOVER_SYSFS_H
#define LS_DISCOVER_SYSFS_H

#include "model/topo.h"

#include <jansson.h>
#include <stddef.h>

#define LS_PCI_MAX_DEPTH 16

/* One PCI function as sysfs shows it. */
typedef struct {
    char bus_id[16];                 /* sysfs form "0000:3b:00.0" */
    char host_bridge[32];            /* "pci0000:3a"; "" when unknown */
    char path[LS_PCI_MAX_DEPTH][16]; /* bus ids from below the host bridge down to it */
    int depth;                       /* entries in path (the device itself is last) */
    int numa_node;                   /* -1 when unknown */
    char cpulist[256];               /* local_cpulist, "" when unknown */
    unsigned vendor, class_code;     /* class_code: 24 bits, 0x030200 */
} ls_pci_dev_t;

/* Reads one device: resolves /sys/bus/pci/devices/BUS_ID to /sys/devices/pciDDDD:BB/...
   and reads numa_node, local_cpulist, vendor and class. bus_id in any form
   ls_busid_parse accepts. 0, or -1 if the device is not there. */
int ls_sysfs_pci_device(const char *root, const char *bus_id, ls_pci_dev_t *out);

/* NVIDIA GPUs (vendor 0x10de, class 3D controller 0x0302 or VGA 0x0300) in PCI bus
   order. Returns the count, or -1 when /sys/bus/pci/devices cannot be read. */
int ls_sysfs_gpus(const char *root, ls_pci_dev_t *out, int max);

/* NVIDIA NVSwitches on PCIe (vendor 0x10de, class 0x0680: HGX/DGX A100, H100, H200) in PCI
   bus order; the count, or -1 when /sys/bus/pci/devices cannot be read. The fourth
   generation (HGX B200) sits behind the NVLink bridge devices, not on PCIe as one. */
int ls_sysfs_nvswitches(const char *root, ls_pci_dev_t *out, int max);

/* The link between two PCI devices in nvidia-smi topo -m's words: PIX (at most one PCIe
   switch between them), PXB (several switches, no host bridge), PHB (through the host
   bridge they share), NODE (different host bridges, same NUMA node), SYS (different
   NUMA nodes). LS_LINK_NONE when either device's path is unknown. */
enum ls_link_type ls_pci_classify(const ls_pci_dev_t *a, const ls_pci_dev_t *b);

/* NUMA affinity as nvidia-smi prints it: the device's node, else the only node of a
   one-node machine, else "N/A". */
void ls_sysfs_numa_affinity(const char *root, const ls_pci_dev_t *dev, char *buf, size_t buflen);

/* Number of CPUs in a list like "0-15,32-47"; -1 if malformed. */
int ls_cpulist_count(const char *list);

/* Fills host: hostname, kernel, cpu_model, numa_nodes, numa [{node, cpus}], cpus.
   Appends one line per missing source to warnings; returns 0 if /proc or /sys answered
   at all, -1 when the root has neither. */
int ls_sysfs_host(const char *root, json_t *host, json_t *warnings);

/* Resolves root + path (a symlink under sysfs) and returns it relative to root, e.g.
   "/sys/devices/pci0000:00/0000:00:01.0". 0 or -1. */
int ls_sysfs_resolve(const char *root, const char *path, char *out, size_t outlen);

/* Splits a resolved "/sys/devices/.../pciDDDD:BB/BDF/BDF" into host bridge and path. */
int ls_pci_split_path(const char *resolved, ls_pci_dev_t *dev);

#endif
