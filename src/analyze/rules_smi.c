/* Plain nvidia-smi output (import/smi_table.c): what its failure lines and ERR! cells say
   a scheduler must do. NVML's return codes behind the texts (nvml.h, nvmlErrorString):
   NVML_ERROR_DRIVER_NOT_LOADED (nvidia-smi: "has failed because it couldn't communicate
   with the NVIDIA driver"), NVML_ERROR_LIB_RM_VERSION_MISMATCH ("Driver/library version
   mismatch": the user-space library and the loaded kernel module differ),
   NVML_ERROR_LIBRARY_NOT_FOUND, NVML_ERROR_GPU_IS_LOST ("GPU is lost": fallen off the
   bus or otherwise inaccessible), NVML_ERROR_RESET_REQUIRED, NVML_ERROR_UNKNOWN ("Unknown
   Error": on a device handle, what a GPU in a failed state answers).
   - driver_unreachable (error): NVML cannot start: nothing on the node can use a GPU until
     the driver is (re)loaded, the node rebooted, or a container given the GPU runtime;
   - no_gpus (error): NVML started and found no GPU it may use;
   - gpu_lost (error): one GPU cannot be reached (its handle fails, or its row reads ERR!
     for its name: NVML cannot even identify it): reset or reboot, naming its bus id;
   - gpu_read_error: cells of a GPU that otherwise answers (its name, memory, mode read)
     read ERR!: info for one or two (a passing miss), error with reset for
     LS_SMI_LOST_CELLS or more (NVML reaches the GPU but not its sensors: a GPU in a bad
     state, not a lost one); warning for a handle refused for a reason that is not the
     GPU's state (Insufficient Permissions). */
#include "rules.h"
#include "model/busid.h"
#include "model/doc.h"
#include "model/xid.h"

#include <stdio.h>
#include <string.h>

/* A GPU whose row reads ERR! in at least this many cells (of fan, temperature, perf,
   power draw, power cap, ECC, utilization, compute mode, MIG mode) is in a bad state: a
   GPU that works misses one reading at a time (a power draw, a fan; azhpc-diagnostics#77,
   nvidia_gpu_exporter#393). Whether it is lost is told by its name: NVML_ERROR_GPU_IS_LOST
   fails every query, the name's too (gpu-operator#559), while a GPU whose name, memory
   and compute mode still read is reached (dcgm-exporter#313: fan, temperature, perf and
   MIG mode ERR!). */
#define LS_SMI_LOST_CELLS 3

/* Handle reasons that are the GPU's own state (nvmlErrorString's words). */
static int hardware_reason(const char *r)
{
    return strstr(r, "GPU is lost") || strstr(r, "Unknown Error") || strstr(r, "requires reset") ||
           strstr(r, "fallen off") || strstr(r, "Insufficient External Power");
}

/* The index of the document's GPU with this bus id, or -1. */
static int gpu_by_bus(const ls_machine_t *m, const char *bus)
{
    for (int g = 0; g < m->ngpus; g++)
        if (m->gpu[g] && ls_busid_equal(ls_json_str(m->gpu[g], "pci_bus_id", ""), bus))
            return g;
    return -1;
}

/* The last finding added gets "node_action": set only where NVML's text names what the
   node needs (a lost GPU, a module that no longer matches its library); a driver not
   reached from a container or no GPU found may be the container's, not the node's, so
   those carry none (docs/analysis.md). */
static void node_action(json_t *out, enum ls_action a)
{
    json_object_set_new(json_array_get(out, json_array_size(out) - 1), "node_action",
                        json_string(ls_action_name(a)));
}

static void driver_finding(const json_t *f, const json_t *smi, json_t *out)
{
    const char *kind = ls_json_str(f, "kind", ""), *reason = ls_json_str(f, "reason", "");
    const char *lib = ls_json_str(smi, "nvml_library_version", "");
    char what[320];
    if (!strcmp(kind, "no_driver"))
        snprintf(what, sizeof what,
                 "nvidia-smi cannot communicate with the NVIDIA driver (NVML: driver not "
                 "loaded or not reachable here): no GPU can be used; load the driver (dmesg: "
                 "a kernel updated without its module, Secure Boot, nouveau) or, in a "
                 "container, start it with the GPU runtime (--gpus)");
    else if (!strcmp(kind, "no_library"))
        snprintf(what, sizeof what,
                 "nvidia-smi cannot load libnvidia-ml.so: the driver's user-space libraries "
                 "are not installed (or not mounted into the container): no GPU can be used");
    else if (strstr(reason, "version mismatch"))
        snprintf(what, sizeof what,
                 "NVML%s%s does not match the loaded kernel module "
                 "(NVML_ERROR_LIB_RM_VERSION_MISMATCH): the driver was updated without "
                 "reloading its module; drain the node, then reload the nvidia modules or "
                 "reboot",
                 lib[0] ? " " : "", lib);
    else if (strstr(reason, "Unknown Error")) /* nvidia-docker#1730, NVIDIA's notice */
        snprintf(what, sizeof what,
                 "NVML cannot initialize (Unknown Error): no GPU can be used here; in a "
                 "container that had its GPUs, the host's systemd reloading its units "
                 "(systemctl daemon-reload) detaches them: recreate the container; on a host, "
                 "check the driver (dmesg)");
    else
        snprintf(what, sizeof what,
                 "NVML cannot initialize (%s): no GPU can be used here; check the driver "
                 "(dmesg) and, in a container, its device access",
                 reason[0] ? reason : "no reason printed");
    ls_finding_about(out, "driver_unreachable", LS_SEV_ERROR, LS_ABOUT_WHAT("node"), "node", "smi",
                     "%s", what);
    if (strstr(reason, "version mismatch")) /* the module must be reloaded: a reboot does it */
        node_action(out, LS_ACT_REBOOT);
}

static void handle_finding(const ls_machine_t *m, const json_t *f, json_t *out)
{
    const char *bus = ls_json_str(f, "bus_id", ""), *reason = ls_json_str(f, "reason", "");
    long long printed = ls_json_int(f, "gpu", -1);
    int g = bus[0] ? gpu_by_bus(m, bus) : -1;
    char subject[80];
    if (printed >= 0)
        snprintf(subject, sizeof subject, "GPU%lld (%s)", printed, bus[0] ? bus : "bus id unknown");
    else
        snprintf(subject, sizeof subject, "the GPU at %s", bus[0] ? bus : "an unprinted bus id");
    ls_about_t about = g >= 0 ? LS_ABOUT_ON(subject, ls_gpu_bit(g)) : LS_ABOUT_WHAT(subject);
    if (hardware_reason(reason)) {
        int lost = strstr(reason, "GPU is lost") || strstr(reason, "fallen off");
        ls_finding_about(out, "gpu_lost", LS_SEV_ERROR, about, subject, "smi",
                         "%s cannot reach it (\"%s\"%s): drain the node; the GPU needs a "
                         "reset (nvidia-smi -r) or, as NVML says of a lost GPU, a reboot, and "
                         "a check (dmesg: Xid 79 fallen off the bus, power, seating) before it "
                         "takes jobs",
                         strcmp(ls_json_str(f, "via", ""), "nvml")
                             ? "nvidia-smi"
                             : "NVML (the line of the program that called it)",
                         reason, strstr(reason, "GPU is lost") ? ", NVML_ERROR_GPU_IS_LOST" : "");
        /* NVML of a lost GPU: "Reboot the system to recover this GPU"; else a reset first */
        node_action(out, lost ? LS_ACT_REBOOT : LS_ACT_RESET);
    } else
        ls_finding_about(out, "gpu_read_error", LS_SEV_WARNING, about, subject, "smi",
                         "nvidia-smi could not open it (%s): not the GPU's state; check the "
                         "permissions of /dev/nvidia* (or the container's device access)",
                         reason[0] ? reason : "no reason printed");
}

/* "fan, temperature" of a GPU's smi_err[]; the count. */
static int err_list(const json_t *gpu, char *buf, size_t len)
{
    size_t i, used = 0;
    const json_t *v;
    buf[0] = '\0';
    json_array_foreach(json_object_get(gpu, "smi_err"), i, v) {
        if (used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
                                     json_string_value(v));
    }
    return (int)json_array_size(json_object_get(gpu, "smi_err"));
}

static void err_cells(const ls_machine_t *m, int g, json_t *out)
{
    char list[200], path[48];
    int n = err_list(m->gpu[g], list, sizeof list);
    if (!n)
        return;
    snprintf(path, sizeof path, "gpus[%d].smi_err", g);
    const char *bus = ls_json_str(m->gpu[g], "pci_bus_id", "bus id not read");
    if (strstr(list, "name")) { /* the table's name cell, -q's product_name */
        ls_finding_add(out, "gpu_lost", LS_SEV_ERROR, LS_ABOUT_GPU(g), json_pack("[s]", path),
                       "GPU%d (%s) answers an error (ERR!, Unknown Error) for %s: NVML cannot "
                       "reach it; drain the node, "
                       "reset the GPU (nvidia-smi -r -i %d) or reboot, and check dmesg for an "
                       "Xid before it takes jobs",
                       g, bus, list, g);
        node_action(out, LS_ACT_RESET); /* the first of "reset the GPU or reboot" */
    } else if (n >= LS_SMI_LOST_CELLS) {
        ls_finding_add(out, "gpu_read_error", LS_SEV_ERROR, LS_ABOUT_GPU(g), json_pack("[s]", path),
                       "GPU%d (%s) answers (its name reads) but NVML answers an error (ERR!, "
                       "Unknown Error) for %d of its queries (%s): more than a passing miss, "
                       "the GPU is in a bad state; drain the node, reset the GPU "
                       "(nvidia-smi -r -i %d) and check dmesg for an Xid before it takes jobs",
                       g, bus, n, list, g);
        node_action(out, LS_ACT_RESET);
    } else
        ls_finding_add(out, "gpu_read_error", LS_SEV_INFO, LS_ABOUT_GPU(g), json_pack("[s]", path),
                       "GPU%d answers an error (ERR!, Unknown Error) for %s while the rest of it "
                       "reads: one query NVML "
                       "failed, often once; if it stays, look at nvidia-smi -q -i %d (GPU Recovery "
                       "Action) and dmesg",
                       g, list, g);
}

static void failures(const ls_machine_t *m, const json_t *smi, json_t *out)
{
    size_t i;
    const json_t *f;
    int nodev = 0;
    json_array_foreach(json_object_get(smi, "failures"), i, f) {
        const char *kind = ls_json_str(f, "kind", "");
        if (!strcmp(kind, "device_handle"))
            handle_finding(m, f, out);
        else if (!strcmp(kind, "no_devices"))
            nodev = 1;
        else
            driver_finding(f, smi, out);
    }
    if (nodev)
        ls_finding_about(out, "no_gpus", LS_SEV_ERROR, LS_ABOUT_WHAT("node"), "node", "smi",
                         "nvidia-smi: No devices were found: the driver is loaded but no GPU "
                         "is visible to it here (a container or VM given none), or it could not "
                         "bring one up (dmesg: RmInitAdapter failed; BIOS Above 4G decoding); the "
                         "node cannot take GPU jobs");
}

void ls_rules_smi(const ls_machine_t *m, json_t *out)
{
    size_t i;
    const json_t *smi;
    json_array_foreach(json_object_get(m->doc, "smi"), i, smi)
        failures(m, smi, out);
    for (int g = 0; g < m->ngpus; g++)
        if (m->gpu[g])
            err_cells(m, g, out);
}
