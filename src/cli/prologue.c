/* The dispatcher's prologue (commands.h): what the command table's flags say of a
   command is checked here, the same way for every command, before the command runs:
   the files and folders its options write, the run document it writes (LS_CMD_WRITES),
   the --into document (LS_CMD_INTO, into.c), a GPU where it measures (LS_CMD_GPU). */
#include "commands.h"
#include "options.h"
#include "measure/gpu.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int gpus_seen = -1; /* what the GPU check counted; -1: it has not run */

/* The command line read quietly; with operands 0, an argument that is no option is
   refused as the command refuses it. */
static char *parse_quietly(const ls_command_t *cmd, int argc, char **argv, int operands)
{
    if (!cmd->opts)
        return NULL;
    char *args = calloc(1, cmd->opts->args_size + 1);
    char **pos = calloc((size_t)argc + 1, sizeof *pos);
    int npos, rc = LS_EXIT_USAGE;
    ls_usage_quiet(1);
    if (args && pos)
        rc = ls_opt_parse(cmd->name, cmd->opts, argc, argv, args, operands ? pos : NULL,
                          operands ? &npos : NULL);
    ls_usage_quiet(0);
    free(pos);
    if (rc) {
        free(args);
        return NULL;
    }
    return args;
}

char *ls_parse_quietly(const ls_command_t *cmd, int argc, char **argv)
{
    return parse_quietly(cmd, argc, argv, 1);
}

const ls_opt_t *ls_cmd_row(const ls_command_t *cmd, const char *name, int flag)
{
    for (const ls_opt_t *row = cmd->opts ? cmd->opts->opts : NULL; row && row->kind != LS_OPT_END;
         row++)
        if (name ? row->name && !strcmp(row->name, name) && row->kind == LS_OPT_STRING
                 : !!(row->flags & flag))
            return row;
    return NULL;
}

/* The path a row holds in a parsed command line (NULL: none given). */
static const char *path_of(const char *args, const ls_opt_t *row)
{
    return row ? *(const char *const *)(args + row->off) : NULL;
}

int ls_check_output_options(const ls_command_t *cmd, int argc, char **argv)
{
    char *args = ls_parse_quietly(cmd, argc, argv);
    int rc = 0;
    for (const ls_opt_t *row = args ? cmd->opts->opts : NULL; row && row->kind != LS_OPT_END && !rc;
         row++) {
        if (row->kind != LS_OPT_STRING || !(row->flags & (LS_OPT_OUTPUT | LS_OPT_OUTPUT_DIR)))
            continue;
        char opt[40]; /* as the refusal names it: -o, or --csv */
        if (row->short_name)
            snprintf(opt, sizeof opt, "-%c", row->short_name);
        else
            snprintf(opt, sizeof opt, "--%s", row->name);
        rc = ls_check_writable(cmd->name, opt, path_of(args, row),
                               !!(row->flags & LS_OPT_OUTPUT_DIR));
    }
    free(args);
    return rc ? LS_EXIT_USAGE : 0;
}

int ls_check_document(const ls_command_t *cmd, int argc, char **argv)
{
    const ls_opt_t *doc = ls_cmd_row(cmd, NULL, LS_OPT_DOC), *into = ls_cmd_row(cmd, "into", 0);
    char *args = cmd->flags & LS_CMD_WRITES && doc ? ls_parse_quietly(cmd, argc, argv) : NULL;
    if (!args)
        return 0;
    const char *out = path_of(args, doc), *into_path = path_of(args, into);
    int rc = out && into_path ? ls_usage_error(cmd->name, "-o and --into exclude each other")
                              : ls_check_writable(cmd->name, "-o", out, 0);
    free(args);
    return rc ? LS_EXIT_USAGE : 0;
}

int ls_check_gpu(const ls_command_t *cmd, int argc, char **argv)
{
    /* the measuring commands take no operands: one given is the command's refusal (exit 2) */
    char *args = cmd->flags & LS_CMD_GPU ? parse_quietly(cmd, argc, argv, 0) : NULL;
    int measures = args && (!cmd->opts->measures || cmd->opts->measures(args));
    free(args);
    if (!measures)
        return 0;
    char err[512] = "";
    gpus_seen = ls_gpu_count(err, sizeof err);
    if (gpus_seen > 0)
        return 0;
    ls_error("%s", err);
    return LS_EXIT_NOGPU;
}

int ls_gpus_seen(void)
{
    if (gpus_seen < 0) { /* the command ran without the dispatcher's check (a test) */
        char err[512];
        gpus_seen = ls_gpu_count(err, sizeof err);
    }
    return gpus_seen;
}

int ls_command_prologue(const ls_command_t *cmd, int argc, char **argv)
{
    int rc = ls_check_document(cmd, argc, argv);
    if (rc == 0)
        rc = ls_check_output_options(cmd, argc, argv);
    if (rc == 0)
        rc = ls_into_begin(cmd, argc, argv);
    if (rc == 0)
        rc = ls_check_gpu(cmd, argc, argv);
    return rc;
}
