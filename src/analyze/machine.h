/* The machine as the analysis sees it: a run document condensed into per-GPU and
   per-pair figures (best measured P2P bandwidth, HBM, NUMA node, memory, link class).
   Built once from the document; every rule and the planner read it. */
#ifndef LS_ANALYZE_MACHINE_H
#define LS_ANALYZE_MACHINE_H

#include <jansson.h>
#include <stdint.h>

#include "model/gpuset.h"
#include "model/topo.h"

/* One measured figure of a GPU pair: the entry it came from and its spread. */
typedef struct {
    double value; /* median GB/s; 0 when nothing was measured */
    double min, max, stddev;
    int n;          /* samples */
    int direct;     /* 1: peer access (P2P), 0: staged through host memory */
    const char *id; /* measurement id (owned by the document) */
} ls_pair_bw_t;

typedef struct {
    const json_t *doc;
    int ngpus;
    const json_t *gpu[LS_MAX_GPUS]; /* gpus[] object by index, NULL when absent */
    ls_topo_t *topo;                /* link types and P2P status */
    int has_topo;
    ls_pair_bw_t uni[LS_MAX_GPUS][LS_MAX_GPUS];   /* best one-direction P2P, src -> dst */
    ls_pair_bw_t bidir[LS_MAX_GPUS][LS_MAX_GPUS]; /* both directions, a < b */
    double hbm[LS_MAX_GPUS];                      /* best measured HBM traffic GB/s, 0 = none */
    double hbm_theoretical[LS_MAX_GPUS];
    const char *hbm_id[LS_MAX_GPUS];
    int numa[LS_MAX_GPUS];         /* -1 unknown */
    long long memory[LS_MAX_GPUS]; /* bytes, 0 unknown */
} ls_machine_t;

/* Condenses doc (which must outlive the machine). NULL only when out of memory. */
ls_machine_t *ls_machine_new(const json_t *doc);
void ls_machine_free(ls_machine_t *m);

/* Link class rank of an ordered pair: 1 NV, 2 PIX, 3 PXB, 4 PHB, 5 NODE, 6 SYS, 7 unknown.
   A pair whose P2P status is known and not OK both ways counts as SYS (no direct path). */
int ls_machine_rank(const ls_machine_t *m, int a, int b);
/* 1 when GPU g is a consumer board, GeForce or TITAN (its name says so: NVML gives the
   TITANs a brand of their own, on the GeForce driver's P2P policy): NVIDIA's driver gives
   these cards no PCIe peer access (recent generations; where an older board still has
   it, no pair lacks it and nothing here fires). */
int ls_machine_geforce(const ls_machine_t *m, int g);
/* Link word of a pair ("NV4", "PIX", ...), "?" when unknown. */
const char *ls_machine_link_word(const ls_machine_t *m, int a, int b, char *buf, size_t len);
/* 1 when P2P status is OK both ways (or unknown and CUDA peer access said yes). */
int ls_machine_p2p_ok(const ls_machine_t *m, int a, int b);

/* One-direction bandwidth a -> b for planning: the measured figure when there is one,
   else an estimate from the link class (docs/analysis.md); 0 (unknown) when the pair's
   link class is unknown. *measured set to 1/0. */
double ls_machine_pair_gbps(const ls_machine_t *m, int a, int b, int *measured);

/* GPU's board name ("" when unknown). */
const char *ls_machine_gpu_name(const ls_machine_t *m, int g);

/* Number of set bits, lowest set index. */
int ls_popcount64(uint64_t x);

/* The largest size an nccl entry reached (its `bytes`, else its last row's; 0 unknown),
   and its bus bandwidth at `bytes` (the row of that size; its value when it reached
   exactly that size or its sizes are unknown; NAN when it has no such row). */
double ls_nccl_largest_bytes(const json_t *entry);
double ls_nccl_busbw_at(const json_t *entry, double bytes);

/* 1 when an nccl entry's largest size is latency-bound by the sweep's own curve: its
   time there under LS_LATENCY_BOUND_FACTOR x the smallest size's (the transfer term is
   less than the fixed latency); 0 when it is not or the curve cannot tell (one size, no
   times). Its busbw at that size is then a latency figure, never a bandwidth. small_us
   and large_us (each may be NULL) get the two times (-1 unknown). */
#define LS_LATENCY_BOUND_FACTOR 2.0
int ls_nccl_latency_bound(const json_t *entry, double *small_us, double *large_us);

/* Median of n values (sorted copy; 0 for n == 0). */
double ls_median(const double *values, int n);
/* qsort order of the double each element starts with: a double, or a struct whose first
   member is one (C allows the cast to its first member). */
int ls_cmp_double(const void *a, const void *b);

#endif
