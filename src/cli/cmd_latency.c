/* Placeholder until the issue that builds 'linkscope latency' lands. */
#include "commands.h"
#include "util/log.h"

const char usage_latency[] = "usage: linkscope latency\n\nNot built yet.\n";

int cmd_latency(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ls_error("'latency' is not built yet");
    return LS_EXIT_USAGE;
}
