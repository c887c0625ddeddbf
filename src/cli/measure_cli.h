/* What the measuring commands (p2p, latency, hbm, host) share: their options, the
   checks of those options against the machine, the run document they add to, and
   the order of work. Each cmd_*.c only describes its family. */
#ifndef LS_CLI_MEASURE_CLI_H
#define LS_CLI_MEASURE_CLI_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "measure/measure.h"

typedef struct {
    const char *name;      /* command and family name */
    int needs_pairs;       /* 1: P2P figures need two GPUs */
    int buffers_per_gpu;   /* device buffers of --size bytes each GPU holds at once */
    uint64_t default_size; /* 0 when --size does not apply */
    int (*measure)(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen);
    void (*print)(FILE *f, const json_t *doc, int color);
    int (*csv)(const json_t *doc, const char *dir, char *err, size_t errlen);
    int host_buffers;      /* host buffers of --size bytes held at once (host: 2) */
} ls_family_cmd_t;

/* Parsed options (exposed for the tests). */
typedef struct {
    const char *out, *into, *csv_dir;
    int gpus[LS_MAX_GPUS];
    int ngpus;            /* 0: all GPUs */
    long samples;         /* 0: default */
    uint64_t size;        /* 0: default */
} ls_measure_args_t;

/* Parses argv (argv[0] = command name). 0, or LS_EXIT_USAGE after one line. */
int ls_measure_parse(const char *cmd, int argc, char **argv, ls_measure_args_t *a);

/* Runs a measuring command end to end; returns the exit code. */
int ls_measure_command(const ls_family_cmd_t *fam, int argc, char **argv);

/* The options every measuring command takes, for its usage text. */
#define LS_MEASURE_OPTIONS_HELP                                                                   \
    "  -o FILE        write a new run document (discovery first, so the GPUs are recorded);\n" \
    "                 - writes it to stdout, without the tables\n"                               \
    "  --into FILE    add the entries to an existing run document (validated first)\n"         \
    "  --gpus LIST    GPUs to measure, e.g. 0,1 or 0-3 (nvidia-smi / PCI bus order); default all\n" \
    "  --samples N    timed samples per figure, all kept (default 20; median reported)\n"       \
    "  --csv DIR      also write each table as CSV into DIR (created if missing)\n"

#endif
