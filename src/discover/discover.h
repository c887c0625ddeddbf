/* Discovery: fills the run document with what the machine is. One backend per source
   (NVML, CUDA, PCI tree and NUMA from sysfs, RDMA NICs, host and environment); each
   degrades alone with one warning line, recorded in software.warnings. */
#ifndef LS_DISCOVER_DISCOVER_H
#define LS_DISCOVER_DISCOVER_H

#include <jansson.h>

typedef struct {
    const char *sysfs_root; /* "" or NULL for the real /; tests pass a fake tree */
    int use_nvml;           /* 0 to skip NVML (tests) */
    int use_cuda;           /* 0 to skip CUDA (tests, offline) */
} ls_discover_opts_t;

/* Fills host, software, gpus, links, nics, gpu_nic_links and env of doc.
   Returns the number of GPUs found (0 is not an error here: callers decide). */
int ls_discover(json_t *doc, const ls_discover_opts_t *opts);

#endif
