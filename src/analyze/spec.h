/* What a GPU is sold as (data/gpu-datasheet.tsv, built into the binary) against what the
   document shows: the part identified from its NVML name, then its NVLinks, memory, PCIe
   link, power limit, SM count and measured HBM bandwidth held against the datasheet.
   docs/acceptance.md. */
#ifndef LS_ANALYZE_SPEC_H
#define LS_ANALYZE_SPEC_H

#include <jansson.h>
#include <stddef.h>

/* One datasheet row; numbers < 0 are unknown (an empty cell). */
typedef struct {
    char key[32];
    char names[256];      /* NVML names, ';'-separated */
    char form[16];        /* "SXM5", "PCIe", ... */
    char memory_type[16]; /* "HBM3", "GDDR6", ...; "" when not known */
    double memory_gb, memory_gbps, nvlink_gbps, power_w;
    int nvlink_gen, nvlinks, pcie_gen, pcie_width, sms, boost_mhz;
    int base_mhz;     /* NVIDIA's product brief base clock; < 0 where none was read */
    char pci_ids[64]; /* "0x2330", ';'-separated; "" when not known */
    char source[320];
} ls_spec_row_t;

typedef struct {
    ls_spec_row_t *rows;
    int n;
} ls_datasheet_t;

/* Parses the TSV text (header line, '#' comments). 0, or -1 with err naming the line. */
int ls_datasheet_parse(const char *text, ls_datasheet_t *ds, char *err, size_t errlen);
/* The datasheet built into the binary (0, or -1 with err). */
int ls_datasheet_builtin(ls_datasheet_t *ds, char *err, size_t errlen);
void ls_datasheet_free(ls_datasheet_t *ds);

/* The row whose NVML names include name exactly (case-insensitive), or NULL. */
const ls_spec_row_t *ls_datasheet_find(const ls_datasheet_t *ds, const char *name);

/* The row listing PCI device id ("0x2330", any case), or NULL. */
const ls_spec_row_t *ls_datasheet_find_pci(const ls_datasheet_t *ds, const char *device_id);

/* A run document's GPU object's row: by its NVML name, else by its PCI device id; NULL. */
const ls_spec_row_t *ls_datasheet_row_of(const ls_datasheet_t *ds, const json_t *gpu);

/* 1 when the part's memory is HBM (the datasheet's memory_type): there ECC costs no
   capacity or bandwidth (NVIDIA's P100 / V100 / A100 whitepapers: HBM2's native ECC "without
   a bandwidth or capacity penalty"; GDDR parts give up both for it, so ECC off there is a
   trade), so ECC off only hides memory errors. 0 for other or unknown memory. The one
   meaning of rule ecc_off, in linkscope plan and in linkscope health. */
int ls_part_ecc_free(const ls_spec_row_t *row);

/* Measured HBM below this share of the datasheet's bandwidth is a finding (calibrated in
   docs/acceptance.md: healthy parts measure 0.86-0.94 of it). */
#define LS_SPEC_HBM_SHARE 0.80

/* Appends the spec findings of every GPU to findings (rules spec_unknown, spec_identity,
   spec_nvlink, spec_memory, spec_pcie, spec_power, spec_sms, spec_hbm) and returns
   {"gpus": [{gpu, name, part, source, checks: [...]}]} for the report. */
json_t *ls_spec_check(const json_t *doc, const ls_datasheet_t *ds, json_t *findings);

/* Active NVLinks of a GPU: its nvlinks[], else its topology links (none of them NV: 0),
   else -1 (not recorded). */
int ls_spec_active_nvlinks(const json_t *doc, const json_t *gpu);

/* The spec findings of a document whose run made the spec step (it holds "spec"),
   against the built-in datasheet; nothing for other documents. */
void ls_spec_findings(const json_t *doc, json_t *findings);

#endif
