/* Placeholder until the issue that builds 'linkscope tp' lands. */
#include "commands.h"
#include "util/log.h"

const char usage_tp[] = "usage: linkscope tp\n\nNot built yet.\n";

int cmd_tp(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ls_error("'tp' is not built yet");
    return LS_EXIT_USAGE;
}
