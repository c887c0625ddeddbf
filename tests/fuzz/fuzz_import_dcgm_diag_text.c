/* import/dcgm_diag_text.c, then the findings. */
#include "fuzz_importer.h"
#include "import/dcgm_diag_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return ls_fuzz_importer(data, size, ls_dcgm_diag_text_detect, ls_import_dcgm_diag_text);
}
