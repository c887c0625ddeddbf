/* Terminal report of a tensor-parallel estimate (the JSON of ls_tp_estimate). */
#ifndef LS_RENDER_TP_REPORT_H
#define LS_RENDER_TP_REPORT_H

#include <jansson.h>
#include <stdio.h>

void ls_tp_render_text(FILE *out, const json_t *estimate);

#endif
