/* Rules of the NVSwitch fabric's texts (fabric_rules.h). On an NVSwitch system (HGX/DGX
   A100, H100, H200, B200; NVL72) the GPUs join the NVLink fabric only once Fabric Manager
   has configured the switches and registered them (the GPU's fabric State goes Not Started,
   In Progress, Completed); until then CUDA fails on every GPU (error 802, "system not yet
   initialized": NVIDIA's Fabric Manager user guide). So a Fabric Manager that does not run
   takes the node out of service (isolate), whatever the GPUs look like. Severity from the
   action class, as the kernel-log rules: none -> info, watch -> warning, reset / reboot /
   isolate -> error. */
#include "fabric_rules.h"
#include "rules.h"

#include "model/doc.h"
#include "model/fabric_health.h"
#include "model/sxid.h"
#include "model/xid.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends the finding, its evidence the document's list, and its "node_action". */
static void add(json_t *out, const char *rule, enum ls_action a, ls_about_t about, const char *list,
                const char *msg)
{
    ls_finding_add(out, rule, ls_action_severity(a), about, json_pack("[s]", list), "%s", msg);
    json_object_set_new(json_array_get(out, json_array_size(out) - 1), "node_action",
                        json_string(ls_action_name(a)));
}

/* ---- fabric_manager ---------------------------------------------------------------- */

/* Whole words of GPU names that are PCIe cards, never on an NVSwitch baseboard (GeForce,
   RTX and Quadro workstation cards, the PCIe data-center cards, H100 NVL's bridged pairs). */
static int word_in(const char *name, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = strstr(name, w); p; p = strstr(p + 1, w))
        if ((p == name || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[n]))
            return 1;
    return 0;
}

static int pcie_card(const char *name)
{
    static const char *const words[] = {"GeForce", "RTX", "Quadro", "TITAN", "PCIe", "PCIE",
                                        "NVL",     "T4",  "A2",     "A10",   "A10G", "A16",
                                        "A30",     "A40", "L4",     "L20",   "L40",  "L40S"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (word_in(name, words[i]))
            return 1;
    return 0;
}

/* A GB200 / GB300 (NVL72 compute tray): its NVLink fabric is managed on the NVLink switch
   trays (NVOS runs Fabric Manager there), not by a nvidia-fabricmanager service on the node;
   the node sees the fabric through nvidia-smi -q's Fabric section. */
static int nvl72_tray(const char *name)
{
    return word_in(name, "GB200") || word_in(name, "GB300");
}

/* 1 when the document names its GPUs and every one passes is (a PCIe card, an NVL72 tray). */
static int all_gpus(const json_t *doc, int (*is)(const char *))
{
    size_t i, named = 0;
    const json_t *g;
    json_array_foreach(json_object_get(doc, "gpus"), i, g) {
        const char *name = ls_json_str(g, "name", ls_json_str(g, "name_cut", NULL));
        if (!name)
            continue;
        if (!is(name))
            return 0;
        named++;
    }
    return named > 0;
}

/* The failure kinds, the most telling first: the finding names the first one present. */
static const char *const kinds[] =
    {"version_mismatch", "no_nvswitch",      "config_invalid", "config_failed",  "training_failed",
     "start_blocked",    "not_installed",    "start_script",   "service_failed", "start_failed",
     "not_running",      "multicast_failed", "error"};

static const json_t *failure_of(const json_t *fm, const char *kind)
{
    size_t i;
    const json_t *f;
    json_array_foreach(json_object_get(fm, "failures"), i, f) {
        if (!strcmp(ls_json_str(f, "kind", ""), kind))
            return f;
    }
    return NULL;
}

/* What the failure means and the action it takes. */
static enum ls_action kind_text(ls_text_t *t, const json_t *fm, const char *kind)
{
    if (!strcmp(kind, "version_mismatch")) {
        ls_text_put(t,
                    "Fabric Manager %s and the driver %s differ: it refuses to start (they must be "
                    "the "
                    "same version), so the NVSwitches are not configured and CUDA fails (error "
                    "802) "
                    "until the Fabric Manager package of the driver's exact version runs",
                    ls_json_str(fm, "version", "(version not in the text)"),
                    ls_json_str(fm, "driver", "(version not in the text)"));
        return LS_ACT_ISOLATE;
    }
    if (!strcmp(kind, "no_nvswitch")) {
        const json_t *nvl5 = json_object_get(fm, "nvlink5");
        ls_text_put(t, "Fabric Manager found no NVSwitch (NV_WARN_NOTHING_TO_DO) and exited: on a "
                       "machine without NVSwitches (PCIe cards, NVLink bridges) it is not needed "
                       "(disable nvidia-fabricmanager); on an HGX/DGX the driver does not see the "
                       "switches");
        if (!json_is_false(nvl5)) /* the start script did not say "Pre-NVL5" */
            ls_text_put(t, " (B200 and later: the NVLink Subnet Manager, nvlsm, and the InfiniBand "
                           "modules it needs)");
        return LS_ACT_WATCH;
    }
    if (!strcmp(kind, "config_failed")) {
        ls_text_put(t,
                    "Fabric Manager did not configure the GPUs and NVSwitches (the fabric is not "
                    "up): the switches carry no NVLink traffic and CUDA fails on every GPU (error "
                    "802, system not yet initialized) until it configures them (restart it; the "
                    "errors before this line say why)");
        return LS_ACT_ISOLATE;
    }
    static const char *const says[][2] = {
        {"config_invalid", "its configuration has an invalid value"},
        {"start_blocked", "its start script would not start it: a prerequisite is missing "
                          "(NVLink5 systems, B200 and later: the ib_umad kernel module and an "
                          "InfiniBand device for the NVLink Subnet Manager)"},
        {"training_failed", "NVLink training failed"},
        {"not_installed", "the nvidia-fabricmanager service is not installed"},
        {"start_script", "its start script refused its arguments and printed its usage (a "
                         "service file or driver container made for another Fabric Manager "
                         "version)"},
        {"service_failed", "the service is in the failed state"},
        {"start_failed", "the service failed to start (the reason is in journalctl -u "
                         "nvidia-fabricmanager)"},
        {"not_running", "the service is not running"},
    };
    for (size_t i = 0; i < sizeof says / sizeof *says; i++)
        if (!strcmp(kind, says[i][0])) {
            ls_text_put(t,
                        "Fabric Manager is not running: %s; on an NVSwitch system the switches "
                        "stay "
                        "unconfigured and CUDA fails on every GPU (error 802, system not yet "
                        "initialized) until it runs",
                        says[i][1]);
            return LS_ACT_ISOLATE;
        }
    if (!strcmp(kind, "multicast_failed")) {
        /* NCCL's maintainers on nvls.cc's 'invalid argument' (NVIDIA/nccl#976, #1338): Fabric
           Manager restarted while processes held the GPUs leaves its multicast state stale;
           a reboot (or a GPU reset with it stopped) clears it */
        ls_text_put(t,
                    "Fabric Manager runs but fails to set up or release NVLink multicast teams: "
                    "NVLink SHARP (NVLS) buffers cannot be made, so NCCL jobs of three GPUs or "
                    "more "
                    "fail or hang at init (NCCL_NVLS_ENABLE=0 avoids it meanwhile); its multicast "
                    "state is stale, usually after it was restarted while processes held the GPUs");
        return LS_ACT_REBOOT;
    }
    ls_text_put(t, "Fabric Manager logged an error");
    return LS_ACT_WATCH;
}

static void put_failure(ls_text_t *t, const json_t *f, int first)
{
    long long n = ls_json_int(f, "count", 1);
    ls_text_put(t, "%s'%.180s'", first ? ": " : "; ", ls_json_str(f, "text", ""));
    if (n > 1)
        ls_text_put(t, " (%lld times)", n);
}

/* The primary kind's line, then one other. */
static void put_failure_texts(ls_text_t *t, const json_t *fm, const char *kind)
{
    const json_t *primary = failure_of(fm, kind), *f;
    put_failure(t, primary, 1);
    size_t i;
    json_array_foreach(json_object_get(fm, "failures"), i, f) {
        if (f != primary) {
            put_failure(t, f, 0);
            break;
        }
    }
}

static void fm_finding(const json_t *doc, const json_t *fm, json_t *out)
{
    const char *kind = NULL;
    for (size_t i = 0; !kind && i < sizeof kinds / sizeof *kinds; i++)
        if (failure_of(fm, kinds[i]))
            kind = kinds[i];
    if (!kind)
        return; /* started, running, or nothing said: quiet */
    const json_t *hosts = json_object_get(fm, "hosts");
    char who[96];
    snprintf(who, sizeof who, "%s",
             json_array_size(hosts) == 1 ? json_string_value(json_array_get(hosts, 0))
                                         : "the node");
    ls_text_t t = {.used = 0};
    ls_text_put(&t, "%s: ", who);
    enum ls_action a = kind_text(&t, fm, kind);
    put_failure_texts(&t, fm, kind);
    if (json_is_true(json_object_get(fm, "recovered"))) {
        ls_text_put(&t, ". It started after that: nothing to do unless it stops again");
        a = LS_ACT_NONE;
    } else if (all_gpus(doc, pcie_card)) {
        ls_text_put(&t,
                    ". The GPUs in the paste are PCIe cards: no NVSwitch, Fabric Manager is not "
                    "needed here (disable the service); the GPUs are not affected");
        a = LS_ACT_NONE;
    } else if (a == LS_ACT_ISOLATE && all_gpus(doc, nvl72_tray)) {
        ls_text_put(&t,
                    ". The GPUs in the paste are GB200/GB300 (NVL72): the fabric is managed on the "
                    "NVLink switch trays, not by this service; nvidia-smi -q's Fabric section says "
                    "whether the GPUs joined it");
        a = LS_ACT_NONE;
    }
    ls_text_put(&t, ". Node action: %s", ls_action_name(a));
    if (a == LS_ACT_ISOLATE)
        ls_text_put(&t, ": out of service until Fabric Manager runs and the GPUs' fabric state is "
                        "Completed (nvidia-smi -q)");
    else if (a == LS_ACT_REBOOT)
        ls_text_put(&t,
                    ": drain the node and reboot it (or stop Fabric Manager, reset all GPUs, start "
                    "it)");
    add(out, "fabric_manager", a, LS_ABOUT_WHAT(who), "fabric_managers", t.buf);
}

static void rule_fabric_manager(const json_t *doc, json_t *out)
{
    size_t i;
    const json_t *fm;
    json_array_foreach(json_object_get(doc, "fabric_managers"), i, fm) {
        fm_finding(doc, fm, out);
    }
}

/* ---- sxid ---------------------------------------------------------------------------- */

/* The group of (host, bus, sxid) in groups (an object keyed by its text), made when new. */
static json_t *sxid_group(json_t *groups, json_t *order, const json_t *e)
{
    char key[160];
    snprintf(key, sizeof key, "%s|%s|%lld", ls_json_str(e, "host", ""),
             ls_json_str(e, "bus_id", ""), ls_json_int(e, "sxid", 0));
    json_t *g = json_object_get(groups, key);
    if (g)
        return g;
    g = json_pack("{s:s, s:s, s:I, s:i, s:i, s:[], s:i}", "host", ls_json_str(e, "host", ""), "bus",
                  ls_json_str(e, "bus_id", ""), "sxid", ls_json_int(e, "sxid", 0), "count", 0,
                  "action", LS_ACT_NONE, "links", "fatal", -1);
    json_object_set_new(groups, key, g);
    json_array_append(order, g);
    return g;
}

static void group_sxid(json_t *groups, json_t *order, const json_t *e, const char *list)
{
    json_t *g = sxid_group(groups, order, e);
    if (!json_object_get(g, "list")) /* the evidence: the document's list it came from */
        json_object_set_new(g, "list", json_string(list));
    json_object_set_new(g, "count", json_integer(ls_json_int(g, "count", 0) + 1));
    const json_t *fatal = json_object_get(e, "fatal");
    if (fatal && ls_json_int(g, "fatal", -1) != 1)
        json_object_set_new(g, "fatal", json_integer(json_is_true(fatal)));
    enum ls_action a = ls_sxid_event_action(e); /* health's rule sxid takes the same */
    if ((long long)a > ls_json_int(g, "action", 0))
        json_object_set_new(g, "action", json_integer(a));
    long long link = ls_json_int(e, "link", ls_json_int(e, "port", -1));
    if (json_object_get(e, "port")) /* Fabric Manager names the switch's port */
        json_object_set_new(g, "port_word", json_true());
    json_t *links = json_object_get(g, "links");
    if (link >= 0 && json_array_size(links) < 16)
        ls_json_append_once(links, json_integer(link));
    if (!json_object_get(g, "switch") && json_object_get(e, "switch"))
        json_object_set_new(g, "switch", json_string(ls_json_str(e, "switch", "")));
    if (!json_object_get(g, "text"))
        json_object_set_new(g, "text", json_string(ls_json_str(e, "text", "")));
}

/* " on links 24, 25" (the kernel's "Link N"), " on port 31" (Fabric Manager's). */
static void put_links(ls_text_t *t, const json_t *g)
{
    const json_t *links = json_object_get(g, "links"), *l;
    const char *word = json_is_true(json_object_get(g, "port_word")) ? "port" : "link";
    size_t i;
    json_array_foreach(links, i, l) {
        if (i == 0)
            ls_text_put(t, " on %s%s ", word, json_array_size(links) > 1 ? "s" : "");
        ls_text_put(t, "%s%lld", i ? ", " : "", (long long)json_integer_value(l));
    }
}

static void sxid_finding(const json_t *g, json_t *out)
{
    int sxid = (int)ls_json_int(g, "sxid", 0);
    long long n = ls_json_int(g, "count", 1), fatal = ls_json_int(g, "fatal", -1);
    enum ls_action a = (enum ls_action)ls_json_int(g, "action", LS_ACT_WATCH);
    const char *meaning, *host = ls_json_str(g, "host", ""), *bus = ls_json_str(g, "bus", "");
    enum ls_sxid_severity cat;
    enum ls_action ca;
    int known = ls_sxid_lookup(sxid, &meaning, &cat, &ca) == 0;
    char who[160];
    snprintf(who, sizeof who, "%s%sNVSwitch %s", host, *host ? " " : "",
             *bus ? bus : "(bus id not in the text)");
    ls_text_t t = {.used = 0};
    ls_text_put(&t, "%s", who);
    if (json_object_get(g, "switch"))
        ls_text_put(&t, " (%s)", ls_json_str(g, "switch", ""));
    ls_text_put(&t, ": SXid %d (%s), %s, %lld time%s", sxid,
                known ? meaning : "not in linkscope's catalog",
                fatal == 1   ? "fatal"
                : fatal == 0 ? "non-fatal"
                             : "severity not in the line",
                n, n == 1 ? "" : "s");
    put_links(&t, g);
    ls_text_put(&t, ": '%.160s'", ls_json_str(g, "text", ""));
    if (a == LS_ACT_REBOOT)
        ls_text_put(&t,
                    ". A fatal NVSwitch error stops NVLink traffic through the switch (jobs on its "
                    "GPUs fail or hang). Node action: reboot: drain the node and reset all GPUs "
                    "and "
                    "NVSwitches together (stop Fabric Manager, nvidia-smi -r, start it) or reboot; "
                    "recurring on one port, that link's hardware");
    else
        ls_text_put(&t,
                    ". Node action: %s: corrected by the switch, the fabric keeps running; "
                    "recurring on one link, that link's hardware (cable, tray, baseboard)",
                    ls_action_name(a));
    add(out, "sxid", a, LS_ABOUT_WHAT(who), ls_json_str(g, "list", "kernel_logs"), t.buf);
}

/* Every SXid of the kernel logs and of Fabric Manager's logs: one finding per host, switch
   and SXid. */
static void rule_sxid(const json_t *doc, json_t *out)
{
    static const char *const lists[] = {"kernel_logs", "fabric_managers"};
    json_t *groups = json_object(), *order = json_array();
    size_t i, j;
    const json_t *k, *e;
    for (size_t l = 0; l < sizeof lists / sizeof *lists; l++)
        json_array_foreach(json_object_get(doc, lists[l]), i, k) {
            json_array_foreach(json_object_get(k, "sxids"), j, e) {
                group_sxid(groups, order, e, lists[l]);
            }
        }
    json_array_foreach(order, i, e) {
        sxid_finding(e, out);
    }
    json_decref(order);
    json_decref(groups);
}

/* ---- fabric_not_ready ---------------------------------------------------------------- */

/* "Not Supported" / "N/A": the section has nothing to say (no NVSwitch fabric). */
static int silent(const char *v)
{
    return !*v || !strcmp(v, "N/A") || !strcmp(v, "Not Supported");
}

/* What is wrong with GPU g's registration with the fabric (NVML's probe State and its
   Status), into why (empty when nothing), its action. */
static enum ls_action fabric_state(const json_t *g, char *why, size_t len)
{
    const json_t *f = json_object_get(g, "fabric");
    const char *state = ls_json_str(f, "state", ""), *status = ls_json_str(f, "status", "");
    why[0] = '\0';
    if (silent(state))
        return LS_ACT_NONE;
    if (strcmp(state, "Completed")) {
        snprintf(why, len, "fabric State %s (Status %s): not registered with the NVLink fabric",
                 state, *status ? status : "not printed");
        return LS_ACT_ISOLATE;
    }
    if (!silent(status) && strcmp(status, "Success")) {
        snprintf(why, len, "fabric State Completed but Status %s: the registration failed", status);
        return LS_ACT_ISOLATE;
    }
    return LS_ACT_NONE;
}

/* The Health block of a GPU that did register (NVML's health summary and mask, a field
   apart from the probe State): Summary Unhealthy or a Degraded bandwidth, into why. */
static enum ls_action fabric_health(const json_t *g, char *why, size_t len)
{
    const json_t *f = json_object_get(g, "fabric");
    const json_t *h = json_object_get(f, "health");
    const char *summary = ls_json_str(h, "summary", ""), *bw = ls_json_str(h, "bandwidth", "");
    why[0] = '\0';
    if (fabric_state(g, why, len) != LS_ACT_NONE || silent(ls_json_str(f, "state", ""))) {
        why[0] = '\0'; /* not registered: fabric_not_ready says so */
        return LS_ACT_NONE;
    }
    if (ls_fabric_health_flagged(h)) {
        snprintf(why, len,
                 "registered with the NVLink fabric (State Completed, Status Success) but its "
                 "fabric Health Summary is %s, Bandwidth %s",
                 *summary ? summary : "-", *bw ? bw : "-");
        return LS_ACT_WATCH;
    }
    return LS_ACT_NONE;
}

static void rule_fabric_not_ready(const json_t *doc, json_t *out)
{
    json_t *order = ls_gpu_groups(doc, fabric_state);
    size_t i;
    const json_t *g;
    json_array_foreach(order, i, g) {
        ls_text_t t = {.used = 0};
        ls_text_put(&t, "%s", ls_json_str(g, "why", ""));
        ls_text_put(&t, ". CUDA fails on it (error 802, system not yet initialized) until Fabric "
                        "Manager has configured the NVSwitches and registered the GPU: check "
                        "systemctl status nvidia-fabricmanager and its log. Node action: isolate: "
                        "out of service until the state is Completed / Success");
        add(out, "fabric_not_ready", LS_ACT_ISOLATE,
            LS_ABOUT_GPUS((uint64_t)ls_json_int(g, "mask", 0)), "gpus", t.buf);
    }
    json_decref(order);
}

/* ---- fabric_health ------------------------------------------------------------------- */

static void rule_fabric_health(const json_t *doc, json_t *out)
{
    json_t *order = ls_gpu_groups(doc, fabric_health);
    size_t i;
    const json_t *g;
    json_array_foreach(order, i, g) {
        ls_text_t t = {.used = 0};
        ls_text_put(&t, "%s", ls_json_str(g, "why", ""));
        ls_text_put(&t,
                    ". The GPU joined the fabric and CUDA runs on it, but the fabric flags a fault "
                    "on its NVLink paths (the Health block's other fields say which: route "
                    "recovery, an unhealthy route, an access timeout, an incorrect configuration): "
                    "look at Fabric Manager's log and the NVLinks (nvidia-smi nvlink -s) before "
                    "multi-node NVLink jobs rely on it. Node action: watch");
        add(out, "fabric_health", LS_ACT_WATCH, LS_ABOUT_GPUS((uint64_t)ls_json_int(g, "mask", 0)),
            "gpus", t.buf);
    }
    json_decref(order);
}

void ls_rules_fabric(const json_t *doc, json_t *out)
{
    rule_fabric_manager(doc, out);
    rule_sxid(doc, out);
    rule_fabric_not_ready(doc, out);
    rule_fabric_health(doc, out);
}
