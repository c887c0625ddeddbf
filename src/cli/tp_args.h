/* linkscope tp's options (tp_args.c): the model, the requests, and the sources in the
   order given (--gpus, --variant and --name belong to the source before them). */
#ifndef LS_CLI_TP_ARGS_H
#define LS_CLI_TP_ARGS_H

#include <stdint.h>

#include "analyze/tp.h"
#include "analyze/tp_sources.h"
#include "optparse.h"

#define MAX_SOURCES 8
#define MAX_LIST 32
#define MAX_GPUS LS_TP_MAX_GPUS

typedef ls_tp_run_t run_arg_t;

typedef struct {
    const ls_tp_preset_t *preset;
    long hidden, layers, bytes, tp, output;
    uint64_t prompts[MAX_LIST], batches[MAX_LIST];
    int nprompts, nbatches;
    double decode_compute_ms[MAX_LIST];
    int ndecode_compute;
    double prefill_compute_ms[MAX_LIST];
    int nprefill_compute;
    run_arg_t runs[MAX_SOURCES];
    int nruns;
    const char *links[MAX_SOURCES], *link_names[MAX_SOURCES];
    int nlinks;
    int last_source; /* 'r' --run, 'l' --link, 'm' --measure, 0 none yet */
    const char *measure_name;
    int measure, measure_gpus[MAX_GPUS], nmeasure_gpus;
    int json;
    const char *out_path, *into_path;
    int gpus_of; /* what --gpus and --variant belong to: 1 --run, 0 --measure, -1 none yet */
} tp_args_t;

/* tp's options and usage (tp_args.c). */
extern const ls_cmd_opts_t opts_tp;

/* Parses argv (argv[0] = "tp") into a (its defaults set, then checked with
   ls_tp_check_args): 0, or LS_EXIT_USAGE after one line. */
int ls_tp_parse_args(int argc, char **argv, tp_args_t *a);

/* Completes a from its preset (and one batch of 1 by default) and checks what the
   options say together: 0, or LS_EXIT_USAGE after one line. */
int ls_tp_check_args(tp_args_t *a);

#endif
