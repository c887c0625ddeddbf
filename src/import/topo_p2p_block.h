/* `nvidia-smi topo -p2p r|w|...` output pasted in the same file as `topo -m`, under the
   matrix or on its own. The status matrix does not say which capability it shows;
   the command line pasted with it may ("nvidia-smi topo -p2p r"). */
#ifndef LS_IMPORT_TOPO_P2P_BLOCK_H
#define LS_IMPORT_TOPO_P2P_BLOCK_H

#include "model/topo.h"
#include <jansson.h>

/* 'r' or 'w' when the text names the capability ("topo -p2p r", "-p2p w"), else 0. */
int ls_topo_p2p_kind(const char *text);

/* When text holds a P2P status block named read or write: fills topo's p2p_read or
   p2p_write. Returns 1 when a block was read. */
int ls_import_topo_p2p_block(ls_topo_t *topo, const char *text);

/* When text holds P2P status blocks that name no capability of read or write: writes
   the words into doc's links[].p2p_status, every pasted command's block in turn (`-p2p n`,
   `-p2p p`, ...): an OK of any block wins; a word that blocks counts unless its block is
   NVLink's (n) or atomics' (a), which do not say the pair has no peer access at all. */
void ls_import_topo_p2p_unspecified(const ls_topo_t *topo, const char *text, json_t *doc);

#endif
