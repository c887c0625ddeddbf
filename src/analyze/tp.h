/* Tensor-parallel communication estimate (docs/tp.md): how many all-reduces a
   Megatron-style tensor-parallel transformer issues for a prefill and a decode step, of
   what size, and how long they take on a given interconnect, from a measured all_reduce
   curve or from a bandwidth-and-latency description of a link. Host only, no CUDA. */
#ifndef LS_ANALYZE_TP_H
#define LS_ANALYZE_TP_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Model shapes ------------------------------------------------------------- */

typedef struct {
    const char *name;    /* "llama3.3-70b" */
    const char *aliases; /* comma-separated other names, "" when none */
    int hidden;          /* hidden size (d_model): elements per token per all-reduce */
    int layers;          /* transformer blocks */
    int experts;         /* routed experts per MoE layer, 0 for a dense model */
    int experts_active;  /* experts per token */
    const char *note;    /* one line, or "" */
} ls_tp_preset_t;

const ls_tp_preset_t *ls_tp_presets(int *count);
/* Case-insensitive match on name or an alias; NULL when unknown. */
const ls_tp_preset_t *ls_tp_preset_find(const char *name);

typedef struct {
    int hidden, layers;
    int bytes; /* bytes per element of the activations (bf16/fp16 = 2) */
} ls_tp_shape_t;

/* Megatron-style tensor parallelism: two all-reduces per layer (after the attention
   output projection, after the MLP down projection; an MoE block sharded by tensor
   parallelism ends in the same one all-reduce). */
int ls_tp_allreduces_per_pass(const ls_tp_shape_t *shape);

/* Bytes of one all-reduce when `tokens` tokens go through a layer at once:
   tokens x hidden x bytes (prefill: batch x prompt; decode step: batch). */
uint64_t ls_tp_allreduce_bytes(const ls_tp_shape_t *shape, uint64_t tokens);

/* ---- Time of one all-reduce ------------------------------------------------- */

/* Ring all-reduce over n ranks on links of bandwidth bw (GB/s = 1e9 B/s, one direction
   per link) and latency lat (us per step): 2(n-1) steps, each moving S/n bytes per rank:
   t = 2(n-1) lat + 2(n-1)/n S / bw. */
double ls_tp_ring_allreduce_us(double bw_gbps, double lat_us, int nranks, double bytes);

/* Weighted least squares t = alpha + S/bw, weights 1/t^2 (relative residuals, so that
   the small sizes count as much as the large ones). 0, or -1 when fewer than two
   distinct sizes or no positive bandwidth. alpha is clamped at 0 (then bw refitted). */
int ls_tp_fit_alpha_beta(const double *bytes, const double *time_us, size_t n, double *alpha_us,
                         double *bw_gbps);

/* A measured curve: time of one all-reduce against its size. */
typedef struct {
    size_t n;
    double *bytes; /* ascending, distinct */
    double *time_us;
    int have_fit;
    double alpha_us, bw_gbps;        /* the fit used outside the measured range */
    double fit_max_rel, fit_rms_rel; /* |fit - measured| / measured over the points */
    /* Outside the range the curve continues with a fit of its nearest end: one fit over
       every size bends towards the middle sizes and misses the ends (on 2 x H200 it gave
       291 GB/s where the top sizes run at 330). Each end fit uses the points within a
       factor LS_TP_END_SPAN of that end (at least two). */
    int have_low_fit, have_high_fit;
    double low_alpha_us, low_bw_gbps;   /* used below the smallest size */
    double high_alpha_us, high_bw_gbps; /* used above the largest size */
} ls_tp_curve_t;

#define LS_TP_END_SPAN 32.0

enum ls_tp_how {
    LS_TP_EXACT = 0, /* a measured size */
    LS_TP_INTERP,    /* between two measured sizes, log-log */
    LS_TP_FIT_BELOW, /* below the smallest measured size: the alpha-beta fit */
    LS_TP_FIT_ABOVE, /* above the largest measured size: the alpha-beta fit */
    LS_TP_FORMULA    /* a --link description: ring formula */
};
const char *ls_tp_how_name(enum ls_tp_how how); /* "measured", "interpolated", ... */

/* Copies the points, sorts them by size, averages duplicate sizes, drops points with
   time <= 0 or bytes <= 0, and fits. 0, or -1 with err when no point is left. */
int ls_tp_curve_init(ls_tp_curve_t *curve, const double *bytes, const double *time_us, size_t n,
                     char *err, size_t errlen);
void ls_tp_curve_free(ls_tp_curve_t *curve);

/* Time for `bytes`: exact at measured sizes; between two, interpolated linearly in
   log(size) and log(time) (a power law through both points: exact for a constant and for
   a proportional curve, monotone between the points); outside, the fit. A curve with one
   point and no fit answers that point's time. Below and above the range the end fits
   answer, when there are any (else the fit over all points). */
double ls_tp_curve_time_us(const ls_tp_curve_t *curve, double bytes, enum ls_tp_how *how);

/* ---- Reading curves from a run document --------------------------------------- */

/* The `nccl` all_reduce entry for the given GPUs (same set, any order; ngpus 0 = any)
   and variant (NULL = "default" if there is one, else the only candidate). NULL with
   err naming what was looked for and what the document has. */
const json_t *ls_tp_find_allreduce(const json_t *doc, const int *gpus, int ngpus,
                                   const char *variant, char *err, size_t errlen);
/* The same among the entries that ran on nranks ranks (0 = any). */
const json_t *ls_tp_find_allreduce_ranks(const json_t *doc, const int *gpus, int ngpus,
                                         const char *variant, int nranks, char *err, size_t errlen);

/* Curve from an nccl entry's rows: out-of-place time_us (in-place when a row has no
   out-of-place), rows with wrong > 0 skipped (counted in *skipped). */
int ls_tp_curve_from_entry(ls_tp_curve_t *curve, const json_t *entry, int *skipped, char *err,
                           size_t errlen);

/* Ranks of an nccl entry: nranks, else the length of gpus, else 0. */
int ls_tp_entry_nranks(const json_t *entry);

/* ---- Sources of all-reduce time -------------------------------------------------- */

typedef enum { LS_TP_SRC_LINK, LS_TP_SRC_CURVE } ls_tp_src_kind_t;

typedef struct {
    ls_tp_src_kind_t kind;
    char name[64];          /* column label */
    char origin[512];       /* one line: where the figures come from */
    double bw_gbps, lat_us; /* LINK */
    ls_tp_curve_t curve;    /* CURVE (measured curve, or the --measure results) */
    int measured;           /* 1 for the --measure results: compared with the others */
} ls_tp_source_t;

/* Time of one all-reduce of `bytes` over nranks on this source. */
double ls_tp_source_time_us(const ls_tp_source_t *src, int nranks, double bytes,
                            enum ls_tp_how *how);

/* ---- The estimate -------------------------------------------------------------- */

typedef struct {
    ls_tp_shape_t shape;
    const char *model_name; /* preset name or NULL */
    int tp;                 /* tensor-parallel degree = ranks of each all-reduce */
    const uint64_t *prompts;
    int nprompts;
    const uint64_t *batches;
    int nbatches;
    uint64_t output;                  /* output tokens per request (>= 1) */
    const double *decode_compute_ms;  /* one per prompt (decode step after it), or NULL */
    const double *prefill_compute_ms; /* one per prompt for batch 1, or NULL */
} ls_tp_request_t;

/* One JSON object with everything the report shows (docs/tp.md, "JSON"). */
json_t *ls_tp_estimate(const ls_tp_request_t *req, const ls_tp_source_t *sources, int nsources);

/* All distinct all-reduce sizes of a request, ascending (for --measure). Returns the
   count written (at most max). */
int ls_tp_request_sizes(const ls_tp_request_t *req, uint64_t *sizes, int max);

#endif
