/* The command table (git's model): one row per command, with what it is and how its
   options read (optparse.h); the measuring commands, one per family, between them. */
#include "commands.h"
#include "measure_usage.h"
#include "measure/family.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ls_command_t head[] = {
    {.name = "run",
     .fn = cmd_run,
     .summary = "measure this machine end to end; write the run document and report",
     .opts = &opts_run,
     .flags = LS_CMD_WRITES | LS_CMD_GPU},
    /* inventory and topo: no LS_CMD_GPU, they read the machine (NVML, sysfs, or a saved
       --from / --sysfs-root that needs none) without measuring, and say so themselves
       where they find no GPU */
    {.name = "inventory",
     .fn = cmd_inventory,
     .summary = "GPUs, clocks, memory, PCIe, NVLink, power (NVML, CUDA)",
     .opts = &opts_inventory},
    {.name = "topo",
     .fn = cmd_topo,
     .summary = "link type per GPU and NIC pair, as nvidia-smi topo -m",
     .opts = &opts_topo},
};
/* Between them, one command per measurement family (measure/family.h). */
static const ls_command_t tail[] = {
    {.name = "burn",
     .fn = cmd_burn,
     .flags = LS_CMD_INTO | LS_CMD_WRITES | LS_CMD_GPU,
     .summary = "sustained load: throughput, clocks, power, temperature, throttling",
     .opts = &opts_burn},
    /* no LS_CMD_INTO: under MPI only rank 0 opens and locks --into (ls_into_take, at
       the point it knows its rank), the other ranks never touch it. No LS_CMD_GPU:
       without NCCL or a GPU it still writes its document, each collective recorded
       skipped with the reason (docs/nccl.md), and a --variant's children check their
       own GPUs; it says why in one line and exits 3 itself. */
    {.name = "nccl",
     .fn = cmd_nccl,
     .flags = LS_CMD_WRITES,
     .summary = "NCCL collectives with validation, transports and variants",
     .opts = &opts_nccl},
    {.name = "report",
     .fn = cmd_report,
     .summary = "render a run document in any report format (report --help)",
     .opts = &opts_report},
    {.name = "plan",
     .fn = cmd_plan,
     .summary = "findings, islands and the GPU groups to use",
     .opts = &opts_plan},
    {.name = "compare",
     .fn = cmd_compare,
     .summary = "two run documents side by side with ratios",
     .opts = &opts_compare},
    {.name = "check",
     .fn = cmd_check,
     .summary = "check a run document against a baseline (exit 1 on violation)",
     .opts = &opts_check},
    {.name = "baseline",
     .fn = cmd_baseline,
     .summary = "make a baseline file from a good run",
     .opts = &opts_baseline},
    {.name = "import",
     .fn = cmd_import,
     .flags = LS_CMD_INTO | LS_CMD_WRITES,
     .summary = "other tools' saved outputs into a run document (import --help)",
     .opts = &opts_import},
    {.name = "fleet",
     .fn = cmd_fleet,
     .summary = "many nodes' run documents: models, medians, the outlier nodes",
     .opts = &opts_fleet},
    /* no LS_CMD_GPU: a node without GPUs has nothing to check (exit 0), a driver that
       does not answer is one of its findings, and its probe is skipped, and said so,
       where it cannot measure (docs/health.md) */
    {.name = "health",
     .fn = cmd_health,
     .summary = "node state for a scheduler: XIDs, remaps, links down, with actions",
     .opts = &opts_health},
    /* LS_CMD_GPU with --measure only (opts_tp.measures) */
    {.name = "tp",
     .fn = cmd_tp,
     .flags = LS_CMD_INTO | LS_CMD_WRITES | LS_CMD_GPU,
     .summary = "tensor-parallel communication time estimate",
     .opts = &opts_tp},
    {.name = "help",
     .fn = cmd_help,
     .summary = "list the commands, or show one command's help",
     .opts = &opts_help},
    {.name = "version",
     .fn = cmd_version,
     .summary = "print the version and git commit",
     .opts = &opts_version},
};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

const ls_command_t *ls_commands(int *count)
{
    static ls_command_t table[COUNT(head) + COUNT(tail) + LS_MEASURE_MAX_FAMILIES];
    static int n;
    if (!n) {
        int nf;
        const ls_family_t *fams = ls_families(&nf);
        for (int i = 0; i < COUNT(head); i++)
            table[n++] = head[i];
        for (int i = 0; i < nf && i < LS_MEASURE_MAX_FAMILIES; i++)
            table[n++] = (ls_command_t){.name = fams[i].name,
                                        .fn = cmd_measure,
                                        .summary = fams[i].summary,
                                        .opts = &opts_measure,
                                        .flags = LS_CMD_INTO | LS_CMD_WRITES | LS_CMD_GPU};
        for (int i = 0; i < COUNT(tail); i++)
            table[n++] = tail[i];
    }
    *count = n;
    return table;
}

const ls_command_t *ls_find_command(const char *name)
{
    int n;
    const ls_command_t *cmds = ls_commands(&n);
    for (int i = 0; i < n; i++)
        if (strcmp(cmds[i].name, name) == 0)
            return &cmds[i];
    return NULL;
}

void ls_command_usage(const ls_command_t *cmd, FILE *f)
{
    ls_buf_t b = {0};
    ls_opt_usage(&b, cmd->name, cmd->opts);
    char *text = ls_buf_take(&b);
    fputs(text ? text : "", f);
    free(text);
}
