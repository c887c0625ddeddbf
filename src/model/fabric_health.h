/* The NVLink fabric's per-GPU health (NVML's nvmlGpuFabricInfo_v2/v3 health mask and
   summary, drivers from 550/570): decoded into the fields nvidia-smi -q prints under
   Fabric > Health, and one judgment of them read by linkscope plan's rule fabric_health
   (analyze/rules_fabric.c, on an imported -q) and linkscope health's rule fabric (live
   NVML or a recorded state, health/rules.c), so both agree. */
#ifndef LS_MODEL_FABRIC_HEALTH_H
#define LS_MODEL_FABRIC_HEALTH_H

#include <jansson.h>

/* summary_known: the struct had a healthSummary (v3). Returns the object of -q's Health
   block in the run document's keys (docs/schema.md, gpus[].fabric.health): summary
   ("Healthy", "Unhealthy", "Limited Capacity"), bandwidth ("Full", "Degraded"),
   route_recovery_in_progress, route_unhealthy, access_timeout_recovery ("True",
   "False"), incorrect_configuration ("None", "Incorrect SysGuid", ...); a field NVML marks
   not supported is left out. NULL when none is supported (a GPU off any fabric). */
json_t *ls_fabric_health_decode(unsigned mask, int summary_known, unsigned summary);

/* 1 when health (a Health block, imported or decoded) says the fabric is at fault on
   this GPU's NVLink paths: Summary Unhealthy or Limited Capacity, or a Degraded
   bandwidth. */
int ls_fabric_health_flagged(const json_t *health);

#endif
