#include "commands.h"
#include "util/log.h"

#include <stdio.h>
#include <string.h>

static const ls_opt_t options[] = {{.kind = LS_OPT_END}};

const ls_cmd_opts_t opts_help = {
    .head = "usage: linkscope help [COMMAND]\n"
            "       linkscope help --completion\n"
            "\n"
            "Lists the commands, or prints one command's help (same as COMMAND --help).\n"
            "--completion writes the bash completion, made from every command's options.\n",
    .opts = options,
};

int cmd_help(int argc, char **argv)
{
    char *pos[argc];
    int npos;
    if (argc > 1 && !strcmp(argv[1], "--completion")) /* packaging/gen-docs.sh */
        return ls_help_completion(argc - 1, argv + 1);
    if (ls_opt_parse("help", &opts_help, argc, argv, NULL, pos, &npos))
        return LS_EXIT_USAGE;
    if (npos > 1)
        return ls_usage_error("help", "expected at most one command name");
    if (npos == 1) {
        const ls_command_t *cmd = ls_find_command(pos[0]);
        if (!cmd) {
            fprintf(stderr, "linkscope: '%s' is not a linkscope command (see 'linkscope help')\n",
                    pos[0]);
            return LS_EXIT_USAGE;
        }
        ls_command_usage(cmd, stdout);
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
