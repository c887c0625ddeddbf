/* dcgmi health's watch results (import/dcgm_health.c) as findings: a system DCGM
   found failing is an error, a warning a warning, each naming its entity and DCGM's
   own message (which says what it saw); a healthy report is evidence. */
#include "rules.h"
#include "tools_rules.h"
#include "model/doc.h"

#include <stdio.h>
#include <string.h>

static void entity_name(const json_t *e, char *out, size_t len)
{
    const json_t *id = json_object_get(e, "id");
    if (json_is_integer(id))
        snprintf(out, len, "%s%lld", ls_json_str(e, "group", "entity"),
                 (long long)json_integer_value(id));
    else
        snprintf(out, len, "%s %s", ls_json_str(e, "group", "entity"),
                 json_string_value(id) ? json_string_value(id) : "?");
}

/* A GPU entity is that GPU; any other (a switch, a link, a CPU) is named by its text. */
static ls_about_t entity_about(const json_t *e, const char *name)
{
    const json_t *id = json_object_get(e, "id");
    if (json_is_integer(id) && !strcmp(ls_json_str(e, "group", ""), "GPU"))
        return LS_ABOUT_GPU(json_integer_value(id));
    return LS_ABOUT_WHAT(name);
}

static void health_one(json_t *out, const json_t *h)
{
    size_t i, j;
    const json_t *e, *s;
    int problems = 0;
    json_array_foreach(json_object_get(h, "entities"), i, e) {
        char who[96];
        entity_name(e, who, sizeof who);
        json_array_foreach(json_object_get(e, "systems"), j, s) {
            const char *st = ls_json_str(s, "health", "");
            int fail = strcmp(st, "failure") == 0;
            if (!fail && strcmp(st, "warning") != 0)
                continue;
            problems++;
            const char *msg = ls_json_str(s, "message", "");
            ls_finding_add(out, "dcgm_health", fail ? LS_SEV_ERROR : LS_SEV_WARNING,
                           entity_about(e, who), NULL, "DCGM health watch: %s %s on %s: %s",
                           ls_json_str(s, "system", "?"), fail ? "failed" : "warned", who,
                           msg[0] ? msg : "DCGM gave no message");
        }
    }
    const char *overall = ls_json_str(h, "overall", "unknown");
    if (problems == 0 && strcmp(overall, "healthy") == 0)
        ls_finding_add(out, "dcgm_health_ok", LS_SEV_INFO, LS_ABOUT_WHAT("DCGM health watches"),
                       NULL,
                       "DCGM health watches: healthy (no incident in the samples DCGM kept; %s)",
                       ls_json_str(h, "file", "?"));
    else if (problems == 0 && strcmp(overall, "healthy") != 0)
        ls_finding_add(out, "dcgm_health", LS_SEV_WARNING, LS_ABOUT_WHAT("DCGM health watches"),
                       NULL, "DCGM health watches: overall %s with no incident named", overall);
}

void ls_rules_dcgm_health(const json_t *doc, json_t *out)
{
    size_t i;
    const json_t *h;
    json_array_foreach(json_object_get(doc, "dcgm_health"), i, h)
        health_one(out, h);
}
