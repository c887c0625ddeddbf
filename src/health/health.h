/* linkscope health: the node state a scheduler acts on (docs/health.md). The state is one
   JSON object, made from the live node or read from a recorded snapshot folder, so every
   rule runs the same way on both:
     {"driver": {"ok": bool, "error"?: text},
      "gpus_on_pci": N (NVIDIA GPUs sysfs shows), "gpus": [GPU objects, docs/health.md],
      "kernel_log": text or null (unreadable), "root": sysfs root ("" live),
      "nvswitches": N (NVSwitches sysfs shows, null: unreadable),
      "fabric_manager"?: {"running": true|false|null (unknown), "pid"?, "why"?}}
   The rules turn it into findings, each with an action class. */
#ifndef LS_HEALTH_HEALTH_H
#define LS_HEALTH_HEALTH_H

#include "model/xid.h" /* the action classes, the XID catalog and its scanner */

#include <jansson.h>
#include <stddef.h>

/* Appends one health finding {rule, message, action, gpu?} to out (gpu < 0: the node's).
   The state rules and the probe's judgement both build theirs here. */
void ls_health_add(json_t *out, const char *rule, int gpu, enum ls_action a, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* The recorded state in folder dir (nvml.json, kernel.log, sys/...). NULL with err when
   the folder or its nvml.json is unreadable or malformed. */
json_t *ls_health_load(const char *dir, char *err, size_t errlen);

/* The live node's state; window_s: the NVLink error counters' window. */
json_t *ls_health_live(double window_s);

/* Adds root, gpus_on_pci, nvswitches and kernel_log (NULL: unreadable) to a state. */
void ls_health_add_host(json_t *state, const char *root, const char *kernel_log);

/* Whether Fabric Manager runs, from the process list under root ("" live: /proc):
   {"running": true, "pid"}, {"running": false}, or {"running": null, "why"} where the list
   cannot show it (unreadable, hidden by hidepid, another PID namespace). */
json_t *ls_health_fm_process(const char *root);

/* The NVSwitch fabric's rules (health/rules_fabric.c): fabric_manager (Fabric Manager not
   running beside NVSwitches: isolate) and sxid (the kernel log's SXid events, one finding
   per switch and SXid, the action linkscope plan's rule sxid gives). */
void ls_health_rule_fabric_manager(const json_t *state, json_t *findings);
void ls_health_rule_sxid(const json_t *state, json_t *findings);

/* Findings of a state: [{rule, gpu?, message, action}] in the order the rules run. */
json_t *ls_health_rules(const json_t *state);

/* The short probe's findings (docs/health.md, "The probe") from its record
   {gpus, steps, figures, running?} (pipeline/probe.h, ls_probe_snapshot; "running": the
   step the budget cut off): copies failed or wrong (probe_copy, isolate), copy-engine
   pairs below their ceiling's floor (probe_p2p: watch; below half of it isolate), HBM
   below it (probe_hbm, watch), all_reduce with #wrong > 0 (probe_all_reduce, isolate;
   one that errors, watch), a step that failed before it had a figure (probe_gpus when
   CUDA finds no GPU; watch), a step cut off at the budget (probe_budget, watch). */
json_t *ls_health_probe_findings(const json_t *probe);

/* The strongest action among findings (LS_ACT_NONE when there are none). */
enum ls_action ls_health_worst(const json_t *findings);

#endif
