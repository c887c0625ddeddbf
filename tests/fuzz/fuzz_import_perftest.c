/* import/perftest.c, then the findings. */
#include "fuzz.h"
#include "analyze/analyze.h"
#include "import/import.h"
#include "import/perftest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = ls_fuzz_text(data, size);
    if (!text)
        return 0;
    char err[512];
    json_t *doc = ls_import_doc_new();
    ls_perftest_detect(text);
    ls_import_perftest(doc, text, "fuzz", err, sizeof err);
    json_decref(ls_findings(doc));
    json_decref(doc);
    free(text);
    return 0;
}
