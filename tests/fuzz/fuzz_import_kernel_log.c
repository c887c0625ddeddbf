/* import/kernel_log.c, then the findings (rules_kernel.c among them). */
#include "fuzz_importer.h"
#include "import/kernel_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return ls_fuzz_importer(data, size, ls_kernel_log_detect, ls_import_kernel_log);
}
