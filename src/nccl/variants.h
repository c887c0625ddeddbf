/* The variants orchestration of `linkscope nccl --variant K=V ...`: the same sweep once
   per setting (the default first), each in its own child process (variant.h), the
   entries of each collective side by side. Also the pieces the command shares with
   it: the skipped entry and the environment as the user set it. */
#ifndef LS_NCCL_VARIANTS_H
#define LS_NCCL_VARIANTS_H

#include <jansson.h>
#include <stdio.h>

#include "sweep.h"

#define LS_NCCL_MAX_VARIANTS 16

/* How the entries are shown as they come: the command passes render's printers
   (render/nccl_tables.h), as nccl may not call render. NULL: not shown. */
typedef struct {
    FILE *out;
    void (*table)(FILE *out, const json_t *entry);              /* one collective */
    void (*variants)(FILE *out, json_t *const *entries, int n); /* its settings side by side */
} ls_nccl_show_t;

typedef struct {
    const char *const *colls; /* the collectives, in order (at most 8) */
    int ncolls;
    char *const *raw; /* the sweep's flags as given, re-issued to each child */
    int nraw;
    const char *const *settings; /* "K=V" each (at most LS_NCCL_MAX_VARIANTS) */
    int nsettings;
    double timeout_s; /* the sweep's watchdog, per collective */
} ls_nccl_variants_t;

/* Runs every setting, annotates and adds each entry to doc, shows the side-by-side
   table of each collective through show (NULL: none). Exit code: 0, LS_EXIT_CHECK when a
   child failed, LS_EXIT_NOGPU when one had no GPU, LS_EXIT_USAGE when none could run. */
int ls_nccl_run_variants(const ls_nccl_variants_t *v, json_t *doc, const ls_nccl_show_t *show);

/* Each collective swept here, in order, with s (its collective field set for each);
   the writer (rank 0, or the only process) annotates each entry, shows its table through
   show (NULL: none) and adds it to doc. Exit code: 0; LS_EXIT_CHECK when one failed or
   gave wrong results; LS_EXIT_NOGPU or LS_EXIT_USAGE when a sweep could not start. */
int ls_nccl_run_collectives(ls_nccl_sweep_opts_t *s, const char *const *colls, int ncolls,
                            json_t *doc, int writer, const ls_nccl_show_t *show);

/* A "skipped" entry for a collective and setting (NULL: default) that did not run. */
json_t *ls_nccl_skipped_entry(const char *coll, const char *variant, const char *why);

/* Every NCCL_* and CUDA_* variable of the environment, as an object. */
json_t *ls_nccl_env_snapshot(void);

/* `linkscope nccl --mpi-selftest`: broadcast and gather across the ranks, printed by rank
   0; the exit code. */
int ls_nccl_mpi_selftest(void);

#endif
