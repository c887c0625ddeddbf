/* Layer probe, compiled as a file of model/: calls analyze (a higher part) through a
   prototype of its own, so only the link can catch it. Must fail to link. */
#include <jansson.h>

json_t *ls_findings(const json_t *doc);

json_t *ls_probe_call(const json_t *doc)
{
    return ls_findings(doc);
}
