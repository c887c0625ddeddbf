/* Placeholder: the discovery backends replace this file. */
#include "discover.h"

int ls_discover(json_t *doc, const ls_discover_opts_t *opts)
{
    (void)doc;
    (void)opts;
    return 0;
}
