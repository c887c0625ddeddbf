/* The words of the run document, named once (docs/schema.md defines each): measurement
   families, methods, directions, memories and flags. Code that writes or matches one of
   them uses these names, so a word cannot be spelled two ways. */
#ifndef LS_MODEL_VOCAB_H
#define LS_MODEL_VOCAB_H

/* families ("family") */
#define LS_FAMILY_P2P "p2p"
#define LS_FAMILY_LATENCY "latency"
#define LS_FAMILY_HBM "hbm"
#define LS_FAMILY_HOST "host"
#define LS_FAMILY_NCCL "nccl"
#define LS_FAMILY_TP "tp"
#define LS_FAMILY_FABRIC "fabric"
#define LS_FAMILY_BURN "burn"
/* imported only: perftest, nvloom, DCGM's diagnostic figures */
#define LS_FAMILY_NET "net"
#define LS_FAMILY_MNNVL "mnnvl"
#define LS_FAMILY_DCGM "dcgm"

/* p2p methods: copy engine, SM kernels reading the peer or writing to it, through host */
#define LS_P2P_CE "ce"
#define LS_P2P_SM_WRITE "sm_write"
#define LS_P2P_SM_READ "sm_read"
#define LS_P2P_STAGED "staged"

/* latency methods */
#define LS_LAT_GPU_PINGPONG "gpu_pingpong"
#define LS_LAT_POINTER_CHASE "pointer_chase"
#define LS_LAT_GPU_COPY "gpu_copy"
#define LS_LAT_CPU_COPY "cpu_copy"

/* hbm methods: copy_ce is the copy engine (nvbandwidth's device_local_copy) */
#define LS_HBM_READ "read"
#define LS_HBM_WRITE "write"
#define LS_HBM_COPY "copy"
#define LS_HBM_COPY_CE "copy_ce"

/* fabric methods (patterns) */
#define LS_FABRIC_ALL_TO_ALL "all_to_all"
#define LS_FABRIC_ONE_TO_ALL "one_to_all"
#define LS_FABRIC_ALL_TO_ONE "all_to_one"

/* burn methods: cuBLAS GEMM, or the FMA kernel where cuBLAS is absent */
#define LS_BURN_GEMM_BF16 "gemm_bf16"
#define LS_BURN_FMA_FP32 "fma_fp32"

/* nccl methods: a sweep of launches, or of CUDA graph launches (-G) */
#define LS_NCCL_LAUNCH "nccl"
#define LS_NCCL_GRAPH "nccl_graph"

/* directions: p2p uni | bidir; host h2d | d2h | bidir */
#define LS_DIR_UNI "uni"
#define LS_DIR_BIDIR "bidir"
#define LS_DIR_H2D "h2d"
#define LS_DIR_D2H "d2h"

/* host memory */
#define LS_MEM_PINNED "pinned"
#define LS_MEM_PAGEABLE "pageable"

/* flags ("flags" of an entry) */
#define LS_FLAG_NO_P2P "no_p2p"             /* the GPU pair has no peer access */
#define LS_FLAG_THROUGH_HOST "through_host" /* the figure went through host memory */
#define LS_FLAG_THROTTLED "throttled"       /* telemetry saw a clock-lowering reason */
#define LS_FLAG_BELOW_APP_CLOCKS "below_app_clocks"
#define LS_FLAG_IMPORTED "imported" /* read from another tool's output */

/* "source" of a figure measured by linkscope itself */
#define LS_SOURCE_LINKSCOPE "linkscope"

/* run's levels ("run": {"level"}, run --level). */
#define LS_LEVEL_QUICK "quick"
#define LS_LEVEL_THOROUGH "thorough"

/* The methods of each measuring family in the order they run, NULL-terminated. */
extern const char *const ls_p2p_methods[];
extern const char *const ls_latency_methods[];
extern const char *const ls_hbm_methods[];

#endif
