/* Placeholder until the NVML backend lands: every call reports NVML as unavailable. */
#include "nvml.h"
#include "util/log.h"

int ls_nvml_open(char *err, size_t errlen) { return ls_seterr(err, errlen, "NVML backend not built yet"); }
void ls_nvml_close(void) {}
int ls_nvml_count(void) { return 0; }
int ls_nvml_index_by_bus_id(const char *pci_bus_id) { (void)pci_bus_id; return -1; }
int ls_nvml_live(int index, ls_nvml_live_t *out) { (void)index; (void)out; return -1; }
void ls_nvml_throttle_names(unsigned long long mask, json_t *array) { (void)mask; (void)array; }
int ls_nvml_is_throttling(unsigned long long mask) { (void)mask; return 0; }
int ls_nvml_nvlink_errors(int index, ls_nvlink_errors_t *out) { (void)index; (void)out; return -1; }
int ls_nvml_pcie_throughput(int index, double *tx, double *rx) { (void)index; (void)tx; (void)rx; return -1; }
int ls_nvml_nvlink_bytes(int index, unsigned long long *tx, unsigned long long *rx) { (void)index; (void)tx; (void)rx; return -1; }
int ls_nvml_describe(int index, json_t *gpu) { (void)index; (void)gpu; return -1; }
const char *ls_nvml_p2p_status(int a, int b, int write) { (void)a; (void)b; (void)write; return NULL; }
const char *ls_nvml_topology_word(int a, int b) { (void)a; (void)b; return NULL; }
int ls_nvml_driver_version(char *buf, size_t buflen) { (void)buf; (void)buflen; return -1; }
