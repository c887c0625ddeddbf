/* Figures side by side: every reported number of a run document as a "figure" with an
   identity (what was measured, where, how), so that two documents, two variants of
   one document, or a document and a baseline can be matched. docs/compare-check.md. */
#ifndef LS_ANALYZE_COMPARE_H
#define LS_ANALYZE_COMPARE_H

#include <jansson.h>
#include <stddef.h>

typedef struct {
    json_t *match;   /* identity attributes, e.g. {"family":"p2p","method":"ce",...} */
    char key[512];   /* canonical text of match (sorted keys): equal key = same figure */
    char label[192]; /* for people: "p2p ce uni GPU0->GPU1" */
    double value;
    char unit[16];
    int higher_is_better; /* bandwidth 1; latency and time 0 */
    double cv;            /* coefficient of variation of the samples; 0 when unknown */
    int n;                /* samples behind value; 0 when imported or unknown */
    char entry_id[96];
    char tool[48]; /* the tool an imported figure came from ("" = linkscope) */
    char file[96]; /* and its file (the entry's source_file, "" when unknown) */
    int rank;      /* how many figures of the same key, tool and file come before */
} ls_figure_t;

typedef struct {
    ls_figure_t *items;
    size_t n, cap;
} ls_figures_t;

/* Every figure of the document's measurements with status "ok" and a value. nccl
   entries give one figure per size: bus bandwidth from 1 MiB up, time below (where
   the bus bandwidth is rounded to a few hundredths). without_variant leaves "variant"
   out of the identity (to set variants of one document side by side). 0 or -1. */
int ls_figures_collect(const json_t *doc, int without_variant, ls_figures_t *out);
void ls_figures_free(ls_figures_t *figs);

/* "8 x NVIDIA H200" (or the names one by one when they differ); "" without GPUs. */
void ls_gpu_summary(const json_t *doc, char *buf, size_t len);

/* 1 when every attribute in match equals the figure's (missing = any). "bytes" may
   be a number or a size string ("1G"); "gpus" an array. Also matches "metric". */
int ls_figure_matches(const ls_figure_t *fig, const json_t *match);

typedef struct {
    double threshold_pct; /* smallest change flagged, in percent (default 5) */
    /* the same for figures in us (latencies, small-message times, which jitter more);
       0 = threshold_pct */
    double latency_threshold_pct;
} ls_compare_opts_t;

/* Compares b against a. Figures match by what they measure (the key); where a document
   holds several figures of one key (two tools, two files of one tool), they pair by
   tool and file first, then in the order of tool, file and position, so that the
   result does not depend on the order files were imported in.
   Returns {"rows": [{key, label, unit, a, b, ratio, change_pct, limit_pct, verdict
   ("regression"|"gain"|"same"|"n/a"), match, source_a, source_b}], "only_a", "only_b",
   "regressions", "gains", "context": [{what, a, b, differs}]}, or NULL with err when
   nothing is in common. */
json_t *ls_compare_docs(const json_t *a, const json_t *b, const ls_compare_opts_t *opts, char *err,
                        size_t errlen);

/* The nccl variants of one document against base (e.g. "default"): same result
   layout, one block per other variant: {"variants": [{"variant", "rows", ...}]}. NULL
   with err when the document has fewer than two variants or none named base. */
json_t *ls_compare_variants(const json_t *doc, const char *base, const ls_compare_opts_t *opts,
                            char *err, size_t errlen);

#endif
