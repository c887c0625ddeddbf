/* One NCCL collective swept over sizes on a set of GPUs, nccl-tests' way, producing
   one `nccl` measurement entry (docs/schema.md). */
#ifndef LS_NCCL_SWEEP_H
#define LS_NCCL_SWEEP_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *collective; /* "all_reduce", "all_gather", "reduce_scatter", "alltoall",
                               "broadcast", "reduce", "sendrecv" */
    const int *gpus;        /* CUDA device indices (PCI bus order) */
    int ngpus;
    uint64_t min_bytes, max_bytes; /* -b, -e */
    double step_factor;            /* -f (0 = use step_bytes) */
    uint64_t step_bytes;           /* -i */
    const uint64_t *sizes;         /* explicit sizes instead of min/max (NULL = sweep) */
    int nsizes;
    int iters, warmup; /* -n, -w */
    int check;         /* -c: validate results */
    const char *dtype; /* "float", "half", "bfloat16", ... */
    const char *redop; /* "sum", ... */
    int root;          /* -r */
    int graph;         /* -G: iterations captured in a CUDA graph */
    int in_place;      /* 0 out-of-place only, 1 in-place only, 2 both */
    double timeout_s;  /* watchdog: abort a collective that takes longer */
    /* Added by the NCCL harness (issue 4): */
    int blocking;        /* -z 1: wait for each collective inside the timed loop */
    const char *variant; /* label of the entry: "default" or "NCCL_P2P_LEVEL=PHB" */
    int mpi;             /* one GPU per MPI rank (ls_mpi_init done by the caller);
                            gpus then lists the GPU of each node-local rank */
    int threads;         /* 1: one thread per GPU launches that GPU's collectives
                            (no group call), as one process per GPU would; 0: one
                            thread launches for every GPU in group calls (nccl-tests'
                            default, -t 1). Several GPUs, no MPI, no -G only. */
} ls_nccl_sweep_opts_t;

/* Runs the sweep in this process; returns the entry (status "failed"/"timeout" with
   error on failure, rows so far kept), or NULL with err when nothing could start
   (NCCL missing, bad GPU). */
json_t *ls_nccl_sweep(const ls_nccl_sweep_opts_t *opts, char *err, size_t errlen);

/* Loads NCCL (dlopen) and gives its version ("2.28.3"). 0, or -1 with err saying how
   to install it. Built without nccl.h: -1 saying so. */
int ls_nccl_probe(char *version, size_t vlen, char *err, size_t errlen);

/* Destroys the communicators kept between sweeps of one process. */
void ls_nccl_sweep_finish(void);

/* Under MPI: 1 on rank 0 (which prints and writes), 0 elsewhere; 1 without MPI. */
int ls_nccl_is_writer(void);

#endif
