/* import/dcgm_health.c, then the findings (analyze/rules_dcgm_health.c). */
#include "fuzz_importer.h"
#include "import/dcgm_health.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return ls_fuzz_importer(data, size, ls_dcgm_health_detect, ls_import_dcgm_health);
}
