/* Tables of the per-GPU families: HBM bandwidth, host copies, GPU-to-host latency. */
#ifndef LS_RENDER_MEASURE_TABLES_H
#define LS_RENDER_MEASURE_TABLES_H

#include <jansson.h>
#include <stdio.h>

/* Each prints nothing and returns 0 when the document has no entry of its kind, else
   the number of rows printed. */
int ls_hbm_table(FILE *f, const json_t *doc);
int ls_host_table(FILE *f, const json_t *doc);
int ls_latency_host_table(FILE *f, const json_t *doc);

/* CSV of the same tables ("hbm.csv", "host.csv") into dir. 0, or -1 with err. */
int ls_hbm_csv(const json_t *doc, const char *dir, char *err, size_t errlen);
int ls_host_csv(const json_t *doc, const char *dir, char *err, size_t errlen);

#endif
