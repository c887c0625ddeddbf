/* One table-driven option parser for every command (in the manner of git's
   parse-options): each option is a row (long and short name, what its value is, the
   argument's name, its help, where it goes). From the same rows come the parsing, the
   one refusal wording (exit 2), the options block of each command's usage, the man page
   and the bash completion (`linkscope help --completion`, packaging/gen-docs.sh). */
#ifndef LS_CLI_OPTPARSE_H
#define LS_CLI_OPTPARSE_H

#include <stddef.h>

#include "render/strbuf.h"

enum ls_opt_kind {
    LS_OPT_END = 0,  /* ends a table */
    LS_OPT_FLAG,     /* no value: the int at off is set to .value (1 when 0) */
    LS_OPT_STRING,   /* the value's text into the const char * at off */
    LS_OPT_CALL,     /* the value (NULL for a flag: .arg NULL) given to .call */
    LS_OPT_FAIL_ON,  /* --fail-on LEVEL into the int at off (options.h's ls_opt_fail_on) */
    LS_OPT_PROGRESS, /* --progress MODE: sets util/log.h's progress mode */
    LS_OPT_TEXT,     /* no option: .help printed as it is among the options */
};

enum {
    LS_OPT_HIDDEN = 1,   /* accepted, not in the usage or the completion (an old spelling) */
    LS_OPT_UNLISTED = 2, /* offered, but not in the options block: the usage's text says it */
    /* (STRING rows) a file, or a folder, the command writes: the dispatcher checks that
       it can be written before the command runs (into.c); "-" passes */
    LS_OPT_OUTPUT = 4,
    LS_OPT_OUTPUT_DIR = 8,
    /* the run document a command flagged LS_CMD_WRITES writes (its -o; a STRING row, or
       a CALL row that stores the path at .off too): checked by the dispatcher as a file
       to write, refused together with --into (into.c) */
    LS_OPT_DOC = 16,
};

typedef struct ls_opt ls_opt_t;
struct ls_opt {
    const char *name; /* long name without "--"; NULL: a short option only */
    char short_name;  /* 0: none */
    enum ls_opt_kind kind;
    const char *arg;   /* the value's name in the usage ("FILE"); NULL: the option takes none */
    const char *label; /* the usage's left column when not "--name ARG" (e.g. "-o FILE") */
    const char *help;  /* lines joined by \n; the later ones are indented to the column */
    size_t off;        /* FLAG, STRING, FAIL_ON: where in the command's argument struct */
    int value;         /* FLAG: the value set (0 means 1) */
    int flags;         /* LS_OPT_HIDDEN */
    int column;        /* the help column of this row; 0: the command's */
    /* CALL: 0, or one usage line (ls_usage_error) and LS_EXIT_USAGE. */
    int (*call)(const char *cmd, const char *value, void *args);
    /* CALL, in place of .call: one function for many rows, given the row (.value a code). */
    int (*call_row)(const ls_opt_t *row, const char *value, void *args);
    /* The words the value takes (completion, and the usage when .help is NULL), NULL-
       terminated; NULL: any (a file, a number). */
    const char *const *(*words)(void);
    /* With .words and no .help: the usage says "--name WORD  help" for each word. */
    const char *(*word_help)(const char *word);
    /* The help for command cmd, in place of .help (measuring commands share a table);
       NULL: the command has no such option to show or offer (it may still accept it). */
    const char *(*help_of)(const char *cmd);
};

/* A command's options and the usage text around them. */
typedef struct {
    const char *head;                        /* "usage: ..." up to the options block */
    const char *(*head_of)(const char *cmd); /* or built: measuring commands, report */
    const ls_opt_t *opts;                    /* ended by an LS_OPT_END row */
    const char *tail;                        /* after the options block */
    const char *(*tail_of)(const char *cmd);
    int column;       /* where the help column starts */
    size_t args_size; /* the size of the struct .off points into */
    /* What the options say together (no I/O), after every option is read: 0, or one
       usage line and LS_EXIT_USAGE. NULL: nothing. */
    int (*check)(const char *cmd, void *args);
    /* The defaults, set in args before any option is read (ls_opt_parse calls it, so the
       dispatcher's reading of the command line sees what the command sees). NULL: zero. */
    void (*init)(void *args);
    /* A command flagged LS_CMD_GPU (commands.h): whether this command line measures, so
       that the dispatcher checks for a GPU. NULL: every command line does. */
    int (*measures)(const void *args);
} ls_cmd_opts_t;

/* The rows of a command that writes a run document (LS_CMD_WRITES): -o FILE (and its
   long name, or NULL), a new document, and --into FILE, an existing one (struct T's
   const char * fields). */
#define LS_OPT_DOC_ROW(T, field, long_name, text)                                                  \
    {                                                                                              \
        .name = long_name, .short_name = 'o', .kind = LS_OPT_STRING, .arg = "FILE",                \
        .label = "-o FILE", .off = offsetof(T, field), .flags = LS_OPT_DOC, .help = text           \
    }
#define LS_OPT_INTO_ROW(T, field, text)                                                            \
    {                                                                                              \
        .name = "into", .kind = LS_OPT_STRING, .arg = "FILE", .off = offsetof(T, field),           \
        .help = text                                                                               \
    }

/* A flag's row: the int field of struct T set to 1. */
#define LS_OPT_FLAG_ROW(T, n, field, text)                                                         \
    {                                                                                              \
        .name = n, .kind = LS_OPT_FLAG, .off = offsetof(T, field), .help = text                    \
    }
/* The rows several commands share (struct T has int fail_on / quiet). */
#define LS_OPT_FAIL_ON_ROW(T) LS_OPT_FAIL_ON_NOTE(T, "")
/* The same with the command's own note under it (lines ending in \n but the last). */
#define LS_OPT_FAIL_ON_NOTE(T, note)                                                               \
    {                                                                                              \
        .name = "fail-on", .kind = LS_OPT_FAIL_ON, .arg = "LEVEL", .off = offsetof(T, fail_on),    \
        .column = 20,                                                                              \
        .help = "exit 1 when a finding at or above LEVEL exists: info,\n"                          \
                "warning, error (default) or never" note                                           \
    }
#define LS_OPT_QUIET_ROW(T)                                                                        \
    {                                                                                              \
        .name = "quiet", .kind = LS_OPT_FLAG, .off = offsetof(T, quiet), .column = 20,             \
        .help = "print only the verdict line and what failed (at --fail-on)"                       \
    }
#define LS_OPT_PROGRESS_HELP                                                                       \
    "auto (default: a line rewritten on a terminal, else one\n"                                    \
    "timestamped line per step and round on stderr), always (the\n"                                \
    "timestamped lines), never"
#define LS_OPT_PROGRESS_ROW                                                                        \
    {                                                                                              \
        .name = "progress", .kind = LS_OPT_PROGRESS, .arg = "M", .column = 17,                     \
        .help = LS_OPT_PROGRESS_HELP                                                               \
    }

/* Parses argv[1..argc-1] by spec into args: the arguments that are not options, in
   order, into pos (*npos of them; pos has room for argc), or with pos and npos NULL
   each refused ("unexpected argument 'x'"). "--" ends the options; a
   long option's value follows it or "="; a short one's follows it or is glued to it.
   0, or one line on stderr ("linkscope CMD: unknown option '--x' (see ...)", "... -o
   needs a value ...") and LS_EXIT_USAGE. */
int ls_opt_parse(const char *cmd, const ls_cmd_opts_t *spec, int argc, char **argv, void *args,
                 char **pos, int *npos);

/* The command's usage text: head, the options block, tail. */
void ls_opt_usage(ls_buf_t *b, const char *cmd, const ls_cmd_opts_t *spec);

/* The options the completion offers ("--name", or "-s" for a short option only), one
   per call: the i-th visible one, NULL past the last; *words gets its value's words
   (NULL: any). */
const char *ls_opt_offered(const char *cmd, const ls_cmd_opts_t *spec, int i,
                           const char *const **words);

/* Words of values several commands share. */
const char *const *ls_fail_on_words(void);
const char *const *ls_progress_words(void);

#endif
