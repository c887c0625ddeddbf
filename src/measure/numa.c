#include "numa.h"
#include "util/fileio.h"
#include "util/parse.h"
#include "util/sysdir.h"

#include <ctype.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LS_MPOL_BIND 2 /* linux/mempolicy.h */
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
    if (ls_read_text(root, path, text, sizeof text) != 0 ||
        ls_parse_long(text, -1, 4096, &node) != 0)
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

/* A mapping's header line is "START-END perms ...", START in hex without 0x; its fields
   follow, one "Name:  value kB" per line, until the next header. */
static int smaps_header(const char *line)
{
    const char *p = line;
    while (isxdigit((unsigned char)*p))
        p++;
    return p > line && *p == '-';
}

static const char *next_line(const char *line)
{
    const char *nl = strchr(line, '\n');
    return nl && nl[1] ? nl + 1 : NULL;
}

double ls_smaps_huge_share(const char *smaps, const void *addr)
{
    unsigned long a = (unsigned long)(uintptr_t)addr;
    for (const char *line = smaps; line && *line; line = next_line(line)) {
        char *end;
        unsigned long lo = strtoul(line, &end, 16), hi;
        if (!smaps_header(line) || *end != '-' || (hi = strtoul(end + 1, NULL, 16)) <= lo ||
            a < lo || a >= hi)
            continue;
        for (const char *f = next_line(line); f && !smaps_header(f); f = next_line(f))
            if (strncmp(f, "AnonHugePages:", 14) == 0)
                return (double)strtol(f + 14, NULL, 10) * 1024.0 / (double)(hi - lo);
        return 0;
    }
    return -1;
}

double ls_numa_huge_share(const void *addr)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f)
        return -1;
    size_t cap = 1 << 20, n = 0;
    char *text = malloc(cap);
    for (size_t got; text && (got = fread(text + n, 1, cap - 1 - n, f)) > 0;) {
        n += got;
        if (n + 1 >= cap) {
            char *bigger = realloc(text, cap *= 2);
            if (!bigger) {
                free(text);
                text = NULL;
            }
            text = bigger;
        }
    }
    fclose(f);
    if (!text)
        return -1;
    text[n] = '\0';
    double share = ls_smaps_huge_share(text, addr);
    free(text);
    return share;
}
