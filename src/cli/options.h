/* What the commands share when they read their arguments: the GPU list, the output
   paths checked before any work, the run document they read. Each prints one line on
   stderr when it refuses and returns LS_EXIT_USAGE (or NULL). */
#ifndef LS_CLI_OPTIONS_H
#define LS_CLI_OPTIONS_H

#include <jansson.h>

/* --gpus LIST ("0,1", "0-3"): the indices into gpus (at most max), *n their count; 0, or
   one usage line: "--gpus 'LIST': expected GPU indices like 0,1 or 0-3". */
int ls_opt_gpus(const char *cmd, const char *text, int *gpus, int max, int *n);

/* Every index of gpus below count (the GPUs this machine has): 0, or one usage line. */
int ls_opt_gpus_exist(const char *cmd, const int *gpus, int n, int count);

/* An output path (a file, or a folder with is_dir) that can be written, checked before
   any work: 0, or one usage line naming opt and path. "-" and NULL pass. */
int ls_check_writable(const char *cmd, const char *opt, const char *path, int is_dir);

/* A run document read and validated; NULL after one error line naming the file. */
json_t *ls_read_document(const char *path);

/* Before a command's getopt_long loop: from argv[1], with the refusals left to it. */
void ls_opt_begin(void);

/* In the loop, for what getopt_long returned: 0 for an option, else (':' a missing
   value, '?' an unknown option) one usage line and LS_EXIT_USAGE. */
int ls_opt_refused(const char *cmd, int c, char **argv);

/* getopt_long's two refusals (':' and '?', with ":" leading the short options and
   opterr 0), as the commands word them: "-o needs a value", "unknown option '-x'". */
int ls_opt_missing(const char *cmd, char **argv);
int ls_opt_unknown(const char *cmd, char **argv);

#endif
