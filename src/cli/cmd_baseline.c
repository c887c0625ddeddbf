/* Placeholder until the issue that builds 'linkscope baseline' lands. */
#include "commands.h"
#include "util/log.h"

const char usage_baseline[] = "usage: linkscope baseline\n\nNot built yet.\n";

int cmd_baseline(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ls_error("'baseline' is not built yet");
    return LS_EXIT_USAGE;
}
