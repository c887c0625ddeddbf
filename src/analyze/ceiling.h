/* Hardware ceilings: the most a path can carry, from facts recorded in the run document
   (NVLink generation x active links x per-link rate, PCIe generation x width after line
   encoding and TLP overhead, HBM bus width x memory clock). Every figure is judged
   against its own ceiling ("% of peak"); where a fact is missing the ceiling is unknown
   (0), never guessed from a link class. docs/analysis.md gives the formulas. */
#ifndef LS_ANALYZE_CEILING_H
#define LS_ANALYZE_CEILING_H

#include <jansson.h>

#include "machine.h"
#include "model/families.h"
#include "spec.h"

/* Path types, each with its own calibrated fraction (rules.h). */
enum ls_path {
    LS_PATH_UNKNOWN = 0,
    LS_PATH_NVLINK,   /* GPU to GPU over NVLink */
    LS_PATH_PCIE,     /* GPU to GPU over PCIe, peer to peer */
    LS_PATH_STAGED,   /* GPU to GPU through host memory */
    LS_PATH_HOST,     /* host memory to or from a GPU, pinned */
    LS_PATH_PAGEABLE, /* host memory, pageable (CPU copies dominate: no rule) */
    LS_PATH_HBM,      /* device memory traffic */
    LS_PATH_NCCL,     /* a collective's bus bandwidth */
    LS_PATH_NCCL_HOST /* ... of a set with a pair through host memory (SHM): not judged */
};

typedef struct {
    double gbps; /* ceiling in the figure's own terms (bidir: both directions); 0 unknown */
    enum ls_path path;
    char basis[128]; /* how it was derived, e.g. "18 x NVLink 4 at 26.56 GB/s" */
} ls_ceiling_t;

/* PCIe payload efficiency of one transaction layer packet: 256-byte payload behind a
   24-byte overhead (16-byte 64-bit-address header, 4-byte LCRC, 2-byte sequence number,
   2-byte framing). */
#define LS_PCIE_TLP_PAYLOAD 256.0
#define LS_PCIE_TLP_OVERHEAD 24.0

/* One direction of GPU g's PCIe link after encoding and TLP overhead; 0 unknown. */
double ls_ceiling_pcie_gpu(const ls_machine_t *m, int g, char *basis, size_t len);
/* Per-link, per-direction NVLink rate of GPU g (its nvlinks[].gbps, else the rate of
   its recorded NVLink generation, else of its board's generation); 0 unknown. */
double ls_ceiling_nvlink_rate(const ls_machine_t *m, int g, int *generation);
/* One direction between GPUs a and b by their link (NV: the pair's links x rate; PCIe:
   the slower GPU's link). path set to NVLINK or PCIE; 0 unknown. */
double ls_ceiling_pair(const ls_machine_t *m, int a, int b, enum ls_path *path, char *basis,
                       size_t len);
/* The ceiling of one measurement entry (p2p, host, hbm, nccl); 0 when unknown or when
   the family has none (latency). Writes the path type and basis. */
double ls_ceiling_entry(const ls_machine_t *m, const json_t *e, ls_ceiling_t *c);
/* 1 for a family ls_ceiling_entry has a ceiling for (so that a walk of the entries skips
   the others, latency among them, by their views). */
int ls_ceiling_family(const ls_fam_t *fam);
/* The share of its ceiling a healthy path of that type reaches at least (rules.h's
   LS_CEILING_*, calibrated in docs/analysis.md); 0 where none is judged (pageable). The
   run's below_ceiling rule and health's probe (docs/health.md) both judge by it. */
double ls_ceiling_floor(enum ls_path path);
/* Name of a path type: "NVLink", "PCIe P2P", "staged", "host", "pageable", "HBM",
   "NCCL busbw", "NCCL busbw through host memory", "unknown". */
const char *ls_path_name(enum ls_path path);

/* GPU g's row of the built-in datasheet (by name, else PCI device id); NULL when the
   part is not in it. */
const ls_spec_row_t *ls_part_of(const ls_machine_t *m, int g);

#endif
