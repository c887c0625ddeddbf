/* The fuzz target of one importer (docs/safety.md, "Fuzzing"): its detect, its reader
   into a new document, then the findings over what it read, so that a text the reader
   takes reaches the rules too. The target files of the importers that share the
   detect/read signature are this one call. */
#ifndef LS_FUZZ_IMPORTER_H
#define LS_FUZZ_IMPORTER_H

#include "fuzz.h"
#include "analyze/analyze.h"
#include "import/import.h"

typedef int (*ls_fuzz_detect_fn)(const char *text);
typedef int (*ls_fuzz_read_fn)(json_t *doc, const char *text, const char *name, char *err, size_t errlen);

static inline int ls_fuzz_importer(const uint8_t *data, size_t size, ls_fuzz_detect_fn detect,
                                   ls_fuzz_read_fn read)
{
    char *text = ls_fuzz_text(data, size);
    if (!text)
        return 0;
    char err[512];
    json_t *doc = ls_import_doc_new();
    detect(text);
    read(doc, text, "fuzz", err, sizeof err);
    json_decref(ls_findings(doc));
    json_decref(doc);
    free(text);
    return 0;
}

#endif
