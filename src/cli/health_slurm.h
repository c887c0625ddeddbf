/* linkscope health under Slurm: the one-line reason Slurm shows, and the drain / resume
   of this node through scontrol (docs/health.md "Slurm"). */
#ifndef LS_CLI_HEALTH_SLURM_H
#define LS_CLI_HEALTH_SLURM_H

#include <jansson.h>
#include <stddef.h>

#define LS_SLURM_REASON_PREFIX "linkscope:"

/* "linkscope: GPU3 NVLink 2 of 18 down (isolate)", "+N more" when several fail; failing:
   the findings that fail, strongest first. */
void ls_slurm_reason(const json_t *failing, char *out, size_t outlen);

/* Drains node with reason (failed 1), or resumes it (failed 0) when linkscope drained
   it. scontrol is $LINKSCOPE_SCONTROL or "scontrol". Prints what it did on stderr.
   0, or -1 when scontrol failed. */
int ls_slurm_drain(const char *node, int failed, const char *reason);

/* This node's Slurm name: $SLURMD_NODENAME, else the short host name. */
void ls_slurm_node_name(char *out, size_t outlen);

#endif
