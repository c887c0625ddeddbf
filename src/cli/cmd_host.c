/* linkscope host: host <-> device copy bandwidth per GPU and NUMA node. */
#include "commands.h"
#include "measure_cli.h"
#include "render/measure_tables.h"
#include "util/log.h"

const char usage_host[] =
    "usage: linkscope host [-o FILE | --into FILE] [--gpus LIST] [--samples N] [--size SIZE]\n"
    "                      [--csv DIR]\n"
    "\n"
    "Host-to-device, device-to-host and both at once, per GPU, with pinned and pageable host\n"
    "memory bound to each NUMA node in turn (mbind) and the measuring thread on that node's\n"
    "CPUs; the GPU's own node is marked local, the others remote. Pinned copies are queued\n"
    "behind a gate kernel and timed with events; pageable copies are timed on the CPU.\n"
    "Every copy is verified. GB/s = 1e9 bytes/s; both directions = sum.\n"
    "\n"
    LS_MEASURE_OPTIONS_HELP
    "  --size SIZE    bytes per copy (default " LS_HOST_DEFAULT_SIZE_TEXT "; K/M/G are binary)\n"
    "\n"
    "Exit codes: 0 ok, 2 bad option or input file, 3 no usable GPU or built without CUDA.\n";

static void print_host(FILE *f, const json_t *doc, int color)
{
    (void)color;
    ls_host_table(f, doc);
}

int cmd_host(int argc, char **argv)
{
    static const ls_family_cmd_t fam = {"host", 0, 2, LS_HOST_DEFAULT_SIZE, ls_measure_host, print_host, ls_host_csv, 2};
    return ls_measure_command(&fam, argc, argv);
}
