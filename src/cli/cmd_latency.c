/* linkscope latency: GPU-to-GPU and GPU-to-host latency by labelled definitions. */
#include "commands.h"
#include "measure_cli.h"
#include "render/matrix.h"
#include "render/measure_tables.h"
#include "util/log.h"

#include <stdlib.h>

const char usage_latency[] =
    "usage: linkscope latency [-o FILE | --into FILE] [--gpus LIST] [--samples N] [--csv DIR]\n"
    "\n"
    "Latency between every ordered pair of GPUs, in us, by four definitions, each labelled:\n"
    "  gpu_pingpong   a flag written into the peer's memory and polled there, 2000 round\n"
    "                 trips per sample, reported per one-way trip; also with both flags in\n"
    "                 pinned host memory (through host)\n"
    "  pointer_chase  dependent 8-byte reads of the peer's memory (row reads column's),\n"
    "                 per access; also of pinned host memory per GPU\n"
    "  gpu_copy       GPU-timed back-to-back 4-byte cudaMemcpyPeerAsync, per copy, P2P\n"
    "                 enabled and disabled (p2pBandwidthLatencyTest's GPU matrix)\n"
    "  cpu_copy       CPU time per cudaMemcpyPeerAsync call of that loop (its CPU matrix)\n"
    "\n"
    LS_MEASURE_OPTIONS_HELP
    "\n"
    "One GPU: measures GPU to host only and says that P2P needs two GPUs (exit 0); --gpus\n"
    "naming fewer than two GPUs: exit 2.\n"
    "Exit codes: 0 ok, 2 bad option or input file, 3 no usable GPU or built without CUDA.\n";

static const char *const methods[] = {"gpu_pingpong", "pointer_chase", "gpu_copy", "cpu_copy"};

static void print_latency(FILE *f, const json_t *doc, int color)
{
    ls_matrix_t *m = malloc(sizeof *m);
    if (!m)
        return;
    for (int h = 0; h < 2; h++)
        for (int k = 0; k < 4; k++)
            if (ls_matrix_from_doc(doc, "latency", methods[k], NULL, h, m))
                ls_matrix_print(f, m, color);
    ls_latency_host_table(f, doc);
    ls_p2p_path_table(f, doc);
    free(m);
}

static int csv_latency(const json_t *doc, const char *dir, char *err, size_t errlen)
{
    ls_matrix_t *m = malloc(sizeof *m);
    int rc = m ? 0 : -1;
    for (int h = 0; h < 2 && !rc; h++)
        for (int k = 0; k < 4 && !rc; k++)
            if (ls_matrix_from_doc(doc, "latency", methods[k], NULL, h, m))
                rc = ls_matrix_write_csv(m, dir, err, errlen);
    free(m);
    return rc;
}

int cmd_latency(int argc, char **argv)
{
    static const ls_family_cmd_t fam = {"latency", 1, 0, 0, ls_measure_latency, print_latency, csv_latency, 0};
    return ls_measure_command(&fam, argc, argv);
}
