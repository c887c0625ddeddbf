/* The --into prologue every writing command shares (commands.h): the document an
   --into names is checked, read, validated and locked in one place, the same way for
   every command, before the command does any work; the command adds its entries and
   writes it back with ls_doc_into_write (model/doc.h, docs/safety.md). */
#include "commands.h"
#include "options.h"
#include "model/doc.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *held;          /* the document read for --into, until taken */
static const char *held_path; /* its path, as the command line gave it */

/* cmd's command line read by its own table into a scratch argument struct (free it),
   quietly; NULL when the parser refuses it (the command then says why). */
static char *parse_quietly(const ls_command_t *cmd, int argc, char **argv)
{
    char *args = calloc(1, cmd->opts->args_size + 1);
    char **pos = calloc((size_t)argc + 1, sizeof *pos);
    int npos, rc = LS_EXIT_USAGE;
    ls_usage_quiet(1);
    if (args && pos)
        rc = ls_opt_parse(cmd->name, cmd->opts, argc, argv, args, pos, &npos);
    ls_usage_quiet(0);
    free(pos);
    if (rc) {
        free(args);
        return NULL;
    }
    return args;
}

const char *ls_into_path(const ls_command_t *cmd, int argc, char **argv)
{
    const ls_opt_t *row = cmd->opts ? cmd->opts->opts : NULL;
    for (; row && row->kind != LS_OPT_END; row++)
        if (row->name && !strcmp(row->name, "into") && row->kind == LS_OPT_STRING)
            break;
    if (!row || row->kind == LS_OPT_END)
        return NULL;
    char *args = parse_quietly(cmd, argc, argv);
    const char *path = args ? *(const char **)(args + row->off) : NULL;
    free(args);
    return path;
}

int ls_check_output_options(const ls_command_t *cmd, int argc, char **argv)
{
    char *args = cmd->opts ? parse_quietly(cmd, argc, argv) : NULL;
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
        rc = ls_check_writable(cmd->name, opt, *(const char **)(args + row->off),
                               !!(row->flags & LS_OPT_OUTPUT_DIR));
    }
    free(args);
    return rc ? LS_EXIT_USAGE : 0;
}

/* path checked and read under its lock; NULL after one line. */
static json_t *open_into(const char *cmd, const char *path)
{
    if (ls_check_writable(cmd, "--into", path, 0))
        return NULL;
    return ls_read_document_into(path);
}

int ls_into_begin(const ls_command_t *cmd, int argc, char **argv)
{
    if (!(cmd->flags & LS_CMD_INTO))
        return 0;
    const char *path = ls_into_path(cmd, argc, argv);
    if (!path)
        return 0;
    held = open_into(cmd->name, path);
    held_path = held ? path : NULL;
    return held ? 0 : LS_EXIT_USAGE;
}

json_t *ls_into_take(const char *cmd, const char *path)
{
    if (held && held_path && !strcmp(held_path, path)) {
        json_t *doc = held;
        held = NULL;
        return doc;
    }
    return open_into(cmd, path);
}

void ls_into_end(void)
{
    json_decref(held);
    held = NULL;
    held_path = NULL;
    ls_doc_unlock_into();
}
