#include "commands.h"
#include "util/log.h"

#include <stdio.h>

const char usage_help[] =
    "usage: linkscope help [COMMAND]\n"
    "\n"
    "Lists the commands, or prints one command's help (same as COMMAND --help).\n";

int cmd_help(int argc, char **argv)
{
    if (argc > 2)
        return ls_usage_error("help", "expected at most one command name");
    if (argc == 2) {
        const ls_command_t *cmd = ls_find_command(argv[1]);
        if (!cmd) {
            fprintf(stderr, "linkscope: '%s' is not a linkscope command (see 'linkscope help')\n",
                    argv[1]);
            return LS_EXIT_USAGE;
        }
        fputs(cmd->usage, stdout);
        return LS_EXIT_OK;
    }
    int n;
    const ls_command_t *cmds = ls_commands(&n);
    printf("usage: linkscope COMMAND [OPTIONS]   (linkscope COMMAND --help: its options)\n\n"
           "Measures and explains a GPU machine's interconnect; every figure goes into one\n"
           "JSON run document (schema linkscope.run/1).\n\ncommands:\n");
    for (int i = 0; i < n; i++)
        printf("  %-10s %s\n", cmds[i].name, cmds[i].summary);
    printf("\nexit codes: 0 ok, 1 check failed, 2 usage or input error, 3 no usable GPU or\n"
           "driver\n"
           "GPU numbers follow PCI bus order (CUDA_DEVICE_ORDER=PCI_BUS_ID), as nvidia-smi.\n");
    return LS_EXIT_OK;
}
