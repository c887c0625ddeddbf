/* linkscope nccl --each-hca (docs/nccl.md "Per-port sweep"): the NCCL_IB_HCA variants of
   this machine's active RDMA ports, and the table and findings after the run. */
#ifndef LS_CLI_NCCL_PORTS_H
#define LS_CLI_NCCL_PORTS_H

#include <jansson.h>
#include <stdio.h>

/* The plan (analyze/ports.h) for the NICs under sysfs root ("" = this machine), made
   once and kept until the program ends (its "setting" strings are variants). Empty when
   no port is active. */
const json_t *ls_each_hca_plan(const char *root);

/* Per collective, busbw per port setting beside the ports' line rate, then the
   findings of the per-port entries. */
void ls_each_hca_print(FILE *out, const json_t *doc);

#endif
