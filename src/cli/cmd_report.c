/* Placeholder until the issue that builds 'linkscope report' lands. */
#include "commands.h"
#include "util/log.h"

const char usage_report[] = "usage: linkscope report\n\nNot built yet.\n";

int cmd_report(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ls_error("'report' is not built yet");
    return LS_EXIT_USAGE;
}
