/* import/smi_table.c (plain nvidia-smi and its failure texts), then the findings. */
#include "fuzz_importer.h"
#include "import/smi_table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return ls_fuzz_importer(data, size, ls_smi_table_detect, ls_import_smi_table);
}
