/* linkscope: measure and explain a GPU machine's interconnect. */
#include "commands.h"
#include "measure_usage.h"
#include "util/fileio.h"
#include "measure/family.h"
#include "util/log.h"
#include "version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ls_command_t head[] = {
    {.name = "run",
     .fn = cmd_run,
     .summary = "measure this machine end to end; write the run document and report",
     .opts = &opts_run},
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
     .summary = "sustained load: throughput, clocks, power, temperature, throttling",
     .opts = &opts_burn},
    {.name = "nccl",
     .fn = cmd_nccl,
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
     .summary = "other tools' saved outputs into a run document (import --help)",
     .opts = &opts_import},
    {.name = "fleet",
     .fn = cmd_fleet,
     .summary = "many nodes' run documents: models, medians, the outlier nodes",
     .opts = &opts_fleet},
    {.name = "health",
     .fn = cmd_health,
     .summary = "node state for a scheduler: XIDs, remaps, links down, with actions",
     .opts = &opts_health},
    {.name = "tp",
     .fn = cmd_tp,
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
                                        .opts = &opts_measure};
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

static int wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return 0;
        if (strcmp(argv[i], "--help") == 0)
            return 1;
    }
    return 0;
}

static int run_command(int argc, char **argv);

/* Every byte meant for stdout reached it, or exit 2: a full disk or /dev/full must not
   pass for a report written. */
int main(int argc, char **argv)
{
    int rc = run_command(argc, argv);
    if (ls_stdout_close() != 0)
        return LS_EXIT_USAGE;
    return rc;
}

static int run_command(int argc, char **argv)
{
    /* CUDA numbers GPUs in PCI bus order, the same numbers nvidia-smi shows and the run
       document uses: forced, since FASTEST_FIRST would make CUDA's numbers disagree with
       NVML's and the topology's. */
    const char *order = getenv("CUDA_DEVICE_ORDER");
    if (order && strcmp(order, "PCI_BUS_ID") != 0)
        ls_warn("CUDA_DEVICE_ORDER=%s ignored: linkscope numbers GPUs in PCI bus order, as nvidia-smi",
                order);
    setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
    if (argc < 2) { /* no command is a usage error: the list of commands, exit 2 */
        cmd_help(1, (char *[]){"help", NULL});
        return 2;
    }
    const char *name = argv[1];
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0)
        name = "version";
    else if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
        name = "help";
    const ls_command_t *cmd = ls_find_command(name);
    if (!cmd) {
        fprintf(stderr, "linkscope: '%s' is not a linkscope command (see 'linkscope help')\n", name);
        return LS_EXIT_USAGE;
    }
    if (wants_help(argc - 1, argv + 1)) {
        ls_command_usage(cmd, stdout);
        return LS_EXIT_OK;
    }
    return cmd->fn(argc - 1, argv + 1);
}
