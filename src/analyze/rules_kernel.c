/* Rules of an imported kernel log (kernel_rules.h). Severity from the action class:
   none -> info, watch -> warning, reset / reboot / isolate -> error; an XID of the
   catalog's application bucket (13, 31, 43) is info whatever its count: the application's
   fault, not the node's (NVIDIA's Xid catalog; docs/analysis.md "xid"). */
#include "kernel_rules.h"
#include "rules.h"

#include "model/busid.h"
#include "model/doc.h"
#include "model/nvlink_fail.h"
#include "model/xid.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends the finding and its "node_action". */
static void add(json_t *out, const char *rule, enum ls_severity sev, enum ls_action a,
                ls_about_t about, const char *msg)
{
    ls_finding_add(out, rule, sev, about, json_pack("[s]", "kernel_logs"), "%s", msg);
    json_object_set_new(json_array_get(out, json_array_size(out) - 1), "node_action",
                        json_string(ls_action_name(a)));
}

/* The index the document gives the GPU at bus (an nvidia-smi -q imported with the log),
   else -1: the log itself names no index. */
static int index_of(const json_t *doc, const char *bus)
{
    size_t i;
    const json_t *g;
    json_array_foreach(json_object_get(doc, "gpus"), i, g) {
        const char *b = ls_json_str(g, "pci_bus_id", "");
        if (*bus && *b && ls_busid_equal(b, bus))
            return (int)ls_json_int(g, "index", -1);
    }
    return -1;
}

/* The subject: GPUn when the document knows the bus's index, else "PCI BUS" (and the
   host when the lines name one). */
static void subject(const json_t *doc, const char *bus, const char *host, char *buf, size_t len,
                    ls_about_t *about)
{
    int idx = index_of(doc, bus);
    const char *h = host && *host ? host : NULL;
    if (idx >= 0)
        snprintf(buf, len, "%s%sGPU%d (%s)", h ? h : "", h ? " " : "", idx, bus);
    else if (*bus)
        snprintf(buf, len, "%s%sPCI %s", h ? h : "", h ? " " : "", bus);
    else
        snprintf(buf, len, "%s%sa GPU whose bus id the lines do not give", h ? h : "",
                 h ? " " : "");
    *about = idx >= 0 ? LS_ABOUT_GPU(idx) : LS_ABOUT_WHAT(buf);
}

/* Groups in the order first met ("list"), found by their key's text ("index"): a log of
   100,000 Xid lines is grouped in linear time. */
static json_t *groups_new(void)
{
    return json_pack("{s:[], s:{}}", "list", "index");
}

/* The group whose key equals key (added when new); steals key. */
static json_t *group_of(json_t *groups, json_t *key)
{
    char *text = json_dumps(key, JSON_COMPACT | JSON_SORT_KEYS);
    json_t *index = json_object_get(groups, "index");
    json_t *g = text ? json_object_get(index, text) : NULL;
    if (g) {
        json_decref(key);
        free(text);
        return g;
    }
    g = json_pack("{s:o, s:i, s:[], s:[], s:[], s:i}", "key", key, "count", 0, "pids", "processes",
                  "causes", "action", LS_ACT_NONE);
    json_array_append_new(json_object_get(groups, "list"), g);
    if (text)
        json_object_set(index, text, g);
    free(text);
    return g;
}

static void count(json_t *g, long long n)
{
    json_object_set_new(g, "count", json_integer(ls_json_int(g, "count", 0) + n));
}

/* The stronger of the group's action and a. */
static void raise_action(json_t *g, enum ls_action a)
{
    if ((long long)a > ls_json_int(g, "action", 0))
        json_object_set_new(g, "action", json_integer(a));
}

/* The bus id the document's kernel logs give the GPU of this UUID ("GPU at PCI:0000:3b:00:
   GPU-<uuid>"), else "". */
static const char *bus_of_uuid(const json_t *doc, const char *uuid)
{
    size_t i, j;
    const json_t *k, *g;
    json_array_foreach(json_object_get(doc, "kernel_logs"), i, k) {
        json_array_foreach(json_object_get(k, "gpus"), j, g) {
            if (*uuid && !strcmp(ls_json_str(g, "uuid", ""), uuid))
                return ls_json_str(g, "bus_id", "");
        }
    }
    return "";
}

/* One Xid event into its (host, bus, device, xid) group: the device is the UUID of an
   event the device plugin logged (its bus where the log's "GPU at" line names it, "*"
   for one about all devices). Xid 45 (the driver's cleanup of a channel) "caused by
   previous Xid N" takes N's action: the cause is the event. */
static void group_event(const json_t *doc, json_t *groups, const json_t *e)
{
    int xid = (int)ls_json_int(e, "xid", 0), cause = (int)ls_json_int(e, "cause_xid", 0);
    const char *uuid = ls_json_str(e, "uuid",
                                   json_is_true(json_object_get(e, "all_devices")) ? "*" : "");
    const char *bus = ls_json_str(e, "bus_id", bus_of_uuid(doc, uuid));
    json_t *g = group_of(groups,
                         json_pack("{s:s, s:s, s:s, s:i}", "host", ls_json_str(e, "host", ""),
                                   "bus", bus, "device", *bus ? "" : uuid, "xid", xid));
    count(g, 1);
    const char *text = ls_json_str(e, "text", "");
    /* an event whose number the line does not give (nvidia-smi's loop notice): watched
       until the kernel's NVRM: Xid line of that GPU says which */
    raise_action(g, xid ? ls_xid_action(xid, text) : LS_ACT_WATCH);
    if (cause > 0) {
        raise_action(g, ls_xid_action(cause, ""));
        ls_json_add_int_once(json_object_get(g, "causes"), cause);
    }
    if (json_object_get(e, "pid"))
        ls_json_add_int_once(json_object_get(g, "pids"), ls_json_int(e, "pid", 0));
    if (json_object_get(e, "process"))
        ls_json_add_string_once(json_object_get(g, "processes"), ls_json_str(e, "process", ""));
    if (!json_object_get(g, "text") && *text)
        json_object_set_new(g, "text", json_string(text));
}

/* "(meaning)" of an XID, or "(not in linkscope's catalog)". */
static const char *meaning_of(int xid)
{
    const char *m;
    enum ls_action a;
    return ls_xid_lookup(xid, &m, &a) == 0 ? m : "not in linkscope's catalog";
}

/* ", pids 1234, 1240 and 2 more (python, pt_main_thread)" */
static void put_processes(ls_text_t *t, const json_t *g)
{
    const json_t *pids = json_object_get(g, "pids"), *names = json_object_get(g, "processes");
    size_t np = json_array_size(pids), i;
    const json_t *x;
    json_array_foreach(pids, i, x) {
        if (i == 3) {
            ls_text_put(t, " and %zu more", np - 3);
            break;
        }
        ls_text_put(t, "%s%lld",
                    i        ? ", "
                    : np > 1 ? ", pids "
                             : ", pid ",
                    (long long)json_integer_value(x));
    }
    json_array_foreach(names, i, x) {
        ls_text_put(t, "%s%s", i ? ", " : np ? " (" : ", process ", json_string_value(x));
    }
    if (json_array_size(names) && np)
        ls_text_put(t, ")");
}

/* " (GPU-4a28..., serial 1564720004631)": what the driver printed of the GPU at bus, for
   the ticket of a GPU taken out of service; nothing when it printed neither. */
static void put_ident(ls_text_t *t, const json_t *doc, const char *bus)
{
    size_t i, j;
    const json_t *k, *g;
    json_array_foreach(json_object_get(doc, "kernel_logs"), i, k) {
        json_array_foreach(json_object_get(k, "gpus"), j, g) {
            const char *u = ls_json_str(g, "uuid", NULL), *sn = ls_json_str(g, "serial", NULL);
            if (!*bus || strcmp(ls_json_str(g, "bus_id", ""), bus) || (!u && !sn))
                continue;
            ls_text_put(t, " (%s%s%s%s)", u ? u : "", u && sn ? ", " : "", sn ? "serial " : "",
                        sn ? sn : "");
            return;
        }
    }
}

/* An event the device plugin logged names its GPU by UUID, not bus: "GPU-7540a9b3-...",
   or every GPU for one without a device. */
static void device_subject(const json_t *key, char *who, size_t len, ls_about_t *about)
{
    const char *dev = ls_json_str(key, "device", ""), *host = ls_json_str(key, "host", "");
    if (!*dev)
        return;
    if (!strcmp(dev, "*"))
        snprintf(who, len, "%s%severy GPU the device plugin watches (its Xid event named none)",
                 host, *host ? " " : "");
    else
        snprintf(who, len, "%s%s%s", host, *host ? " " : "", dev);
    *about = LS_ABOUT_WHAT(who);
}

/* An Xid event without its number (nvidia-smi's "GPU ...: Detected Critical Xid Error",
   printed while it loops, from NVML's critical-Xid event): the GPU had one; whether it is
   the GPU's fault (48, 79, 94/95, 119: the catalog's reset or reboot) or an application's
   (13, 31, 43) only the number says, in the kernel's NVRM: Xid line of that GPU. */
static void unnumbered_text(ls_text_t *t, long long n)
{
    ls_text_put(t,
                ": an Xid event whose number the line does not give (nvidia-smi's 'Detected "
                "Critical Xid Error' notice), %lld time%s. Which Xid it was decides whether the "
                "GPU is at fault or an application: collect the kernel log (dmesg, journalctl "
                "-k: the NVRM: Xid lines of this GPU) and judge those. Node action: %s: %s; "
                "no drain on this line alone",
                n, n == 1 ? "" : "s", ls_action_name(LS_ACT_WATCH), ls_action_words(LS_ACT_WATCH));
}

static void xid_finding(const json_t *doc, const json_t *g, json_t *out)
{
    const json_t *key = json_object_get(g, "key");
    int xid = (int)ls_json_int(key, "xid", 0);
    long long n = ls_json_int(g, "count", 1);
    enum ls_action a = (enum ls_action)ls_json_int(g, "action", LS_ACT_WATCH);
    int app = ls_xid_is_app(xid) && !json_array_size(json_object_get(g, "causes"));
    char who[160];
    ls_about_t about;
    subject(doc, ls_json_str(key, "bus", ""), ls_json_str(key, "host", ""), who, sizeof who,
            &about);
    device_subject(key, who, sizeof who, &about);
    ls_text_t t = {.used = 0};
    ls_text_put(&t, "%s", who);
    put_ident(&t, doc, ls_json_str(key, "bus", ""));
    if (!xid) {
        unnumbered_text(&t, n);
        add(out, "xid", ls_action_severity(a), a, about, t.buf);
        return;
    }
    ls_text_put(&t, ": Xid %d (%s), %lld time%s", xid, meaning_of(xid), n, n == 1 ? "" : "s");
    size_t i;
    const json_t *c;
    json_array_foreach(json_object_get(g, "causes"), i, c) {
        int x = (int)json_integer_value(c);
        ls_text_put(&t, "%s Xid %d (%s)", i ? " and" : ", caused by previous", x, meaning_of(x));
    }
    put_processes(&t, g);
    if (!app && json_object_get(g, "text"))
        ls_text_put(&t, ": '%.100s'", ls_json_str(g, "text", ""));
    size_t procs = json_array_size(json_object_get(g, "pids"));
    if (app && procs > 1)
        ls_text_put(&t,
                    ". The catalog's application bucket: an application's error, not the node's; "
                    "from %zu processes on this one GPU, run a diagnostic on it (dcgmi diag -r 3) "
                    "before blaming the applications",
                    procs);
    else if (app)
        ls_text_put(&t,
                    ". The catalog's application bucket: an application's error, not the node's; "
                    "restart the job");
    else
        ls_text_put(&t, ". Node action: %s: %s", ls_action_name(a), ls_action_words(a));
    add(out, "xid", app ? LS_SEV_INFO : ls_action_severity(a), app ? LS_ACT_NONE : a, about, t.buf);
}

/* Every Xid event of the document's kernel logs, one finding per host, bus and XID. */
static void rule_xid(const json_t *doc, json_t *out)
{
    json_t *groups = groups_new();
    size_t i, j;
    const json_t *k, *e;
    json_array_foreach(json_object_get(doc, "kernel_logs"), i, k) {
        json_array_foreach(json_object_get(k, "events"), j, e) {
            group_event(doc, groups, e);
        }
    }
    json_array_foreach(json_object_get(groups, "list"), i, e) {
        xid_finding(doc, e, out);
    }
    json_decref(groups);
}

/* (host, bus) pairs with an Xid 79: their off-bus lines are the same event. */
static int has_xid79(const json_t *doc, const char *host, const char *bus)
{
    size_t i, j;
    const json_t *k, *e;
    json_array_foreach(json_object_get(doc, "kernel_logs"), i, k) {
        json_array_foreach(json_object_get(k, "events"), j, e) {
            if (ls_json_int(e, "xid", 0) == 79 && strcmp(ls_json_str(e, "host", ""), host) == 0 &&
                strcmp(ls_json_str(e, "bus_id", ""), bus) == 0)
                return 1;
        }
    }
    return 0;
}

static int has_kind(const json_t *k, const char *kind)
{
    size_t i;
    const json_t *f;
    json_array_foreach(json_object_get(k, "failures"), i, f) {
        if (strcmp(ls_json_str(f, "kind", ""), kind) == 0)
            return 1;
    }
    return 0;
}

/* The rule a failure record gives, and the key it is grouped by (NULL: none). */
static const char *rule_of(const json_t *doc, const json_t *k, const json_t *f, const char **what)
{
    const char *kind = ls_json_str(f, "kind", ""), *host = ls_json_str(f, "host", "");
    const char *bus = ls_json_str(f, "bus_id", "");
    *what = bus;
    if (strcmp(kind, "off_bus") == 0)
        return has_xid79(doc, host, bus) ? NULL : "gpu_off_bus";
    if (strcmp(kind, "probe_failed") == 0) /* after a GPU fell off the bus or was refused:
                                              its consequence */
        return has_kind(k, "off_bus") || has_kind(k, "unsupported") ? NULL : "driver_init_failed";
    if (strcmp(kind, "init_failed") == 0 || strcmp(kind, "probe_not_called") == 0 ||
        strcmp(kind, "no_gpu") == 0 || strcmp(kind, "unsupported") == 0)
        return "driver_init_failed";
    if (strcmp(kind, "api_mismatch") == 0) {
        *what = "";
        return "driver_mismatch";
    }
    if (strcmp(kind, "gsp_timeout") == 0 || strcmp(kind, "reset_required") == 0) {
        *what = *bus ? bus : ls_json_str(f, "driver_gpu", "");
        return kind;
    }
    if (strcmp(kind, "nvlink_train_failed") == 0) { /* model/nvlink_fail.h */
        *what = *bus ? bus : ls_json_str(f, "driver_gpu", "");
        return "nvlink_discovery_failed";
    }
    return NULL;
}

static void group_failure(json_t *groups, const char *rule, const char *what, const json_t *f)
{
    json_t *g = group_of(groups, json_pack("{s:s, s:s, s:s}", "rule", rule, "host",
                                           ls_json_str(f, "host", ""), "what", what));
    count(g, ls_json_int(f, "count", 1));
    json_t *texts = ls_json_array_at(g, "texts"); /* the distinct texts, at most 3 */
    if (json_array_size(texts) < 3)
        ls_json_add_string_once(texts, ls_json_str(f, "text", ""));
    if (strcmp(ls_json_str(f, "kind", ""), "probe_not_called") == 0)
        json_object_set_new(g, "not_called", json_true());
    if (strcmp(ls_json_str(f, "kind", ""), "unsupported") == 0) /* refused at probe */
        json_object_set_new(g, "unsupported",
                            json_pack("{s:s, s:s}", "pci_id",
                                      ls_json_str(f, "pci_id", "not in the text"), "release",
                                      ls_json_str(f, "release", "this driver")));
    if (strcmp(ls_json_str(f, "kind", ""), "no_gpu") == 0)
        json_object_set_new(g, "no_gpu", json_true());
    else if (strcmp(rule, "driver_init_failed") == 0)
        json_object_set_new(g, "set_up", json_true()); /* a GPU it saw and failed on */
    if (strcmp(ls_json_str(f, "source", ""), "nvidia-container-cli") == 0)
        json_object_set_new(g, "container_cli", json_true());
    const char *v = ls_json_str(f, "client_version", NULL);
    if (v)
        json_object_set_new(g, "client", json_string(v));
    v = ls_json_str(f, "module_version", NULL);
    if (v)
        json_object_set_new(g, "module", json_string(v));
}

/* A driver_init_failed group without a bus folds into the first one of its host with a
   bus: "Cannot initialize GSP firmware RM" is the same failure as the RmInitAdapter line
   that names the GPU. */
static void fold_busless(json_t *groups)
{
    for (size_t i = json_array_size(groups); i-- > 0;) {
        json_t *g = json_array_get(groups, i), *key = json_object_get(g, "key");
        if (strcmp(ls_json_str(key, "rule", ""), "driver_init_failed") ||
            *ls_json_str(key, "what", ""))
            continue;
        size_t j;
        json_t *h;
        json_array_foreach(groups, j, h) {
            json_t *hk = json_object_get(h, "key");
            if (j != i && !strcmp(ls_json_str(hk, "rule", ""), "driver_init_failed") &&
                *ls_json_str(hk, "what", "") &&
                !strcmp(ls_json_str(hk, "host", ""), ls_json_str(key, "host", ""))) {
                json_array_extend(ls_json_array_at(h, "details"), json_object_get(g, "texts"));
                json_array_remove(groups, i);
                break;
            }
        }
    }
}

/* "'text1'; 'text2'" of a group's texts, then its details. */
static void put_texts(ls_text_t *t, const json_t *g)
{
    size_t i;
    const json_t *x;
    json_array_foreach(json_object_get(g, "texts"), i, x) {
        ls_text_put(t, "%s'%.160s'", i ? "; " : "", json_string_value(x));
    }
    json_array_foreach(json_object_get(g, "details"), i, x) {
        ls_text_put(t, "%s'%.120s'", i ? "; " : " (with ", json_string_value(x));
    }
    if (json_array_size(json_object_get(g, "details")))
        ls_text_put(t, ")");
}

/* The messages of the driver's failure findings; each returns its node action. */
static enum ls_action off_bus_text(ls_text_t *t, const json_t *g, long long n)
{
    ls_text_put(t, ": fell off the bus (the driver lost the GPU on PCIe), %lld line%s: ", n,
                n == 1 ? "" : "s");
    put_texts(t, g);
    ls_text_put(t, ". Node action: reboot: %s; recurring, the slot, riser, power and cooling",
                ls_action_words(LS_ACT_REBOOT));
    return LS_ACT_REBOOT;
}

/* A driver_init_failed group of "No NVIDIA GPU found" lines alone (no GPU it failed on). */
static int only_no_gpu(const json_t *g)
{
    return json_is_true(json_object_get(g, "no_gpu")) && !json_object_get(g, "set_up") &&
           !json_object_get(g, "details");
}

/* The driver's module init counted no NVIDIA PCI device (nv.c: "No NVIDIA GPU found."):
   not a GPU it failed to set up but one it does not see on the bus. */
static enum ls_action no_gpu_text(ls_text_t *t, const json_t *g, long long n)
{
    ls_text_put(t,
                ": the driver found no NVIDIA GPU on the PCI bus and did not load, %lld line%s: ",
                n, n == 1 ? "" : "s");
    put_texts(t, g);
    ls_text_put(t,
                ". If the node has NVIDIA GPUs, they are not enumerated (lspci | grep -i nvidia): "
                "seating, power, the slot's BIOS setting, or a GPU gone from the bus. Node action: "
                "isolate: %s",
                ls_action_words(LS_ACT_ISOLATE));
    return LS_ACT_ISOLATE;
}

/* The driver refused the GPU at probe (osapi.c rm_is_supported_device): this build does
   not know the chip it read from the GPU's registers, or the open module needs the GSP
   firmware the GPU lacks. Every probe of the same driver decides the same: a reset or a
   reboot does not change it, another driver build or the GPU's mode does. */
static enum ls_action unsupported_text(ls_text_t *t, const json_t *g, long long n)
{
    const json_t *u = json_object_get(g, "unsupported");
    const char *r = ls_json_str(u, "release", "");
    int numbered = isdigit((unsigned char)r[0]); /* "550.90.07", else "open nvidia.ko" */
    ls_text_put(t,
                ": the driver refused the GPU at load (PCI ID %s, not supported by %s%s%s), "
                "%lld line%s: ",
                ls_json_str(u, "pci_id", ""), numbered ? "the " : "", r,
                numbered ? " driver release" : "", n, n == 1 ? "" : "s");
    put_texts(t, g);
    ls_text_put(t,
                ". No CUDA or NVML on it under this driver, and a reset or a reboot loads the "
                "same one. A GPU the release does not list (Appendix A of its README): a release "
                "that does; the open module refusing a GPU without GSP: the proprietary one; a GPU "
                "the release lists: the set-up (a VM's or a confidential-computing mode's view of "
                "the GPU, a driver build not meant for it). Node action: isolate: %s",
                ls_action_words(LS_ACT_ISOLATE));
    return LS_ACT_ISOLATE;
}

static enum ls_action init_text(ls_text_t *t, const json_t *g, long long n)
{
    if (only_no_gpu(g))
        return no_gpu_text(t, g, n);
    if (json_object_get(g, "unsupported"))
        return unsupported_text(t, g, n);
    ls_text_put(t, ": the driver could not set the GPU up, %lld line%s: ", n, n == 1 ? "" : "s");
    put_texts(t, g);
    if (json_is_true(json_object_get(g, "not_called")))
        ls_text_put(t, ". Another driver (nouveau, ...) holds the device: unload or blacklist it, "
                       "then "
                       "load nvidia");
    ls_text_put(t,
                ". The GPU is unusable until then. Node action: reboot: %s; persisting, the driver "
                "version, the firmware (GSP, VBIOS) and the hardware",
                ls_action_words(LS_ACT_REBOOT));
    return LS_ACT_REBOOT;
}

static enum ls_action mismatch_text(ls_text_t *t, const json_t *g, long long n)
{
    ls_text_put(t,
                ": the user-space driver (%s) and the loaded kernel module (%s) differ (API "
                "mismatch), %lld time%s: no CUDA or NVML call works until they match",
                ls_json_str(g, "client", "a client of another version"),
                ls_json_str(g, "module", "version not in the text"), n, n == 1 ? "" : "s");
    if (json_is_true(json_object_get(g, "container_cli")))
        ls_text_put(t, " (nvidia-container-cli's NVML says so: 'driver/library version "
                       "mismatch'; no GPU container starts on the node)");
    ls_text_put(t,
                ". Node action: reboot: %s (or reload the nvidia modules) once one driver version "
                "is installed whole",
                ls_action_words(LS_ACT_REBOOT));
    return LS_ACT_REBOOT;
}

static enum ls_action gsp_text(ls_text_t *t, const json_t *g, long long n)
{
    ls_text_put(t,
                ": the GPU's GSP firmware stopped answering (heartbeat or RPC timeout, as Xid "
                "119), "
                "%lld line%s: ",
                n, n == 1 ? "" : "s");
    put_texts(t, g);
    ls_text_put(t, ". Node action: reset: %s; recurring, a driver with the GSP fix or the hardware",
                ls_action_words(LS_ACT_RESET));
    return LS_ACT_RESET;
}

/* NV_ERR_RESET_REQUIRED in the driver's lines: its resource manager refuses the GPU's work
   until a reset (it returns the status once the firmware hit a fatal error or the GPU was
   lost); the CUDA calls of the job fail meanwhile (cudaErrorDevicesUnavailable, ...). */
static enum ls_action reset_required_text(ls_text_t *t, const json_t *g, long long n)
{
    ls_text_put(t,
                ": the driver says the GPU needs a reset (NV_ERR_RESET_REQUIRED), %lld line%s: ", n,
                n == 1 ? "" : "s");
    put_texts(t, g);
    ls_text_put(t,
                ". It refuses the GPU's work until then. Node action: reset: %s; the Xid or GSP "
                "line before it says why; recurring, the hardware",
                ls_action_words(LS_ACT_RESET));
    return LS_ACT_RESET;
}

/* NVLink failed to come up at driver load (discovery or training, no Xid): the links
   stay down until the NVLink domain's GPUs are reset together or the node reboots
   (ls_nvlink_fail_action, the decision linkscope health makes on the same lines). */
static enum ls_action nvlink_text(ls_text_t *t, const json_t *g, long long n)
{
    enum ls_action a = ls_nvlink_fail_action();
    ls_text_put(t,
                ": the driver's NVLink bring-up failed (link discovery or training, no Xid), "
                "%lld line%s: ",
                n, n == 1 ? "" : "s");
    put_texts(t, g);
    ls_text_put(t,
                ". Links that did not come up stay down: peer traffic falls back to PCIe or "
                "fails. Check nvidia-smi nvlink -s and, on an NVSwitch system, Fabric Manager's "
                "log. Node action: reboot: %s; recurring, the GPU baseboard's hardware",
                ls_action_words(a));
    return a;
}

/* Who a failure group is about: its bus (or the document's GPU index), the driver's own
   GPU number of a GSP line, the node (a driver mismatch). */
static void failure_subject(const json_t *doc, const json_t *g, char *who, size_t len,
                            ls_about_t *about)
{
    const json_t *key = json_object_get(g, "key");
    const char *rule = ls_json_str(key, "rule", ""), *what = ls_json_str(key, "what", "");
    const char *host = ls_json_str(key, "host", "");
    if ((!strcmp(rule, "gsp_timeout") || !strcmp(rule, "reset_required") ||
         !strcmp(rule, "nvlink_discovery_failed")) &&
        strncmp(what, "GPU", 3) == 0) {
        snprintf(who, len, "%s%sthe driver's %s (its own numbering, not nvidia-smi's)", host,
                 *host ? " " : "", what);
        *about = LS_ABOUT_WHAT(who);
    } else if (!strcmp(rule, "driver_mismatch") || only_no_gpu(g) ||
               (!strcmp(rule, "nvlink_discovery_failed") && !*what)) { /* about the node */
        snprintf(who, len, "%s", *host ? host : "the node");
        *about = LS_ABOUT_WHAT(who);
    } else {
        subject(doc, what, host, who, len, about);
    }
}

static void failure_finding(const json_t *doc, const json_t *g, json_t *out)
{
    static const struct {
        const char *rule;
        enum ls_action (*text)(ls_text_t *t, const json_t *g, long long n);
    } texts[] = {
        {.rule = "gpu_off_bus", .text = off_bus_text},
        {.rule = "driver_init_failed", .text = init_text},
        {.rule = "driver_mismatch", .text = mismatch_text},
        {.rule = "gsp_timeout", .text = gsp_text},
        {.rule = "reset_required", .text = reset_required_text},
        {.rule = "nvlink_discovery_failed", .text = nvlink_text},
    };
    const json_t *key = json_object_get(g, "key");
    const char *rule = ls_json_str(key, "rule", ""), *what = ls_json_str(key, "what", "");
    char who[192];
    ls_about_t about;
    failure_subject(doc, g, who, sizeof who, &about);
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        if (strcmp(rule, texts[i].rule))
            continue;
        ls_text_t t = {.used = 0};
        ls_text_put(&t, "%s", who);
        put_ident(&t, doc, what);
        enum ls_action a = texts[i].text(&t, g, ls_json_int(g, "count", 1));
        add(out, rule, ls_action_severity(a), a, about, t.buf);
    }
}

static void rule_failures(const json_t *doc, json_t *out)
{
    json_t *groups = groups_new();
    size_t i, j;
    const json_t *k, *f;
    json_array_foreach(json_object_get(doc, "kernel_logs"), i, k) {
        json_array_foreach(json_object_get(k, "failures"), j, f) {
            const char *what, *rule = rule_of(doc, k, f, &what);
            if (rule)
                group_failure(groups, rule, what, f);
        }
    }
    fold_busless(json_object_get(groups, "list"));
    json_array_foreach(json_object_get(groups, "list"), i, f) {
        failure_finding(doc, f, out);
    }
    json_decref(groups);
}

void ls_rules_kernel(const json_t *doc, json_t *out)
{
    rule_xid(doc, out);
    rule_failures(doc, out);
}
