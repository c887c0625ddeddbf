/* Built without CUDA: the burn says so (the summary and findings still work offline). */
#include "burn.h"
#include "util/log.h"

int ls_measure_burn(json_t *doc, const ls_burn_opts_t *o, char *err, size_t errlen)
{
    (void)doc, (void)o;
    ls_seterr(err, errlen, "this linkscope was built without CUDA: burn cannot run");
    return LS_EXIT_NOGPU;
}
