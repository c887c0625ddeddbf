/* linkscope compare's text: the comparison (analyze/compare.h's JSON) as the terminal's
   fixed columns or as Markdown tables, through the format interface. */
#ifndef LS_RENDER_COMPARE_TEXT_H
#define LS_RENDER_COMPARE_TEXT_H

#include <jansson.h>

typedef struct {
    const char *a, *b; /* the documents' names; b: NULL for --variants (one document) */
    const char *base;  /* --variants: the setting every other is compared against */
    double threshold_pct, latency_threshold_pct;
    int markdown;     /* Markdown tables, else fixed columns */
    int changes_only; /* only the flagged rows */
} ls_compare_view_t;

/* The whole text: a heading, the context (inventory differences) and the figures, or
   one block per variant. Caller frees. */
char *ls_compare_text(const json_t *result, const ls_compare_view_t *v);

#endif
