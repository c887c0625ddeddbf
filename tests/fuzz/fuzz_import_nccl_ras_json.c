/* import/nccl_ras_json.c, then the findings over what it kept (analyze/rules_tools.c). */
#include "fuzz_importer.h"
#include "import/nccl_ras_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return ls_fuzz_importer(data, size, ls_nccl_ras_json_detect, ls_import_nccl_ras_json);
}
