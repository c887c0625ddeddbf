/* The command table (git's model): each subcommand is one cmd_* function in its own
   file, with its usage text next to its parser. */
#ifndef LS_CLI_COMMANDS_H
#define LS_CLI_COMMANDS_H

#include <jansson.h>
#include <stdio.h>

#include "optparse.h"

enum {
    /* --into DOC: the dispatcher reads DOC and takes its lock before the command runs
       (into.c), the command takes the document with ls_into_take and writes it with
       ls_doc_into_write; the lock is let go when the command returns */
    LS_CMD_INTO = 1,
};

typedef struct {
    const char *name;
    int (*fn)(int argc, char **argv); /* argv[0] is the command name */
    const char *summary;
    const ls_cmd_opts_t *opts; /* its options and usage text (optparse.h) */
    int flags;                 /* LS_CMD_* */
} ls_command_t;

const ls_command_t *ls_find_command(const char *name);
const ls_command_t *ls_commands(int *count);

/* `linkscope COMMAND --help`: the usage built from the command's options. */
void ls_command_usage(const ls_command_t *cmd, FILE *f);

#define LS_DECLARE_COMMAND(n)                                                                      \
    int cmd_##n(int argc, char **argv);                                                            \
    extern const ls_cmd_opts_t opts_##n;

LS_DECLARE_COMMAND(run)
LS_DECLARE_COMMAND(inventory)
LS_DECLARE_COMMAND(topo)
/* p2p, latency, hbm, host: one command per measurement family (measure/family.h), all
   run by cmd_measure with the usage text built from the family's descriptor. */
int cmd_measure(int argc, char **argv);
extern const ls_cmd_opts_t opts_measure;
LS_DECLARE_COMMAND(burn)
LS_DECLARE_COMMAND(nccl)
LS_DECLARE_COMMAND(report)
LS_DECLARE_COMMAND(plan)
LS_DECLARE_COMMAND(compare)
LS_DECLARE_COMMAND(check)
LS_DECLARE_COMMAND(baseline)
LS_DECLARE_COMMAND(import)
LS_DECLARE_COMMAND(tp)
LS_DECLARE_COMMAND(fleet)
LS_DECLARE_COMMAND(health)
LS_DECLARE_COMMAND(help)
LS_DECLARE_COMMAND(version)

/* The --into prologue (into.c). ls_into_begin, for a command with LS_CMD_INTO: its
   --into DOC (read by the command's own option table) checked writable, read,
   validated and locked; 0, or one line and LS_EXIT_USAGE (a command line its parser
   refuses passes: the command says why). ls_into_take(cmd, path): that document (the
   caller owns it), or, where the dispatcher did not open path (nccl, at rank 0), path
   opened the same way now; NULL after one line. ls_into_end: what was not taken
   freed, the lock let go. */
int ls_into_begin(const ls_command_t *cmd, int argc, char **argv);
json_t *ls_into_take(const char *cmd, const char *path);
void ls_into_end(void);
/* Before any command: every file or folder its options name to write (rows flagged
   LS_OPT_OUTPUT, LS_OPT_OUTPUT_DIR) checked writable; 0, or one line and LS_EXIT_USAGE. */
int ls_check_output_options(const ls_command_t *cmd, int argc, char **argv);
/* The --into path the command line gives by cmd's option table (its "into" row), or
   NULL (none, or a line its parser refuses). */
const char *ls_into_path(const ls_command_t *cmd, int argc, char **argv);

/* help --completion [--parse CMD ARGS...] (help_completion.c); argv[0] is "--completion". */
int ls_help_completion(int argc, char **argv);

/* tp --verdict RUN.json [--model NAME] (tp_verdict.c). */
int ls_tp_verdict_cmd(int argc, char **argv);

/* Shared by commands (optparse.c): "linkscope CMD: WHAT (see 'linkscope CMD --help')"
   on stderr; returns LS_EXIT_USAGE. */
int ls_usage_error(const char *command, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* While on, ls_usage_error says nothing (a parse made only to read one option). */
void ls_usage_quiet(int on);

#endif
