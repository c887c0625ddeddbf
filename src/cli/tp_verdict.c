/* linkscope tp --verdict RUN.json [--model NAME]: the tensor-parallel verdict of a run
   document, the very lines run, report and check --spec print (issue 27: one verdict,
   computed once by analyze/spec_tp.c). */
#include "check_spec.h"
#include "commands.h"
#include "analyze/spec_tp.h"
#include "model/doc.h"
#include "util/log.h"

#include <stddef.h>
#include <string.h>

typedef struct {
    const char *run, *model;
} verdict_args_t;

/* tp --verdict's own options (it is another mode of tp; its help is tp's). */
static const ls_opt_t options[] = {
    {.name = "verdict",
     .kind = LS_OPT_STRING,
     .arg = "RUN.json",
     .off = offsetof(verdict_args_t, run)},
    {.name = "model", .kind = LS_OPT_STRING, .arg = "NAME", .off = offsetof(verdict_args_t, model)},
    {.kind = LS_OPT_END},
};

static const ls_cmd_opts_t opts_verdict = {.opts = options, .args_size = sizeof(verdict_args_t)};

int ls_tp_verdict_cmd(int argc, char **argv)
{
    verdict_args_t a = {.model = LS_SPEC_TP_MODEL};
    char *pos[argc];
    int npos;
    if (ls_opt_parse("tp", &opts_verdict, argc, argv, &a, pos, &npos))
        return LS_EXIT_USAGE;
    if (npos)
        return ls_usage_error("tp", "--verdict RUN.json takes only --model NAME, got '%s'", pos[0]);
    const char *run = a.run, *model = a.model;
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
