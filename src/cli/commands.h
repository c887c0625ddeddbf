/* The command table (git's model): each subcommand is one cmd_* function in its own
   file, with its usage text next to its parser. */
#ifndef LS_CLI_COMMANDS_H
#define LS_CLI_COMMANDS_H

typedef struct {
    const char *name;
    int (*fn)(int argc, char **argv); /* argv[0] is the command name */
    const char *summary;
    const char *usage; /* full text for `linkscope COMMAND --help` */
} ls_command_t;

const ls_command_t *ls_find_command(const char *name);
const ls_command_t *ls_commands(int *count);

#define LS_DECLARE_COMMAND(n) \
    int cmd_##n(int argc, char **argv); \
    extern const char usage_##n[];

LS_DECLARE_COMMAND(run)
LS_DECLARE_COMMAND(inventory)
LS_DECLARE_COMMAND(topo)
LS_DECLARE_COMMAND(p2p)
LS_DECLARE_COMMAND(latency)
LS_DECLARE_COMMAND(hbm)
LS_DECLARE_COMMAND(host)
LS_DECLARE_COMMAND(burn)
LS_DECLARE_COMMAND(nccl)
LS_DECLARE_COMMAND(report)
LS_DECLARE_COMMAND(plan)
LS_DECLARE_COMMAND(compare)
LS_DECLARE_COMMAND(check)
LS_DECLARE_COMMAND(baseline)
LS_DECLARE_COMMAND(import)
LS_DECLARE_COMMAND(tp)
LS_DECLARE_COMMAND(help)
LS_DECLARE_COMMAND(version)

/* An output path (a file, or a folder with is_dir) that can be written, checked before
   any work: 0, or one usage line naming opt and path and LS_EXIT_USAGE. "-" and NULL
   pass. */
int ls_check_writable(const char *cmd, const char *opt, const char *path, int is_dir);

/* Shared by commands: "unknown option" line, exit 2. */
int ls_usage_error(const char *command, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
