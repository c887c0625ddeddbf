/* Layer probe, compiled as a file of model/: uses util, which model may use. Must build. */
#include "util/parse.h"

int ls_probe_allowed(const char *text)
{
    long v = 0;
    return ls_parse_long(text, 0, 10, &v);
}
