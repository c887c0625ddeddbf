/* The families' descriptors (families.h), one per family of docs/schema.md. Adding one:
   its descriptor here and its pointer in ls_fams[] (docs/design.md). */
#include "families.h"
#include "vocab.h"

#include <string.h>

/* compare's identity keys (analyze/compare.c): what makes two figures the same figure */
static const char *const pair_identity[] = {"s:method", "s:mode", "s:direction", "i:src",
                                            "i:dst",    "*:p2p",  "s:under",     NULL};
static const char *const gpu_identity[] = {"s:method", "i:gpu", NULL};
static const char *const host_identity[] = {"s:method", "s:direction", "i:gpu", "i:numa_node",
                                            "s:memory", "s:under",     NULL};
/* subject: imports name it (derived from the id) */
static const char *const other_identity[] = {"s:method", "s:id", "s:subject", NULL};

/* GB/s is 1e9 bytes per second (docs/methods.md); latency is in microseconds. */
#define GBPS 1e9
#define US 1e-6

static const ls_fam_method_t p2p_methods[] = {
    {.word = LS_P2P_CE, .words = "copy engine (cudaMemcpyPeerAsync)"},
    {.word = LS_P2P_SM_WRITE, .words = "SM kernel on the source writing into the peer"},
    {.word = LS_P2P_SM_READ, .words = "SM kernel on the destination reading the peer"},
    {.word = LS_P2P_STAGED, .words = "P2P disabled: staged through pinned host memory"},
    {.word = NULL},
};

const ls_fam_t ls_fam_p2p = {
    .name = LS_FAMILY_P2P,
    .title = "P2P bandwidth",
    .metric = "bandwidth",
    .unit = "GB/s",
    .per = LS_PER_PAIR,
    .directions = 1,
    .methods = p2p_methods,
    .identity = pair_identity,
    .prom = {.metric = "bandwidth",
             .name = "linkscope_p2p_bandwidth_bytes_per_second",
             .help = "GPU to GPU copy bandwidth, median of the samples (direction uni: one way; "
                     "bidir: both summed).",
             .scale = GBPS},
    .section = "matrices",
    .show = LS_SHOW_MATRIX,
    .cost = "p2p_ce",
    .own_steps = 1,
};

static const ls_fam_method_t latency_methods[] = {
    {.word = LS_LAT_GPU_PINGPONG,
     .words = "one-way trip: flag written into the peer's memory, ping-pong / 2"},
    {.word = LS_LAT_POINTER_CHASE, .words = "per dependent 8-byte read; row reads column's memory"},
    {.word = LS_LAT_GPU_COPY,
     .words = "GPU-timed 4 B cudaMemcpyPeerAsync, per copy (p2pBandwidthLatencyTest GPU)"},
    {.word = LS_LAT_CPU_COPY,
     .words = "CPU time per 4 B cudaMemcpyPeerAsync call (p2pBandwidthLatencyTest CPU)"},
    {.word = NULL},
};

const ls_fam_t ls_fam_latency = {
    .name = LS_FAMILY_LATENCY,
    .title = "GPU-to-GPU latency",
    .metric = "latency",
    .unit = "us",
    .per = LS_PER_PAIR,
    .lower_is_better = 1,
    .methods = latency_methods,
    .identity = pair_identity,
    .prom = {.metric = "latency",
             .name = "linkscope_p2p_latency_seconds",
             .help = "GPU to GPU latency, median of the samples.",
             .scale = US},
    .section = "matrices",
    .show = LS_SHOW_MATRIX,
    .cost = "latency",
    .own_steps = 1,
};

static const ls_fam_method_t hbm_methods[] = {
    {.word = LS_HBM_READ, .words = "read kernel"},
    {.word = LS_HBM_WRITE, .words = "write kernel"},
    {.word = LS_HBM_COPY, .words = "SM copy kernel"},
    {.word = LS_HBM_COPY_CE, .words = "copy engine (cudaMemcpyAsync device to device)"},
    {.word = NULL},
};

const ls_fam_t ls_fam_hbm = {
    .name = LS_FAMILY_HBM,
    .title = "Device memory bandwidth",
    .metric = "bandwidth",
    .unit = "GB/s",
    .per = LS_PER_GPU,
    .methods = hbm_methods,
    .identity = gpu_identity,
    .prom = {.metric = "bandwidth",
             .name = "linkscope_hbm_bandwidth_bytes_per_second",
             .help = "Device memory traffic (bytes read + bytes written) per second, median.",
             .scale = GBPS},
    .section = "memory",
    .show = LS_SHOW_OWN,
    .cost = "hbm",
    .own_steps = 1,
};

/* a host copy's "method" repeats its direction */
static const ls_fam_method_t host_methods[] = {
    {.word = LS_DIR_H2D, .words = "host to device"},
    {.word = LS_DIR_D2H, .words = "device to host"},
    {.word = LS_DIR_BIDIR, .words = "both directions at once"},
    {.word = NULL},
};

const ls_fam_t ls_fam_host = {
    .name = LS_FAMILY_HOST,
    .title = "Host copy bandwidth",
    .metric = "bandwidth",
    .unit = "GB/s",
    .per = LS_PER_GPU,
    .directions = 1,
    .methods = host_methods,
    .identity = host_identity,
    .prom = {.metric = "bandwidth",
             .name = "linkscope_host_copy_bandwidth_bytes_per_second",
             .help = "Host <-> device copy bandwidth, median.",
             .scale = GBPS},
    .section = "memory",
    .show = LS_SHOW_OWN,
    .cost = "host_pinned",
    .own_steps = 1,
};

static const ls_fam_method_t fabric_methods[] = {
    {.word = LS_FABRIC_ALL_TO_ALL, .words = "every GPU writing to every other"},
    {.word = LS_FABRIC_ONE_TO_ALL, .words = "one GPU writing to every other"},
    {.word = LS_FABRIC_ALL_TO_ONE, .words = "every other GPU writing to one"},
    {.word = NULL},
};

/* not measured alone yet: a P2P copy-engine figure's cost stands in (docs/schedule.md) */
const ls_fam_t ls_fam_fabric = {
    .name = LS_FAMILY_FABRIC,
    .title = "Fabric stress bandwidth",
    .metric = "bandwidth",
    .unit = "GB/s",
    .per = LS_PER_SET,
    .methods = fabric_methods,
    .identity = other_identity,
    .section = "matrices",
    .show = LS_SHOW_OWN,
    .cost = "p2p_ce",
    .own_steps = 1,
};

static const ls_fam_method_t nccl_methods[] = {
    {.word = LS_NCCL_LAUNCH, .words = "launched iterations"},
    {.word = LS_NCCL_GRAPH, .words = "iterations in a CUDA graph"},
    {.word = NULL},
};

/* compare reads a collective per size, from its rows (analyze/compare.c) */
const ls_fam_t ls_fam_nccl = {
    .name = LS_FAMILY_NCCL,
    .title = "Collective bus bandwidth",
    .metric = "busbw",
    .unit = "GB/s",
    .per = LS_PER_SET,
    .methods = nccl_methods,
    .identity = NULL,
    .prom = {.metric = "busbw",
             .name = "linkscope_nccl_bus_bandwidth_bytes_per_second",
             .help = "NCCL bus bandwidth at the largest message size, as nccl-tests counts it.",
             .scale = GBPS},
    .section = "collectives",
    .show = LS_SHOW_OWN,
    .cost = "nccl_sweep",
    .own_steps = 1,
};

static const ls_fam_method_t burn_methods[] = {
    {.word = LS_BURN_GEMM_BF16, .words = "cuBLAS bf16 GEMM"},
    {.word = LS_BURN_FMA_FP32, .words = "FP32 FMA kernel"},
    {.word = NULL},
};

const ls_fam_t ls_fam_burn = {
    .name = LS_FAMILY_BURN,
    .title = "Sustained throughput",
    .metric = "throughput",
    .unit = "TFLOP/s",
    .per = LS_PER_GPU,
    .methods = burn_methods,
    .identity = other_identity,
    .section = "burn",
    .show = LS_SHOW_OWN,
    .cost = "burn",
    .own_steps = 1,
};

static const ls_fam_method_t no_methods[] = {{.word = NULL}};

/* the tp command's estimate: not a measured figure, not in the report */
const ls_fam_t ls_fam_tp = {
    .name = LS_FAMILY_TP,
    .title = "Tensor-parallel communication time",
    .metric = "time",
    .unit = "us",
    .per = LS_PER_SET,
    .lower_is_better = 1,
    .methods = no_methods,
    .identity = other_identity,
    .show = LS_SHOW_OWN,
};

const ls_fam_t ls_fam_net = {
    .name = LS_FAMILY_NET,
    .title = "Network (perftest)",
    .metric = "bandwidth",
    .unit = "GB/s",
    .per = LS_PER_OTHER,
    .directions = 1,
    .methods = no_methods,
    .identity = other_identity,
    .section = "tools",
    .show = LS_SHOW_OWN,
};

const ls_fam_t ls_fam_mnnvl = {
    .name = LS_FAMILY_MNNVL,
    .title = "Multi-node NVLink (nvloom)",
    .metric = "bandwidth",
    .unit = "GB/s",
    .per = LS_PER_OTHER,
    .methods = no_methods,
    .identity = other_identity,
    .section = "tools",
    .show = LS_SHOW_OWN,
};

const ls_fam_t ls_fam_dcgm = {
    .name = LS_FAMILY_DCGM,
    .title = "DCGM diagnostic figures",
    .metric = "bandwidth",
    .unit = "GB/s",
    .per = LS_PER_GPU,
    .methods = no_methods,
    .identity = other_identity,
    .section = "tools",
    .show = LS_SHOW_OWN,
};

const ls_fam_t *const ls_fams[] = {&ls_fam_p2p,    &ls_fam_latency, &ls_fam_hbm,  &ls_fam_host,
                                   &ls_fam_fabric, &ls_fam_nccl,    &ls_fam_burn, &ls_fam_tp,
                                   &ls_fam_net,    &ls_fam_mnnvl,   &ls_fam_dcgm, NULL};

const ls_fam_t *ls_fam_find(const char *name)
{
    for (int i = 0; name && ls_fams[i]; i++)
        if (!strcmp(ls_fams[i]->name, name))
            return ls_fams[i];
    return NULL;
}

const ls_fam_method_t *ls_fam_method(const ls_fam_t *f, const char *word)
{
    for (const ls_fam_method_t *m = f->methods; word && m->word; m++)
        if (!strcmp(m->word, word))
            return m;
    return NULL;
}

const char *ls_fam_method_words(const ls_fam_t *f, const char *word)
{
    const ls_fam_method_t *m = f ? ls_fam_method(f, word) : NULL;
    return m && m->words ? m->words : word;
}

int ls_fam_lower_is_better(const ls_fam_t *f, const char *metric)
{
    if (f && metric && !strcmp(metric, f->metric))
        return f->lower_is_better;
    return metric && (!strcmp(metric, "latency") || !strcmp(metric, "time"));
}
