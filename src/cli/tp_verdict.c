/* linkscope tp --verdict RUN.json [--model NAME]: the tensor-parallel verdict of a run
   document, the very lines run, report and check --spec print (issue 27: one verdict,
   computed once by analyze/spec_tp.c). */
#include "check_spec.h"
#include "commands.h"
#include "analyze/spec_tp.h"
#include "model/doc.h"
#include "util/log.h"

#include <string.h>

int ls_tp_verdict_cmd(int argc, char **argv)
{
    const char *run = NULL, *model = LS_SPEC_TP_MODEL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--verdict") && i + 1 < argc)
            run = argv[++i];
        else if (!strcmp(argv[i], "--model") && i + 1 < argc)
            model = argv[++i];
        else
            return ls_usage_error("tp", "--verdict RUN.json takes only --model NAME, got '%s'", argv[i]);
    }
    if (!run)
        return ls_usage_error("tp", "--verdict needs a run document");
    char err[512];
    json_t *doc = ls_doc_read(run, err, sizeof err);
    if (!doc) {
        ls_error("%s", err);
        return LS_EXIT_USAGE;
    }
    int rc = ls_tp_verdict_print(doc, model);
    json_decref(doc);
    return rc ? LS_EXIT_USAGE : LS_EXIT_OK;
}
