/* import/nvloom.c (matrices, CSV), then the findings and fleet's figures. */
#include "fuzz.h"
#include "analyze/analyze.h"
#include "import/import.h"
#include "import/nvloom.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = ls_fuzz_text(data, size);
    if (!text)
        return 0;
    char err[512];
    json_t *doc = ls_import_doc_new();
    ls_nvloom_detect(text);
    ls_import_nvloom(doc, text, "fuzz", err, sizeof err);
    json_decref(ls_findings(doc));
    json_decref(doc);
    free(text);
    return 0;
}
