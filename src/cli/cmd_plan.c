/* Placeholder until the issue that builds 'linkscope plan' lands. */
#include "commands.h"
#include "util/log.h"

const char usage_plan[] = "usage: linkscope plan\n\nNot built yet.\n";

int cmd_plan(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ls_error("'plan' is not built yet");
    return LS_EXIT_USAGE;
}
