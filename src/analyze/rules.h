/* Findings rules, one group per file. Each group appends finding objects to a list. */
#ifndef LS_ANALYZE_RULES_H
#define LS_ANALYZE_RULES_H

#include "analyze.h"
#include "machine.h"

/* Thresholds (docs/analysis.md explains each). */
#define LS_DEGRADED_RATIO 0.75       /* pair below this fraction of its class median */
#define LS_DEGRADED_ERROR_RATIO 0.5  /* ... below this: an error */
#define LS_DEGRADED_MIN_PEERS 3      /* other pairs of the class needed to compare */
#define LS_ASYM_MIN_FRACTION 0.05    /* asymmetry smaller than this is never reported */
#define LS_ASYM_SPREAD_FACTOR 3.0    /* ... and it must exceed 3 x the summed stddev */
#define LS_HBM_OUTLIER_RATIO 0.85    /* efficiency below this fraction of the median */
#define LS_HBM_MIN_GPUS 3
#define LS_POWER_TOLERANCE 0.98      /* limit below 98% of the default */
#define LS_NUMA_MINORITY 0.5         /* node with fewer than half the GPUs of the largest */
#define LS_NCCL_VARIANT_GAIN 0.05    /* a P2P-level variant 5% faster makes it a warning */

/* Appends {rule, severity, subject, message, evidence}; evidence reference stolen
   (NULL = empty array). */
void ls_finding_add(json_t *list, const char *rule, enum ls_severity sev, const char *subject,
                    json_t *evidence, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Degraded pair in its link class, asymmetry, PCIe downtrained, NVLink inactive. */
void ls_rules_links(const ls_machine_t *m, json_t *out);
/* HBM efficiency outliers, power limit, throttling, ECC, NVLink error counters. */
void ls_rules_gpus(const ls_machine_t *m, json_t *out);
/* NUMA placement, NIC distance, P2P supported but not used by NCCL. */
void ls_rules_placement(const ls_machine_t *m, json_t *out);

/* P2P pairs slower measured together than alone (shared_path). */
void ls_rules_shared_path(const ls_machine_t *m, json_t *out);

/* Shared by rules and the planner: the NUMA node holding the most GPUs (-1 if none)
   and whether GPU g sits on a node with a minority of the GPUs. */
int ls_numa_majority(const ls_machine_t *m, int *count);
int ls_numa_minority(const ls_machine_t *m, int g);

/* The measurement entries (array) and entry i. */
const json_t *ls_measurement(const ls_machine_t *m, size_t i);

#endif
