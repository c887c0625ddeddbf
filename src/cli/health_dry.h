/* linkscope health --dry-run: what the health check costs on a machine, by the cost
   table of run --dry-run (docs/health.md, "Budget"). */
#ifndef LS_CLI_HEALTH_DRY_H
#define LS_CLI_HEALTH_DRY_H

/* The scheduler's health check limit the projection is held to: LBNL NHC's watchdog
   (Slurm kills HealthCheckProgram after 60 s). */
#define LS_HEALTH_SCHEDULER_S 30.0

/* Prints the steps with their projected seconds and ends with "projected: N s for G
   GPUs ...", for the machine of from: a recorded state folder (its GPUs: NVLink among
   all of them when they show active links, else PCIe), a topology file (`nvidia-smi
   topo -m` text or a run document), or NULL for this machine's discovered topology;
   no_probe: the state checks' steps alone (health --no-probe). Returns an exit code. */
int ls_health_dry(const char *from, double window_s, double budget_s, int no_probe);

#endif
