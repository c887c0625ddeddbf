/* Placeholder until the issue that builds 'linkscope compare' lands. */
#include "commands.h"
#include "util/log.h"

const char usage_compare[] = "usage: linkscope compare\n\nNot built yet.\n";

int cmd_compare(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ls_error("'compare' is not built yet");
    return LS_EXIT_USAGE;
}
