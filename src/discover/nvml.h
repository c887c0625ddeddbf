/* NVML, loaded with dlopen from the driver (libnvidia-ml.so.1). There is no nvml.h on
   the build machine: the few functions used are declared in nvml.c. Used by discovery
   (static facts) and by the telemetry sampler (live values). Indices here are NVML's;
   map from a CUDA device with ls_nvml_index_by_bus_id. */
#ifndef LS_DISCOVER_NVML_H
#define LS_DISCOVER_NVML_H

#include <jansson.h>
#include <stddef.h>

/* Loads and initializes NVML once (idempotent, thread-safe after the first call).
   0, or -1 with err saying why (no driver, no library, init failed). */
int ls_nvml_open(char *err, size_t errlen);
void ls_nvml_close(void);
int ls_nvml_count(void);

/* NVML index of the GPU at a PCI bus id ("00000000:00:06.0", any case, domain of 4 or 8
   digits), or -1. */
int ls_nvml_index_by_bus_id(const char *pci_bus_id);

/* Live values for telemetry. A field NVML cannot give is left at 0 / -1. */
typedef struct {
    unsigned sm_mhz, mem_mhz;         /* current clocks */
    unsigned sm_app_mhz, mem_app_mhz; /* application clocks */
    double power_w;
    int temp_c;
    unsigned long long throttle_mask; /* nvmlClocksEventReasons bits */
} ls_nvml_live_t;
/* NVML device index's readings now into out, which is cleared first (0 clocks, -1 power
   and temperature); -1 for an index NVML does not know (negative, past its count, NVML
   not loaded). */
int ls_nvml_live(int index, ls_nvml_live_t *out);

/* Appends the names of the reasons set in mask ("sw_power_cap", "hw_slowdown", ...),
   leaving out "gpu_idle" and "applications_clocks_setting", which are not throttling. */
void ls_nvml_throttle_names(unsigned long long mask, json_t *array);
/* 1 when mask holds a reason that lowers clocks (power, thermal, hw slowdown). */
int ls_nvml_is_throttling(unsigned long long mask);

/* NVLink error counters summed over the GPU's links (CRC flit, CRC data, replay,
   recovery). -1 when NVML has no NVLink for it. */
typedef struct {
    unsigned long long crc_flit, crc_data, replay, recovery;
} ls_nvlink_errors_t;
int ls_nvml_nvlink_errors(int index, ls_nvlink_errors_t *out);

/* PCIe throughput over NVML's last sampling window, GB/s each way; -1 if unavailable. */
int ls_nvml_pcie_throughput(int index, double *tx_gbps, double *rx_gbps);
/* Appends {pid, used_bytes?} for every compute process on the GPU other than self_pid;
   0, or -1 when NVML cannot say. */
int ls_nvml_compute_processes(int index, unsigned self_pid, json_t *list);

/* NVLink cumulative data counters in bytes (all links), for throughput by difference;
   -1 if unavailable. */
int ls_nvml_nvlink_bytes(int index, unsigned long long *tx_bytes, unsigned long long *rx_bytes);

/* The driver's recovery action for the GPU (model/recovery.h: 0 none, 1 GPU reset, 2 node
   reboot, 3 drain P2P, 4 drain and reset), NVML's field of drivers from 570. 0, or -1
   when NVML does not give it. */
int ls_nvml_recovery_action(int index, unsigned *code);

/* Fills one GPU object of the run document (docs/schema.md, gpus[]) with everything
   NVML knows about it. 0, or -1. */
int ls_nvml_describe(int index, json_t *gpu);

/* P2P status between two NVML devices in nvidia-smi's words ("OK", "CNS", ...);
   write = 1 for write status, 0 for read. NULL when unavailable. */
const char *ls_nvml_p2p_status(int a, int b, int write);

/* 1 when NVML says the pair can do P2P over NVLink, 0 when not, -1 when unknown. */
int ls_nvml_p2p_nvlink(int a, int b);

/* Common ancestor in the PCI tree as nvidia-smi's word ("PIX", "PXB", "PHB", "NODE",
   "SYS"), or NULL; NVLink is reported separately (ls_nvml_describe's nvlinks). */
const char *ls_nvml_topology_word(int a, int b);

/* Driver version string ("580.159.04"). */
int ls_nvml_driver_version(char *buf, size_t buflen);
/* CUDA version the driver supports ("13.0"). */
int ls_nvml_cuda_driver_version(char *buf, size_t buflen);

/* PCI bus id of an NVML device in the stored form ("00000000:00:06.0"), or NULL. */
const char *ls_nvml_bus_id(int index);

/* NVLink counts of one GPU: active links, active links whose far end is an NVSwitch, and
   active links straight to each other GPU (peer_links has LS_MAX_GPUS entries, indexed by
   NVML index). 0, or -1 when the GPU has no NVLink. */
int ls_nvml_nvlink_summary(int index, int *active, int *to_switch, int *peer_links);

#endif
