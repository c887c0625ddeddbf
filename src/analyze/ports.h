/* The per-port sweep (`linkscope nccl COLL --each-hca`, docs/nccl.md "Per-port sweep"):
   which NCCL_IB_HCA settings to run from the document's NICs, the busbw each setting
   reached beside its ports' line rate, and the findings seed 002 calls for: a port far
   below its rate, a port slower than a slower-rated one, all ports together slower
   than one alone. */
#ifndef LS_ANALYZE_PORTS_H
#define LS_ANALYZE_PORTS_H

#include <jansson.h>

#define LS_PORT_FAR_BELOW 0.5 /* busbw below half the port's line rate (in GB/s) */
#define LS_PORT_SLOWER 0.95   /* a faster-rated port, or all ports, under 95% of another */

/* [{setting: "NCCL_IB_HCA==mlx5_0:1", hcas: ["mlx5_0:1"], rate_gbps}] for each ACTIVE
   port of nics[] (rate > 0), then, with two or more, one setting with all of them (rate:
   their sum). Empty when there is no active port. */
json_t *ls_port_sweep_plan(const json_t *nics);

/* Per collective, each per-port entry of doc (variant NCCL_IB_HCA=...) with its ports'
   line rate: [{collective, setting, hcas, ports, rate_gbps, ceiling_gbs, busbw,
   fraction}]; ceiling_gbs = rate_gbps / 8 (unknown rate: 0, fraction null). */
json_t *ls_port_sweep_rows(const json_t *doc);

/* Appends the findings of the per-port entries of doc to out (analyze.h's shape). */
void ls_port_sweep_findings(const json_t *doc, json_t *out);

#endif
