#define _GNU_SOURCE /* strcasestr */
/* The health rules: one function per kind of node state, each appending findings
   {rule, gpu?, message, action} (docs/health.md lists them with their actions). */
#include "health.h"

#include "analyze/spec.h"
#include "discover/nics.h"
#include "discover/sysfs.h"
#include "model/fabric_health.h"
#include "model/memory_repair.h"
#include "model/nvlink_errors.h"
#include "model/nvlink_fail.h"
#include "model/recovery.h"
#include "util/fileio.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct {
    const json_t *state;
    const char *root;
    json_t *findings;
    ls_datasheet_t ds;
    int have_ds;
} ctx_t;

static const json_t *gpus(const ctx_t *c)
{
    return json_object_get(c->state, "gpus");
}

static int gpu_index(const json_t *g, size_t i)
{
    json_t *x = json_object_get(g, "index");
    return json_is_integer(x) ? (int)json_integer_value(x) : (int)i;
}

static const char *text_of(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static int int_of(const json_t *o, const char *key, int unknown)
{
    json_t *x = json_object_get(o, key);
    return json_is_integer(x) ? (int)json_integer_value(x) : unknown;
}

static void rule_driver(ctx_t *c)
{
    const json_t *d = json_object_get(c->state, "driver");
    if (json_is_true(json_object_get(d, "ok")))
        return;
    /* A driver that does not answer leaves the GPUs unusable until it is loaded again:
       nvidia-smi's "couldn't communicate with the NVIDIA driver" is cleared by a reboot. */
    const char *why = text_of(d, "error");
    if (int_of(c->state, "gpus_on_pci", -1) == 0) {
        ls_health_add(c->findings, "driver", -1, LS_ACT_NONE,
                      "no NVIDIA GPU on PCIe and no driver answering: nothing to check");
        return;
    }
    ls_health_add(c->findings, "driver", -1, LS_ACT_REBOOT, "NVIDIA driver does not answer%s%s",
                  *why ? ": " : "", why);
}

static void rule_gpu_count(ctx_t *c)
{
    int on_pci = int_of(c->state, "gpus_on_pci", -1);
    int answered = (int)json_array_size(gpus(c));
    if (!json_is_true(json_object_get(json_object_get(c->state, "driver"), "ok")))
        return; /* the driver finding says it */
    if (on_pci > answered)
        ls_health_add(c->findings, "gpu_count", -1, LS_ACT_REBOOT,
                      "%d GPUs on PCIe, the driver answers for %d", on_pci, answered);
}

static const ls_spec_row_t *part_of(ctx_t *c, const json_t *g)
{
    return c->have_ds ? ls_datasheet_find(&c->ds, text_of(g, "name")) : NULL;
}

static void rule_part(ctx_t *c, const json_t *g, int idx)
{
    if (!part_of(c, g))
        ls_health_add(c->findings, "part_unknown", idx, LS_ACT_NONE,
                      "GPU%d %s is not in linkscope's datasheet: its NVLinks are not checked", idx,
                      *text_of(g, "name") ? text_of(g, "name") : "(no name)");
}

static void rule_nvlink(ctx_t *c, const json_t *g, int idx)
{
    const ls_spec_row_t *row = part_of(c, g);
    int active = int_of(g, "nvlinks_active", -1);
    if (!row || row->nvlinks <= 0 || active < 0 || active >= row->nvlinks)
        return;
    /* A PCIe card showing none may simply have no bridge fitted; a partial set, or none
       on an SXM board, is a fault. */
    if (active == 0 && strcmp(row->form, "PCIe") == 0)
        return;
    ls_health_add(c->findings, "nvlink_down", idx, LS_ACT_ISOLATE, "GPU%d NVLink %d of %d down",
                  idx, row->nvlinks - active, row->nvlinks);
}

/* sysfs wants "0000:19:00.0"; NVML writes "00000000:19:00.0". */
static void sysfs_bdf(const char *nvml_bus, char *out, size_t outlen)
{
    size_t n = strlen(nvml_bus);
    const char *tail = n > 12 ? nvml_bus + n - 12 : nvml_bus;
    snprintf(out, outlen, "%s", tail);
    for (char *p = out; *p; p++)
        if (*p >= 'A' && *p <= 'F')
            *p = (char)(*p - 'A' + 'a');
}

static int pci_int(const char *root, const char *bdf, const char *file)
{
    char path[256], buf[64];
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/%s", bdf, file);
    if (ls_read_text(root, path, buf, sizeof buf) != 0)
        return -1;
    return atoi(buf);
}

static void rule_pcie(ctx_t *c, const json_t *g, int idx)
{
    char bdf[32];
    sysfs_bdf(text_of(g, "pci_bus_id"), bdf, sizeof bdf);
    int cur = pci_int(c->root, bdf, "current_link_width");
    int max = pci_int(c->root, bdf, "max_link_width");
    /* Only the width: an idle GPU lowers its link speed to save power (Gen1 at idle is
       normal), but never its lane count. */
    if (cur > 0 && max > 0 && cur < max)
        ls_health_add(c->findings, "pcie_width", idx, LS_ACT_ISOLATE, "GPU%d PCIe x%d of x%d", idx,
                      cur, max);
}

/* "TOTAL_ERR_FATAL 0" style totals of an aer_dev_* file; -1 when absent. */
static long aer_total(const char *root, const char *bdf, const char *file, const char *key)
{
    char path[256], buf[2048];
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/%s", bdf, file);
    if (ls_read_text(root, path, buf, sizeof buf) != 0)
        return -1;
    const char *k = strstr(buf, key);
    return k ? strtol(k + strlen(key), NULL, 10) : -1;
}

static void rule_aer(ctx_t *c, const json_t *g, int idx)
{
    char bdf[32];
    sysfs_bdf(text_of(g, "pci_bus_id"), bdf, sizeof bdf);
    long fatal = aer_total(c->root, bdf, "aer_dev_fatal", "TOTAL_ERR_FATAL");
    long nonfatal = aer_total(c->root, bdf, "aer_dev_nonfatal", "TOTAL_ERR_NONFATAL");
    if (fatal > 0)
        ls_health_add(c->findings, "pcie_aer", idx, LS_ACT_ISOLATE, "GPU%d PCIe fatal errors: %ld",
                      idx, fatal);
    else if (nonfatal > 0)
        ls_health_add(c->findings, "pcie_aer", idx, LS_ACT_WATCH,
                      "GPU%d PCIe non-fatal errors: %ld", idx, nonfatal);
}

/* The replays a healthy link may have in `seconds`, as DCGM's PCIe health watch allows
   them: a bit error rate of 1e-12 at the link's rate per lane (2.5, 5, 8, 16, 32, 64 GT/s
   for Gen1-6) times its lanes, per minute, rounded up. An unknown link is judged as
   Gen6 x16, the most any link allows. */
static int replays_allowed(const json_t *pcie, double seconds)
{
    static const double gtps[] = {2.5, 5, 8, 16, 32, 64};
    int gen = int_of(pcie, "gen_current", 0), width = int_of(pcie, "width_current", 0);
    if (gen < 1 || gen > 6 || width < 1)
        gen = 6, width = 16;
    double per_minute = 1e-12 * gtps[gen - 1] * 1e9 * 60 * width;
    return (int)ceil(per_minute * seconds / 60);
}

/* Replays counted while health stood (`pcie_replay_growth`), above what the link's bit
   error rate allows: retried transfers now. The count since the driver loaded alone says
   nothing of a rate (a replay in weeks is a healthy link) and is not judged. */
static void rule_pcie_replay(ctx_t *c, const json_t *g, int idx)
{
    const json_t *grown = json_object_get(g, "pcie_replay_growth");
    double seconds = json_number_value(json_object_get(grown, "seconds"));
    int count = int_of(grown, "count", 0);
    if (!grown || seconds <= 0 || count <= 0)
        return;
    int allowed = replays_allowed(json_object_get(g, "pcie"), seconds);
    if (count > allowed)
        ls_health_add(c->findings, "pcie_replay", idx, LS_ACT_WATCH,
                      "GPU%d PCIe replays: %d in %.0f s, above the %d a bit error rate of 1e-12 "
                      "allows on its link",
                      idx, count, seconds, allowed);
}

static void rule_memory(ctx_t *c, const json_t *g, int idx)
{
    const json_t *ecc = json_object_get(g, "ecc");
    /* a setting on a part where ECC costs nothing (HBM): the plan's ecc_off, same meaning */
    if (json_is_false(json_object_get(ecc, "enabled")) && ls_part_ecc_free(part_of(c, g)))
        ls_health_add(c->findings, "ecc_off", idx, LS_ACT_NONE,
                      "GPU%d ECC is off on its HBM: memory errors are neither corrected nor "
                      "counted (a setting: nvidia-smi -e 1 and a GPU reset turn it on)",
                      idx);
    const json_t *rr = json_object_get(g, "remapped_rows");
    if (json_is_true(json_object_get(rr, "failed")))
        ls_health_add(c->findings, "remap_failed", idx, LS_ACT_ISOLATE,
                      "GPU%d row remapping failed", idx);
    else if (json_is_true(json_object_get(rr, "pending")))
        ls_health_add(c->findings, ls_remap_pending.id, idx, ls_remap_pending.action,
                      "GPU%d row remap pending (%s)", idx, ls_remap_pending.applied);
    const json_t *rp = json_object_get(g, "retired_pages");
    if (json_is_true(json_object_get(rp, "pending"))) /* plan's ecc finding, one meaning */
        ls_health_add(c->findings, ls_retire_pending.id, idx, ls_retire_pending.action,
                      "GPU%d page retirement pending (%s)", idx, ls_retire_pending.applied);
    int unc = int_of(ecc, "volatile_uncorrected", 0);
    if (unc > 0)
        ls_health_add(c->findings, "ecc_uncorrected", idx, LS_ACT_RESET,
                      "GPU%d %d uncorrected ECC errors since the driver loaded", idx, unc);
}

static void rule_nvlink_errors(ctx_t *c, const json_t *g, int idx)
{
    const json_t *e = json_object_get(g, "nvlink_errors");
    if (!e)
        return;
    int replay = int_of(e, "replay", 0), recovery = int_of(e, "recovery", 0);
    int crc = int_of(e, "crc_flit", 0) + int_of(e, "crc_data", 0);
    /* replays and recoveries: isolate, as linkscope plan judges them (model/nvlink_errors.h);
       CRC growth alone was corrected in the link layer: watched */
    enum ls_action a = ls_nvlink_errors_action(replay, recovery);
    if (replay + recovery + crc > 0)
        ls_health_add(c->findings, "nvlink_errors", idx, a != LS_ACT_NONE ? a : LS_ACT_WATCH,
                      "GPU%d NVLink errors in %d s: %d replay, %d recovery, %d CRC", idx,
                      int_of(e, "seconds", 0), replay, recovery, crc);
}

/* A GPU registered with the NVLink fabric whose fabric health NVML flags (the judgment
   linkscope plan's fabric_health makes on -q's Health block, model/fabric_health.c):
   CUDA runs, but a path of the fabric is at fault; watch. */
static void rule_fabric_health(ctx_t *c, const json_t *health, int idx)
{
    if (!ls_fabric_health_flagged(health))
        return;
    const char *summary = text_of(health, "summary"), *bandwidth = text_of(health, "bandwidth");
    ls_health_add(c->findings, "fabric_health", idx, LS_ACT_WATCH,
                  "GPU%d NVLink fabric health: summary %s, bandwidth %s (nvidia-smi -q's Fabric "
                  "section says which route; Fabric Manager's log why)",
                  idx, *summary ? summary : "not given", *bandwidth ? bandwidth : "not given");
}

/* The driver's own recovery action for the GPU (NVML's field, model/recovery.c): the
   action its table gives, the one plan's recovery_action gives a pasted -q. A code the
   table does not know is watched with its number. */
static void rule_recovery(ctx_t *c, const json_t *g, int idx)
{
    const json_t *code = json_object_get(g, "recovery_action_code");
    const char *words = text_of(g, "recovery_action");
    if (ls_recovery_words_silent(words)) /* "N/A" in a recorded state: as plan, no ask */
        words = "";
    const ls_recovery_t *r = *words ? ls_recovery_of_words(words)
                             : code ? ls_recovery_of_code((unsigned)json_integer_value(code))
                                    : NULL;
    if (r && r->action == LS_ACT_NONE)
        return;
    if (r)
        ls_health_add(c->findings, "recovery_action", idx, r->action,
                      "GPU%d driver's recovery action: %s (%s)", idx, r->words, r->meaning);
    else if (*words)
        ls_health_add(c->findings, "recovery_action", idx, LS_ACT_WATCH,
                      "GPU%d driver's recovery action '%s' is not one linkscope knows: see "
                      "nvidia-smi -q's GPU Recovery Action",
                      idx, words);
    else if (code)
        ls_health_add(c->findings, "recovery_action", idx, LS_ACT_WATCH,
                      "GPU%d driver's recovery action code %lld is not one linkscope knows: see "
                      "nvidia-smi -q's GPU Recovery Action",
                      idx, (long long)json_integer_value(code));
}

static void rule_fabric(ctx_t *c, const json_t *g, int idx)
{
    const char *state = text_of(json_object_get(g, "fabric"), "state");
    if (!*state || strcmp(state, "n/a") == 0 || strcmp(state, "completed") == 0) {
        const char *status = text_of(json_object_get(g, "fabric"), "status");
        if (*status && strcmp(status, "ok") != 0)
            ls_health_add(c->findings, "fabric", idx, LS_ACT_ISOLATE,
                          "GPU%d NVSwitch fabric registration failed: %s", idx, status);
        else
            rule_fabric_health(c, json_object_get(json_object_get(g, "fabric"), "health"), idx);
        return;
    }
    /* Until the fabric manager has registered the GPU, NVLink through the NVSwitches
       cannot carry traffic. */
    ls_health_add(c->findings, "fabric", idx,
                  strcmp(state, "in progress") == 0 ? LS_ACT_WATCH : LS_ACT_ISOLATE,
                  "GPU%d NVSwitch fabric %s (fabric manager)", idx, state);
}

static void rule_processes(ctx_t *c, const json_t *g, int idx)
{
    const json_t *procs = json_object_get(g, "processes");
    if (json_array_size(procs) == 0)
        return;
    const json_t *p = json_array_get(procs, 0);
    ls_health_add(c->findings, "other_process", idx, LS_ACT_WATCH,
                  "GPU%d in use by %zu other process%s (pid %d %s)", idx, json_array_size(procs),
                  json_array_size(procs) > 1 ? "es" : "", int_of(p, "pid", -1),
                  *text_of(p, "name") ? text_of(p, "name") : "");
}

/* "b3:00" of a bus id: bus and device, without domain and function. */
static void bus_device(const char *id, char out[6])
{
    char tmp[32];
    snprintf(tmp, sizeof tmp, "%s", id);
    tmp[strcspn(tmp, ".")] = '\0';
    size_t n = strlen(tmp);
    const char *tail = n >= 5 ? tmp + n - 5 : tmp;
    memcpy(out, tail, strlen(tail) + 1);
}

/* GPU index of an XID line's bus ("0000:19:00": domain, bus, device), or -1. */
static int gpu_of_bus(const ctx_t *c, const char *bus)
{
    char want[6], have[6];
    bus_device(bus, want);
    size_t i;
    json_t *g;
    json_array_foreach(gpus(c), i, g) {
        bus_device(text_of(g, "pci_bus_id"), have);
        if (strcasecmp(want, have) == 0)
            return gpu_index(g, i);
    }
    return -1;
}

static void rule_xid(ctx_t *c)
{
    const char *log = json_string_value(json_object_get(c->state, "kernel_log"));
    if (!log) {
        ls_health_add(c->findings, "kernel_log", -1, LS_ACT_NONE,
                      "kernel log unreadable: XID and SXid events unknown");
        return;
    }
    json_t *events = json_array();
    ls_xid_scan(log, events);
    size_t i;
    json_t *e;
    json_array_foreach(events, i, e) {
        int xid = int_of(e, "xid", 0), gpu = gpu_of_bus(c, text_of(e, "bus_id"));
        const char *meaning;
        enum ls_action a;
        ls_xid_lookup(xid, &meaning, &a);
        a = ls_xid_action(xid, text_of(e, "text")); /* 154 names the recovery it wants */
        char who[64];
        if (gpu >= 0)
            snprintf(who, sizeof who, "GPU%d", gpu);
        else
            snprintf(who, sizeof who, "PCI %s", text_of(e, "bus_id"));
        ls_health_add(c->findings, "xid", gpu, a, "%s XID %d %s", who, xid,
                      meaning ? meaning : "(not in the catalog)");
    }
    json_decref(events);
}

/* The driver's NVLink bring-up failure lines (model/nvlink_fail.h), as plan's rule
   nvlink_discovery_failed reads them from a pasted log: one finding per GPU (or the node,
   where the line names none) and message, with its count and the same action. */
static void rule_nvlink_fail(ctx_t *c)
{
    const char *log = json_string_value(json_object_get(c->state, "kernel_log"));
    if (!log)
        return; /* the kernel_log finding says it cannot be read */
    json_t *events = json_array(), *seen = json_object(), *order = json_array();
    ls_nvlink_fail_scan(log, events);
    size_t i;
    json_t *e;
    json_array_foreach(events, i, e) {
        char key[512];
        snprintf(key, sizeof key, "%s|%s", text_of(e, "bus_id"), text_of(e, "what"));
        json_t *g = json_object_get(seen, key);
        if (!g) {
            json_object_set(seen, key, e);
            json_array_append(order, e);
            g = e;
        }
        json_object_set_new(g, "count", json_integer(int_of(g, "count", 0) + 1));
    }
    json_array_foreach(order, i, e) {
        int gpu = *text_of(e, "bus_id") ? gpu_of_bus(c, text_of(e, "bus_id")) : -1;
        char who[64];
        if (gpu >= 0)
            snprintf(who, sizeof who, "GPU%d", gpu);
        else
            snprintf(who, sizeof who, "%s%s", *text_of(e, "bus_id") ? "PCI " : "node",
                     text_of(e, "bus_id"));
        ls_health_add(c->findings, "nvlink_discovery_failed", gpu, ls_nvlink_fail_action(),
                      "%s %s, %d line%s ('%.120s'): the links stay down until a reset or reboot",
                      who, text_of(e, "what"), int_of(e, "count", 1),
                      int_of(e, "count", 1) == 1 ? "" : "s", text_of(e, "text"));
    }
    json_decref(order);
    json_decref(seen);
    json_decref(events);
}

static void gpu_rules(ctx_t *c)
{
    size_t i;
    json_t *g;
    json_array_foreach(gpus(c), i, g) {
        int idx = gpu_index(g, i);
        rule_part(c, g, idx);
        rule_nvlink(c, g, idx);
        rule_pcie(c, g, idx);
        rule_aer(c, g, idx);
        rule_pcie_replay(c, g, idx);
        rule_memory(c, g, idx);
        rule_nvlink_errors(c, g, idx);
        rule_recovery(c, g, idx);
        rule_fabric(c, g, idx);
        rule_processes(c, g, idx);
    }
}

/* "GPU0,GPU1" served by a NIC: the GPUs at most a PCIe switch tree away (PIX/PXB). */
static void served_gpus(ctx_t *c, const ls_nic_t *nic, char *out, size_t outlen)
{
    out[0] = '\0';
    if (!nic->has_pci)
        return;
    size_t i;
    json_t *g;
    json_array_foreach(gpus(c), i, g) {
        ls_pci_dev_t dev;
        if (ls_sysfs_pci_device(c->root, text_of(g, "pci_bus_id"), &dev) != 0)
            continue;
        enum ls_link_type t = ls_pci_classify(&dev, &nic->pci);
        if (t == LS_LINK_PIX || t == LS_LINK_PXB)
            snprintf(out + strlen(out), outlen - strlen(out), "%sGPU%d", *out ? "," : "",
                     gpu_index(g, i));
    }
}

static double best_rate(const ls_nic_t *nics, int n, const char *layer)
{
    double best = 0;
    for (int i = 0; i < n; i++)
        for (int p = 0; p < nics[i].nports; p++)
            if (strcmp(nics[i].ports[p].link_layer, layer) == 0 &&
                strcmp(nics[i].ports[p].state, "ACTIVE") == 0 && nics[i].ports[p].rate_gbps > best)
                best = nics[i].ports[p].rate_gbps;
    return best;
}

static void port_rule(ctx_t *c, const ls_nic_t *nic, const ls_nic_port_t *p, double best)
{
    char served[256], tail[300] = "";
    served_gpus(c, nic, served, sizeof served);
    if (*served)
        snprintf(tail, sizeof tail, " (serves %s)", served);
    if (strcmp(p->state, "ACTIVE") != 0)
        ls_health_add(c->findings, "ib_port", -1, LS_ACT_ISOLATE, "%s port %d %s %s%s", nic->name,
                      p->port, p->link_layer, *p->state ? p->state : "state unknown", tail);
    else if (p->rate_gbps > 0 && p->rate_gbps < best)
        /* one rail slower than the others slows every collective that crosses it */
        ls_health_add(c->findings, "ib_rate", -1, LS_ACT_ISOLATE,
                      "%s port %d at %.0f Gb/s, others at %.0f%s", nic->name, p->port, p->rate_gbps,
                      best, tail);
}

static void rule_ib(ctx_t *c)
{
    ls_nic_t nics[32];
    int n = ls_nics_list(c->root, nics, 32);
    for (int i = 0; i < n; i++)
        for (int p = 0; p < nics[i].nports; p++)
            port_rule(c, &nics[i], &nics[i].ports[p],
                      best_rate(nics, n, nics[i].ports[p].link_layer));
}

json_t *ls_health_rules(const json_t *state)
{
    char err[256];
    ctx_t c = {.state = state, .findings = json_array()};
    c.root = text_of(state, "root");
    c.have_ds = ls_datasheet_builtin(&c.ds, err, sizeof err) == 0;
    rule_driver(&c);
    rule_gpu_count(&c);
    ls_health_rule_fabric_manager(state, c.findings); /* before the GPUs' fabric: the cause */
    gpu_rules(&c);
    rule_xid(&c);
    rule_nvlink_fail(&c);
    ls_health_rule_sxid(state, c.findings);
    rule_ib(&c);
    if (c.have_ds)
        ls_datasheet_free(&c.ds);
    return c.findings;
}

enum ls_action ls_health_worst(const json_t *findings)
{
    enum ls_action worst = LS_ACT_NONE;
    size_t i;
    json_t *f;
    json_array_foreach(findings, i, f) {
        int a = ls_action_parse(text_of(f, "action"));
        if (a > (int)worst)
            worst = (enum ls_action)a;
    }
    return worst;
}
