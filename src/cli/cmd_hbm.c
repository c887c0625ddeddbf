/* Placeholder until the issue that builds 'linkscope hbm' lands. */
#include "commands.h"
#include "util/log.h"

const char usage_hbm[] = "usage: linkscope hbm\n\nNot built yet.\n";

int cmd_hbm(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ls_error("'hbm' is not built yet");
    return LS_EXIT_USAGE;
}
