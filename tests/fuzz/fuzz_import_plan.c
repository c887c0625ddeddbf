/* what a user does with a paste: `linkscope import` (import/import.c, the note line, the
   document written and read back through the run document reader), then `plan`: the
   rules, the plan, the verdict and the terminal report (analyze/, render/). */
#include "fuzz.h"
#include "analyze/analyze.h"
#include "import/import.h"
#include "model/doc.h"
#include "model/view.h"
#include "render/render.h"

static void plan_and_report(const json_t *doc)
{
    ls_view_pin(doc);
    json_t *findings = ls_findings(doc), *plan = ls_plan_with(doc, findings);
    ls_view_unpin(doc);
    char *texts[] = {ls_render_plan_text(findings, plan), ls_render_verdict(findings),
                     ls_report_term(doc, findings, plan)};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        free(texts[i]);
    json_decref(findings);
    json_decref(plan);
}

/* The document as `import` writes it, read back as `plan` reads it. */
static void written_then_planned(const json_t *imported)
{
    char err[512];
    char *written = ls_doc_dumps(imported);
    json_t *doc = written ? ls_doc_parse(written, "fuzz.json", err, sizeof err) : NULL;
    if (doc)
        plan_and_report(doc);
    json_decref(doc);
    free(written);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = ls_fuzz_text(data, size);
    if (!text)
        return 0;
    char err[512], note[640] = "", warn[640] = "";
    enum ls_import_format fmt;
    json_t *doc = ls_import_doc_new();
    ls_import_opts_t opts = {0};
    int n = ls_import_text(doc, text, "fuzz", &opts, &fmt, err, sizeof err);
    if (n >= 0) {
        ls_import_note(doc, 0, fmt, n, "fuzz", note, sizeof note, warn, sizeof warn);
        written_then_planned(doc);
    }
    json_decref(doc);
    free(text);
    return 0;
}
