/* nccl-tests output (import/nccl_tests.c). */
#include "fuzz.h"
#include "import/import.h"
#include "import/nccl_tests.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = ls_fuzz_text(data, size);
    if (!text)
        return 0;
    char err[512];
    json_t *doc = ls_import_doc_new();
    ls_nccl_tests_detect(text);
    ls_import_nccl_tests(doc, text, "fuzz", size & 1 ? "v" : NULL, size & 2 ? "all_reduce" : NULL, err,
                         sizeof err);
    json_decref(doc);
    free(text);
    return 0;
}
