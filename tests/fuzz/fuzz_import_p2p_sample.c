/* p2pBandwidthLatencyTest output (import/p2p_sample.c). */
#include "fuzz.h"
#include "import/import.h"
#include "import/p2p_sample.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = ls_fuzz_text(data, size);
    if (!text)
        return 0;
    char err[512];
    json_t *doc = ls_import_doc_new();
    ls_p2p_sample_detect(text);
    ls_import_p2p_sample(doc, text, "fuzz", err, sizeof err);
    json_decref(doc);
    free(text);
    return 0;
}
