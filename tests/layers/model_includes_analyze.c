/* Layer probe, compiled as a file of model/: includes a header of analyze, a higher part.
   Must fail to compile (analyze is not in model's include view). */
#include "analyze/analyze.h"

int ls_probe_include(void)
{
    return 0;
}
