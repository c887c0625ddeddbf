/* nvbandwidth -j JSON (import/nvbandwidth.c). */
#include "fuzz.h"
#include "import/import.h"
#include "import/nvbandwidth.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = ls_fuzz_text(data, size);
    if (!text)
        return 0;
    char err[512];
    json_t *doc = ls_import_doc_new();
    ls_nvbandwidth_detect(text);
    ls_import_nvbandwidth(doc, text, "fuzz", err, sizeof err);
    json_decref(doc);
    free(text);
    return 0;
}
