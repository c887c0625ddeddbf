/* Each measurement family's tables, by family name: what `linkscope p2p|latency|hbm|host`
   prints after measuring and writes with --csv. The family's methods come from its
   descriptor (measure/family.h), in table order, NULL-terminated. */
#ifndef LS_RENDER_FAMILY_TABLES_H
#define LS_RENDER_FAMILY_TABLES_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    const char *family;
    void (*print)(FILE *f, const json_t *doc, const char *const *methods, int color);
    /* Each table as CSV into dir: 0, or -1 with err. */
    int (*csv)(const json_t *doc, const char *const *methods, const char *dir, char *err,
               size_t errlen);
} ls_family_tables_t;

/* NULL when render has no tables for that family. */
const ls_family_tables_t *ls_family_tables(const char *family);

#endif
