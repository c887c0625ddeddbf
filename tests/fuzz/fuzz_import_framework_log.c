/* import/framework_log.c, then the findings (rules_input.c among them). */
#include "fuzz_importer.h"
#include "import/framework_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return ls_fuzz_importer(data, size, ls_framework_log_detect, ls_import_framework_log);
}
