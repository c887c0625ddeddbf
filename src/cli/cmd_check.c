/* Placeholder until the issue that builds 'linkscope check' lands. */
#include "commands.h"
#include "util/log.h"

const char usage_check[] = "usage: linkscope check\n\nNot built yet.\n";

int cmd_check(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ls_error("'check' is not built yet");
    return LS_EXIT_USAGE;
}
