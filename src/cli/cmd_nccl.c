/* Placeholder until the issue that builds 'linkscope nccl' lands. */
#include "commands.h"
#include "util/log.h"

const char usage_nccl[] = "usage: linkscope nccl\n\nNot built yet.\n";

int cmd_nccl(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ls_error("'nccl' is not built yet");
    return LS_EXIT_USAGE;
}
