/* NVML's pending memory repairs (memory_repair.h). */
#include "memory_repair.h"

/* NVML: "pending retirement and need a reboot to fully retire"; the driver sets the
   InfoROM's retired pages aside when it loads (NVIDIA, Dynamic Page Retirement) */
const ls_memory_repair_t ls_retire_pending = {
    .id = "retire_pending",
    .action = LS_ACT_REBOOT,
    .applied = "a reboot (or a reload of the driver) applies it, as NVML and the driver's "
               "Xid 63 say",
};

const ls_memory_repair_t ls_remap_pending = {
    .id = "remap_pending",
    .action = LS_ACT_RESET,
    .applied = "a GPU reset applies it",
};
