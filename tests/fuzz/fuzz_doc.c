/* the run document reader (model/doc.c): parse, validate, sanitize, then the figures compare and check use. */
#include "fuzz.h"
#include "analyze/compare.h"
#include "model/doc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = ls_fuzz_text(data, size);
    if (!text)
        return 0;
    char err[512];
    json_t *doc = ls_doc_parse(text, "fuzz", err, sizeof err);
    if (doc) {
        ls_figures_t figs;
        if (ls_figures_collect(doc, 0, &figs) == 0)
            ls_figures_free(&figs);
        json_decref(doc);
    }
    free(text);
    return 0;
}
