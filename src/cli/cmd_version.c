#include "commands.h"
#include "model/doc.h"
#include "util/log.h"
#include "version.h"

#include <stdio.h>

static const ls_opt_t options[] = {{.kind = LS_OPT_END}};

const ls_cmd_opts_t opts_version = {
    .head = "usage: linkscope version   (or linkscope --version)\n"
            "\nPrints the version, the git commit it was built from, and the\n"
            "run-document schema it writes.\n",
    .opts = options,
};

int cmd_version(int argc, char **argv)
{
    if (ls_opt_parse("version", &opts_version, argc, argv, NULL, NULL, NULL))
        return LS_EXIT_USAGE;
    printf("linkscope %s (commit %s, schema %s)\n", LS_VERSION, LS_GIT_COMMIT, LS_SCHEMA);
    return LS_EXIT_OK;
}
