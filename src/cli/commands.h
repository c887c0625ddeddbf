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
    /* writes a run document: its option table has the -o row flagged LS_OPT_DOC (and
       mostly an --into row). The dispatcher refuses -o with --into in one wording and
       checks -o's path (a file, not a folder, in a folder it can write) before the
       command runs; the command opens and writes the document with ls_doc_target_open
       and ls_doc_target_write */
    LS_CMD_WRITES = 2,
    /* measures, so needs a GPU: where the command line measures (opts->measures; NULL
       every one), the dispatcher checks for a usable GPU after the command line and
       --into are checked and before the command runs; without one, one line ("no usable
       GPU: ...") and exit 3, nothing written. `linkscope help` lists these commands. */
    LS_CMD_GPU = 4,
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
   LS_OPT_OUTPUT, LS_OPT_OUTPUT_DIR; the run document's -o, LS_OPT_DOC, is
   ls_check_document's) checked writable; 0, or one line and LS_EXIT_USAGE. */
int ls_check_output_options(const ls_command_t *cmd, int argc, char **argv);
/* The dispatcher's prologue, before any command runs: the outputs (above), the written
   document (LS_CMD_WRITES), the --into document (LS_CMD_INTO), the GPU (LS_CMD_GPU), in
   that order; 0, or one line and the exit code. ls_into_end after the command. */
int ls_command_prologue(const ls_command_t *cmd, int argc, char **argv);
/* LS_CMD_WRITES: -o with --into refused, -o's path checked; 0, or one line and
   LS_EXIT_USAGE. A command line its parser refuses passes (the command says why). */
int ls_check_document(const ls_command_t *cmd, int argc, char **argv);
/* LS_CMD_GPU, where this command line measures: 0, or one line and LS_EXIT_NOGPU. */
int ls_check_gpu(const ls_command_t *cmd, int argc, char **argv);
/* The document a writing command adds to: --into's (into, as the dispatcher opened it),
   or a new one made by fresh (NULL: an empty document); NULL after one line. */
json_t *ls_doc_target_open(const char *cmd, const char *into, json_t *(*fresh)(void));
/* A new document with this machine discovered (NVML, CUDA) first, for a measuring
   command's results. */
json_t *ls_doc_new_discovered(void);
/* doc written to out, else into, else dflt (NULL: nowhere); 0, or one line and
   LS_EXIT_USAGE. */
int ls_doc_target_write(const json_t *doc, const char *out, const char *into, const char *dflt);
/* The --into path the command line gives by cmd's option table (its "into" row), or
   NULL (none, or a line its parser refuses). */
const char *ls_into_path(const ls_command_t *cmd, int argc, char **argv);

/* cmd's command line read by its own table into a scratch argument struct (free it),
   quietly; NULL when the parser refuses it (the command then says why). */
char *ls_parse_quietly(const ls_command_t *cmd, int argc, char **argv);
/* cmd's STRING row of that long name, or (name NULL) its first row flagged flag; NULL. */
const ls_opt_t *ls_cmd_row(const ls_command_t *cmd, const char *name, int flag);
/* How many GPUs the dispatcher's check (LS_CMD_GPU) counted, for the command that
   measures; counted now where it did not run. */
int ls_gpus_seen(void);

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
