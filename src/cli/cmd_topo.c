/* Placeholder until the issue that builds 'linkscope topo' lands. */
#include "commands.h"
#include "util/log.h"

const char usage_topo[] = "usage: linkscope topo\n\nNot built yet.\n";

int cmd_topo(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ls_error("'topo' is not built yet");
    return LS_EXIT_USAGE;
}
