/* linkscope run --dry-run: the plan of a run without running it (docs/run.md). */
#ifndef LS_CLI_RUN_DRY_H
#define LS_CLI_RUN_DRY_H

/* Prints the steps, the pair rounds, the projected seconds of each step and what the
   budget would cut, for the machine of FROM (nvidia-smi topo -m text or a run
   document) or, from NULL, this machine's discovered topology; ends with the line
   "projected: N s, rounds R, cut: ...". Returns an exit code. */
int ls_run_dry(const char *from, int thorough, double budget_s);

#endif
