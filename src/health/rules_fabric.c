/* The NVSwitch fabric's health rules (health.h): whether Fabric Manager runs beside the
   NVSwitches, and the NVSwitch driver's SXid events in the kernel log. linkscope plan reads
   the same texts pasted (analyze/rules_fabric.c, docs/analysis.md "The NVSwitch fabric"):
   the SXid parser, its catalog and each event's action are model/sxid.c's, and CUDA's 802
   is named from the CUDA error catalog (model/cuda_errors.c), so both commands agree. */
#include "health.h"

#include "model/cuda_errors.h"
#include "model/sxid.h"

#include <stdio.h>
#include <string.h>

static long long int_of(const json_t *o, const char *key, long long unknown)
{
    const json_t *x = json_object_get(o, key);
    return json_is_integer(x) ? json_integer_value(x) : unknown;
}

static const char *text_of(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

void ls_health_rule_fabric_manager(const json_t *state, json_t *findings)
{
    long long nsw = int_of(state, "nvswitches", 0);
    if (nsw <= 0)
        return; /* no NVSwitch on PCIe: no Fabric Manager needed, nothing read */
    const json_t *fm = json_object_get(state, "fabric_manager");
    const json_t *running = json_object_get(fm, "running");
    if (json_is_true(running))
        return;
    if (!json_is_false(running)) {
        const char *why = *text_of(fm, "why") ? text_of(fm, "why")
                                              : "not in the recorded state's services.json";
        ls_health_add(findings, "fabric_manager", -1, LS_ACT_NONE,
                      "Fabric Manager: whether it runs beside %lld NVSwitches is unknown (%s)", nsw,
                      why);
        return;
    }
    /* Until Fabric Manager has configured the NVSwitches and registered the GPUs, CUDA
       fails on every GPU with 802 (NVIDIA's Fabric Manager user guide); the catalog's
       node action for 802 is the finding's, so plan and health agree. */
    const ls_cuda_error_t *ce = ls_cuda_error_by_code(802);
    enum ls_action a = ce && ce->action >= 0 ? (enum ls_action)ce->action : LS_ACT_ISOLATE;
    ls_health_add(findings, "fabric_manager", -1, a,
                  "Fabric Manager (nv-fabricmanager) not running beside %lld NVSwitches: CUDA "
                  "fails on every GPU with %d %s (\"%s\") until it runs at the driver's version "
                  "(systemctl status nvidia-fabricmanager)",
                  nsw, ce ? ce->code : 802, ce ? ce->runtime : "cudaErrorSystemNotReady",
                  ce ? ce->string : "system not yet initialized");
}

/* The group of an event's switch and SXid in groups (keyed), appended to order when new:
   {bus, switch, sxid, count, action, fatal (-1 neither said, 0, 1), links, text}. */
static json_t *group_of(json_t *groups, json_t *order, const json_t *e)
{
    char key[96];
    snprintf(key, sizeof key, "%s|%lld", text_of(e, "bus_id"), int_of(e, "sxid", 0));
    json_t *g = json_object_get(groups, key);
    if (g)
        return g;
    g = json_pack("{s:s, s:s, s:I, s:i, s:i, s:i, s:[], s:s}", "bus", text_of(e, "bus_id"),
                  "switch", text_of(e, "switch"), "sxid", (json_int_t)int_of(e, "sxid", 0), "count",
                  0, "action", LS_ACT_NONE, "fatal", -1, "links", "text", text_of(e, "text"));
    json_object_set_new(groups, key, g);
    json_array_append(order, g);
    return g;
}

static void count_event(json_t *g, const json_t *e)
{
    json_object_set_new(g, "count", json_integer(int_of(g, "count", 0) + 1));
    enum ls_action a = ls_sxid_event_action(e); /* linkscope plan's rule sxid takes the same */
    if ((long long)a > int_of(g, "action", 0))
        json_object_set_new(g, "action", json_integer(a));
    const json_t *fatal = json_object_get(e, "fatal");
    if (fatal && int_of(g, "fatal", -1) != 1)
        json_object_set_new(g, "fatal", json_integer(json_is_true(fatal)));
    long long link = int_of(e, "link", -1);
    json_t *links = json_object_get(g, "links");
    size_t i;
    json_t *l;
    json_array_foreach(links, i, l) {
        if (json_integer_value(l) == link)
            return;
    }
    if (link >= 0 && json_array_size(links) < 8)
        json_array_append_new(links, json_integer(link));
}

/* " on link 24" / " on links 24, 25". */
static void links_text(const json_t *g, char *out, size_t len)
{
    const json_t *links = json_object_get(g, "links");
    size_t i, used = 0;
    json_t *l;
    out[0] = '\0';
    json_array_foreach(links, i, l) {
        int n = snprintf(out + used, len - used, "%s%lld",
                         i                            ? ", "
                         : json_array_size(links) > 1 ? " on links "
                                                      : " on link ",
                         (long long)json_integer_value(l));
        if (n < 0 || (size_t)n >= len - used)
            return;
        used += (size_t)n;
    }
}

static void sxid_finding(const json_t *g, json_t *findings)
{
    int sxid = (int)int_of(g, "sxid", 0);
    long long n = int_of(g, "count", 1), fatal = int_of(g, "fatal", -1);
    const char *meaning, *bus = text_of(g, "bus");
    enum ls_sxid_severity cat;
    enum ls_action ca;
    if (ls_sxid_lookup(sxid, &meaning, &cat, &ca) != 0)
        meaning = "(not in the catalog)";
    size_t bl = strlen(bus); /* "0000:c5:00.0" of the document's "00000000:c5:00.0" */
    char links[96];
    links_text(g, links, sizeof links);
    ls_health_add(findings, "sxid", -1, (enum ls_action)int_of(g, "action", LS_ACT_WATCH),
                  "NVSwitch %s (%s) SXid %d %s: %s, %lld time%s%s", bl > 12 ? bus + bl - 12 : bus,
                  text_of(g, "switch"), sxid, meaning,
                  fatal == 1   ? "fatal"
                  : fatal == 0 ? "non-fatal"
                               : "severity not in the line",
                  n, n == 1 ? "" : "s", links);
}

void ls_health_rule_sxid(const json_t *state, json_t *findings)
{
    const char *log = json_string_value(json_object_get(state, "kernel_log"));
    if (!log)
        return; /* the kernel_log finding says it cannot be read */
    json_t *events = json_array(), *groups = json_object(), *order = json_array();
    ls_sxid_scan(log, events);
    size_t i;
    json_t *e;
    json_array_foreach(events, i, e) {
        count_event(group_of(groups, order, e), e);
    }
    json_array_foreach(order, i, e) {
        sxid_finding(e, findings);
    }
    json_decref(order);
    json_decref(groups);
    json_decref(events);
}
