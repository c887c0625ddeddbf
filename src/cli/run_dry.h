/* linkscope run --dry-run: the plan of a run without running it (docs/run.md). */
#ifndef LS_CLI_RUN_DRY_H
#define LS_CLI_RUN_DRY_H

typedef struct {
    const char *from; /* nvidia-smi topo -m text or a run document; NULL: this machine */
    int thorough;
    double budget_s;
    const int *gpus; /* --gpus: the GPUs of the run (indices of the machine), ngpus 0: all */
    int ngpus;
    int no_nccl;
} ls_dry_opts_t;

/* Prints the steps, the pair rounds, the projected seconds of each step and what the
   budget would cut, for the machine of o->from or, from NULL, this machine's discovered
   topology; ends with the line "projected: N s, rounds R, cut: ...". Returns an exit
   code: LS_EXIT_BUDGET, after one line on stderr saying what cannot fit, when even cut
   down the run does not fit the budget (as the run itself would). */
int ls_run_dry(const ls_dry_opts_t *o);

#endif
