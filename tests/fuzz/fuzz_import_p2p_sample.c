/* p2pBandwidthLatencyTest output (import/p2p_sample.c). */
#include "fuzz_importer.h"
#include "import/p2p_sample.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return ls_fuzz_importer(data, size, ls_p2p_sample_detect, ls_import_p2p_sample);
}
