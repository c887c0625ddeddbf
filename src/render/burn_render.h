/* The sustained-load family (measure/burn.h) in reports. */
#ifndef LS_RENDER_BURN_RENDER_H
#define LS_RENDER_BURN_RENDER_H

#include <jansson.h>
#include <stdio.h>

#include "strbuf.h"

/* Number of burn entries in the document. */
int ls_burn_count(const json_t *doc);
/* One row per burn entry: throughput first and sustained, clock, power, temperature,
   traffic, throttle reasons. */
void ls_burn_table(FILE *f, const json_t *doc);
/* One SVG chart per burn entry with a series (SM clock, power, temperature over time);
   returns the number drawn. */
int ls_svg_burn_charts(ls_buf_t *b, const json_t *doc);
/* The table as text (caller frees). */
char *ls_burn_text(const json_t *doc);

#endif
