/* linkscope: measure and explain a GPU machine's interconnect. */
#include "commands.h"
#include "util/fileio.h"
#include "util/log.h"
#include "version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        ls_warn("CUDA_DEVICE_ORDER=%s ignored: linkscope numbers GPUs in PCI bus order, as "
                "nvidia-smi",
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
        fprintf(stderr, "linkscope: '%s' is not a linkscope command (see 'linkscope help')\n",
                name);
        return LS_EXIT_USAGE;
    }
    if (wants_help(argc - 1, argv + 1)) {
        ls_command_usage(cmd, stdout);
        return LS_EXIT_OK;
    }
    /* the prologue every command shares, by the command table's flags: the outputs
       checked, the written document checked, an --into DOC read and locked, a GPU where
       the command measures, before any work (prologue.c) */
    int rc = ls_command_prologue(cmd, argc - 1, argv + 1);
    if (rc == 0)
        rc = cmd->fn(argc - 1, argv + 1);
    ls_into_end();
    return rc;
}
