/* Placeholder until the issue that builds 'linkscope p2p' lands. */
#include "commands.h"
#include "util/log.h"

const char usage_p2p[] = "usage: linkscope p2p\n\nNot built yet.\n";

int cmd_p2p(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ls_error("'p2p' is not built yet");
    return LS_EXIT_USAGE;
}
