/* import/dcgm_diag.c, then the findings over what it kept (analyze/rules_tools.c). */
#include "fuzz_importer.h"
#include "import/dcgm_diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return ls_fuzz_importer(data, size, ls_dcgm_diag_detect, ls_import_dcgm_diag);
}
