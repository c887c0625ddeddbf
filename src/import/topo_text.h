/* Reads saved `nvidia-smi topo -m` output (ANSI escapes, NIC rows and the NIC legend,
   NV# counts, tabs or spaces) and `nvidia-smi topo -p2p r|w` output into ls_topo_t. */
#ifndef LS_IMPORT_TOPO_TEXT_H
#define LS_IMPORT_TOPO_TEXT_H

#include <jansson.h>

#include "model/topo.h"
#include <stddef.h>

/* 0, or -1 with err = "line N: what was expected". The topo is fully overwritten.
   Also accepted: lines before the header (a shell prompt, "NVIDIA Topology:"), the header
   without its leading tab, SOC (older drivers) for SYS, NIC columns named like mlx5_0
   (older drivers; labelled NIC0.. with that name). */
int ls_topo_parse_text(const char *text, ls_topo_t *topo, char *err, size_t errlen);

/* The same for a pasted excerpt (import): a row cut short keeps its complete cells and
   ends the matrix, absent rows are allowed as long as one GPU row is whole (a GPU
   without a row keeps the links the other rows give it), and missing (a buffer of
   missinglen) says what was absent or cut ("" when nothing). */
int ls_topo_parse_text_partial(const char *text, ls_topo_t *topo, char *missing, size_t missinglen,
                               char *err, size_t errlen);

/* Fills topo->p2p_read (write = 0) or p2p_write (write = 1) from `topo -p2p r|w` text;
   the GPU count and labels must match the topology's. Sets has_p2p (the other matrix
   stays U where it was not read). 0 or -1 with err (topo unchanged). */
int ls_topo_parse_p2p_text(const char *text, int write, ls_topo_t *topo, char *err, size_t errlen);

/* 1 when text looks like `nvidia-smi topo -m` output (for import's format detection). */
int ls_topo_text_detect(const char *text);

/* 1 when text looks like `nvidia-smi topo -p2p r|w` output (a header of GPU labels, then
   rows of P2P status words). A one-GPU matrix satisfies both detectors. */
int ls_topo_p2p_text_detect(const char *text);

/* linkscope topo --from: FROM (nvidia-smi topo -m text, or a run document) into topo,
   then the P2P status of P2P_READ and P2P_WRITE (topo -p2p r and w text, NULL: none).
   Returns the document (a new one with the topology for text), or NULL with err = one
   line naming the file. */
json_t *ls_topo_load_files(const char *from, const char *p2p_read, const char *p2p_write,
                           ls_topo_t *topo, char *err, size_t errlen);

/* The GPUs a topo -p2p paste's header names ("GPU0 GPU1 ..."), their links unknown:
   for a P2P matrix pasted without its topo -m. -1 when there is no such header. */
int ls_topo_from_p2p_header(const char *text, ls_topo_t *topo);

#endif
