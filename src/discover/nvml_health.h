/* NVML's node-health facts for linkscope health (docs/health.md): row remapping, page
   retirement, PCIe replays, NVSwitch fabric state, other processes, NVLink error growth
   over a window. */
#ifndef LS_DISCOVER_NVML_HEALTH_H
#define LS_DISCOVER_NVML_HEALTH_H

#include <jansson.h>

/* {"driver": {"ok", "error"?}, "gpus": [...]} of the live node, the same shape as a
   recorded nvml.json. window_s: seconds between the two NVLink error readings. Never
   NULL: a driver that does not answer is {"driver": {"ok": false, "error": why}}. */
json_t *ls_nvml_health_snapshot(double window_s);

#endif
