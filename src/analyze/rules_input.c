/* The input itself: a document imported from a cut paste (imports[].incomplete, written
   by `linkscope import`, docs/schema.md) says so in one info finding per cut file, with
   what was missing in the finding's "missing" field; the verdict line quotes it
   (render/verdict.c), so a report of half a paste is never simply "healthy". The rules
   judge the part given: a link, row or cell the paste left out is unknown, not absent. */
#include "rules.h"
#include "model/doc.h"

#include <stdio.h>
#include <string.h>

/* "incomplete paste: rows after GPU5 missing" -> "rows after GPU5 missing" */
static const char *what_missing(const json_t *imp)
{
    const char *missing = ls_json_str(imp, "missing", "");
    static const char said[] = "incomplete paste: ";
    if (!strncmp(missing, said, sizeof said - 1))
        missing += sizeof said - 1;
    return *missing ? missing : "the paste was cut (what is missing not recorded)";
}

void ls_rules_input(const ls_machine_t *m, json_t *out)
{
    size_t i;
    const json_t *imp;
    json_array_foreach(json_object_get(m->doc, "imports"), i, imp) {
        if (!json_is_true(json_object_get(imp, "incomplete")))
            continue;
        const char *file = ls_json_str(imp, "file", "");
        char subject[160];
        snprintf(subject, sizeof subject, "input %s", *file ? file : "(unnamed)");
        const char *missing = what_missing(imp);
        /* a framework's log (import/framework_log.c) is not cut: linkscope reads only part
           of what it says */
        int in_part = !strcmp(ls_json_str(imp, "format", ""), "framework log");
        ls_finding_add(out, "cut_paste", LS_SEV_INFO, LS_ABOUT_WHAT(subject),
                       json_pack("[s]", "imports"), "%s is %s (%s): %s", subject,
                       in_part ? "read only in part" : "a cut paste", missing,
                       in_part ? "a fault it shows in other words is not judged, its absence is "
                                 "not health; next: the node's own texts (nvidia-smi, "
                                 "NCCL_DEBUG=INFO output, the kernel log)"
                               : "the findings judge the part given; links, rows and figures it "
                                 "left out are unknown, not absent or healthy; next: paste the "
                                 "whole output");
        json_object_set_new(json_array_get(out, json_array_size(out) - 1), "missing",
                            json_string(missing));
    }
}
