/* linkscope hbm: device-local memory bandwidth per GPU, as HBM traffic. */
#include "commands.h"
#include "measure_cli.h"
#include "render/measure_tables.h"
#include "util/log.h"

const char usage_hbm[] =
    "usage: linkscope hbm [-o FILE | --into FILE] [--gpus LIST] [--samples N] [--size SIZE]\n"
    "                     [--csv DIR]\n"
    "\n"
    "Device-local memory bandwidth per GPU: read, write and copy kernels (16-byte accesses,\n"
    "non-zero pseudo-random data, buffers far larger than L2) and a copy-engine copy\n"
    "(cudaMemcpyAsync, as nvbandwidth's device_local_copy), reported as HBM traffic =\n"
    "bytes read + bytes written per second (a copy counts each byte twice; its bytes copied\n"
    "per second are shown too), beside the theoretical peak (memory clock x 2 x bus width)\n"
    "and the efficiency. GB/s = 1e9 bytes/s.\n"
    "\n"
    LS_MEASURE_OPTIONS_HELP
    "  --size SIZE    bytes per buffer (default " LS_HBM_DEFAULT_SIZE_TEXT "; two buffers per GPU)\n"
    "\n"
    "Exit codes: 0 ok, 2 bad option or input file, 3 no usable GPU or built without CUDA.\n";

static void print_hbm(FILE *f, const json_t *doc, int color)
{
    (void)color;
    ls_hbm_table(f, doc);
}

int cmd_hbm(int argc, char **argv)
{
    static const ls_family_cmd_t fam = {"hbm", 0, 2, LS_HBM_DEFAULT_SIZE, ls_measure_hbm, print_hbm, ls_hbm_csv, 0};
    return ls_measure_command(&fam, argc, argv);
}
