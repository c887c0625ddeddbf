/* import/perftest.c, then the findings. */
#include "fuzz_importer.h"
#include "import/perftest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return ls_fuzz_importer(data, size, ls_perftest_detect, ls_import_perftest);
}
