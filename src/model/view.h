/* A read-only typed view of one measurement entry: its family and method as
   descriptors (model/families.h), its GPUs, status, value, statistics and flags, read
   once from the JSON. LS_DOC_FOREACH walks the entries of a document, of one family or
   of all. The JSON stays the document (v.json) for a family's own fields. */
#ifndef LS_MODEL_VIEW_H
#define LS_MODEL_VIEW_H

#include "families.h"

#include <jansson.h>
#include <stddef.h>

/* "flags" of an entry (model/vocab.h's LS_FLAG_ words) as bits. */
enum {
    LS_VF_NO_P2P = 1 << 0,
    LS_VF_THROUGH_HOST = 1 << 1,
    LS_VF_THROTTLED = 1 << 2,
    LS_VF_BELOW_APP_CLOCKS = 1 << 3,
    LS_VF_IMPORTED = 1 << 4,
};

typedef struct {
    const json_t *json;            /* the entry; NULL past the last */
    size_t index;                  /* its place in measurements[] */
    const ls_fam_t *fam;           /* NULL: a family this build does not know */
    const ls_fam_method_t *method; /* NULL: not one of the family's methods */
    const char *family, *method_word, *id, *status, *metric, *unit; /* "" when absent */
    const char *direction;                                          /* NULL when absent */
    int ok;                                                         /* status "ok" */
    int src, dst, gpu; /* -1 when absent (dst -1: also a latency's host side) */
    double value;      /* NAN when absent or not a number */
    double cv;         /* stats.cv, 0 when absent */
    int n;             /* stats.n, 0 when absent */
    unsigned flags;    /* LS_VF_ bits */
} ls_view_t;

/* The view of measurements[i] (json NULL past the end). */
ls_view_t ls_view_at(const json_t *doc, size_t i);
/* The first entry at index >= i of family fam (NULL: any family), or json NULL. */
ls_view_t ls_view_from(const json_t *doc, const ls_fam_t *fam, size_t i);
/* The view of one entry outside a document's list. */
ls_view_t ls_view_of(const json_t *entry);

/* for (each entry v of doc whose family is fam; fam NULL: every entry) */
#define LS_DOC_FOREACH(v, doc, fam)                                                                \
    for (ls_view_t v = ls_view_from((doc), (fam), 0); v.json;                                      \
         v = ls_view_from((doc), (fam), v.index + 1))

/* While a document is pinned (on this thread), ls_view_at, ls_view_from and
   LS_DOC_FOREACH read its entries' views decoded once into an array, and walk one
   family's entries without visiting the others'; ls_doc_next_measurement too. The
   views are decoded again when measurements[] is replaced or changes size; an entry
   changed in place is not seen: pin a document only while nothing edits its entries
   (the machine of the rules and the plan pins its document: analyze/machine.c). Pins
   nest; one document per thread (a second one pinned meanwhile is read from its JSON).
   Every ls_view_pin is matched by an ls_view_unpin of the same document. */
#define LS_VIEW_FAMS 32 /* at least the families of model/families.c */
void ls_view_pin(const json_t *doc);
void ls_view_unpin(const json_t *doc);
/* 1 when doc is pinned and its views decoded (its walks are cheap). */
int ls_view_pinned(const json_t *doc);

/* 1 when the document holds an entry of fam. */
int ls_doc_has(const json_t *doc, const ls_fam_t *fam);

#endif
