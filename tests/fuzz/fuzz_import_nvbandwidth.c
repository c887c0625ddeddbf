/* nvbandwidth -j JSON (import/nvbandwidth.c). */
#include "fuzz_importer.h"
#include "import/nvbandwidth.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return ls_fuzz_importer(data, size, ls_nvbandwidth_detect, ls_import_nvbandwidth);
}
