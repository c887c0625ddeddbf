/* What a figure IS: one descriptor per family of measurement entries (docs/schema.md,
   "Families"), in one table. Every part that reads figures (the report's matrices and
   tables, compare's identity, the Prometheus metrics, the run's projection) loops over
   this table, so a family added here appears in each by itself (docs/design.md, "How
   to add a measurement family"). How a family is measured is measure's
   (measure/family.h), pointing here. */
#ifndef LS_MODEL_FAMILIES_H
#define LS_MODEL_FAMILIES_H

#include <jansson.h>

/* What one figure of the family is about. */
typedef enum {
    LS_PER_PAIR,  /* an ordered GPU pair: src, dst (a matrix cell) */
    LS_PER_GPU,   /* one GPU: gpu */
    LS_PER_SET,   /* a set of GPUs or ranks: gpus (collectives, fabric patterns) */
    LS_PER_OTHER, /* named by the importing tool (ports, processes): subject */
} ls_per_t;

/* How the report shows the family: matrices of the pair figures, one generic table per
   GPU figure, or render's own tables for the family (render/outline.c, section). */
typedef enum {
    LS_SHOW_OWN,    /* render has its own tables in the section */
    LS_SHOW_MATRIX, /* GPU x GPU matrices, one per method, direction and path */
    LS_SHOW_TABLE,  /* one table: GPU (or subject), method, value, spread */
} ls_show_t;

/* A method and what it means in a title ("copy engine (cudaMemcpyPeerAsync)"). */
typedef struct {
    const char *word;  /* the entry's "method" (model/vocab.h) */
    const char *words; /* what it is, for titles; NULL: the word itself */
} ls_fam_method_t;

/* The Prometheus gauge of the family (render/format_prom.c); name NULL: none. */
typedef struct {
    const char *metric; /* which entries: their "metric" */
    const char *name, *help;
    double scale; /* the document's unit -> Prometheus' base unit */
} ls_fam_prom_t;

typedef struct {
    const char *name;   /* "family" of its entries (model/vocab.h) */
    const char *title;  /* what its figures are, for titles: "P2P bandwidth" */
    const char *metric; /* its usual "metric" (an imported family may carry others) */
    const char *unit;   /* its usual "unit" */
    ls_per_t per;
    int lower_is_better; /* for its usual metric: latency, time */
    int directions;      /* 1: entries carry "direction" uni | bidir (a title says which) */
    const ls_fam_method_t *methods; /* every method linkscope writes, NULL-word-terminated */
    /* compare's identity (analyze/compare.c): keys naming what an entry measured, "s:" a
       string, "i:" an integer, "*:" any value; NULL-terminated */
    const char *const *identity;
    ls_fam_prom_t prom;
    const char *section; /* the report section that shows it (render/outline.c ids) */
    ls_show_t show;
    /* the run's projection (analyze/projection.c): the cost row that prices one of its
       figures, and whether projection prices it with its own steps (0: one step of
       methods x pairs or GPUs, the run's step for a family none of its steps names) */
    const char *cost;
    int own_steps;
} ls_fam_t;

extern const ls_fam_t ls_fam_p2p, ls_fam_latency, ls_fam_hbm, ls_fam_host, ls_fam_fabric,
    ls_fam_nccl, ls_fam_burn, ls_fam_tp, ls_fam_net, ls_fam_mnnvl, ls_fam_dcgm;

/* Every family, NULL-terminated, in the report's order. */
extern const ls_fam_t *const ls_fams[];

/* NULL when no family has that name. */
const ls_fam_t *ls_fam_find(const char *name);
/* The method of f named word, or NULL. */
const ls_fam_method_t *ls_fam_method(const ls_fam_t *f, const char *word);
/* The method's words for a title, or word itself when the family has none for it. */
const char *ls_fam_method_words(const ls_fam_t *f, const char *word);
/* 1 when a figure of this metric is better lower (latency, time): the family's own
   answer for its usual metric, else by the metric's name. */
int ls_fam_lower_is_better(const ls_fam_t *f, const char *metric);

#endif
