/* Theoretical peaks of the links and memories linkscope measures, from the facts NVML
   reports (clocks, bus width, PCIe generation and width, NVLink rate). Every figure is
   one direction, in GB/s = 1e9 bytes/s. docs/discovery.md gives the formulas. */
#ifndef LS_MODEL_THEORY_H
#define LS_MODEL_THEORY_H

/* Memory clock (MHz, as NVML reports it) x 2 (double data rate) x bus width / 8.
   0 when an input is unknown (0). */
double ls_hbm_theoretical_gbps(unsigned mem_mhz, unsigned bus_width_bits);

/* Per-lane rate of a PCIe generation in GT/s (Gen1 2.5 ... Gen6 64); 0 if unknown. */
double ls_pcie_lane_gts(int gen);

/* Line-encoding efficiency: 8b/10b for Gen1-2, 128b/130b for Gen3-5, FLIT for Gen6. */
double ls_pcie_encoding(int gen);

/* gen's lane rate x width x encoding / 8 bits; 0 if unknown. */
double ls_pcie_theoretical_gbps(int gen, int width);

/* NVLink generation (1..5) from the code nvmlDeviceGetNvLinkVersion returns
   (nvmlNvlinkVersion_t: 1 = 1.0, 2 = 2.0, 3 = 2.2, 4 = 3.0, 5 = 3.1, 6 = 4.0, 7 = 5.0);
   0 if unknown. H100/H200 report 6, NVLink 4. */
int ls_nvlink_generation(unsigned nvml_version);

/* Per-link, per-direction NVLink rate by NVLink generation (1..5) as nvidia-smi nvlink -s
   shows it, used only when NVML cannot report the link speed; 0 if unknown. */
double ls_nvlink_rate_by_version(unsigned generation);

#endif
