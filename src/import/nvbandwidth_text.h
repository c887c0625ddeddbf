/* nvbandwidth's default text output, read into the same object as its -j JSON
   ({"nvbandwidth": {"testcases": [...], ...}}) so that one importer handles both. */
#ifndef LS_IMPORT_NVBANDWIDTH_TEXT_H
#define LS_IMPORT_NVBANDWIDTH_TEXT_H

#include <jansson.h>

/* 1 when text holds any recognizable part of nvbandwidth's text output: its version
   line, a "Running <testcase>." line, a matrix description ("memcpy CE GPU(row) ->
   GPU(column) bandwidth (GB/s)") or a "SUM <testcase> <value>" line. */
int ls_nvbandwidth_text_detect(const char *text);

/* The JSON-shaped object (never NULL except out of memory). Cut matrices keep their
   complete cells; what was cut is told through ls_import_note_missing(). */
json_t *ls_nvbandwidth_text_parse(const char *text);

#endif
