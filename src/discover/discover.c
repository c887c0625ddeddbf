/* Discovery: runs each backend (host and PCI tree from sysfs, NVML, CUDA, RDMA NICs),
   decides the GPU list in PCI bus order, classifies every pair and writes it all into
   the run document. A backend that fails adds one line to software.warnings and the
   others go on. */
#include "discover.h"
#include "model/busid.h"
#include "cudadev.h"
#include "nics.h"
#include "nvml.h"
#include "sysfs.h"
#include "model/theory.h"
#include "model/doc.h"
#include "model/topo.h"
#include "util/log.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The CUDA backend lives in the CUDA half of the build; the host tests link without
   it, where these resolve to NULL (cudadev.h). */
#pragma weak ls_cudadev_list
#pragma weak ls_cudadev_peer
#pragma weak ls_cudadev_versions

extern char **environ;

typedef struct {
    int nvml;    /* NVML index, -1 if none */
    int cuda;    /* position in ctx.cuda, -1 if none */
    int has_pci; /* sysfs knows the device */
    char bus[32];
    ls_pci_dev_t pci;
} gpu_src_t;

typedef struct {
    const char *root;
    json_t *doc, *warnings;
    int nvml_ok;
    int ncuda;
    ls_cudadev_t cuda[LS_MAX_GPUS];
    int ngpus;
    gpu_src_t gpu[LS_MAX_GPUS];
    int nnics;
    ls_nic_t nics[LS_MAX_NICS];
    ls_topo_t topo;
} ctx_t;

static void warn(ctx_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(ctx_t *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    json_t *line = json_vsprintf(fmt, ap);
    va_end(ap);
    ls_warn("%s",
            json_string_value(line) ? json_string_value(line) : "(a warning that is not UTF-8)");
    json_array_append_new(c->warnings, line);
}

/* ---- backends ------------------------------------------------------------------ */

static void run_nvml(ctx_t *c, const ls_discover_opts_t *opts)
{
    char err[256];
    if (!opts->use_nvml)
        return;
    if (ls_nvml_open(err, sizeof err) != 0) {
        warn(c, "%s; clocks, power, NVLink and P2P status are not reported", err);
        return;
    }
    c->nvml_ok = 1;
}

static void run_cuda(ctx_t *c, const ls_discover_opts_t *opts)
{
    char err[256] = "";
    if (!opts->use_cuda)
        return;
    if (!ls_cudadev_list) {
        warn(c, "CUDA: backend not linked into this program; compute capability and peer "
                "access are not reported");
        return;
    }
    int n = ls_cudadev_list(c->cuda, LS_MAX_GPUS, err, sizeof err);
    if (n < 0) {
        warn(c, "%s; compute capability, SM count and peer access are not reported", err);
        return;
    }
    c->ncuda = n;
}

static int cuda_by_bus(const ctx_t *c, const char *bus)
{
    for (int i = 0; i < c->ncuda; i++)
        if (c->cuda[i].pci_bus_id[0] && ls_busid_equal(c->cuda[i].pci_bus_id, bus))
            return i;
    return -1;
}

static int by_bus(const void *a, const void *b)
{
    return strcmp(((const gpu_src_t *)a)->bus, ((const gpu_src_t *)b)->bus);
}

/* The GPU list: NVML's order (= nvidia-smi's, PCI bus order), else CUDA's devices sorted
   by bus id, else the NVIDIA display controllers sysfs lists. */
static void choose_gpus(ctx_t *c, ls_pci_dev_t *sysfs_gpus, int nsysfs)
{
    int n = 0;
    if (c->nvml_ok && ls_nvml_count() > 0) {
        for (int i = 0; i < ls_nvml_count(); i++, n++) {
            const char *bus = ls_nvml_bus_id(i);
            c->gpu[n].nvml = i;
            snprintf(c->gpu[n].bus, sizeof c->gpu[n].bus, "%s", bus ? bus : "");
        }
    } else if (c->ncuda > 0) {
        for (int i = 0; i < c->ncuda; i++, n++) {
            c->gpu[n].nvml = -1;
            snprintf(c->gpu[n].bus, sizeof c->gpu[n].bus, "%s", c->cuda[i].pci_bus_id);
        }
        qsort(c->gpu, (size_t)n, sizeof c->gpu[0], by_bus);
    } else {
        for (int i = 0; i < nsysfs && n < LS_MAX_GPUS; i++, n++) {
            c->gpu[n].nvml = -1;
            ls_busid_normalize(sysfs_gpus[i].bus_id, c->gpu[n].bus, sizeof c->gpu[n].bus);
        }
    }
    c->ngpus = n;
    for (int g = 0; g < n; g++) {
        gpu_src_t *s = &c->gpu[g];
        s->cuda = s->bus[0] ? cuda_by_bus(c, s->bus) : -1;
        s->has_pci = s->bus[0] && ls_sysfs_pci_device(c->root, s->bus, &s->pci) == 0;
        if (!s->has_pci)
            s->pci.numa_node = -1;
    }
}

static void run_sysfs(ctx_t *c)
{
    ls_pci_dev_t *found = calloc(LS_MAX_GPUS, sizeof *found);
    int n = found ? ls_sysfs_gpus(c->root, found, LS_MAX_GPUS) : -1;
    if (n < 0) {
        warn(c,
             "sysfs: cannot read %s/sys/bus/pci/devices; PCI paths, NUMA nodes and PCIe "
             "link types are not reported",
             c->root);
        n = 0;
    }
    choose_gpus(c, found, n);
    free(found);
    c->nnics = ls_nics_list(c->root, c->nics, LS_MAX_NICS);
}

/* ---- GPUs ---------------------------------------------------------------------- */

static void fill_from_cuda(json_t *gpu, const ls_cudadev_t *d)
{
    /* Only what NVML did not give (no NVML: the inventory comes from CUDA alone). */
    if (!json_object_get(gpu, "name") && d->name[0])
        json_object_set_new(gpu, "name", json_string(d->name));
    if (!json_object_get(gpu, "pci_bus_id") && d->pci_bus_id[0])
        json_object_set_new(gpu, "pci_bus_id", json_string(d->pci_bus_id));
    if (!json_object_get(gpu, "memory_total_bytes") && d->memory_bytes > 0)
        json_object_set_new(gpu, "memory_total_bytes", json_integer(d->memory_bytes));
    if (!json_object_get(gpu, "memory_bus_width_bits") && d->mem_bus_width_bits > 0)
        json_object_set_new(gpu, "memory_bus_width_bits", json_integer(d->mem_bus_width_bits));
    if (!json_object_get(gpu, "clocks")) {
        json_t *clk = json_object();
        if (d->sm_clock_khz > 0)
            json_object_set_new(clk, "sm_max_mhz", json_integer(d->sm_clock_khz / 1000));
        if (d->mem_clock_khz > 0)
            json_object_set_new(clk, "mem_max_mhz", json_integer(d->mem_clock_khz / 1000));
        json_object_set_new(gpu, "clocks", clk);
    }
    if (!json_object_get(gpu, "hbm_theoretical_gbps") && d->mem_clock_khz > 0) {
        double peak = ls_hbm_theoretical_gbps((unsigned)(d->mem_clock_khz / 1000),
                                              (unsigned)d->mem_bus_width_bits);
        if (peak > 0)
            json_object_set_new(gpu, "hbm_theoretical_gbps", json_real(peak));
    }
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
    json_t *cuda = json_pack("{s:i, s:s, s:i, s:I}", "index", d->ordinal, "cc", cc, "sms", d->sms,
                             "l2_bytes", (json_int_t)d->l2_bytes);
    if (d->async_engines >= 0) /* unknown stays absent */
        json_object_set_new(cuda, "async_engines", json_integer(d->async_engines));
    json_object_set_new(gpu, "cuda", cuda);
}

static json_t *gpu_json(ctx_t *c, int g)
{
    const gpu_src_t *s = &c->gpu[g];
    char label[16];
    snprintf(label, sizeof label, "GPU%d", g);
    json_t *gpu = json_pack("{s:i, s:s}", "index", g, "label", label);
    if (s->nvml >= 0)
        ls_nvml_describe(s->nvml, gpu);
    if (s->cuda >= 0)
        fill_from_cuda(gpu, &c->cuda[s->cuda]);
    if (!json_object_get(gpu, "pci_bus_id") && s->bus[0])
        json_object_set_new(gpu, "pci_bus_id", json_string(s->bus));
    json_object_set_new(gpu, "numa_node", json_integer(s->has_pci ? s->pci.numa_node : -1));
    /* Written by ls_topo_to_doc; created here so they keep the schema's key order. */
    json_object_set_new(gpu, "cpu_affinity", json_string(""));
    json_object_set_new(gpu, "numa_affinity", json_string(""));
    json_t *path = json_array();
    for (int i = 0; s->has_pci && i < s->pci.depth; i++)
        json_array_append_new(path, json_string(s->pci.path[i]));
    json_object_set_new(gpu, "pci_path", path);
    return gpu;
}

/* ---- topology ------------------------------------------------------------------ */

typedef struct {
    int ok, active, to_switch;
    int peer[LS_MAX_GPUS]; /* by NVML index */
} nvlink_sum_t;

/* NV# for a pair: links straight to the peer; else, when both GPUs reach NVSwitches,
   the links each has into the switch fabric (an HGX H100/H200 shows NV18 everywhere);
   else, when NVML says P2P over NVLink works, the active links both have. */
static int nvlinks_between(const ctx_t *c, const nvlink_sum_t *sum, int a, int b)
{
    const gpu_src_t *ga = &c->gpu[a], *gb = &c->gpu[b];
    if (ga->nvml < 0 || gb->nvml < 0 || !sum[a].ok || !sum[b].ok)
        return 0;
    if (sum[a].peer[gb->nvml] > 0)
        return sum[a].peer[gb->nvml];
    int min_switch = sum[a].to_switch < sum[b].to_switch ? sum[a].to_switch : sum[b].to_switch;
    if (min_switch > 0)
        return min_switch;
    int min_active = sum[a].active < sum[b].active ? sum[a].active : sum[b].active;
    if (min_active > 0 && sum[a].to_switch == 0 && sum[b].to_switch == 0 &&
        ls_nvml_p2p_nvlink(ga->nvml, gb->nvml) == 1) {
        /* remote ends unknown (remote type not reported) but NVLink P2P works */
        int known_peers = 0;
        for (int i = 0; i < LS_MAX_GPUS; i++)
            known_peers += sum[a].peer[i];
        if (known_peers == 0)
            return min_active;
    }
    return 0;
}

static ls_link_t pair_link(const ctx_t *c, const nvlink_sum_t *sum, int a, int b)
{
    ls_link_t link = {LS_LINK_NONE, 0};
    int nv = nvlinks_between(c, sum, a, b);
    if (nv > 0) {
        link.type = LS_LINK_NV;
        link.nvlinks = nv;
        return link;
    }
    const gpu_src_t *ga = &c->gpu[a], *gb = &c->gpu[b];
    const char *word = ga->nvml >= 0 && gb->nvml >= 0 ? ls_nvml_topology_word(ga->nvml, gb->nvml)
                                                      : NULL;
    if (word && ls_link_parse(word, &link) == 0)
        return link;
    if (ga->has_pci && gb->has_pci)
        link.type = ls_pci_classify(&ga->pci, &gb->pci);
    return link;
}

static void pair_p2p(ctx_t *c, int a, int b)
{
    ls_topo_t *t = &c->topo;
    const gpu_src_t *ga = &c->gpu[a], *gb = &c->gpu[b];
    if (ga->nvml >= 0 && gb->nvml >= 0) {
        const char *r = ls_nvml_p2p_status(ga->nvml, gb->nvml, 0);
        const char *w = ls_nvml_p2p_status(ga->nvml, gb->nvml, 1);
        if (r && w && ls_p2p_parse(r, &t->p2p_read[a][b]) == 0 &&
            ls_p2p_parse(w, &t->p2p_write[a][b]) == 0) {
            t->has_p2p = 1;
            return;
        }
    }
    ls_cudapeer_t peer;
    if (ga->cuda >= 0 && gb->cuda >= 0 && ls_cudadev_peer &&
        ls_cudadev_peer(c->cuda[ga->cuda].ordinal, c->cuda[gb->cuda].ordinal, &peer) == 0) {
        /* Without NVML: CUDA's answer, which cannot say why P2P is refused. */
        t->p2p_read[a][b] = t->p2p_write[a][b] = peer.can_access ? LS_P2P_OK : LS_P2P_NS;
        t->has_p2p = 1;
    }
}

static void build_topo(ctx_t *c)
{
    ls_topo_t *t = &c->topo;
    nvlink_sum_t *sum = calloc((size_t)(c->ngpus ? c->ngpus : 1), sizeof *sum);
    if (!sum)
        return;
    t->ngpus = c->ngpus;
    for (int g = 0; g < c->ngpus; g++) {
        const gpu_src_t *s = &c->gpu[g];
        snprintf(t->gpu_label[g], sizeof t->gpu_label[g], "GPU%d", g);
        snprintf(t->cpu_affinity[g], sizeof t->cpu_affinity[g], "%s",
                 s->has_pci ? s->pci.cpulist : "");
        ls_sysfs_numa_affinity(c->root, s->has_pci ? &s->pci : NULL, t->numa_affinity[g],
                               sizeof t->numa_affinity[g]);
        if (s->nvml >= 0)
            sum[g].ok = ls_nvml_nvlink_summary(s->nvml, &sum[g].active, &sum[g].to_switch,
                                               sum[g].peer) == 0;
    }
    for (int a = 0; a < c->ngpus; a++)
        for (int b = 0; b < c->ngpus; b++) {
            if (a == b) {
                t->gpu_gpu[a][b].type = LS_LINK_X;
                t->p2p_read[a][b] = t->p2p_write[a][b] = LS_P2P_SELF;
                continue;
            }
            t->gpu_gpu[a][b] = pair_link(c, sum, a, b);
            pair_p2p(c, a, b);
        }
    free(sum);
    t->nnics = c->nnics;
    for (int n = 0; n < c->nnics; n++) {
        snprintf(t->nic_name[n], sizeof t->nic_name[n], "%s", c->nics[n].name);
        snprintf(t->nic_label[n], sizeof t->nic_label[n], "NIC%d", n);
        for (int g = 0; g < c->ngpus; g++)
            if (c->gpu[g].has_pci && c->nics[n].has_pci)
                t->gpu_nic[g][n].type = ls_pci_classify(&c->gpu[g].pci, &c->nics[n].pci);
        for (int m = 0; m < c->nnics; m++)
            t->nic_nic[n][m].type = n == m ? LS_LINK_X
                                    : c->nics[n].has_pci && c->nics[m].has_pci
                                        ? ls_pci_classify(&c->nics[n].pci, &c->nics[m].pci)
                                        : LS_LINK_NONE;
    }
}

/* cudaDeviceCanAccessPeer and the P2P attributes on each links[] entry. */
static void add_cuda_peers(ctx_t *c)
{
    if (!ls_cudadev_peer)
        return;
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(c->doc, "links"), i, l) {
        long long a = ls_json_int(l, "a", -1), b = ls_json_int(l, "b", -1);
        if (a < 0 || b < 0 || a >= c->ngpus || b >= c->ngpus)
            continue;
        int ca = c->gpu[a].cuda, cb = c->gpu[b].cuda;
        ls_cudapeer_t p;
        if (ca < 0 || cb < 0 || ls_cudadev_peer(c->cuda[ca].ordinal, c->cuda[cb].ordinal, &p) != 0)
            continue;
        json_object_set_new(l, "cuda_peer_access", json_boolean(p.can_access));
        json_object_set_new(l, "cuda_p2p",
                            json_pack("{s:i, s:b, s:b, s:b}", "performance_rank",
                                      p.performance_rank, "access_supported", p.access_supported,
                                      "native_atomic_supported", p.native_atomic_supported,
                                      "cuda_array_access_supported",
                                      p.cuda_array_access_supported));
    }
}

/* ---- software and environment -------------------------------------------------- */

static int nccl_version(char *buf, size_t buflen)
{
    /* LINKSCOPE_NCCL may name the library; else the names the collectives' loader tries
       (nccl/loader_nccl.c), in its order. */
    static const char *const names[] = {"libnccl.so.2", "libnccl.so"};
    const char *path = getenv("LINKSCOPE_NCCL");
    void *lib = path && *path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    for (size_t i = 0; !(path && *path) && !lib && i < sizeof names / sizeof names[0]; i++)
        lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return -1;
    int (*get)(int *) = NULL;
    void *p = dlsym(lib, "ncclGetVersion");
    memcpy(&get, &p, sizeof p);
    int code = 0, rc = -1;
    if (get && get(&code) == 0 && code > 0) {
        /* NCCL_VERSION_CODE: major*10000 + minor*100 + patch since 2.9, major*1000 before. */
        if (code >= 10000)
            snprintf(buf, buflen, "%d.%d.%d", code / 10000, (code % 10000) / 100, code % 100);
        else
            snprintf(buf, buflen, "%d.%d.%d", code / 1000, (code % 1000) / 100, code % 100);
        rc = 0;
    }
    dlclose(lib);
    return rc;
}

static void fill_software(ctx_t *c)
{
    json_t *sw = json_object_get(c->doc, "software");
    char buf[128], rt[32];
    if (c->nvml_ok && ls_nvml_driver_version(buf, sizeof buf) == 0)
        json_object_set_new(sw, "driver", json_string(buf));
    if (c->nvml_ok && ls_nvml_cuda_driver_version(buf, sizeof buf) == 0)
        json_object_set_new(sw, "cuda_driver", json_string(buf));
    if (c->ncuda > 0 && ls_cudadev_versions &&
        ls_cudadev_versions(buf, sizeof buf, rt, sizeof rt) == 0) {
        if (!json_object_get(sw, "cuda_driver") && buf[0])
            json_object_set_new(sw, "cuda_driver", json_string(buf));
        json_object_set_new(sw, "cuda_runtime", json_string(rt));
    }
    if (nccl_version(buf, sizeof buf) == 0)
        json_object_set_new(sw, "nccl", json_string(buf));
    else
        warn(c, "NCCL: neither libnccl.so.2 nor libnccl.so found (set LINKSCOPE_NCCL to its path); "
                "collectives are skipped");
    json_object_set_new(sw, "nvml", json_boolean(c->nvml_ok));
    json_object_set_new(sw, "gpudirect_rdma", ls_gpudirect_json(c->root, c->nnics));
    json_object_set_new(sw, "warnings", json_incref(c->warnings));
}

static int by_string(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every CUDA_* and NCCL_* variable in force, sorted by name. */
static void fill_env(json_t *doc)
{
    json_t *env = json_object_get(doc, "env");
    size_t n = 0;
    for (char **e = environ; e && *e; e++)
        if (strncmp(*e, "CUDA_", 5) == 0 || strncmp(*e, "NCCL_", 5) == 0)
            n++;
    const char **vars = calloc(n ? n : 1, sizeof *vars);
    if (!vars)
        return;
    n = 0;
    for (char **e = environ; e && *e; e++)
        if (strncmp(*e, "CUDA_", 5) == 0 || strncmp(*e, "NCCL_", 5) == 0)
            vars[n++] = *e;
    qsort(vars, n, sizeof *vars, by_string);
    for (size_t i = 0; i < n; i++) {
        const char *eq = strchr(vars[i], '=');
        if (!eq || eq == vars[i])
            continue;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(eq - vars[i]) < 255 ? (int)(eq - vars[i]) : 255,
                 vars[i]);
        json_object_set_new(env, name, json_string(eq + 1));
    }
    free(vars);
}

/* ---- orchestration ------------------------------------------------------------- */

static void write_doc(ctx_t *c)
{
    json_t *gpus = json_object_get(c->doc, "gpus");
    json_t *nics = json_object_get(c->doc, "nics");
    json_array_clear(gpus);
    json_array_clear(nics);
    for (int g = 0; g < c->ngpus; g++)
        json_array_append_new(gpus, gpu_json(c, g));
    for (int n = 0; n < c->nnics; n++)
        json_array_append_new(nics, ls_nic_to_json(&c->nics[n], n));
    ls_topo_to_doc(&c->topo, c->doc);
    add_cuda_peers(c);
}

static void ensure_sections(json_t *doc)
{
    const char *objects[] = {"host", "software", "env"};
    const char *arrays[] = {"gpus", "links", "nics", "gpu_nic_links"};
    for (size_t i = 0; i < 3; i++)
        if (!json_is_object(json_object_get(doc, objects[i])))
            json_object_set_new(doc, objects[i], json_object());
    for (size_t i = 0; i < 4; i++)
        if (!json_is_array(json_object_get(doc, arrays[i])))
            json_object_set_new(doc, arrays[i], json_array());
}

int ls_discover(json_t *doc, const ls_discover_opts_t *opts)
{
    static const ls_discover_opts_t defaults = {NULL, 1, 1};
    if (!opts)
        opts = &defaults;
    ctx_t *c = calloc(1, sizeof *c);
    if (!c)
        return 0;
    c->root = opts->sysfs_root ? opts->sysfs_root : "";
    c->doc = doc;
    c->warnings = json_array();
    ensure_sections(doc);
    ls_sysfs_host(c->root, json_object_get(doc, "host"), c->warnings);
    for (size_t i = 0; i < json_array_size(c->warnings); i++)
        ls_warn("%s", json_string_value(json_array_get(c->warnings, i)));
    run_nvml(c, opts);
    run_cuda(c, opts);
    run_sysfs(c);
    build_topo(c);
    write_doc(c);
    fill_software(c);
    fill_env(doc);
    int n = c->ngpus;
    json_decref(c->warnings);
    free(c);
    return n;
}
