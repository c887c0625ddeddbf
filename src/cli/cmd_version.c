#include "commands.h"
#include "model/doc.h"
#include "util/log.h"
#include "version.h"

#include <stdio.h>

const char usage_version[] = "usage: linkscope version   (or linkscope --version)\n"
                             "\nPrints the version, the git commit it was built from, and the\n"
                             "run-document schema it writes.\n";

int cmd_version(int argc, char **argv)
{
    (void)argv;
    if (argc > 1)
        return ls_usage_error("version", "takes no arguments");
    printf("linkscope %s (commit %s, schema %s)\n", LS_VERSION, LS_GIT_COMMIT, LS_SCHEMA);
    return LS_EXIT_OK;
}
