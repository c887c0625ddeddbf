/* import/dcgm_error.c, then the findings (analyze/rules_tools.c's dcgm_runtime_error). */
#include "fuzz_importer.h"
#include "import/dcgm_error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return ls_fuzz_importer(data, size, ls_dcgm_error_detect, ls_import_dcgm_error);
}
