/* NCCL INFO logs (import/nccl_log.c). */
#include "fuzz.h"
#include "import/import.h"
#include "import/nccl_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = ls_fuzz_text(data, size);
    if (!text)
        return 0;
    char err[512];
    json_t *doc = ls_import_doc_new();
    ls_nccl_log_detect(text);
    json_decref(ls_nccl_log_facts(text));
    ls_import_nccl_log(doc, text, "fuzz", err, sizeof err);
    json_decref(doc);
    free(text);
    return 0;
}
