/* The families' tables (family_tables.h): matrices per method for the pair families,
   one table per GPU for the others. */
#include "family_tables.h"
#include "matrix.h"
#include "measure_tables.h"
#include "model/families.h"
#include "model/vocab.h"

#include <stdlib.h>
#include <string.h>

/* A family with directions: one matrix per method, one direction then both; one
   without: one per method, its own path then through host. */
static const char *direction_of(int pass)
{
    return pass ? LS_DIR_BIDIR : LS_DIR_UNI;
}

static int matrices(const json_t *doc, const ls_fam_t *fam, const char *const *methods, FILE *f,
                    int color, const char *dir, char *err, size_t errlen)
{
    ls_matrix_t *m = malloc(sizeof *m);
    int rc = m ? 0 : -1, dirs = fam->directions;
    for (int pass = 0; pass < 2 && !rc; pass++)
        for (int k = 0; methods[k] && !rc; k++) {
            if (!ls_matrix_from_doc(doc, fam, methods[k], dirs ? direction_of(pass) : NULL,
                                    dirs ? 0 : pass, m))
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
    matrices(doc, &ls_fam_p2p, methods, f, color, NULL, NULL, 0);
    ls_p2p_path_table(f, doc);
}

static int csv_p2p(const json_t *doc, const char *const *methods, const char *dir, char *err,
                   size_t errlen)
{
    return matrices(doc, &ls_fam_p2p, methods, NULL, 0, dir, err, errlen);
}

static void print_latency(FILE *f, const json_t *doc, const char *const *methods, int color)
{
    matrices(doc, &ls_fam_latency, methods, f, color, NULL, NULL, 0);
    ls_latency_host_table(f, doc);
    ls_p2p_path_table(f, doc);
}

static int csv_latency(const json_t *doc, const char *const *methods, const char *dir, char *err,
                       size_t errlen)
{
    return matrices(doc, &ls_fam_latency, methods, NULL, 0, dir, err, errlen);
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

static int csv_host(const json_t *doc, const char *const *methods, const char *dir, char *err,
                    size_t errlen)
{
    (void)methods;
    return ls_host_csv(doc, dir, err, errlen);
}

static const ls_family_tables_t tables[] = {
    {.family = LS_FAMILY_P2P, .print = print_p2p, .csv = csv_p2p},
    {.family = LS_FAMILY_LATENCY, .print = print_latency, .csv = csv_latency},
    {.family = LS_FAMILY_HBM, .print = print_hbm, .csv = csv_hbm},
    {.family = LS_FAMILY_HOST, .print = print_host, .csv = csv_host},
};

const ls_family_tables_t *ls_family_tables(const char *family)
{
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        if (strcmp(tables[i].family, family) == 0)
            return &tables[i];
    return NULL;
}
