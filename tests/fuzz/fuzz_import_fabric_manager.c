/* import/fabric_manager.c, then the findings (rules_fabric.c among them). */
#include "fuzz_importer.h"
#include "import/fabric_manager.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return ls_fuzz_importer(data, size, ls_fabric_manager_detect, ls_import_fabric_manager);
}
