/* NUMA without libnuma: nodes and their CPUs from sysfs, memory bound with the mbind
   system call, the calling thread pinned with sched_setaffinity. */
#ifndef LS_MEASURE_NUMA_H
#define LS_MEASURE_NUMA_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* cpu_set_t, sched_setaffinity; include this header first */
#endif

#include <sched.h>
#include <stddef.h>

#define LS_MAX_NODES 64

/* Online NUMA nodes (from root/sys/devices/system/node/online, else its nodeN
   folders; root NULL = "/"). Returns the count (at least 1: node 0 when sysfs says
   nothing). */
int ls_numa_nodes(const char *root, int *nodes, int max);

/* CPUs of a node into set. 0, or -1 when sysfs has no cpulist for it. */
int ls_numa_node_cpus(const char *root, int node, cpu_set_t *set);

/* NUMA node of a PCI device ("0000:00:06.0"), or -1 when unknown. */
int ls_numa_of_pci(const char *root, const char *bus_id);

/* Anonymous memory of len bytes bound to node (MPOL_BIND) and touched, so that every
   page lives there. *bound = 1 when the kernel accepted the binding. NULL on failure. */
void *ls_numa_alloc(size_t len, int node, int *bound);
void ls_numa_free(void *p, size_t len);

/* Share (0-1) of the mapping that holds addr backed by transparent huge pages, from
   the text of /proc/self/smaps (its "AnonHugePages:" line over its size; adjacent
   buffers the kernel merged into one mapping share one figure); -1 when no mapping
   holds addr. */
double ls_smaps_huge_share(const char *smaps, const void *addr);

/* The same for this process, read live; -1 when /proc/self/smaps cannot be read. */
double ls_numa_huge_share(const void *addr);

#endif
