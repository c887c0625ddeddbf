/* The --into prologue every writing command shares (commands.h): the document an
   --into names is checked, read, validated and locked in one place, the same way for
   every command, before the command does any work; the command adds its entries and
   writes it back with ls_doc_into_write (model/doc.h, docs/safety.md). A command that
   writes a run document (LS_CMD_WRITES) opens it and writes it through
   ls_doc_target_open and ls_doc_target_write: --into's document or a new one, written
   to -o, else back to --into. */
#include "commands.h"
#include "options.h"
#include "discover/discover.h"
#include "model/doc.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *held;          /* the document read for --into, until taken */
static const char *held_path; /* its path, as the command line gave it */

const char *ls_into_path(const ls_command_t *cmd, int argc, char **argv)
{
    const ls_opt_t *row = ls_cmd_row(cmd, "into", 0);
    char *args = row ? ls_parse_quietly(cmd, argc, argv) : NULL;
    const char *path = args ? *(const char **)(args + row->off) : NULL;
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

json_t *ls_doc_target_open(const char *cmd, const char *into, json_t *(*fresh)(void))
{
    if (into)
        return ls_into_take(cmd, into);
    return fresh ? fresh() : ls_doc_new();
}

json_t *ls_doc_new_discovered(void)
{
    json_t *doc = ls_doc_new();
    ls_discover_opts_t d = {.use_nvml = 1, .use_cuda = 1};
    ls_discover(doc, &d);
    return doc;
}

int ls_doc_target_write(const json_t *doc, const char *out, const char *into, const char *dflt)
{
    const char *path = out ? out : into ? into : dflt;
    char err[512];
    if (!path || ls_doc_into_write(doc, path, err, sizeof err) == 0)
        return 0;
    ls_error("%s", err);
    return LS_EXIT_USAGE;
}
