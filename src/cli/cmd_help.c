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

/* The commands flagged LS_CMD_GPU, from the table: one line, wrapped at 80 columns. */
static void print_measuring(const ls_command_t *cmds, int n)
{
    int col = printf("need a GPU where they measure:");
    for (int i = 0, first = 1; i < n; i++) {
        if (!(cmds[i].flags & LS_CMD_GPU))
            continue;
        int len = (int)strlen(cmds[i].name) + 2;
        if (col + len > 79)
            col = printf(",\n ") - 2;
        else if (!first)
            col += printf(",");
        col += printf(" %s", cmds[i].name);
        first = 0;
    }
    printf("\n");
}

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
           "driver\n");
    print_measuring(cmds, n);
    printf("GPU numbers follow PCI bus order (CUDA_DEVICE_ORDER=PCI_BUS_ID), as nvidia-smi.\n");
    return LS_EXIT_OK;
}
