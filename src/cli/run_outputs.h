/* What linkscope run writes (docs/run.md): the run document and the HTML report beside
   it (same name, .html). */
#ifndef LS_CLI_RUN_OUTPUTS_H
#define LS_CLI_RUN_OUTPUTS_H

#include <jansson.h>
#include <stddef.h>

/* linkscope-HOST-DATE.json, in the current folder. */
void ls_run_default_path(char *buf, size_t len);

/* Writes doc to path and, when report, the HTML report beside it; 0, or LS_EXIT_USAGE
   with one line on stderr. */
int ls_run_write_outputs(json_t *doc, const json_t *findings, const json_t *plan, const char *path,
                         int report);

/* run --quiet's stdout: the verdict line and the findings that fail at fail_on. */
void ls_run_print_quiet(const json_t *findings, int fail_on);

#endif
