/* Reads the output of cuda-samples' simpleP2P into `simple_p2p[]` and the links' peer
   access (docs/import.md "simpleP2P"). */
#ifndef LS_IMPORT_SIMPLE_P2P_H
#define LS_IMPORT_SIMPLE_P2P_H

#include <jansson.h>
#include <stddef.h>

/* 1 when text holds a line only simpleP2P prints. */
int ls_simple_p2p_detect(const char *text);

/* Adds what the run printed to doc: 0 (no measurement entry: its one figure is kept in
   the record), or -1 with err = "NAME: problem". */
int ls_import_simple_p2p(json_t *doc, const char *text, const char *name, char *err, size_t errlen);

#endif
