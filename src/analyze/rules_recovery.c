/* recovery_action: what NVIDIA's driver itself says a GPU needs, from an imported
   nvidia-smi -q (import/smi_query_health.c): its "GPU Recovery Action" (drivers from 570)
   and, before it, the GPU Reset Status section's "Reset Required" / "Drain and Reset
   Recommended" (550-565). The action is the table's (model/recovery.c), the one linkscope
   health takes from NVML's field for a live GPU, so both agree. GPUs with the same words
   are one finding. "None", "No", "N/A" and the deprecation notice say nothing. */
#include "recovery_rules.h"
#include "rules.h"
#include "model/doc.h"
#include "model/recovery.h"

#include <stdio.h>
#include <string.h>

/* "(nvidia-smi -q, WHAT): MEANING" into why, the finding's grouping and its text. */
static void say(char *why, size_t len, const char *what, const ls_recovery_t *r)
{
    snprintf(why, len, "(nvidia-smi -q, %s): %s", what,
             r ? r->meaning
               : "a recovery action this version of linkscope does not know: read it in "
                 "nvidia-smi -q and NVIDIA's documentation for the driver");
}

/* GPU g's ask, into why (empty when it asks nothing); its action. */
static enum ls_action ask_of(const json_t *g, char *why, size_t len)
{
    const char *ra = ls_json_str(g, "recovery_action", "");
    const json_t *rs = json_object_get(g, "reset_status");
    char what[160];
    const ls_recovery_t *r = NULL;
    why[0] = '\0';
    if (!ls_recovery_words_silent(ra)) {
        r = ls_recovery_of_words(ra);
        snprintf(what, sizeof what, "GPU Recovery Action %s", ra);
    } else if (!strcmp(ls_json_str(rs, "reset_required", ""), "Yes")) {
        r = ls_recovery_of_code(1); /* GPU Reset Required */
        snprintf(what, sizeof what, "GPU Reset Status: Reset Required Yes");
    } else if (!strcmp(ls_json_str(rs, "drain_and_reset_recommended", ""), "Yes")) {
        r = ls_recovery_of_code(4); /* Drain and Reset */
        snprintf(what, sizeof what, "GPU Reset Status: Drain and Reset Recommended Yes");
    } else
        return LS_ACT_NONE;
    say(why, len, what, r);
    return r ? r->action : LS_ACT_WATCH;
}

void ls_rules_recovery(const json_t *doc, json_t *out)
{
    json_t *order = ls_gpu_groups(doc, ask_of);
    size_t i;
    const json_t *g;
    json_array_foreach(order, i, g) {
        enum ls_action a = (enum ls_action)ls_json_int(g, "action", LS_ACT_WATCH);
        ls_finding_add(out, "recovery_action", ls_action_severity(a),
                       LS_ABOUT_GPUS((uint64_t)ls_json_int(g, "mask", 0)), json_pack("[s]", "gpus"),
                       "the driver asks for a recovery %s. Node action: %s",
                       ls_json_str(g, "why", ""), ls_action_name(a));
        json_object_set_new(json_array_get(out, json_array_size(out) - 1), "node_action",
                            json_string(ls_action_name(a)));
    }
    json_decref(order);
}
