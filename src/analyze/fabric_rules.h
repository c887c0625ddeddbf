/* Findings of the NVSwitch fabric's texts (rules_fabric.c, docs/analysis.md "The NVSwitch
   fabric"): fabric_manager (Fabric Manager not installed, not running, failed, at a version
   other than the driver's, found no NVSwitch), sxid (NVSwitch errors from a kernel log's
   SXid lines or Fabric Manager's log, one per host, switch and SXid), fabric_not_ready
   (nvidia-smi -q's Fabric State not Completed, Status not Success: the GPU not registered),
   fabric_health (a registered GPU whose Fabric Health Summary is Unhealthy or bandwidth
   Degraded).
   Each carries "node_action" (none, watch, reset, reboot, isolate: model/xid.h). */
#ifndef LS_ANALYZE_FABRIC_RULES_H
#define LS_ANALYZE_FABRIC_RULES_H

#include <jansson.h>

void ls_rules_fabric(const json_t *doc, json_t *out);

#endif
