/* The finding of an imported paste's CUDA error lines (import/cuda_error.c, cuda_errors[];
   rules_cuda_errors.c, docs/analysis.md "CUDA errors"): cuda_error, one per error and GPU, with
   the catalog's meaning, cause and next step (data/cuda-errors.tsv) and, where the text
   tells whose fault it is, "node_action". */
#ifndef LS_ANALYZE_CUDA_RULES_H
#define LS_ANALYZE_CUDA_RULES_H

#include <jansson.h>

void ls_rules_cuda(const json_t *doc, json_t *out);

#endif
