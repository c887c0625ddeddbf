/* MPI through dlopen: one linkscope binary runs with or without MPI. Under mpirun
   (Open MPI, or an MPICH-ABI MPI), libmpi is opened at run time and these few calls
   are used: init, rank and size, broadcast, gather, barrier, finalize. Host-only. */
#ifndef LS_NCCL_MPIRT_H
#define LS_NCCL_MPIRT_H

#include <stddef.h>

/* 1 when this process was started by an MPI launcher with more than zero ranks
   (OMPI_COMM_WORLD_SIZE, PMI_SIZE, PMIX_RANK, MV2_COMM_WORLD_SIZE). */
int ls_mpi_launched(void);

/* Opens libmpi (LINKSCOPE_MPI, else libmpi.so.40 = Open MPI, else libmpi.so.12 =
   MPICH ABI) and calls MPI_Init. 0, or -1 with err. */
int ls_mpi_init(char *err, size_t errlen);
int ls_mpi_rank(void);
int ls_mpi_size(void);
/* Rank among the ranks on this host (hostnames gathered over MPI). */
int ls_mpi_local_rank(void);
int ls_mpi_bcast(void *buf, size_t bytes, int root);
/* Every rank sends `bytes`; root receives size x bytes into recv (rank order). */
int ls_mpi_gather(const void *send, size_t bytes, void *recv, int root);
/* Every rank gets every rank's block (gather to 0, then broadcast). */
int ls_mpi_allgather(const void *send, size_t bytes, void *recv);
int ls_mpi_barrier(void);
void ls_mpi_finalize(void);
/* Which library was opened ("libmpi.so.40 (Open MPI)"). */
const char *ls_mpi_library(void);

#endif
