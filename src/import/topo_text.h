/* Reads saved `nvidia-smi topo -m` output (ANSI escapes, NIC rows and the NIC legend,
   NV# counts, tabs or spaces) and `nvidia-smi topo -p2p r|w` output into ls_topo_t. */
#ifndef LS_IMPORT_TOPO_TEXT_H
#define LS_IMPORT_TOPO_TEXT_H

#include "model/topo.h"
#include <stddef.h>

/* 0, or -1 with err = "LINE N: what was expected". The topo is fully overwritten. */
int ls_topo_parse_text(const char *text, ls_topo_t *topo, char *err, size_t errlen);

/* Fills topo->p2p_read (write = 0) or p2p_write (write = 1) from `topo -p2p r|w` text;
   the GPU count must match. 0 or -1 with err. */
int ls_topo_parse_p2p_text(const char *text, int write, ls_topo_t *topo, char *err, size_t errlen);

/* 1 when text looks like `nvidia-smi topo -m` output (for import's format detection). */
int ls_topo_text_detect(const char *text);

#endif
