/* nvidia-smi text that describes the GPUs rather than measuring them:
   - `nvidia-smi nvlink -s` (link speeds, "<inactive>") and `nvidia-smi nvlink -e`
     (replay, recovery and CRC error counters per link) into gpus[].nvlinks;
   - `nvidia-smi -q` (name, UUID, PCI bus id, PCIe generation and width, memory,
     driver and CUDA versions) into gpus[] and software. */
#ifndef LS_IMPORT_SMI_TEXT_H
#define LS_IMPORT_SMI_TEXT_H

#include <jansson.h>
#include <stddef.h>

/* 1 for nvidia-smi nvlink output: a "GPU N: NAME" line followed by "Link N: ..." lines. */
int ls_smi_nvlink_detect(const char *text);
/* 1 for nvidia-smi -q output: "NVSMI LOG", or "Product Name :" with a "GPU 0000..." line. */
int ls_smi_query_detect(const char *text);

/* Return the number of GPUs described, or -1 with err = "NAME: problem". */
int ls_import_smi_nvlink(json_t *doc, const char *text, const char *name, char *err, size_t errlen);
int ls_import_smi_query(json_t *doc, const char *text, const char *name, char *err, size_t errlen);

#endif
