/* the import dispatcher (import/import.c): detection, then whichever reader, then the sanitizer. */
#include "fuzz.h"
#include "import/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = ls_fuzz_text(data, size);
    if (!text)
        return 0;
    char err[512];
    json_t *doc = ls_import_doc_new();
    ls_import_opts_t opts = {0};
    ls_import_text(doc, text, "fuzz", &opts, NULL, err, sizeof err);
    json_decref(doc);
    free(text);
    return 0;
}
