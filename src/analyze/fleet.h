/* A fleet of run documents (one per node, from `srun --ntasks-per-node=1 linkscope run`):
   nodes grouped by hardware model, every figure's median and spread across the nodes of
   a model, and the outliers by a robust score (median absolute deviation), each named
   by its node and subject (a GPU, a pair, a port). docs/fleet.md. */
#ifndef LS_ANALYZE_FLEET_H
#define LS_ANALYZE_FLEET_H

#include <jansson.h>

typedef struct {
    double score;          /* robust z beyond which a figure is an outlier (default 3.5) */
    double min_change_pct; /* and at least this much worse than the median (default 10) */
    int min_nodes;         /* figures seen on fewer nodes of a model are not judged (5) */
} ls_fleet_opts_t;

void ls_fleet_opts_default(ls_fleet_opts_t *opts);

typedef struct ls_fleet ls_fleet_t;

ls_fleet_t *ls_fleet_new(void);
/* Adds one node's document (file names it when the document has no hostname); the
   document may be freed afterwards. 0, or -1 when out of memory. Its findings at warning
   and error (ls_fleet_node_findings) are kept with the node. */
int ls_fleet_add(ls_fleet_t *fleet, const json_t *doc, const char *file);
/* The same with the node's findings already made (a reference stolen; NULL: made here),
   so that readers in threads can make them beside the parsing. */
int ls_fleet_add_found(ls_fleet_t *fleet, const json_t *doc, const char *file, json_t *found);

/* A document's own findings (ls_findings: this linkscope's rules) at warning and error:
   [{severity, rule, subject, message}], errors first. */
json_t *ls_fleet_node_findings(const json_t *doc);
/* {"models": [{model, nodes}], "nodes": [{node, file, model, outliers, subjects: [..],
   errors, warnings, findings: [{severity, rule, subject, message}]}],
   "figures": [{model, label, unit, nodes, median, mad, judged}] (per figure of a model),
   "outliers": [{node, file, model, subject, label, unit, value,
   median, mad, score, worse_pct}], "outlier_nodes": N, "error_nodes": N (nodes with an
   error finding), "warning_nodes": N (with a warning and no error)}. NULL when out of
   memory. */
json_t *ls_fleet_analyze(ls_fleet_t *fleet, const ls_fleet_opts_t *opts);
void ls_fleet_free(ls_fleet_t *fleet);

#endif
