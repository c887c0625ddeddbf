/* The driver's GPU recovery action: what NVIDIA's driver itself says the GPU needs (NVML
   field NVML_FI_DEV_GET_GPU_RECOVERY_ACTION, drivers from 570; nvidia-smi -q's "GPU
   Recovery Action"; Xid 154's "GPU recovery action changed from 0x0 (None) to 0x1 (GPU
   Reset Required)"). One table read by linkscope health (live NVML, recorded states),
   plan's rule recovery_action (an imported -q) and the Xid 154 action (model/xid.c). */
#ifndef LS_MODEL_RECOVERY_H
#define LS_MODEL_RECOVERY_H

#include "xid.h"

typedef struct {
    unsigned code;         /* nvmlDeviceGpuRecoveryAction_t */
    const char *words;     /* as the driver prints it ("GPU Reset Required") */
    enum ls_action action; /* what a scheduler does with the node */
    const char *meaning;
} ls_recovery_t;

/* The row of NVML's code; NULL for a code linkscope does not know (a later driver's). */
const ls_recovery_t *ls_recovery_of_code(unsigned code);

/* The row the printed words name (any case: "None", "GPU Reset Required", "Node Reboot
   Required", "Drain P2P", "Drain and Reset"); NULL when they name none ("N/A", "Not
   Supported", a message). */
const ls_recovery_t *ls_recovery_of_words(const char *words);

/* 1 when the printed words say nothing of the GPU's state (empty, "None", "No", "N/A",
   "Not Supported", "Unknown Error", drivers from 570's deprecation notice in the GPU Reset
   Status section): plan's recovery_action and health's read such words as no ask. */
int ls_recovery_words_silent(const char *words);

/* Xid 154's text: the row of the action it changed TO ("... to 0x2 (Node Reboot
   Required)"), by its code, else its words; NULL when the text names none. */
const ls_recovery_t *ls_recovery_of_xid154(const char *text);

#endif
