/* The machine's topology in the words of `nvidia-smi topo -m`: link type per GPU pair
   and GPU-NIC pair, CPU and NUMA affinity, and P2P read/write status per ordered pair.
   Filled by discovery or by parsing saved topo text; stored in the run document's
   "gpus", "links", "nics" and "gpu_nic_links". */
#ifndef LS_MODEL_TOPO_H
#define LS_MODEL_TOPO_H

#include <jansson.h>

#define LS_MAX_GPUS 64
#define LS_MAX_NICS 32

/* Ordered from nearest to farthest, as nvidia-smi's legend. */
enum ls_link_type {
    LS_LINK_NONE = 0, /* unknown / not recorded */
    LS_LINK_X,        /* self */
    LS_LINK_NV,       /* bonded set of NVLinks (count in nvlinks) */
    LS_LINK_PIX,      /* at most one PCIe bridge */
    LS_LINK_PXB,      /* several PCIe bridges, no host bridge */
    LS_LINK_PHB,      /* through a PCIe host bridge (CPU) */
    LS_LINK_NODE,     /* between host bridges within one NUMA node */
    LS_LINK_SYS       /* across the SMP interconnect between NUMA nodes */
};

/* nvidia-smi topo -p2p words. */
enum ls_p2p_status {
    LS_P2P_UNKNOWN = 0, /* "U" or not recorded */
    LS_P2P_SELF,        /* "X" */
    LS_P2P_OK,
    LS_P2P_CNS, /* chipset not supported */
    LS_P2P_GNS, /* GPU not supported */
    LS_P2P_TNS, /* topology not supported */
    LS_P2P_NS,  /* not supported */
    LS_P2P_DR   /* disabled by regkey (a driver registry key turned P2P off) */
};

typedef struct {
    enum ls_link_type type;
    int nvlinks; /* for LS_LINK_NV: number of bonded links (NV18 -> 18) */
} ls_link_t;

typedef struct {
    int ngpus, nnics;
    char gpu_label[LS_MAX_GPUS][16];     /* "GPU0" */
    char cpu_affinity[LS_MAX_GPUS][256]; /* "0-31", "" if unknown (long lists exist) */
    char numa_affinity[LS_MAX_GPUS][16]; /* "0", "N/A", "" */
    char gpu_numa_id[LS_MAX_GPUS][16];   /* nvidia-smi's "GPU NUMA ID": "N/A", "" */
    char nic_name[LS_MAX_NICS][32];      /* "mlx5_0" */
    char nic_label[LS_MAX_NICS][16];     /* "NIC0" */
    ls_link_t gpu_gpu[LS_MAX_GPUS][LS_MAX_GPUS];
    ls_link_t gpu_nic[LS_MAX_GPUS][LS_MAX_NICS];
    ls_link_t nic_nic[LS_MAX_NICS][LS_MAX_NICS];
    enum ls_p2p_status p2p_read[LS_MAX_GPUS][LS_MAX_GPUS];
    enum ls_p2p_status p2p_write[LS_MAX_GPUS][LS_MAX_GPUS];
    int has_p2p; /* P2P status matrices filled */
} ls_topo_t;

/* "NV18" -> {NV,18}; "PIX", "X", ... ; returns -1 for an unknown word. */
int ls_link_parse(const char *word, ls_link_t *link);
/* Writes "NV18", "PIX", "X" ("?" for none). */
void ls_link_format(ls_link_t link, char *buf, size_t buflen);
/* Class name without count: "NV", "PIX", ... */
const char *ls_link_class(enum ls_link_type type);

int ls_p2p_parse(const char *word, enum ls_p2p_status *status);
const char *ls_p2p_word(enum ls_p2p_status status);

/* Writes the topology into doc's "gpus" (index, label, cpu_affinity, numa_affinity,
   gpu_numa_id
   merged into existing GPU objects by index), "links", "nics" and "gpu_nic_links". */
void ls_topo_to_doc(const ls_topo_t *topo, json_t *doc);
/* Reads it back; returns 0, or -1 when the document has no topology. */
int ls_topo_from_doc(const json_t *doc, ls_topo_t *topo);

#endif
