/* linkscope fleet's inputs (docs/fleet.md): the documents named by files, folders and
   globs, read by worker threads and added to the fleet in their order. */
#ifndef LS_CLI_FLEET_LOAD_H
#define LS_CLI_FLEET_LOAD_H

#include "analyze/fleet.h"

#include <stddef.h>

typedef struct {
    char **items;
    size_t n, cap;
} ls_paths_t;

/* Files, folders (their *.json, sorted by name) and globs into one list of documents;
   one line on stderr and -1 on a problem. */
int ls_fleet_collect(ls_paths_t *p, int argc, char **argv);
void ls_paths_free(ls_paths_t *p);

/* Reads every document and adds it to fleet in the list's order; a document that
   cannot be read (or is refused: a forged index) is named in one line on stderr and
   skipped. The number skipped, or -1 (one line) when out of memory. */
int ls_fleet_load(ls_fleet_t *fleet, const ls_paths_t *p);

#endif
