/* dcgmi health -c -j. Layout from DCGM's printing code (dcgmi/Health.cpp
   GenerateOutputFromResponse through DcgmiOutputJson, dcgmi/DcgmiOutput.h; no JSON
   output was found posted): a header and a body of boxes, each {"value", "overflow"
   (message lines), "children"}:
     {"header": ["Health Monitor Report"],
      "body": {"Overall Health": {"value": "Failure"},
               "GPU": {"children": {"1": {"value": "Failure", "children": {"Errors":
                 {"children": {"Memory system": {"value": "Failure",
                                                 "overflow": ["... message ..."]}}}}}}}}}
   Results are "Healthy", "Warning", "Failure"; an entity group is named by DCGM's entity
   group string (GPU, Switch, ConnectX, CPU ...). The text form (-c without -j) prints
   the same tree as a box table; it is not read here. */
#include "dcgm_health.h"
#include "import_util.h"
#include "model/doc.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ls_dcgm_health_detect(const char *text)
{
    const char *p = ls_json_start(text); /* after a prompt, as posted: DCGM#263 */
    return p && (strstr(p, "\"Health Monitor Report\"") || strstr(p, "\"Overall Health\""));
}

/* "Healthy" -> "healthy", "Warning" -> "warning", "Failure" -> "failure". */
static json_t *result_of(const json_t *box)
{
    char out[32];
    const char *v = ls_json_str(box, "value", "unknown");
    size_t i = 0;
    for (; v[i] && i + 1 < sizeof out; i++)
        out[i] = (char)(v[i] >= 'A' && v[i] <= 'Z' ? v[i] + 32 : v[i]);
    out[i] = 0;
    return json_string(out);
}

/* DCGM splits a long message over "overflow" lines; they join with one blank. */
static json_t *message_of(const json_t *box)
{
    char msg[2048] = "";
    size_t used = 0, i;
    const json_t *line;
    json_array_foreach(json_object_get(box, "overflow"), i, line) {
        if (json_is_string(line) && used < sizeof msg)
            used += (size_t)snprintf(msg + used, sizeof msg - used, "%s%s", used ? " " : "",
                                     json_string_value(line));
    }
    return json_string(msg);
}

static json_t *entity(const char *group, const char *id, const json_t *box, int *incidents)
{
    json_t *systems = json_array();
    const char *sys;
    const json_t *s;
    json_object_foreach(json_object_get(json_object_get(json_object_get(box, "children"), "Errors"),
                                        "children"),
                        sys, s) {
        json_array_append_new(systems, json_pack("{s:s, s:o, s:o}", "system", sys, "health",
                                                 result_of(s), "message", message_of(s)));
        (*incidents)++;
    }
    char *end;
    long long n = strtoll(id, &end, 10);
    json_t *e = json_pack("{s:s, s:o, s:o}", "group", group, "health", result_of(box), "systems",
                          systems);
    json_object_set_new(e, "id", *end == 0 && end != id ? json_integer(n) : json_string(id));
    return e;
}

int ls_import_dcgm_health(json_t *doc, const char *text, const char *name, char *err, size_t errlen)
{
    json_error_t jerr;
    const char *start = ls_json_start(text);
    json_t *top = json_loads(start ? start : text, JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK, &jerr);
    const json_t *body = json_object_get(top, "body");
    const json_t *overall = json_object_get(body, "Overall Health");
    if (!json_is_object(overall))
        return ls_import_json_refused(top, &jerr, name, "dcgmi health",
                                      "no \"Overall Health\" in its body", err, errlen);
    json_t *entities = json_array();
    int incidents = 0;
    const char *group, *id;
    const json_t *g, *box;
    json_object_foreach((json_t *)body, group, g) {
        json_object_foreach(json_object_get(g, "children"), id, box)
            json_array_append_new(entities, entity(group, id, box, &incidents));
    }
    json_t *h = json_pack("{s:s, s:o, s:o}", "file", name, "overall", result_of(overall),
                          "entities", entities);
    json_t *list = ls_json_array_at(doc, "dcgm_health");
    json_array_append_new(list, h);
    json_decref(top);
    return incidents;
}
