/* What an importer could not read in a partial paste. Importers call
   ls_import_note_missing() while they read; ls_import_text() resets the note before
   each file and afterwards records it in the document ("imports": one object per file,
   "incomplete": true and "missing" when something was cut) and flags the file's entries
   "incomplete". */
#ifndef LS_IMPORT_NOTE_H
#define LS_IMPORT_NOTE_H

#include <jansson.h>
#include <stddef.h>

/* Says that part of the expected output is absent or cut ("the matrix stops inside
   row GPU6"). Several calls are joined with "; ". */
void ls_import_note_missing(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void ls_import_note_reset(void);
/* The joined text, or NULL when nothing was missing. */
const char *ls_import_note_text(void);

/* Sets "source_file" (the base name of name) on the measurements from index first on,
   adds the "incomplete" flag to them when the note says something was missing, and
   appends {file, format, entries, incomplete[, missing]} to doc's "imports". */
void ls_import_note_record(json_t *doc, const char *name, const char *format, size_t first,
                           int entries);

#endif
