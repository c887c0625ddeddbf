/* Reads PyTorch ProcessGroupNCCL's watchdog text (its collective timeouts, the work
   progress lines that follow them, a stuck watchdog, the options block, its set-up
   warnings) into the document's top-level "torch_watchdog" (docs/import.md,
   docs/schema.md). */
#ifndef LS_IMPORT_TORCH_WATCHDOG_H
#define LS_IMPORT_TORCH_WATCHDOG_H

#include <jansson.h>
#include <stddef.h>

/* 1 when the text carries one of the watchdog's messages. */
int ls_torch_watchdog_detect(const char *text);

/* 1 when the text carries one of ProcessGroupNCCL's set-up warnings (barrier()'s or the
   group's guessed GPU, no destroy_process_group() at exit): read by
   ls_import_torch_watchdog into warnings[] (with the watchdog's lines, or alone). */
int ls_torch_pg_warning_detect(const char *text);

/* Appends one torch_watchdog[] object for the file: the number of records kept (timeouts
   and progress lines), or -1 with err. NCCL INFO / WARN lines in the same text are read
   by the NCCL log importer as well. */
int ls_import_torch_watchdog(json_t *doc, const char *text, const char *name, char *err,
                             size_t errlen);

#endif
