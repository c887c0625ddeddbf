/* The --into prologue every writing command shares (commands.h): the document an
   --into names is checked, read, validated and locked in one place, the same way for
   every command, before the command does any work; the command adds its entries and
   writes it back with ls_doc_into_write (model/doc.h, docs/safety.md). */
#include "commands.h"
#include "options.h"
#include "model/doc.h"
#include "util/log.h"

#include <stdlib.h>
#include <string.h>

static json_t *held;          /* the document read for --into, until taken */
static const char *held_path; /* its path, as the command line gave it */

const char *ls_into_path(const ls_command_t *cmd, int argc, char **argv)
{
    const ls_opt_t *row = cmd->opts ? cmd->opts->opts : NULL;
    for (; row && row->kind != LS_OPT_END; row++)
        if (row->name && !strcmp(row->name, "into") && row->kind == LS_OPT_STRING)
            break;
    if (!row || row->kind == LS_OPT_END)
        return NULL;
    char *args = calloc(1, cmd->opts->args_size + 1);
    char **pos = calloc((size_t)argc + 1, sizeof *pos);
    const char *path = NULL;
    int npos;
    ls_usage_quiet(1); /* the command parses again and words any refusal itself */
    if (args && pos && ls_opt_parse(cmd->name, cmd->opts, argc, argv, args, pos, &npos) == 0)
        path = *(const char **)(args + row->off);
    ls_usage_quiet(0);
    free(pos);
    free(args);
    return path;
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
