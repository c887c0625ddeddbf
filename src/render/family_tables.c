/* The families' tables (family_tables.h): matrices per method for the pair families,
   one table per GPU for the others. */
#include "family_tables.h"
#include "matrix.h"
#include "measure_tables.h"

#include <stdlib.h>
#include <string.h>

/* p2p: one matrix per method, one direction then both; latency: one per method, P2P
   then through host. */
static const char *p2p_direction(int pass) { return pass ? "bidir" : "uni"; }

static int matrices(const json_t *doc, const char *family, const char *const *methods, FILE *f, int color, const char *dir, char *err, size_t errlen)
{
    ls_matrix_t *m = malloc(sizeof *m);
    int rc = m ? 0 : -1, p2p = strcmp(family, "p2p") == 0;
    for (int pass = 0; pass < 2 && !rc; pass++)
        for (int k = 0; methods[k] && !rc; k++) {
            if (!ls_matrix_from_doc(doc, family, methods[k], p2p ? p2p_direction(pass) : NULL,
                                    p2p ? 0 : pass, m))
                continue;
            if (f) {
                char *text = ls_matrix_text(m, color);
                fputs(text, f);
                free(text);
            } else
                rc = ls_matrix_write_csv(m, dir, err, errlen);
        }
    free(m);
    return rc;
}

static void print_p2p(FILE *f, const json_t *doc, const char *const *methods, int color)
{
    matrices(doc, "p2p", methods, f, color, NULL, NULL, 0);
    ls_p2p_path_table(f, doc);
}

static int csv_p2p(const json_t *doc, const char *const *methods, const char *dir,
                   char *err, size_t errlen)
{
    return matrices(doc, "p2p", methods, NULL, 0, dir, err, errlen);
}

static void print_latency(FILE *f, const json_t *doc, const char *const *methods, int color)
{
    matrices(doc, "latency", methods, f, color, NULL, NULL, 0);
    ls_latency_host_table(f, doc);
    ls_p2p_path_table(f, doc);
}

static int csv_latency(const json_t *doc, const char *const *methods, const char *dir,
                       char *err, size_t errlen)
{
    return matrices(doc, "latency", methods, NULL, 0, dir, err, errlen);
}

static void print_hbm(FILE *f, const json_t *doc, const char *const *methods, int color)
{
    (void)methods, (void)color;
    ls_hbm_table(f, doc);
}

static int csv_hbm(const json_t *doc, const char *const *methods, const char *dir, char *err,
                   size_t errlen)
{
    (void)methods;
    return ls_hbm_csv(doc, dir, err, errlen);
}

static void print_host(FILE *f, const json_t *doc, const char *const *methods, int color)
{
    (void)methods, (void)color;
    ls_host_table(f, doc);
}

static int csv_host(const json_t *doc, const char *const *methods, const char *dir,
                    char *err, size_t errlen)
{
    (void)methods;
    return ls_host_csv(doc, dir, err, errlen);
}

static const ls_family_tables_t tables[] = {
    {"p2p", print_p2p, csv_p2p},
    {"latency", print_latency, csv_latency},
    {"hbm", print_hbm, csv_hbm},
    {"host", print_host, csv_host},
};

const ls_family_tables_t *ls_family_tables(const char *family)
{
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        if (strcmp(tables[i].family, family) == 0)
            return &tables[i];
    return NULL;
}
