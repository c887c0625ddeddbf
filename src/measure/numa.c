#include "numa.h"
#include "util/fileio.h"
#include "util/parse.h"
#include "util/sysdir.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LS_MPOL_BIND 2      /* linux/mempolicy.h */
#define LS_MPOL_MF_MOVE (1 << 1)

int ls_numa_nodes(const char *root, int *nodes, int max)
{
    char text[256];
    int n = -1;
    if (ls_read_text(root, "/sys/devices/system/node/online", text, sizeof text) == 0)
        n = ls_parse_index_list(text, nodes, max);
    if (n <= 0)
        n = ls_list_numbered(root, "/sys/devices/system/node", "node", nodes, max, LS_MAX_NODES);
    if (n <= 0) {
        nodes[0] = 0;
        n = 1;
    }
    return n;
}

int ls_numa_node_cpus(const char *root, int node, cpu_set_t *set)
{
    char path[96], text[1024];
    snprintf(path, sizeof path, "/sys/devices/system/node/node%d/cpulist", node);
    if (ls_read_text(root, path, text, sizeof text) != 0)
        return -1;
    static int cpus[CPU_SETSIZE];
    int n = ls_parse_index_list(text, cpus, CPU_SETSIZE);
    if (n <= 0)
        return -1;
    CPU_ZERO(set);
    for (int i = 0; i < n; i++)
        if (cpus[i] < CPU_SETSIZE)
            CPU_SET(cpus[i], set);
    return 0;
}

int ls_numa_of_pci(const char *root, const char *bus_id)
{
    char path[128], text[32];
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/numa_node", bus_id);
    long node;
    if (ls_read_text(root, path, text, sizeof text) != 0 || ls_parse_long(text, -1, 4096, &node) != 0)
        return -1;
    return (int)node;
}

void *ls_numa_alloc(size_t len, int node, int *bound)
{
    *bound = 0;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    /* Transparent huge pages where the kernel offers them: fewer, larger pages for the
       DMA engines (and the IOMMU) to translate. Advice only: failure changes nothing. */
    madvise(p, len, MADV_HUGEPAGE);
    if (node >= 0 && node < LS_MAX_NODES) {
        unsigned long mask = 1ul << node;
        /* maxnode counts bits; the kernel reads maxnode - 1 of them. */
        *bound = syscall(SYS_mbind, p, len, LS_MPOL_BIND, &mask, (unsigned long)LS_MAX_NODES + 1,
                         LS_MPOL_MF_MOVE) == 0;
    }
    memset(p, 0x5a, len); /* fault every page in, on the bound node */
    return p;
}

void ls_numa_free(void *p, size_t len)
{
    if (p)
        munmap(p, len);
}
