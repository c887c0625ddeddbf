/* sysfs and procfs backend: PCI paths, NUMA nodes, CPU lists, host facts. */
#include "sysfs.h"
#include "model/busid.h"
#include "util/fileio.h"
#include "util/sysdir.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static const char *root_or_empty(const char *root)
{
    return root ? root : "";
}

int ls_sysfs_resolve(const char *root, const char *path, char *out, size_t outlen)
{
    char full[PATH_MAX], real[PATH_MAX], real_root[PATH_MAX];
    root = root_or_empty(root);
    snprintf(full, sizeof full, "%s%s", root, path);
    if (!realpath(full, real))
        return -1;
    size_t skip = 0;
    if (root[0]) {
        if (!realpath(root, real_root))
            return -1;
        /* A root of "/" (or a link to it) is the real tree: nothing to strip. */
        skip = strcmp(real_root, "/") == 0 ? 0 : strlen(real_root);
        if (strncmp(real, real_root, skip) != 0 || (real[skip] != '/' && real[skip] != '\0'))
            return -1; /* the link leads out of the tree */
    }
    snprintf(out, outlen, "%s", real + skip);
    return 0;
}

/* "0000:3b:00.0" style component. */
static int is_bdf(const char *s)
{
    ls_busid_t id;
    return strchr(s, '.') && ls_busid_parse(s, &id) == 0;
}

int ls_pci_split_path(const char *resolved, ls_pci_dev_t *dev)
{
    char copy[PATH_MAX];
    snprintf(copy, sizeof copy, "%s", resolved);
    dev->host_bridge[0] = '\0';
    dev->depth = 0;
    char *save = NULL;
    for (char *part = strtok_r(copy, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
        /* A host bridge directory is "pciDDDD:BB"; the devices below it are BDFs. The
           last host bridge wins (some hypervisors nest the tree under other nodes). */
        if (strncmp(part, "pci", 3) == 0 && isxdigit((unsigned char)part[3])) {
            snprintf(dev->host_bridge, sizeof dev->host_bridge, "%s", part);
            dev->depth = 0;
        } else if (dev->host_bridge[0] && is_bdf(part) && dev->depth < LS_PCI_MAX_DEPTH) {
            snprintf(dev->path[dev->depth++], sizeof dev->path[0], "%s", part);
        } else if (dev->host_bridge[0]) {
            break;
        }
    }
    return dev->host_bridge[0] && dev->depth > 0 ? 0 : -1;
}

static unsigned read_hex(const char *root, const char *path)
{
    char buf[64];
    if (ls_read_text(root, path, buf, sizeof buf) != 0)
        return 0;
    return (unsigned)strtoul(buf, NULL, 16);
}

int ls_sysfs_pci_device(const char *root, const char *bus_id, ls_pci_dev_t *out)
{
    ls_busid_t id;
    memset(out, 0, sizeof *out);
    out->numa_node = -1;
    if (ls_busid_parse(bus_id, &id) != 0)
        return -1;
    ls_busid_format_sysfs(&id, out->bus_id, sizeof out->bus_id);
    char link[128], resolved[PATH_MAX], file[192], buf[64];
    snprintf(link, sizeof link, "/sys/bus/pci/devices/%s", out->bus_id);
    if (ls_sysfs_resolve(root, link, resolved, sizeof resolved) != 0)
        return -1;
    ls_pci_split_path(resolved, out);
    snprintf(file, sizeof file, "%s/numa_node", link);
    if (ls_read_text(root, file, buf, sizeof buf) == 0)
        out->numa_node = atoi(buf);
    snprintf(file, sizeof file, "%s/local_cpulist", link);
    if (ls_read_text(root, file, out->cpulist, sizeof out->cpulist) != 0)
        out->cpulist[0] = '\0';
    snprintf(file, sizeof file, "%s/vendor", link);
    out->vendor = read_hex(root, file);
    snprintf(file, sizeof file, "%s/class", link);
    out->class_code = read_hex(root, file);
    return 0;
}

static int by_bus_id(const void *a, const void *b)
{
    return strcmp(((const ls_pci_dev_t *)a)->bus_id, ((const ls_pci_dev_t *)b)->bus_id);
}

/* NVIDIA (0x10de) 3D controller (0x0302) or VGA controller (0x0300); NVSwitches are
   bridges (0x0680) and the GPUs' audio functions 0x0403. */
static int is_gpu(const ls_pci_dev_t *d)
{
    unsigned base_sub = d->class_code >> 8;
    return d->vendor == 0x10de && (base_sub == 0x0302 || base_sub == 0x0300);
}

/* An NVSwitch of an HGX/DGX baseboard (A100's 0x1af1, H100/H200's 0x22a3, ...): NVIDIA's
   "other bridge" class 0x0680 (lspci: "Bridge [0680]: NVIDIA Corporation GH100 [H100
   NVSwitch]"). NVIDIA's nForce chipsets of the 2000s put their Ethernet in that class too;
   they are never beside a data-center GPU. */
static int is_nvswitch(const ls_pci_dev_t *d)
{
    return d->vendor == 0x10de && (d->class_code >> 8) == 0x0680;
}

/* The devices under root that pass keep, in PCI bus order; -1 when unreadable. */
static int sysfs_devices(const char *root, int (*keep)(const ls_pci_dev_t *), ls_pci_dev_t *out,
                         int max)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/sys/bus/pci/devices", root_or_empty(root));
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        if (e->d_name[0] == '.' || !is_bdf(e->d_name))
            continue;
        ls_pci_dev_t dev;
        if (ls_sysfs_pci_device(root, e->d_name, &dev) == 0 && keep(&dev))
            out[n++] = dev;
    }
    closedir(d);
    qsort(out, (size_t)n, sizeof out[0], by_bus_id);
    return n;
}

int ls_sysfs_gpus(const char *root, ls_pci_dev_t *out, int max)
{
    return sysfs_devices(root, is_gpu, out, max);
}

int ls_sysfs_nvswitches(const char *root, ls_pci_dev_t *out, int max)
{
    return sysfs_devices(root, is_nvswitch, out, max);
}

enum ls_link_type ls_pci_classify(const ls_pci_dev_t *a, const ls_pci_dev_t *b)
{
    if (!a->host_bridge[0] || !b->host_bridge[0] || a->depth == 0 || b->depth == 0)
        return LS_LINK_NONE;
    if (strcmp(a->host_bridge, b->host_bridge) != 0)
        /* Between host bridges: within one NUMA node (NODE) or across the SMP link (SYS).
           An unknown node (-1) on both sides counts as the same node. */
        return a->numa_node == b->numa_node ? LS_LINK_NODE : LS_LINK_SYS;
    int common = 0;
    while (common < a->depth && common < b->depth && strcmp(a->path[common], b->path[common]) == 0)
        common++;
    if (common == 0)
        return LS_LINK_PHB; /* different root ports of one host bridge: through the CPU */
    /* Bridges crossed: those below the common ancestor on each side (the devices
       themselves excluded) plus the common ancestor. One PCIe switch is its upstream
       port and two downstream ports: 3 bridges at most is PIX. */
    int below_a = a->depth - common - 1, below_b = b->depth - common - 1;
    if (below_a < 0)
        below_a = 0;
    if (below_b < 0)
        below_b = 0;
    return below_a + below_b + 1 <= 3 ? LS_LINK_PIX : LS_LINK_PXB;
}

/* Linux's NR_CPUS tops out at 8192 today; a bound far above it keeps the count from
   overflowing on a malformed list. */
#define CPULIST_MAX_CPU (1L << 20)

int ls_cpulist_count(const char *list)
{
    int count = 0;
    const char *p = list;
    while (*p) {
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p || lo < 0)
            return -1;
        p = end;
        if (*p == '-') {
            hi = strtol(p + 1, &end, 10);
            if (end == p + 1 || hi < lo)
                return -1;
            p = end;
        }
        if (hi >= CPULIST_MAX_CPU)
            return -1;
        count += (int)(hi - lo + 1);
        if (count > CPULIST_MAX_CPU)
            return -1;
        if (*p == ',')
            p++;
        else if (*p && !isspace((unsigned char)*p))
            return -1;
        else if (*p)
            break;
    }
    return count;
}

/* NUMA nodes under root: ids ascending; returns the count (0 when none). */
static int numa_nodes(const char *root, int *ids, int max)
{
    return ls_list_numbered(root, "/sys/devices/system/node", "node", ids, max, INT_MAX);
}

void ls_sysfs_numa_affinity(const char *root, const ls_pci_dev_t *dev, char *buf, size_t buflen)
{
    int ids[256];
    if (dev && dev->numa_node >= 0) {
        snprintf(buf, buflen, "%d", dev->numa_node);
        return;
    }
    if (numa_nodes(root, ids, 256) == 1) {
        snprintf(buf, buflen, "%d", ids[0]);
        return;
    }
    snprintf(buf, buflen, "N/A");
}

static void host_text(json_t *host, const char *key, const char *root, const char *path)
{
    char buf[256];
    if (ls_read_text(root, path, buf, sizeof buf) == 0 && buf[0])
        json_object_set_new(host, key, json_string(buf));
}

static void host_cpu_model(const char *root, json_t *host)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/proc/cpuinfo", root_or_empty(root));
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        /* x86: "model name"; some ARM kernels: "Model" */
        if (strncmp(line, "model name", 10) != 0 && strncmp(line, "Model\t", 6) != 0)
            continue;
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        char *v = colon + 1;
        while (isspace((unsigned char)*v))
            v++;
        v[strcspn(v, "\n")] = '\0';
        if (*v)
            json_object_set_new(host, "cpu_model", json_string(v));
        break;
    }
    fclose(f);
}

static int host_numa(const char *root, json_t *host)
{
    int ids[256];
    int n = numa_nodes(root, ids, 256);
    json_t *arr = json_array();
    for (int i = 0; i < n; i++) {
        char path[96], cpus[1024];
        snprintf(path, sizeof path, "/sys/devices/system/node/node%d/cpulist", ids[i]);
        if (ls_read_text(root, path, cpus, sizeof cpus) != 0)
            cpus[0] = '\0';
        json_array_append_new(arr, json_pack("{s:i, s:s}", "node", ids[i], "cpus", cpus));
    }
    json_object_set_new(host, "numa_nodes", json_integer(n));
    json_object_set_new(host, "numa", arr);
    return n;
}

int ls_sysfs_host(const char *root, json_t *host, json_t *warnings)
{
    int real = !root || !root[0];
    host_text(host, "hostname", root, "/proc/sys/kernel/hostname");
    host_text(host, "kernel", root, "/proc/sys/kernel/osrelease");
    if (real) {
        struct utsname u;
        char name[256];
        if (!json_object_get(host, "hostname") && gethostname(name, sizeof name) == 0) {
            name[sizeof name - 1] = '\0';
            json_object_set_new(host, "hostname", json_string(name));
        }
        if (!json_object_get(host, "kernel") && uname(&u) == 0)
            json_object_set_new(host, "kernel", json_string(u.release));
    }
    host_cpu_model(root, host);
    int nodes = host_numa(root, host);
    char online[1024];
    int cpus = -1;
    if (ls_read_text(root, "/sys/devices/system/cpu/online", online, sizeof online) == 0)
        cpus = ls_cpulist_count(online);
    if (cpus < 0 && real)
        cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus > 0)
        json_object_set_new(host, "cpus", json_integer(cpus));
    int answered = json_object_get(host, "hostname") || json_object_get(host, "cpu_model") ||
                   nodes > 0;
    if (!answered) {
        char line[PATH_MAX + 64];
        snprintf(line, sizeof line, "host: nothing readable under %s/proc and %s/sys",
                 root_or_empty(root), root_or_empty(root));
        json_array_append_new(warnings, json_string(line));
        return -1;
    }
    if (nodes == 0)
        json_array_append_new(warnings,
                              json_string("host: no NUMA nodes under /sys/devices/system/node"));
    return 0;
}
