/* linkscope nccl's options: nccl-tests' flags in both spellings (they also travel to
   each --variant child as given) and linkscope's own. */
#ifndef LS_CLI_NCCL_ARGS_H
#define LS_CLI_NCCL_ARGS_H

#include "model/topo.h"
#include "nccl/sweep.h"
#include "nccl/variants.h"

#define MAX_VARIANTS LS_NCCL_MAX_VARIANTS

typedef struct {
    ls_nccl_sweep_opts_t sweep;
    const char *colls[8];
    int ncolls;
    int gpus[LS_MAX_GPUS];
    const char *variants[MAX_VARIANTS];
    int nvariants;
    const json_t *hca_plan; /* --each-hca: the settings (nccl_ports.c keeps them) */
    const char *output, *into, *child_out;
    int json, selftest, ngpus_flag;
    char *raw[64]; /* the sweep's flags, re-issued to variant children */
    int nraw;
} opts_t;

/* Parses argv (argv[0] = "nccl") into o (zeroed by the caller): 0, or LS_EXIT_USAGE
   after one line. */
int ls_nccl_parse_args(int argc, char **argv, opts_t *o);

#endif
