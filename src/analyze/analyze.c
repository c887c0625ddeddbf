/* Placeholder until the findings rules and the planner land. */
#include "analyze.h"

json_t *ls_findings(const json_t *doc)
{
    (void)doc;
    return json_array();
}

json_t *ls_plan(const json_t *doc)
{
    (void)doc;
    return json_object();
}
