/* import/nvloom.c (matrices, CSV), then the findings and fleet's figures. */
#include "fuzz_importer.h"
#include "import/nvloom.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return ls_fuzz_importer(data, size, ls_nvloom_detect, ls_import_nvloom);
}
