/* linkscope: measure and explain a GPU machine's interconnect. */
#include "commands.h"
#include "util/fileio.h"
#include "measure/family.h"
#include "util/log.h"
#include "version.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ls_command_t head[] = {
    {"run", cmd_run, "measure this machine end to end; write the run document and report", usage_run},
    {"inventory", cmd_inventory, "GPUs, clocks, memory, PCIe, NVLink, power (NVML, CUDA)", usage_inventory},
    {"topo", cmd_topo, "link type per GPU and NIC pair, as nvidia-smi topo -m", usage_topo},
};
/* Between them, one command per measurement family (measure/family.h). */
static const ls_command_t tail[] = {
    {"burn", cmd_burn, "sustained load: throughput, clocks, power, temperature, throttling", usage_burn},
    {"nccl", cmd_nccl, "NCCL collectives with validation, transports and variants", usage_nccl},
    {"report", cmd_report, "render a run document: terminal, Markdown, HTML, CSV", usage_report},
    {"plan", cmd_plan, "findings, islands and the GPU groups to use", usage_plan},
    {"compare", cmd_compare, "two run documents side by side with ratios", usage_compare},
    {"check", cmd_check, "check a run document against a baseline (exit 1 on violation)", usage_check},
    {"baseline", cmd_baseline, "make a baseline file from a good run", usage_baseline},
    {"import", cmd_import, "nccl-tests, p2pBandwidthLatencyTest, topo -m into a run document", usage_import},
    {"fleet", cmd_fleet, "many nodes' run documents: models, medians, the outlier nodes", usage_fleet},
    {"health", cmd_health, "node state for a scheduler: XIDs, remaps, links down, with actions", usage_health},
    {"tp", cmd_tp, "tensor-parallel communication time estimate", usage_tp},
    {"help", cmd_help, "list the commands, or show one command's help", usage_help},
    {"version", cmd_version, "print the version and git commit", usage_version},
};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

const ls_command_t *ls_commands(int *count)
{
    static ls_command_t table[COUNT(head) + COUNT(tail) + 16];
    static int n;
    if (!n) {
        int nf;
        const ls_family_t *fams = ls_families(&nf);
        for (int i = 0; i < COUNT(head); i++)
            table[n++] = head[i];
        for (int i = 0; i < nf && i < 16; i++)
            table[n++] = (ls_command_t){fams[i].name, cmd_measure, fams[i].summary,
                                        ls_measure_usage(fams[i].name)};
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

int ls_usage_error(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "linkscope %s: ", command);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (see 'linkscope %s --help')\n", command);
    va_end(ap);
    return LS_EXIT_USAGE;
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
        fputs(cmd->usage, stdout);
        return LS_EXIT_OK;
    }
    return cmd->fn(argc - 1, argv + 1);
}
