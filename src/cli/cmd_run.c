/* Placeholder until the issue that builds 'linkscope run' lands. */
#include "commands.h"
#include "util/log.h"

const char usage_run[] = "usage: linkscope run\n\nNot built yet.\n";

int cmd_run(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ls_error("'run' is not built yet");
    return LS_EXIT_USAGE;
}
