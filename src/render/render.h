/* Reports of a run document: terminal, Markdown, one self-contained HTML file, CSV.
   Every renderer is a pure function of the document, its findings and its plan: the
   same input gives the same bytes (no clock, no locale, no host name but the
   document's). docs/reports.md describes each format. */
#ifndef LS_RENDER_RENDER_H
#define LS_RENDER_RENDER_H

#include <jansson.h>

/* Findings and plan as plain text (what `linkscope plan` prints). Caller frees. */
char *ls_render_plan_text(const json_t *findings, const json_t *plan);

/* The headline figures, one line per kind (range over GPUs or pairs, unit, peak), as
   `linkscope run` prints them. Caller frees. */
char *ls_render_headline(const json_t *doc);

/* Whole reports: the outline (format.h) through one format. Caller frees. */
char *ls_report_term(const json_t *doc, const json_t *findings, const json_t *plan);
char *ls_report_md(const json_t *doc, const json_t *findings, const json_t *plan);
char *ls_report_html(const json_t *doc, const json_t *findings, const json_t *plan);

/* CSV exports: "boards_clocks", "p2p_paths", "collectives". NULL for an unknown name. */
extern const char *const ls_csv_names[3];
char *ls_report_csv(const json_t *doc, const char *name);

#endif
