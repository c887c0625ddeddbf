#include "mpirt.h"
#include "sweep.h"
#include "util/log.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Handles are passed as pointer-sized values: Open MPI's MPI_Comm and MPI_Datatype are
   pointers to its predefined objects (found with dlsym); the MPICH ABI uses int
   constants, which the x86-64 and AArch64 calling conventions pass in the same
   registers (the callee reads the low 32 bits). */
typedef void *handle_t;

static struct {
    void *lib;
    char name[96];
    handle_t comm_world, byte;
    int (*Init)(int *, char ***);
    int (*Initialized)(int *);
    int (*Finalize)(void);
    int (*Comm_rank)(handle_t, int *);
    int (*Comm_size)(handle_t, int *);
    int (*Bcast)(void *, int, handle_t, int, handle_t);
    int (*Gather)(const void *, int, handle_t, void *, int, handle_t, int, handle_t);
    int (*Barrier)(handle_t);
    int rank, size, local_rank;
} mpi;

#define MPICH_COMM_WORLD ((handle_t)(uintptr_t)0x44000000)
#define MPICH_BYTE ((handle_t)(uintptr_t)0x4c00010d)

int ls_mpi_launched(void)
{
    static const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK",
                                 "MV2_COMM_WORLD_SIZE"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i]))
            return 1;
    return 0;
}

static void *open_mpi(void)
{
    const char *chosen = getenv("LINKSCOPE_MPI");
    const char *names[] = {chosen, "libmpi.so.40", "libmpi.so.12", "libmpi.so"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!names[i] || !*names[i])
            continue;
        /* RTLD_GLOBAL: Open MPI's components dlopen themselves against libmpi's symbols. */
        void *h = dlopen(names[i], RTLD_NOW | RTLD_GLOBAL);
        if (h) {
            snprintf(mpi.name, sizeof mpi.name, "%s", names[i]);
            return h;
        }
    }
    return NULL;
}

#define MPISYM(field, symbol)                                                                      \
    do {                                                                                           \
        *(void **)&mpi.field = dlsym(mpi.lib, symbol);                                             \
        if (!mpi.field)                                                                            \
            return ls_seterr(err, errlen, "%s lacks %s", mpi.name, symbol);                        \
    } while (0)

int ls_mpi_init(char *err, size_t errlen)
{
    if (mpi.lib)
        return 0;
    mpi.lib = open_mpi();
    if (!mpi.lib)
        return ls_seterr(err, errlen,
                         "started under mpirun but no libmpi could be opened (libmpi.so.40, "
                         "libmpi.so.12): install Open MPI or set LINKSCOPE_MPI to libmpi's path");
    MPISYM(Init, "MPI_Init");
    MPISYM(Initialized, "MPI_Initialized");
    MPISYM(Finalize, "MPI_Finalize");
    MPISYM(Comm_rank, "MPI_Comm_rank");
    MPISYM(Comm_size, "MPI_Comm_size");
    MPISYM(Bcast, "MPI_Bcast");
    MPISYM(Gather, "MPI_Gather");
    MPISYM(Barrier, "MPI_Barrier");
    void *ompi_world = dlsym(mpi.lib, "ompi_mpi_comm_world");
    if (ompi_world) {
        mpi.comm_world = ompi_world;
        mpi.byte = dlsym(mpi.lib, "ompi_mpi_byte");
        strncat(mpi.name, " (Open MPI)", sizeof mpi.name - strlen(mpi.name) - 1);
    } else {
        mpi.comm_world = MPICH_COMM_WORLD;
        mpi.byte = MPICH_BYTE;
        strncat(mpi.name, " (MPICH ABI)", sizeof mpi.name - strlen(mpi.name) - 1);
    }
    int inited = 0;
    mpi.Initialized(&inited);
    if (!inited && mpi.Init(NULL, NULL) != 0)
        return ls_seterr(err, errlen, "MPI_Init failed (%s)", mpi.name);
    mpi.Comm_rank(mpi.comm_world, &mpi.rank);
    mpi.Comm_size(mpi.comm_world, &mpi.size);
    /* Node-local rank: the ranks before this one with the same hostname. */
    char host[64] = "";
    gethostname(host, sizeof host - 1);
    char *all = calloc((size_t)mpi.size, sizeof host);
    if (!all || ls_mpi_allgather(host, sizeof host, all) != 0) {
        free(all);
        return ls_seterr(err, errlen, "MPI: gathering hostnames failed");
    }
    mpi.local_rank = 0;
    for (int r = 0; r < mpi.rank; r++)
        if (strncmp(all + (size_t)r * sizeof host, host, sizeof host) == 0)
            mpi.local_rank++;
    free(all);
    return 0;
}

int ls_mpi_rank(void)
{
    return mpi.rank;
}
int ls_mpi_size(void)
{
    return mpi.lib ? mpi.size : 1;
}
int ls_mpi_local_rank(void)
{
    return mpi.local_rank;
}
const char *ls_mpi_library(void)
{
    return mpi.name;
}

/* Large blocks go in pieces below INT_MAX bytes (MPI counts are int). */
#define LS_MPI_CHUNK ((size_t)1 << 30)

int ls_mpi_bcast(void *buf, size_t bytes, int root)
{
    for (size_t off = 0; off < bytes; off += LS_MPI_CHUNK) {
        size_t n = bytes - off < LS_MPI_CHUNK ? bytes - off : LS_MPI_CHUNK;
        if (mpi.Bcast((char *)buf + off, (int)n, mpi.byte, root, mpi.comm_world) != 0)
            return -1;
    }
    return 0;
}

int ls_mpi_gather(const void *send, size_t bytes, void *recv, int root)
{
    if (bytes > LS_MPI_CHUNK)
        return -1;
    return mpi.Gather(send, (int)bytes, mpi.byte, recv, (int)bytes, mpi.byte, root,
                      mpi.comm_world) == 0
               ? 0
               : -1;
}

int ls_mpi_allgather(const void *send, size_t bytes, void *recv)
{
    if (ls_mpi_gather(send, bytes, recv, 0) != 0)
        return -1;
    return ls_mpi_bcast(recv, bytes * (size_t)mpi.size, 0);
}

int ls_mpi_barrier(void)
{
    return mpi.Barrier(mpi.comm_world) == 0 ? 0 : -1;
}

void ls_mpi_finalize(void)
{
    if (mpi.lib && mpi.Finalize)
        mpi.Finalize();
}

int ls_nccl_is_writer(void)
{
    return !mpi.lib || mpi.rank == 0;
}
