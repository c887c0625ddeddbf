/* Placeholder until the issue that builds 'linkscope inventory' lands. */
#include "commands.h"
#include "util/log.h"

const char usage_inventory[] = "usage: linkscope inventory\n\nNot built yet.\n";

int cmd_inventory(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ls_error("'inventory' is not built yet");
    return LS_EXIT_USAGE;
}
