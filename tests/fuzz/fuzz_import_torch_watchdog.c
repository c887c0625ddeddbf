/* import/torch_watchdog.c, then the findings. */
#include "fuzz_importer.h"
#include "import/torch_watchdog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return ls_fuzz_importer(data, size, ls_torch_watchdog_detect, ls_import_torch_watchdog);
}
