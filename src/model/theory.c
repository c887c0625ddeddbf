#include "theory.h"

double ls_hbm_theoretical_gbps(unsigned mem_mhz, unsigned bus_width_bits)
{
    /* HBM and GDDR transfer on both clock edges: NVML's memory clock x 2 is the data rate
       per pin in MT/s. H200: 3201 MHz x 2 x 6016 bit (NVML's width: 47 of 48 HBM3e channels)
       / 8 = 4814.3 GB/s (datasheet 4.8 TB/s);
       V100 PCIe: 877 MHz x 2 x 4096 / 8 = 898 GB/s (datasheet 900). */
    return (double)mem_mhz * 2.0 * (double)bus_width_bits / 8.0 / 1000.0;
}

double ls_pcie_lane_gts(int gen)
{
    /* PCI-SIG: each generation doubles the lane rate. */
    static const double gts[] = {0, 2.5, 5.0, 8.0, 16.0, 32.0, 64.0};
    if (gen < 1 || gen > 6)
        return 0;
    return gts[gen];
}

double ls_pcie_encoding(int gen)
{
    if (gen == 1 || gen == 2)
        return 8.0 / 10.0; /* 8b/10b line code: 20% overhead */
    if (gen >= 3 && gen <= 5)
        return 128.0 / 130.0; /* 128b/130b line code: ~1.5% overhead */
    if (gen == 6)
        return 242.0 / 256.0; /* 256-byte FLITs: 236 B TLP + 6 B DLP; 8 B CRC + 6 B FEC are
                                 the coding overhead (as 128b/130b's 2 bits for Gen3-5) */
    return 0;
}

double ls_pcie_theoretical_gbps(int gen, int width)
{
    if (width <= 0)
        return 0;
    /* GT/s per lane x lanes x encoding = Gb/s of payload; / 8 = GB/s. Gen5 x16: 63.0 GB/s. */
    return ls_pcie_lane_gts(gen) * (double)width * ls_pcie_encoding(gen) / 8.0;
}

int ls_nvlink_generation(unsigned nvml_version)
{
    static const int generation[] = {0, 1, 2, 2, 3, 3, 4, 5};
    if (nvml_version >= sizeof generation / sizeof generation[0])
        return 0;
    return generation[nvml_version];
}

double ls_nvlink_rate_by_version(unsigned generation)
{
    /* Per link, per direction, the signalling rate nvidia-smi nvlink -s reports:
       NVLink 1 (P100) 8 lanes x 20 Gb/s = 20 GB/s; NVLink 2 (V100) 8 x 25.78125 Gb/s =
       25.781 GB/s; NVLink 3 (A100) 4 x 50 Gb/s = 25 GB/s; NVLink 4 (H100/H200) 2 x
       106.25 Gb/s = 26.5625 GB/s (25 GB/s of data; 18 links: 478 GB/s); NVLink 5 (B200)
       2 x 212.5 Gb/s = 53.125 GB/s. */
    static const double rate[] = {0, 20.0, 25.78125, 25.0, 26.5625, 53.125};
    if (generation < 1 || generation > 5)
        return 0;
    return rate[generation];
}
