/* linkscope p2p: P2P bandwidth for every ordered GPU pair. */
#include "commands.h"
#include "measure_cli.h"
#include "render/matrix.h"
#include "util/log.h"

#include <stdlib.h>

const char usage_p2p[] =
    "usage: linkscope p2p [-o FILE | --into FILE] [--gpus LIST] [--samples N] [--size SIZE]\n"
    "                     [--csv DIR]\n"
    "\n"
    "P2P bandwidth for every ordered pair of GPUs, one direction and both directions at\n"
    "once, by four methods: ce (copy engine, cudaMemcpyPeerAsync), sm_write (copy kernel\n"
    "on the source writing into the peer), sm_read (copy kernel on the destination reading\n"
    "the peer), staged (P2P disabled: through pinned host memory). Every copy is queued\n"
    "behind a gate kernel, timed with events, and verified after. Pairs without P2P are\n"
    "marked and measured through the host. GB/s = 1e9 bytes/s; both directions = sum.\n"
    "\n"
    LS_MEASURE_OPTIONS_HELP
    "  --size SIZE    bytes per copy (default " LS_P2P_DEFAULT_SIZE_TEXT "; K/M/G are binary)\n"
    "\n"
    "One GPU: says that P2P needs two GPUs and exits 0; --gpus naming fewer than two: exit 2.\n"
    "Exit codes: 0 ok, 2 bad option or input file, 3 no usable GPU or built without CUDA.\n";

static const char *const methods[] = {"ce", "sm_write", "sm_read", "staged"};

static void print_p2p(FILE *f, const json_t *doc, int color)
{
    ls_matrix_t *m = malloc(sizeof *m);
    if (!m)
        return;
    for (int d = 0; d < 2; d++)
        for (int k = 0; k < 4; k++)
            if (ls_matrix_from_doc(doc, "p2p", methods[k], d ? "bidir" : "uni", 0, m))
                ls_matrix_print(f, m, color);
    ls_p2p_path_table(f, doc);
    free(m);
}

static int csv_p2p(const json_t *doc, const char *dir, char *err, size_t errlen)
{
    ls_matrix_t *m = malloc(sizeof *m);
    int rc = m ? 0 : -1;
    for (int d = 0; d < 2 && !rc; d++)
        for (int k = 0; k < 4 && !rc; k++)
            if (ls_matrix_from_doc(doc, "p2p", methods[k], d ? "bidir" : "uni", 0, m))
                rc = ls_matrix_write_csv(m, dir, err, errlen);
    free(m);
    return rc;
}

int cmd_p2p(int argc, char **argv)
{
    static const ls_family_cmd_t fam = {"p2p", 1, 2, LS_P2P_DEFAULT_SIZE, ls_measure_p2p, print_p2p, csv_p2p, 0};
    return ls_measure_command(&fam, argc, argv);
}
