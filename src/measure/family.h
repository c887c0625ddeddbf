/* The measuring families: how each is measured, one descriptor each, one registry. The
   measuring commands (linkscope p2p|latency|hbm|host) and the run loop over it. What
   its figures ARE (metric, unit, methods' words, identity, Prometheus gauge, report
   section, cost) is the model's descriptor it points at (model/families.h); here are
   its command's texts, its defaults and the function that measures it. Its command's
   tables are render's (render/family_tables.c, by name). */
#ifndef LS_MEASURE_FAMILY_H
#define LS_MEASURE_FAMILY_H

#include "measure.h"
#include "model/families.h"

typedef int (*ls_measure_fn)(json_t *doc, const ls_measure_opts_t *o, char *err, size_t errlen);

typedef struct {
    const char *name;              /* command, "family" of its entries, step of the run: the
                                      model descriptor's name (ls_family_fam) */
    const char *summary;           /* one line for `linkscope help` */
    const char *about;             /* its usage text between the usage line and the options */
    const char *notes;             /* its usage text after the options (before the exit codes) */
    const char *const *methods;    /* its command tables' methods in table order, NULL-terminated
                                      (model/vocab.h); NULL for a family without tables */
    int pairs;                     /* 1: ordered GPU pairs (P2P needs two GPUs; fam->per is
                                      LS_PER_PAIR, tests/host/test_family.c); 0: per GPU */
    const char *one_gpu;           /* with pairs: what it still does on one GPU, or "" */
    uint64_t default_size;         /* bytes; 0 when --size does not apply */
    const char *default_size_text; /* the same as the usage text writes it */
    const char *size_what;         /* "bytes per copy", for the --size line */
    const char *size_note;         /* after the default on that line */
    int buffers_per_gpu;           /* device buffers of --size bytes each GPU holds at once */
    int host_buffers;              /* host buffers of --size bytes held at once */
    ls_measure_fn measure;
} ls_family_t;

/* The registry, in the run's order. */
const ls_family_t *ls_families(int *count);
/* NULL when no family has that name. */
const ls_family_t *ls_family_find(const char *name);
/* What its figures are: the model's descriptor of the same name (never NULL for a
   family of the registry, tests/host/test_families.c). */
const ls_fam_t *ls_family_fam(const ls_family_t *f);

/* The one place defaults are resolved: size 0 becomes the family's default size, and the
   size is rounded down to a multiple of 16 bytes (the copy kernels' access; --size is at
   least 16); samples <= 0 become LS_DEFAULT_SAMPLES. */
void ls_family_resolve(const ls_family_t *f, ls_measure_opts_t *o);

/* --size (o->size, 0: none given) against the memory of each GPU of o and of the host:
   the family's buffers must fit. 0, or -1 with err ("--size 2G: 2 buffers of it do not
   fit in GPU 0's 1G"). */
int ls_family_check_gpu_memory(const ls_family_t *f, const ls_measure_opts_t *o, char *err,
                               size_t errlen);
int ls_family_check_host_memory(const ls_family_t *f, uint64_t size, char *err, size_t errlen);

/* 1 when method is in the comma list only (NULL or "": every method is). */
int ls_methods_include(const char *only, const char *method);

/* Resolves o's defaults on a copy and measures the family into doc. */
int ls_family_measure(const ls_family_t *f, json_t *doc, const ls_measure_opts_t *o, char *err,
                      size_t errlen);

/* One warning per entry of the family from index first on that failed (not "ok", not
   "skipped"), then how many; returns that number. */
int ls_family_warn_failures(const ls_family_t *f, const json_t *doc, size_t first);

#endif
