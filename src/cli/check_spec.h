/* linkscope check --spec: the document's GPUs against the built-in datasheet, and the
   acceptance verdict in tensor-parallel terms (docs/acceptance.md). */
#ifndef LS_CLI_CHECK_SPEC_H
#define LS_CLI_CHECK_SPEC_H

#include <jansson.h>

#include "analyze/analyze.h"

/* Prints the identification, the checks, the findings and the TP lines of doc (read
   from run), and with junit the failing findings as JUnit XML there (one testcase per
   GPU); returns the number of findings at or above fail_on, or -1 after one error line
   (unknown model, JUnit file not written). */
int ls_check_spec(const char *run, const json_t *doc, const char *model, int fail_on, int quiet,
                  const char *junit);
/* The tensor-parallel verdict of doc for model, as check --spec, run and report print
   it (analyze/spec_tp.c computes it, render/spec_render.c words it): `tp --verdict`.
   0, or -1 after one error line (unknown model). */
int ls_tp_verdict_print(const json_t *doc, const char *model);

#endif
