/* Placeholder until the issue that builds 'linkscope import' lands. */
#include "commands.h"
#include "util/log.h"

const char usage_import[] = "usage: linkscope import\n\nNot built yet.\n";

int cmd_import(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ls_error("'import' is not built yet");
    return LS_EXIT_USAGE;
}
