/* Placeholder until the issue that builds 'linkscope host' lands. */
#include "commands.h"
#include "util/log.h"

const char usage_host[] = "usage: linkscope host\n\nNot built yet.\n";

int cmd_host(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ls_error("'host' is not built yet");
    return LS_EXIT_USAGE;
}
