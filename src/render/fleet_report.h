/* The reports of `linkscope fleet` (docs/fleet.md), from the analysis of
   ls_fleet_analyze(): terminal text, one HTML file (one row per node, outliers marked)
   and Prometheus text exposition. Each returns text the caller frees. */
#ifndef LS_RENDER_FLEET_REPORT_H
#define LS_RENDER_FLEET_REPORT_H

#include <jansson.h>

char *ls_fleet_term(const json_t *result, double score, double min_change_pct);
char *ls_fleet_html(const json_t *result, double score, double min_change_pct);
char *ls_fleet_prom(const json_t *result);

#endif
