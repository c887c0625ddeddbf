/* Plain `nvidia-smi` output (its default table) and nvidia-smi's failure texts
   (docs/import.md "nvidia-smi (default table)"): the banner (driver and CUDA versions),
   each GPU's rows into gpus[], the MIG devices and Processes tables, the lines nvidia-smi
   prints instead of a table when NVML fails, all of the file's facts in one top-level
   smi[] object. */
#ifndef LS_IMPORT_SMI_TABLE_H
#define LS_IMPORT_SMI_TABLE_H

#include <jansson.h>
#include <stddef.h>

/* 1 for the table (its banner, its column header, a GPU row of it, its MIG devices
   table) or one of nvidia-smi's failure lines. */
int ls_smi_table_detect(const char *text);

/* Adds what the text shows: gpus[], software.driver / cuda_driver, one smi[] object.
   Returns 0 (no measurement entry), or -1 with err when the text holds nothing read. */
int ls_import_smi_table(json_t *doc, const char *text, const char *name, char *err, size_t errlen);

/* ---- smi_table_lines.c: lines outside the GPU table ------------------------------- */

/* The failure line nvidia-smi printed instead of (or before) its table, appended to
   failures (the smi[] object's "failures"): 1 when line was one. Kinds: "no_driver"
   (NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver),
   "nvml_init" (Failed to initialize NVML: REASON), "no_library" (couldn't find
   libnvidia-ml.so), "no_devices" (No devices were found), "device_handle" (Unable to
   determine the device handle for GPU BUS: REASON, with bus_id, gpu where printed,
   reason). "NVML library version: V" sets smi's nvml_library_version. */
int ls_smi_failure_line(json_t *smi, const char *line);

/* Whether a line names one of the failures (for detection). */
int ls_smi_failure_text(const char *line);

/* One row of the Processes table (cells split off: the text between the outer bars),
   into the GPU's processes[]: {pid, type?, name, memory_bytes?, gi?, ci?}. has_type /
   has_gi: the table's header names those columns (drivers before ~418 print no Type,
   before ~450 no GI / CI). 1 when read. */
int ls_smi_process_row(json_t *doc, const char *cell, int has_type, int has_gi);

/* One first line of a MIG devices table row ("1  3  0  0", "14366MiB / 19968MiB", ...):
   appends {gpu, gi, ci, mig_dev, memory_used_bytes?, memory_total_bytes?} to list and
   marks the GPU's mig_mode "Enabled". 1 when read. */
int ls_smi_mig_row(json_t *doc, json_t *list, char cells[][256], int ncells);

/* "81559MiB" (or the "MB" drivers before 331 printed for the same MiB): bytes, or -1. */
long long ls_smi_mib_bytes(const char *tok);

#endif
