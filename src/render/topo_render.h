/* The topology as text: the `nvidia-smi topo -m` matrix (GPU and NIC rows and columns,
   CPU Affinity, NUMA Affinity and GPU NUMA ID columns, legend, NIC legend), then the P2P
   read and write status matrices with their legend; and the link matrix as CSV. */
#ifndef LS_RENDER_TOPO_RENDER_H
#define LS_RENDER_TOPO_RENDER_H

#include "model/topo.h"
#include <stdio.h>

/* Terminal report. color: 1 wraps link and status words in ANSI colours (NV green,
   PIX/PXB cyan, PHB yellow, NODE magenta, SYS red; OK green, U yellow, others red). */
void ls_topo_render_text(FILE *out, const ls_topo_t *topo, int color);

/* Only the link matrix with its legend and NIC legend. */
void ls_topo_render_matrix(FILE *out, const ls_topo_t *topo, int color);

/* One P2P status matrix (write = 0: read, 1: write), without legend. Prints nothing
   when the topology holds no known status for it. */
void ls_topo_render_p2p(FILE *out, const ls_topo_t *topo, int write, int color);

/* CSV: header "device,name,GPU0,..,NIC0,..,cpu_affinity,numa_affinity,gpu_numa_id", one
   row per device with the nvidia-smi word per cell; affinities empty for NICs. */
void ls_topo_render_csv(FILE *out, const ls_topo_t *topo);

/* The link between devices i and j, GPUs first then NICs (i, j < ngpus + nnics). */
ls_link_t ls_topo_device_link(const ls_topo_t *topo, int i, int j);

#endif
