/* linkscope nccl --mpi-selftest (variants.h): the MPI runtime checked without NCCL. */
#include "variants.h"
#include "mpirt.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>

int ls_nccl_mpi_selftest(void)
{
    char err[512];
    if (!ls_mpi_launched()) {
        ls_error("nccl --mpi-selftest: not started by mpirun (no OMPI_COMM_WORLD_SIZE, PMI_SIZE or "
                 "PMIX_RANK)");
        return LS_EXIT_USAGE;
    }
    if (ls_mpi_init(err, sizeof err) != 0) {
        ls_error("%s", err);
        return LS_EXIT_NOGPU;
    }
    int rank = ls_mpi_rank(), size = ls_mpi_size();
    unsigned char id[128]; /* the size of ncclUniqueId */
    for (int k = 0; k < 128; k++)
        id[k] = rank == 0 ? (unsigned char)(k * 37 + 11) : 0;
    int ok = ls_mpi_bcast(id, sizeof id, 0) == 0;
    for (int k = 0; k < 128; k++)
        ok = ok && id[k] == (unsigned char)(k * 37 + 11);
    struct {
        int rank, local_rank, ok, pad;
        double value;
    } mine = {rank, ls_mpi_local_rank(), ok, 0, 1.5 * rank},
      *all = calloc((size_t)size, sizeof mine);
    int gathered = all && ls_mpi_gather(&mine, sizeof mine, all, 0) == 0;
    int rc = LS_EXIT_OK;
    if (rank == 0) {
        int good = gathered;
        for (int r = 0; r < size && gathered; r++) {
            printf("rank %d: node-local rank %d, unique id broadcast %s, value %.1f\n", all[r].rank,
                   all[r].local_rank, all[r].ok ? "ok" : "WRONG", all[r].value);
            good = good && all[r].ok && all[r].rank == r && all[r].value == 1.5 * r;
        }
        printf("mpi self-test: %d ranks through %s: %s\n", size, ls_mpi_library(),
               good ? "broadcast and gather ok" : "FAILED");
        rc = good ? LS_EXIT_OK : LS_EXIT_CHECK;
    }
    free(all);
    ls_mpi_barrier();
    ls_mpi_finalize();
    return rc;
}
