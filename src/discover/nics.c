/* RDMA NIC backend: /sys/class/infiniband/<dev>/{device, fw_ver, ports/N/...}. */
#include "nics.h"
#include "model/busid.h"
#include "model/theory.h"
#include "util/fileio.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int by_name(const void *a, const void *b)
{
    return strcmp(((const ls_nic_t *)a)->name, ((const ls_nic_t *)b)->name);
}

static int by_port(const void *a, const void *b)
{
    return ((const ls_nic_port_t *)a)->port - ((const ls_nic_port_t *)b)->port;
}

static void read_port(const char *root, const char *nic, int port, ls_nic_port_t *p)
{
    char path[256], buf[128];
    memset(p, 0, sizeof *p);
    p->port = port;
    snprintf(path, sizeof path, "/sys/class/infiniband/%s/ports/%d/state", nic, port);
    if (ls_read_text(root, path, buf, sizeof buf) == 0) {
        /* "4: ACTIVE" -> "ACTIVE" */
        const char *colon = strchr(buf, ':');
        const char *s = colon ? colon + 1 : buf;
        while (*s == ' ')
            s++;
        snprintf(p->state, sizeof p->state, "%.31s", s);
    }
    snprintf(path, sizeof path, "/sys/class/infiniband/%s/ports/%d/rate", nic, port);
    if (ls_read_text(root, path, buf, sizeof buf) == 0)
        p->rate_gbps = strtod(buf, NULL); /* "400 Gb/sec (4X NDR)" */
    snprintf(path, sizeof path, "/sys/class/infiniband/%s/ports/%d/link_layer", nic, port);
    if (ls_read_text(root, path, p->link_layer, sizeof p->link_layer) != 0)
        p->link_layer[0] = '\0';
}

static void read_ports(const char *root, ls_nic_t *nic)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/sys/class/infiniband/%s/ports", root ? root : "", nic->name);
    DIR *d = opendir(dir);
    nic->nports = 0;
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) && nic->nports < LS_NIC_MAX_PORTS) {
        char *end;
        long port = strtol(e->d_name, &end, 10);
        if (e->d_name[0] == '.' || *end || port <= 0)
            continue;
        read_port(root, nic->name, (int)port, &nic->ports[nic->nports++]);
    }
    closedir(d);
    qsort(nic->ports, (size_t)nic->nports, sizeof nic->ports[0], by_port);
}

int ls_pcie_gen_of_speed(const char *text)
{
    double gts = strtod(text, NULL);
    for (int gen = 1; gen <= 6; gen++)
        if (gts > 0 && ls_pcie_lane_gts(gen) > gts - 0.05 && ls_pcie_lane_gts(gen) < gts + 0.05)
            return gen;
    return 0;
}

/* The PCIe link as the NIC's PCI function shows it (device/current_link_speed, ...):
   a NIC trained below its slot (a Gen5 x16 ConnectX-7 at Gen4 or x8) caps every port. */
static void read_pcie(const char *root, ls_nic_t *nic)
{
    static const char *const files[] = {"current_link_speed", "current_link_width",
                                        "max_link_speed", "max_link_width"};
    int *out[] = {&nic->pcie_gen, &nic->pcie_width, &nic->pcie_gen_max, &nic->pcie_width_max};
    for (int i = 0; i < 4; i++) {
        char path[256], buf[64];
        snprintf(path, sizeof path, "/sys/class/infiniband/%s/device/%s", nic->name, files[i]);
        if (ls_read_text(root, path, buf, sizeof buf) != 0)
            continue;
        *out[i] = i % 2 ? atoi(buf) : ls_pcie_gen_of_speed(buf);
    }
}

static void read_nic(const char *root, const char *name, ls_nic_t *nic)
{
    char path[256], resolved[PATH_MAX];
    memset(nic, 0, sizeof *nic);
    snprintf(nic->name, sizeof nic->name, "%.31s", name);
    snprintf(path, sizeof path, "/sys/class/infiniband/%.31s/fw_ver", name);
    if (ls_read_text(root, path, nic->firmware, sizeof nic->firmware) != 0)
        nic->firmware[0] = '\0';
    snprintf(path, sizeof path, "/sys/class/infiniband/%.31s/board_id", name);
    if (ls_read_text(root, path, nic->board_id, sizeof nic->board_id) != 0)
        nic->board_id[0] = '\0';
    read_pcie(root, nic);
    /* device -> the PCI function; its last path component is the bus id. */
    snprintf(path, sizeof path, "/sys/class/infiniband/%.31s/device", name);
    if (ls_sysfs_resolve(root, path, resolved, sizeof resolved) == 0) {
        const char *slash = strrchr(resolved, '/');
        ls_busid_t id;
        if (slash && ls_busid_parse(slash + 1, &id) == 0 &&
            ls_sysfs_pci_device(root, slash + 1, &nic->pci) == 0)
            nic->has_pci = 1;
        else if (slash && ls_busid_parse(slash + 1, &id) == 0) {
            /* No /sys/bus/pci entry: use the resolved path itself. */
            nic->pci.numa_node = -1;
            ls_busid_format_sysfs(&id, nic->pci.bus_id, sizeof nic->pci.bus_id);
            nic->has_pci = ls_pci_split_path(resolved, &nic->pci) == 0;
        }
    }
    read_ports(root, nic);
}

int ls_nics_list(const char *root, ls_nic_t *out, int max)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/sys/class/infiniband", root ? root : "");
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof out[0].name)
            continue;
        read_nic(root, e->d_name, &out[n++]);
    }
    closedir(d);
    qsort(out, (size_t)n, sizeof out[0], by_name);
    return n;
}

json_t *ls_nic_to_json(const ls_nic_t *nic, int index)
{
    char label[16], bus[32];
    snprintf(label, sizeof label, "NIC%d", index);
    json_t *o = json_pack("{s:i, s:s, s:s}", "index", index, "label", label, "name", nic->name);
    if (nic->has_pci && ls_busid_normalize(nic->pci.bus_id, bus, sizeof bus) == 0)
        json_object_set_new(o, "pci_bus_id", json_string(bus));
    json_object_set_new(o, "numa_node", json_integer(nic->has_pci ? nic->pci.numa_node : -1));
    if (nic->firmware[0])
        json_object_set_new(o, "firmware", json_string(nic->firmware));
    if (nic->board_id[0])
        json_object_set_new(o, "board_id", json_string(nic->board_id));
    json_t *pcie = json_object();
    const char *keys[] = {"gen", "width", "gen_max", "width_max"};
    const int vals[] = {nic->pcie_gen, nic->pcie_width, nic->pcie_gen_max, nic->pcie_width_max};
    for (int i = 0; i < 4; i++)
        if (vals[i] > 0) /* unknown: left out */
            json_object_set_new(pcie, keys[i], json_integer(vals[i]));
    json_object_set_new(o, "pcie", pcie);
    json_t *ports = json_array();
    for (int p = 0; p < nic->nports; p++) {
        const ls_nic_port_t *port = &nic->ports[p];
        json_array_append_new(ports, json_pack("{s:i, s:s, s:f, s:s}", "port", port->port, "state",
                                               port->state, "rate_gbps", port->rate_gbps,
                                               "link_layer", port->link_layer));
    }
    json_object_set_new(o, "ports", ports);
    json_t *path = json_array();
    for (int i = 0; nic->has_pci && i < nic->pci.depth; i++)
        json_array_append_new(path, json_string(nic->pci.path[i]));
    json_object_set_new(o, "pci_path", path);
    return o;
}

const char *ls_gpudirect_module(const char *root)
{
    static const char *modules[] = {"nvidia_peermem", "nv_peer_mem"};
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/proc/modules", root ? root : "");
    FILE *f = fopen(path, "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            for (size_t m = 0; m < 2; m++) {
                size_t len = strlen(modules[m]);
                if (strncmp(line, modules[m], len) == 0 && line[len] == ' ') {
                    fclose(f);
                    return modules[m];
                }
            }
        }
        fclose(f);
    }
    /* Built into the kernel or /proc/modules hidden: the module directory. */
    for (size_t m = 0; m < 2; m++) {
        struct stat st;
        snprintf(path, sizeof path, "%s/sys/module/%s", root ? root : "", modules[m]);
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            return modules[m];
    }
    return NULL;
}

/* Linux release "6.8.0-fake" at least major.minor; -1 when it cannot be read. */
static int kernel_at_least(const char *root, int major, int minor)
{
    char buf[128];
    int ma, mi;
    if (ls_read_text(root, "/proc/sys/kernel/osrelease", buf, sizeof buf) != 0 ||
        sscanf(buf, "%d.%d", &ma, &mi) != 2)
        return -1;
    return ma > major || (ma == major && mi >= minor);
}

/* 1 NVIDIA's open kernel module, 0 the proprietary one, -1 unknown (no driver version
   file): /proc/driver/nvidia/version names "Open Kernel Module" for the open one. */
static int nvidia_open_module(const char *root)
{
    char path[PATH_MAX], line[512];
    snprintf(path, sizeof path, "%s/proc/driver/nvidia/version", root ? root : "");
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int open = 0;
    if (fgets(line, sizeof line, f))
        open = strstr(line, "Open Kernel Module") != NULL;
    fclose(f);
    return open;
}

static json_t *tristate(int v)
{
    return v < 0 ? json_null() : json_boolean(v);
}

json_t *ls_gpudirect_json(const char *root, int nnics)
{
    const char *module = ls_gpudirect_module(root);
    /* dma-buf memory registration with RDMA devices (ib_umem_dmabuf) came in Linux 5.12;
       NVIDIA exports GPU memory as dma-buf only from its open kernel module. */
    int kernel = kernel_at_least(root, 5, 12), open = nvidia_open_module(root);
    const char *ready = "unknown";
    if (module)
        ready = module;
    else if (kernel == 1 && open == 1)
        ready = "dma-buf";
    else if (kernel == 0 || open == 0)
        ready = "no";
    return json_pack("{s:o, s:b, s:o, s:o, s:s}", "module",
                     module ? json_string(module) : json_null(), "possible",
                     nnics > 0 && (module || strcmp(ready, "dma-buf") == 0), "kernel_dmabuf",
                     tristate(kernel), "nvidia_open", tristate(open), "ready", ready);
}
