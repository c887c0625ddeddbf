/* Findings of an imported kernel log's NVRM lines (import/kernel_log.c, kernel_logs[];
   rules_kernel.c, docs/analysis.md): xid, gpu_off_bus, driver_init_failed,
   driver_mismatch, gsp_timeout, reset_required, nvlink_discovery_failed. Each carries
   "node_action", the verdict a scheduler acts on (none, watch, reset, reboot, isolate:
   model/xid.h's action classes). */
#ifndef LS_ANALYZE_KERNEL_RULES_H
#define LS_ANALYZE_KERNEL_RULES_H

#include <jansson.h>

void ls_rules_kernel(const json_t *doc, json_t *out);

#endif
