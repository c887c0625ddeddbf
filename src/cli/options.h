/* What the commands share when they read their arguments: the GPU list, the output
   paths checked before any work, the run document they read. Each prints one line on
   stderr when it refuses and returns LS_EXIT_USAGE (or NULL). */
#ifndef LS_CLI_OPTIONS_H
#define LS_CLI_OPTIONS_H

#include <jansson.h>

#include "analyze/analyze.h"

/* --gpus LIST ("0,1", "0-3"): the indices into gpus (at most max), *n their count; 0, or
   one usage line: "--gpus 'LIST': expected GPU indices like 0,1 or 0-3". */
int ls_opt_gpus(const char *cmd, const char *text, int *gpus, int max, int *n);

/* Every index of gpus below count (the GPUs this machine has): 0, or one usage line. */
int ls_opt_gpus_exist(const char *cmd, const int *gpus, int n, int count);

/* An output path (a file, or a folder with is_dir) that can be written, checked before
   any work: 0, or one usage line naming opt and path. "-" and NULL pass. */
int ls_check_writable(const char *cmd, const char *opt, const char *path, int is_dir);

/* A percentage from 0 to max (--tolerance, --threshold): 0, or one usage line,
   "OPT 'TEXT': expected a percentage 0-MAX". */
int ls_opt_percent(const char *cmd, const char *opt, const char *text, double max, double *out);

/* A run document read and validated; NULL after one error line naming the file. */
json_t *ls_read_document(const char *path);
/* The same for --into DOC: under an exclusive lock until the process exits (or
   ls_doc_unlock_into), and DOC may be written back (docs/safety.md). */
json_t *ls_read_document_into(const char *path);

/* --fail-on LEVEL, the same in every command that judges (run, report, plan, compare,
   check, fleet, health; docs/compare-check.md "Exit codes"): the exit code is 1 when a
   finding (a violation, a regression, an outlier) at or above LEVEL exists. LEVEL is
   info, warning, error or never; LS_FAIL_ON_DEFAULT when it is not given. */
#define LS_FAIL_NEVER (LS_SEV_ERROR + 1)
#define LS_FAIL_ON_DEFAULT LS_SEV_ERROR
/* --progress auto|always|never (util/log.h): sets the mode; 0, or one usage line. */
int ls_opt_progress(const char *cmd, const char *text);
/* LEVEL into *level (an enum ls_severity, or LS_FAIL_NEVER): 0, or one usage line. */
int ls_opt_fail_on(const char *cmd, const char *text, int *level);

/* Whether a finding of severity sev fails at level. */
int ls_fail_on_trips(int level, enum ls_severity sev);

/* The findings that fail at level; 0 for never. */
int ls_fail_on_count(const json_t *findings, int level);

/* --quiet's "what failed": one line per finding that fails at level, on stdout,
   "SEVERITY RULE (SUBJECT): MESSAGE". Returns how many. */
int ls_print_failed_findings(const json_t *findings, int level);

#endif
