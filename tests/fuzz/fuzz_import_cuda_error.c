/* import/cuda_error.c, then the findings (rules_cuda_errors.c among them). */
#include "fuzz_importer.h"
#include "import/cuda_error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return ls_fuzz_importer(data, size, ls_cuda_error_detect, ls_import_cuda_errors);
}
