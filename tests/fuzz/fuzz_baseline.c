/* baseline files (analyze/baseline.c): parse, then check against a document of one figure. */
#include "fuzz.h"
#include "analyze/baseline.h"
#include "model/doc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = ls_fuzz_text(data, size);
    if (!text)
        return 0;
    char err[512];
    json_t *base = ls_baseline_parse(text, "fuzz", err, sizeof err);
    if (base) {
        json_t *doc = ls_doc_new();
        json_t *e = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:f}", "id", "p2p-0", "family",
                              "p2p", "metric", "bandwidth", "unit", "GB/s", "status", "ok", "method",
                              "ce", "src", 0, "dst", 1, "value", 100.0);
        ls_doc_add_measurement(doc, e);
        int checked = 0;
        json_decref(ls_baseline_check(base, doc, 0, &checked, NULL));
        json_decref(doc);
        json_decref(base);
    }
    free(text);
    return 0;
}
